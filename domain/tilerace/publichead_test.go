package tilerace

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

// boardJSON is the public board of a 10-team race as the store hands it to
// the rules, with the first tile's label given.
func boardJSON(t testing.TB, label string, indent bool) []byte {
	t.Helper()
	w := race(t, 10)
	pb := publicBoard(w.g, w.board)
	if label != "" {
		require.NotNil(t, pb.Tiles[0].Content)
		pb.Tiles[0].Content.Task.Label = label
	}
	var raw []byte
	var err error
	if indent {
		raw, err = json.MarshalIndent(pb, "", "  ")
	} else {
		raw, err = json.Marshal(pb)
	}
	require.NoError(t, err)
	return raw
}

// readPublicHead is the head of the public board's JSON (publicHead.read).
func readPublicHead(raw []byte) (publicHead, error) {
	var h publicHead
	err := h.read(raw)
	return h, err
}

// sameHead fails unless readPublicHead reads raw as encoding/json does.
func sameHead(t *testing.T, raw []byte) publicHead {
	t.Helper()
	got, gotErr := readPublicHead(raw)
	var want publicHead
	wantErr := json.Unmarshal(raw, &want)
	if (gotErr == nil) != (wantErr == nil) {
		t.Fatalf("got error %v, want %v", gotErr, wantErr)
	}
	if wantErr != nil {
		return got
	}
	if got.RevealedUpTo != want.RevealedUpTo {
		t.Fatalf("got revealedUpTo %d, want %d", got.RevealedUpTo, want.RevealedUpTo)
	}
	if len(got.Tiles) != len(want.Tiles) || (got.Tiles == nil) != (want.Tiles == nil) {
		t.Fatalf("got %d tiles (nil %v), want %d (nil %v)", len(got.Tiles), got.Tiles == nil, len(want.Tiles), want.Tiles == nil)
	}
	for i := range want.Tiles {
		if !bytes.Equal(got.Tiles[i], want.Tiles[i]) {
			t.Fatalf("tile %d: got %s, want %s", i+1, got.Tiles[i], want.Tiles[i])
		}
	}
	return got
}

func TestReadPublicHead(t *testing.T) {
	for _, tc := range []struct {
		name string
		raw  []byte
		walk bool // read by the walk, not handed to encoding/json
	}{
		{"a race's board", boardJSON(t, "", false), true},
		{"a label full of JSON's own characters", boardJSON(t, "a \"quoted\" ]}{[, back\\slash \u2028 é ☃", false), true},
		{"indented", boardJSON(t, "x", true), true},
		{"no tiles", []byte(`{"fog":"enabled","revealedUpTo":0,"tiles":[]}`), true},
		{"tiles null", []byte(`{"revealedUpTo":3,"tiles":null}`), true},
		{"an empty object", []byte(`{}`), true},
		{"other values of every kind", []byte(`{"a":[1,{"b":"]}"}],"n":-2.5e3,"t":true,"z":null,"revealedUpTo":7,"tiles":[{"n":1},[2],"3",4]}`), true},
		{"a name in another case", []byte(`{"RevealedUpTo":4,"Tiles":[{"n":1}]}`), false},
		{"a name spelt with an escape", []byte(`{"revealedUp\u0054o":5}`), false},
		{"a number that is not whole", []byte(`{"revealedUpTo":1.5}`), false},
		{"not JSON", []byte(`{"revealedUpTo":1,"tiles":[{"n":1}`), false},
		{"not an object", []byte(`[1]`), false},
		{"trailing text", []byte(`{"revealedUpTo":1} x`), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, ok := splitPublicHead(tc.raw); ok != tc.walk {
				t.Fatalf("walked: got %v, want %v", ok, tc.walk)
			}
			sameHead(t, tc.raw)
		})
	}
	t.Run("the tile a completion decodes", func(t *testing.T) {
		h := sameHead(t, boardJSON(t, "a \"quoted\" ]} label", false))
		tile, ok := tileOfCompletion(h, 1)
		require.True(t, ok)
		require.Equal(t, "a \"quoted\" ]} label", tile.Task.Label)
	})
}

// FuzzReadPublicHead: on any text that is JSON, the walk reads what
// encoding/json reads.
func FuzzReadPublicHead(f *testing.F) {
	f.Add(boardJSON(f, "", false))
	for _, s := range []string{`{}`, `{"tiles":[[],{},"",0]}`, `{"revealedUpTo":-3,"x":"\"","tiles":null}`, `{"tiles":[{"a":"\\"}]}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if json.Valid(raw) {
			sameHead(t, raw)
		}
	})
}

// BenchmarkReadPublicHead is the public board's head as every completion
// reads it, against encoding/json.
func BenchmarkReadPublicHead(b *testing.B) {
	raw := boardJSON(b, "", false)
	b.SetBytes(int64(len(raw)))
	b.Run("walk", func(b *testing.B) {
		for b.Loop() {
			if _, err := readPublicHead(raw); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding/json", func(b *testing.B) {
		for b.Loop() {
			var h publicHead
			if err := json.Unmarshal(raw, &h); err != nil {
				b.Fatal(err)
			}
		}
	})
}
