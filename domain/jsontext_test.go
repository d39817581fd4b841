package domain_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
)

// TestSplitObject: an object's members as json.Unmarshal finds them, each
// value its own text; what it cannot split, it says so.
func TestSplitObject(t *testing.T) {
	for _, in := range []string{
		`{}`,
		` { "a" : 1 , "b":[1,{"c":"]}\""}] } `,
		`{"a":"x","a":"y"}`,
		`{"t":[{"n":1},"\\\\",null],"s":"a,b:c"}`,
	} {
		t.Run(in, func(t *testing.T) {
			var want map[string]json.RawMessage
			require.NoError(t, json.Unmarshal([]byte(in), &want))
			got, ok := domain.SplitObject([]byte(in))
			require.True(t, ok)
			require.Equal(t, len(want), len(got))
			for k, v := range want {
				require.Equal(t, string(v), string(got[k]), "member %s", k)
			}
		})
	}
	for _, in := range []string{`[1]`, `{"a":1`, `{"a"}`, `{"a":}`, `{"a\"b":1}`, `{"a":"x}`, `{"a":1,}`, `{a:1}`, ``} {
		t.Run("not split: "+in, func(t *testing.T) {
			_, ok := domain.SplitObject([]byte(in))
			require.False(t, ok)
		})
	}
}
