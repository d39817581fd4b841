package store_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/pig"
	"github.com/meeple-games/meeple/store"
)

// TestGameStateIsPacked: the game document's state is one field, its JSON
// text (deflated bytes from store's packMin on: storedText), listed in
// "packed"; every reader gets the state back; a game
// document written before the state was packed (a map, no list) still plays,
// and its next write packs it.
func TestGameStateIsPacked(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	id := f.game(t, map[string]any{"target": 100})
	_, err := f.run(t, ann, id, "r1", "roll", nil)
	require.NoError(t, err)

	ref := f.st.FS.Collection("games").Doc(id)
	stored := func() map[string]any {
		t.Helper()
		snap, err := ref.Get(ctx)
		require.NoError(t, err)
		return snap.Data()
	}
	raw := stored()
	text := storedText(t, raw["state"])
	require.Equal(t, []any{"state"}, raw[domain.PackedField])
	var fromText pig.Game
	require.NoError(t, json.Unmarshal([]byte(text), &fromText))
	got, version := state(t, f, id)
	require.Equal(t, fromText, got, "GameState reads the packed state")
	require.Equal(t, int64(2), version)

	doc, err := f.st.GameDoc(ctx, id)
	require.NoError(t, err)
	require.NotContains(t, doc, domain.PackedField, "GameDoc returns the document unpacked")
	st := doc["state"].(map[string]any)
	require.Equal(t, int64(100), st["target"], "whole numbers as Firestore holds them")
	require.Equal(t, []any{"p-ann", "p-bob"}, st["players"])

	// The same game as an older release stored it: the state a map.
	old := map[string]any{}
	for k, v := range raw {
		old[k] = v
	}
	delete(old, domain.PackedField)
	old["state"] = st
	_, err = ref.Set(ctx, old)
	require.NoError(t, err)
	got, _ = state(t, f, id)
	require.Equal(t, fromText, got, "an unpacked state reads as it is")
	cur := got.Players[got.Current]
	who := ann
	if cur == bob.ID {
		who = bob
	}
	_, err = f.run(t, who, id, "r2", "roll", nil)
	require.NoError(t, err, "an action on a document written before packing")
	raw = stored()
	storedText(t, raw["state"]) // its write packs the state
	require.Equal(t, []any{"state"}, raw[domain.PackedField])
	after, v := state(t, f, id)
	require.Equal(t, int64(3), v, "one step more")
	require.NotEqual(t, got, after, "the roll applied to the state read")
	require.Equal(t, got.Scores, after.Scores, "no turn banked")
}

// storedText is the JSON text of a packed field as stored: a string's, or
// the bytes' it deflated (of 256 bytes or more: longer text is never kept
// as a string).
func storedText(t *testing.T, v any) string {
	t.Helper()
	switch x := v.(type) {
	case string:
		require.Less(t, len(x), 256, "text this long is stored deflated")
		return x
	case []byte:
		doc, err := store.Unpacked(map[string]any{"f": x, domain.PackedField: []any{"f"}})
		require.NoError(t, err)
		b, err := json.Marshal(doc["f"])
		require.NoError(t, err)
		require.GreaterOrEqual(t, len(b), 200, "short text stays a string")
		return string(b)
	}
	t.Fatalf("a packed field is a string or bytes, got %T", v)
	return ""
}

// TestUnpacked: the packed fields come back as Firestore fields would be.
func TestUnpacked(t *testing.T) {
	tests := []struct {
		name string
		in   map[string]any
		want map[string]any
	}{
		{"no list", map[string]any{"a": "x"}, map[string]any{"a": "x"}},
		{"packed", map[string]any{"state": `{"n":3,"f":1.5,"l":[1,"a"],"m":{"k":true}}`, "v": int64(1), domain.PackedField: []any{"state"}},
			map[string]any{"state": map[string]any{"n": int64(3), "f": 1.5, "l": []any{int64(1), "a"}, "m": map[string]any{"k": true}}, "v": int64(1)}},
		{"listed but absent", map[string]any{domain.PackedField: []any{"state"}}, map[string]any{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := store.Unpacked(tc.in)
			require.NoError(t, err)
			require.Equal(t, tc.want, got)
		})
	}
	_, err := store.Unpacked(map[string]any{"state": "{not json", domain.PackedField: []any{"state"}})
	require.Error(t, err)
}
