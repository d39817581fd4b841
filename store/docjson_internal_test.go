package store

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/meeple-games/meeple/domain"
)

// boardDoc is a stored document like a Tile Race public board: n tiles as
// packed JSON text beside a few plain fields.
func boardDoc(n int) map[string]any {
	tiles := make([]map[string]any, n)
	for i := range tiles {
		tiles[i] = map[string]any{"n": i + 1, "col": i % 7, "row": i / 7, "span": 1, "revealed": i < n/2,
			"content": map[string]any{"label": fmt.Sprint("easy ", i), "difficulty": 1, "min": 1, "max": 1, "points": 100, "mods": map[string]any{}}}
	}
	text, _ := json.Marshal(tiles)
	return map[string]any{"fog": "enabled", "revealedUpTo": int64(n / 2), "tiles": string(text),
		"packed": []any{"tiles"}, "updatedAt": time.Date(2026, 11, 27, 0, 0, 0, 0, time.UTC)}
}

// BenchmarkDocJSON is the JSON a game decodes from a stored document with a
// packed field: what every read of a game document or a Tile Race board
// pays.
func BenchmarkDocJSON(b *testing.B) {
	for _, n := range []int{8, 56} {
		d := boardDoc(n)
		j, err := docJSON(d)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprint(n, " tiles"), func(b *testing.B) {
			b.SetBytes(int64(len(j)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := docJSON(d); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestDocJSON: the JSON a game decodes is the document's fields with the
// packed ones parsed, whatever else the document holds.
func TestDocJSON(t *testing.T) {
	at := time.Date(2026, 11, 27, 10, 0, 0, 5, time.UTC)
	for _, tc := range []struct {
		name string
		doc  map[string]any
		want string
	}{
		{"no packed fields", map[string]any{"a": int64(1), "at": at}, `{"a":1,"at":"2026-11-27T10:00:00.000000005Z"}`},
		{"a packed field and others", map[string]any{"state": `{"b":[1,2]}`, "packed": []any{"state"}, "version": int64(3)}, `{"state":{"b":[1,2]},"version":3}`},
		{"a packed field alone", map[string]any{"state": `[1]`, "packed": []string{"state"}}, `{"state":[1]}`},
		{"a packed field deflated", map[string]any{"state": deflated(t, `{"b":[1,2],"c":"x"}`), "packed": []any{"state"}, "version": int64(3)}, `{"state":{"b":[1,2],"c":"x"},"version":3}`},
		{"two packed fields", map[string]any{"z": `"x"`, "a": `{}`, "packed": []any{"z", "a"}, "m": map[string]any{"k": at}}, `{"a":{},"m":{"k":"2026-11-27T10:00:00.000000005Z"},"z":"x"}`},
		{"a listed field that is absent or not text", map[string]any{"tiles": map[string]any{"n": int64(1)}, "packed": []any{"tiles", "gone"}}, `{"tiles":{"n":1}}`},
		{"a board", boardDoc(3), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := docJSON(tc.doc)
			if err != nil {
				t.Fatal(err)
			}
			if !json.Valid(got) {
				t.Fatalf("got %s: not JSON", got)
			}
			want := tc.want
			if want == "" {
				u, err := unpacked(tc.doc)
				if err != nil {
					t.Fatal(err)
				}
				w, err := json.Marshal(jsonable(u)) // the packed text checked and parsed
				if err != nil {
					t.Fatal(err)
				}
				want = string(w)
			}
			if !sameJSON(got, json.RawMessage(want)) {
				t.Fatalf("got %s, want %s", got, want)
			}
		})
	}
}

// deflated is text as a packed field of packMin bytes or more is stored.
func deflated(t *testing.T, text string) []byte {
	t.Helper()
	b, err := deflate([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// benchTile is a board tile as a game's type has it.
type benchTile struct {
	N        int  `json:"n"`
	Col      int  `json:"col"`
	Row      int  `json:"row"`
	Span     int  `json:"span"`
	Revealed bool `json:"revealed"`
	Content  struct {
		Label      string         `json:"label"`
		Difficulty int            `json:"difficulty"`
		Min        int            `json:"min"`
		Max        int            `json:"max"`
		Points     int            `json:"points"`
		Mods       map[string]int `json:"mods"`
	} `json:"content"`
}

// BenchmarkDocFields is a Tile Race board's stored fields, its tiles packed:
// what a write of the board (the fog lifting, an undo) pays.
func BenchmarkDocFields(b *testing.B) {
	var v struct {
		Fog          string      `json:"fog"`
		RevealedUpTo int         `json:"revealedUpTo"`
		Tiles        []benchTile `json:"tiles"`
	}
	d := boardDoc(56)
	v.Fog, v.RevealedUpTo = "enabled", 28
	if err := json.Unmarshal([]byte(d["tiles"].(string)), &v.Tiles); err != nil {
		b.Fatal(err)
	}
	now := time.Now()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := docFields(v, now, []string{"tiles"}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestHeadOfFields: a game document's header from its fields is the one
// its JSON decodes to; fields of another type leave it to the JSON.
func TestHeadOfFields(t *testing.T) {
	for _, tc := range []struct {
		name       string
		doc        map[string]any
		leftToJSON bool
	}{
		{"a game", map[string]any{"kind": "dashdice", "status": "active", "version": int64(12), "private": true, "seedHash": "ab",
			"state": `{"x":1}`, "packed": []any{"state"}, "players": []any{"p1"}}, false},
		{"fields left out", map[string]any{"kind": "pig", "version": int64(0)}, false},
		{"a version of another type", map[string]any{"kind": "pig", "version": 1.5}, true},
		{"a kind of another type", map[string]any{"kind": int64(1)}, true},
		{"private of another type", map[string]any{"kind": "pig", "private": "yes"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := headOfFields(tc.doc)
			if tc.leftToJSON {
				if got != nil {
					t.Fatalf("got %+v, want nil", *got)
				}
				return
			}
			raw, err := docJSON(tc.doc)
			if err != nil {
				t.Fatal(err)
			}
			var want domain.GameDoc[json.RawMessage]
			if err := json.Unmarshal(raw, &want); err != nil {
				t.Fatal(err)
			}
			want.State = nil
			if got == nil || !reflect.DeepEqual(*got, want) {
				t.Fatalf("got %+v, want %+v", got, want)
			}
		})
	}
}
