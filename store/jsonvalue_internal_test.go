package store

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestFirestoreValue: the one-pass parser gives what encoding/json gives,
// and hands it what it does not parse.
func TestFirestoreValue(t *testing.T) {
	for _, tc := range []struct {
		name   string
		text   string
		parsed bool // by the parser, not encoding/json
	}{
		{"an object of every kind", `{"a":1,"b":-2.5,"c":"x","d":true,"e":false,"f":null,"g":[1,"2",[3],{}],"h":{"i":{"j":[]}}}`, true},
		{"numbers", `[0,-0,7,-7,1.5,1e21,1E2,2.5e-3,9223372036854775807,9223372036854775808,-9223372036854775809]`, true},
		{"a number past a float's range", `[1e400]`, false},
		{"strings with escapes", `["a\"b","back\\slash","\n\t","\u00e9","\u003ctag\u003e \u0026","\ud83d\ude00","é ☃ 😀"]`, true},
		{"keys with escapes", `{"k\"ey":1,"\u00e9":2}`, true},
		{"a repeated key: the last", `{"a":1,"a":2}`, true},
		{"empty", `{}`, true},
		{"a bare value", `"x"`, true},
		{"white space", `{ "a" : [ 1 , 2 ] }`, false},
		{"trailing white space", "{\"a\":1}\n", false},
		{"invalid UTF-8", "\"a\xffb\"", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := valueParser{b: []byte(tc.text)}
			_, ok := p.value()
			if got := ok && p.i == len(p.b); got != tc.parsed {
				t.Fatalf("parsed: got %v, want %v", got, tc.parsed)
			}
			sameValue(t, []byte(tc.text))
		})
	}
	t.Run("a document as toFirestore makes it", func(t *testing.T) {
		v := map[string]any{"n": 3, "f": 0.25, "s": "a<b>&c", "l": []string{"x"}, "m": map[string]int{"k": 1}}
		got, err := toFirestore(v)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]any{"n": int64(3), "f": 0.25, "s": "a<b>&c", "l": []any{"x"}, "m": map[string]any{"k": int64(1)}}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("got %#v, want %#v", got, want)
		}
	})
}

// sameValue fails unless firestoreValue reads text as encoding/json does.
func sameValue(t *testing.T, text []byte) {
	t.Helper()
	got, gotErr := firestoreValue(text)
	want, wantErr := decodeValue(text)
	if (gotErr == nil) != (wantErr == nil) {
		t.Fatalf("%s: got error %v, want %v", text, gotErr, wantErr)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s: got %#v, want %#v", text, got, want)
	}
}

// FuzzFirestoreValue: on any JSON text, the parser reads what encoding/json
// reads.
func FuzzFirestoreValue(f *testing.F) {
	for _, s := range []string{`{"a":[1,2.5,"x",true,null,{}]}`, `"\u00e9\n"`, `-12e3`, `[[],{"":""}]`, `9223372036854775808`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, text []byte) {
		if json.Valid(text) {
			sameValue(t, text)
		}
	})
}

// BenchmarkFirestoreValue is an event record's events as a write stores
// them, against encoding/json.
func BenchmarkFirestoreValue(b *testing.B) {
	text := []byte(`[{"data":{"label":"hard 57","max":1,"min":1,"players":["Cap1"],"points":300,"recorded":1,"team":"t-40138775c8","teamName":"Team 1","tile":5},"player":"t-40138775c8","text":"Team 1 recorded 1 completion on tile 5","type":"completionsRecorded"},{"data":{"key":"t-40138775c8-1","player":"Cap1","points":300,"team":"t-40138775c8","teamName":"Team 1","tile":5},"player":"t-40138775c8","text":"Cap1 (Team 1) earned 3.00 pts on tile 5","type":"pointsAwarded"},{"data":{"label":"hard 57","players":["Cap1"],"points":300,"position":6,"team":"t-40138775c8","teamName":"Team 1","tile":5},"player":"t-40138775c8","text":"Team 1 completed tile 5","type":"tileCompleted"}]`)
	b.SetBytes(int64(len(text)))
	b.Run("one pass", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := firestoreValue(text); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding/json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := decodeValue(text); err != nil {
				b.Fatal(err)
			}
		}
	})
}
