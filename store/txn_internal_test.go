package store

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestTxNeeds: an action starts in a transaction only while most of its
// runs needed one; a rare run that needs one (a CodeBowl move that kills a
// player) leaves the others batched.
func TestTxNeeds(t *testing.T) {
	tests := []struct {
		name string
		runs []bool // whether each run needed a transaction
		want bool   // whether the next starts in one
	}{
		{"none yet", nil, false},
		{"the first needed one", []bool{true}, true},
		{"one in a hundred", append([]bool{true}, make([]bool, 99)...), false},
		{"a rare one first, then batches", []bool{true, false, false}, false},
		{"half", []bool{true, false}, false},
		{"most", []bool{true, true, false}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var n share
			for _, r := range tc.runs {
				n.note(r)
			}
			require.Equal(t, tc.want, n.mostly())
		})
	}
	t.Run("the counts follow a change", func(t *testing.T) {
		var n share
		for range 900 {
			n.note(true)
		}
		require.True(t, n.mostly())
		for range 2000 {
			n.note(false)
		}
		require.False(t, n.mostly(), "after many runs that needed none")
		require.LessOrEqual(t, n.runs.Load(), int64(1001), "halved")
	})
}
