package store

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
)

// TestPackedFields: a slot's packed fields are stored as one value each
// (their JSON text; deflated bytes from packMin bytes on) and listed; every reader gets the value back as the type had it; a field the
// value left out is not listed; a type may not have the list's name.
func TestPackedFields(t *testing.T) {
	type tile = packedTile
	type board struct {
		Tiles []tile `json:"tiles,omitempty"`
		Fog   string `json:"fog"`
		Up    int    `json:"up"`
	}
	now := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name       string
		value      board
		packed     []string
		wantFields int // fields of the stored document, updatedAt included
		wantList   []any
	}{
		{"packed", board{Tiles: []tile{{N: 1, Label: "a", Mods: map[string]int{"x": 2}}, {N: 2}}, Fog: "on", Up: 1}, []string{"tiles"}, 5, []any{"tiles"}},
		{"packed and deflated", board{Tiles: manyTiles(56), Fog: "on", Up: 3}, []string{"tiles"}, 5, []any{"tiles"}},
		{"not packed", board{Tiles: []tile{{N: 1}}, Fog: "on"}, nil, 4, nil},
		{"packed but left out", board{Fog: "off"}, []string{"tiles"}, 3, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			doc, err := docFields(tc.value, now, tc.packed)
			require.NoError(t, err)
			require.Len(t, doc, tc.wantFields)
			if tc.wantList == nil {
				require.NotContains(t, doc, domain.PackedField)
			} else {
				require.Equal(t, tc.wantList, doc[domain.PackedField])
				want, err := json.Marshal(tc.value.Tiles)
				require.NoError(t, err)
				if len(want) < packMin {
					require.Equal(t, string(want), doc["tiles"], "its JSON text, compact, as one string")
				} else {
					b, ok := doc["tiles"].([]byte)
					require.True(t, ok, "from packMin bytes on, deflated: got %T", doc["tiles"])
					require.Less(t, len(b), len(want)/3, "deflated: %d bytes of %d", len(b), len(want))
					text, err := inflate(b)
					require.NoError(t, err)
					require.Equal(t, string(want), string(text), "its JSON text, compact")
				}
				require.Equal(t, int64(tc.value.Up), doc["up"], "the other fields are Firestore values: whole numbers int64")
			}
			var got board
			require.NoError(t, DecodeDoc(doc, &got))
			require.Equal(t, tc.value, got)
			raw, err := docJSON(doc)
			require.NoError(t, err)
			var m map[string]any
			require.NoError(t, json.Unmarshal(raw, &m))
			require.NotContains(t, m, domain.PackedField, "readers never see the list")
		})
	}
	t.Run("a deflated field that does not inflate", func(t *testing.T) {
		doc := map[string]any{"tiles": []byte("not deflated at all"), domain.PackedField: []any{"tiles"}}
		_, err := docJSON(doc)
		require.ErrorContains(t, err, `packed field "tiles"`)
		_, err = Unpacked(doc)
		require.ErrorContains(t, err, `packed field "tiles"`)
	})
	t.Run("a value that is not an object", func(t *testing.T) {
		for _, packed := range [][]string{nil, {"tiles"}} {
			_, err := docFields([]int{1}, now, packed)
			require.ErrorContains(t, err, "JSON object")
			_, err = docFields((*board)(nil), now, packed)
			require.ErrorContains(t, err, "JSON object")
		}
	})
	t.Run("a type may not use the list's name", func(t *testing.T) {
		_, err := docFields(map[string]any{"packed": 1, "tiles": []int{1}}, now, []string{"tiles"})
		require.ErrorContains(t, err, `"packed"`)
	})
}

// packedTile is a board tile as a game's type has it.
type packedTile struct {
	N     int            `json:"n"`
	Label string         `json:"label,omitempty"`
	Mods  map[string]int `json:"mods,omitempty"`
}

// manyTiles is n tiles of a board, their JSON well over packMin bytes.
func manyTiles(n int) []packedTile {
	out := make([]packedTile, n)
	for i := range out {
		out[i].N, out[i].Label = i+1, fmt.Sprintf("tile %d: run a lap", i+1)
	}
	return out
}

// TestPackText: with PackText (an upgrade's first step) a packed field is
// written as its text whatever its size, and read back the same; a field
// written deflated still reads.
func TestPackText(t *testing.T) {
	type board struct {
		Tiles []packedTile `json:"tiles"`
	}
	v := board{Tiles: manyTiles(56)}
	deflated, err := docFields(v, time.Now(), []string{"tiles"})
	require.NoError(t, err)
	require.IsType(t, []byte{}, deflated["tiles"])

	PackText = true
	defer func() { PackText = false }()
	doc, err := docFields(v, time.Now(), []string{"tiles"})
	require.NoError(t, err)
	want, err := json.Marshal(v.Tiles)
	require.NoError(t, err)
	require.Equal(t, string(want), doc["tiles"], "the text, as releases before deflating wrote it")
	for _, d := range []map[string]any{doc, deflated} {
		var got board
		require.NoError(t, DecodeDoc(d, &got))
		require.Equal(t, v, got)
	}
}
