package store

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestJSONFields: the fields a write of a journal document it did not read
// deletes when its value leaves them out (writeDoc): a slot type's JSON
// names, omitempty ones too, embedded structs' flattened, the platform's
// "packed".
func TestJSONFields(t *testing.T) {
	type inner struct {
		Deep int `json:"deep"`
	}
	type doc struct {
		inner
		Round  int      `json:"round"`
		Troops []string `json:"troops,omitempty"`
		Skip   string   `json:"-"`
		Plain  bool
		hidden int
	}
	tests := []struct {
		name string
		v    any
		want []string
	}{
		{"struct", doc{}, []string{"deep", "round", "troops", "Plain", "packed"}},
		{"pointer", &doc{}, []string{"deep", "round", "troops", "Plain", "packed"}},
		{"not a struct", map[string]any{"a": 1}, nil},
		{"nil", nil, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := jsonFields(tc.v)
			require.Equal(t, tc.want, got)
		})
	}
	_ = doc{hidden: 1}.hidden
}
