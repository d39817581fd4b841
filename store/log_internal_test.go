package store

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestLogUpdateBudget: the log keeps what is not in the history and the
// action's own steps, and of the latest LogKeep only what fits in DocBudget,
// newest first, counting each step's JSON (large steps, as a 12-player Party
// Board's, once took the game document to 16.6 KB).
func TestLogUpdateBudget(t *testing.T) {
	step := func(seq int64, bytes int) logStep {
		ev, _ := json.Marshal([]map[string]string{{"type": "x", "data": strings.Repeat("a", bytes)}})
		return logStep{Seq: seq, Type: "roll", Actor: map[string]any{"id": "p"}, Events: ev}
	}
	size := func(log []logStep) int {
		n := 0
		for _, s := range log {
			n += stepSize(s)
		}
		return n
	}
	const rest = 6000
	tests := []struct {
		name      string
		flushed   []logStep // in the log, already in the history
		next      logStep   // the action's step
		wantBatch bool
	}{
		{"small steps: the last LogKeep stay", []logStep{step(1, 100), step(2, 100), step(3, 100), step(4, 100), step(5, 100), step(6, 100)}, step(7, 100), false},
		{"large flushed steps: only those that fit", []logStep{step(1, 1800), step(2, 1800), step(3, 1800), step(4, 1800), step(5, 1800)}, step(6, 1800), true},
		{"an action's own step larger than the room stays", []logStep{step(1, 1800)}, step(2, 9000), true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pl := platformLog{Log: tc.flushed, Flushed: tc.flushed[len(tc.flushed)-1].Seq}
			log, _, batch := logUpdate(pl, []logStep{tc.next}, false, rest)
			require.Equal(t, tc.wantBatch, batch != nil, "batch")
			require.Equal(t, tc.next.Seq, log[len(log)-1].Seq, "the action's own step is kept")
			require.LessOrEqual(t, len(log), LogKeep)
			if stepSize(tc.next) <= DocBudget-rest {
				require.LessOrEqual(t, rest+size(log), DocBudget, "within the budget")
			}
			for i := 1; i < len(log); i++ {
				require.Less(t, log[i-1].Seq, log[i].Seq, "in order")
			}
			if tc.name == "small steps: the last LogKeep stay" {
				require.Len(t, log, LogKeep, "the last 6 steps, the new one among them")
			}
			if tc.name == "large flushed steps: only those that fit" {
				require.Less(t, len(log), LogKeep, "some of the last 6 dropped")
				require.Greater(t, len(log), 1, "the newest flushed ones kept")
			}
		})
	}
}

// testLogDoc is a game document's JSON whose log holds n steps of a
// DashDice-sized event each, as firestoreLog stores them.
func testLogDoc(t testing.TB, n int) json.RawMessage {
	t.Helper()
	var steps []logStep
	for i := 1; i <= n; i++ {
		ev, _ := json.Marshal([]map[string]any{{"type": "rolled", "player": "p-ann", "data": map[string]any{"dice": []int{3, 5}, "score": i, "words": "Ann rolled 3 and 5"}}})
		steps = append(steps, logStep{Seq: int64(i), Type: "roll", ActionID: "a" + strings.Repeat("x", i%5), Actor: map[string]any{"id": "p-ann", "name": "Ann", "role": "guest"}, Events: ev, P: `{"hold":[1]}`})
	}
	log, err := firestoreLog(steps)
	require.NoError(t, err)
	doc, err := json.Marshal(map[string]any{"state": map[string]any{"turn": 3}, fLog: log, fLogFlushed: n - 4, fActs: "[]"})
	require.NoError(t, err)
	return doc
}

// A log read back keeps each step's stored JSON (logStep.raw) and decodes
// only its seq and rec, the rest when asked (full): its size is the length
// of what it was stored as, and the log written again from it is the same
// text as the steps decoded whole and encoded anew.
func TestLogKeepsItsStepsJSON(t *testing.T) {
	pl := logOf(testLogDoc(t, 32))
	require.Len(t, pl.Log, 32)
	fresh := make([]logStep, len(pl.Log))
	for i, s := range pl.Log {
		require.NotNil(t, s.raw, "step %d keeps its JSON", i)
		f, err := s.full()
		require.NoError(t, err)
		require.Equal(t, s.Seq, f.Seq)
		require.NotEmpty(t, f.Events, "step %d decodes whole", i)
		b, err := json.Marshal(f)
		require.NoError(t, err)
		require.Equal(t, len(b), stepSize(s), "step %d: its size is its JSON's", i)
		f.raw = nil
		fresh[i] = f
	}
	got, err := firestoreLog(pl.Log)
	require.NoError(t, err)
	want, err := firestoreLog(fresh)
	require.NoError(t, err)
	require.Equal(t, want, got, "the log written again is the steps encoded anew")
	require.True(t, json.Valid([]byte(got)))
}

// BenchmarkLogRoundTrip is what every action of a one-document game does
// with the game document's log: decode it, add its step, fit the budget and
// encode the log again.
func BenchmarkLogRoundTrip(b *testing.B) {
	doc := testLogDoc(b, 32)
	ev, _ := json.Marshal([]map[string]any{{"type": "rolled", "player": "p-ann"}})
	next := []logStep{{Seq: 33, Type: "roll", Actor: map[string]any{"id": "p-ann"}, Events: ev}}
	b.ReportAllocs()
	for b.Loop() {
		pl := logOf(doc)
		log, _, _ := logUpdate(pl, next, false, 6000)
		if _, err := firestoreLog(log); err != nil {
			b.Fatal(err)
		}
	}
}

// The log fields are taken out of the game document as read (splitLog) and
// decoded from Firestore's values: as the JSON strings they are stored as,
// and as the arrays a document written before holds, the same as from the
// document's JSON (logOf).
func TestLogOfFields(t *testing.T) {
	doc := testLogDoc(t, 8)
	want := logOf(doc)
	seqs := func(pl platformLog) []int64 {
		var out []int64
		for _, s := range pl.Log {
			out = append(out, s.Seq)
		}
		return out
	}
	var fields map[string]any
	require.NoError(t, json.Unmarshal(doc, &fields))
	fields[fLogFlushed] = int64(4) // as Firestore gives a whole number
	data := map[string]any{"state": fields["state"], fLog: fields[fLog], fActs: fields[fActs], fLogFlushed: fields[fLogFlushed]}
	split := splitLog(data)
	require.Equal(t, map[string]any{"state": fields["state"]}, data, "the game's fields keep no log field")

	got := logOfFields(split)
	require.Equal(t, seqs(want), seqs(got), "from the strings")
	require.Equal(t, want.Flushed, got.Flushed)
	require.Len(t, got.Log, 8)

	var steps []any
	require.NoError(t, json.Unmarshal([]byte(split[fLog].(string)), &steps))
	legacy := logOfFields(map[string]any{fLog: steps, fActs: []any{map[string]any{"k": "key", "h": "hash", "v": int64(3)}}, fLogFlushed: int64(4)})
	require.Equal(t, seqs(want), seqs(legacy), "from arrays")
	require.Equal(t, []actEntry{{Key: "key", Hash: "hash", Version: 3}}, legacy.Acts)
	f, err := legacy.Log[0].full()
	require.NoError(t, err)
	require.Equal(t, "roll", f.Type)

	require.Empty(t, logOfFields(map[string]any{}).Log, "a game document without a log")
}

// TestStepHead: a logged step's seq and rec read from its text are what
// decoding it gives, whatever its events hold (a nested "rec" key, a "p"
// with quotes) and whatever order an older encoder gave its fields.
func TestStepHead(t *testing.T) {
	ev := func(v any) json.RawMessage { b, _ := json.Marshal(v); return b }
	tests := []struct {
		name string
		step string
	}{
		{"plain", encodedStep(t, logStep{Seq: 7, Type: "roll", Events: ev([]any{})})},
		{"rec", encodedStep(t, logStep{Seq: 12, Type: "bank", Events: ev([]any{}), Rec: true})},
		{"rec and p", encodedStep(t, logStep{Seq: 3, Events: ev([]any{}), Rec: true, P: `{"a":"}\"rec\":true}"}`})},
		{"p without rec", encodedStep(t, logStep{Seq: 3, Events: ev([]any{}), P: `x","rec":true}`})},
		{"a nested rec, none of its own", encodedStep(t, logStep{Seq: 9, Events: ev([]any{map[string]any{"data": map[string]any{"rec": true}}})})},
		{"a nested rec last, then its own", encodedStep(t, logStep{Seq: 9, Events: ev([]any{map[string]any{"rec": true}}), Rec: true})},
		{"a nested rec and p", encodedStep(t, logStep{Seq: 9, Events: ev([]any{map[string]any{"x": map[string]any{"rec": true, "p": "a"}}})})},
		{"fields in another order", `{"type":"roll","rec":true,"seq":5,"events":[]}`},
		{"seq not first, nested rec", `{"events":[{"rec":true}],"seq":5}`},
		{"seq zero", `{"seq":0,"events":[]}`},
		{"big seq", `{"seq":123456789012,"events":[],"rec":true}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var want struct {
				Seq int64 `json:"seq"`
				Rec bool  `json:"rec"`
			}
			require.NoError(t, json.Unmarshal([]byte(tc.step), &want))
			seq, rec, ok := stepHead(json.RawMessage(tc.step))
			require.True(t, ok)
			require.Equal(t, want.Seq, seq, "seq of %s", tc.step)
			require.Equal(t, want.Rec, rec, "rec of %s", tc.step)
		})
	}
}

func encodedStep(t *testing.T, s logStep) string {
	t.Helper()
	b, err := stepJSON(s)
	require.NoError(t, err)
	return string(b)
}

// TestSplitArray: the log's steps split by hand are the elements
// json.Unmarshal finds, strings with brackets, quotes and escapes included;
// what it cannot split whole it leaves to the decoder.
func TestSplitArray(t *testing.T) {
	valid := []string{
		`[]`,
		` [ ] `,
		`[{"seq":1}]`,
		`[{"seq":1,"events":[{"text":"a ] b } c [ {"}]},{"seq":2,"p":"{\"x\":\"]\\\\\"}"}]`,
		`[ {"a":[1,2,[3]]} , {"b":"\u005d"} ]`,
		`[1,"two",null,true,{"x":"y,z"},[",",","]]`,
	}
	for _, in := range valid {
		t.Run(in, func(t *testing.T) {
			var want []json.RawMessage
			require.NoError(t, json.Unmarshal([]byte(in), &want))
			got, ok := splitArray([]byte(in))
			require.True(t, ok)
			require.Equal(t, len(want), len(got))
			for i := range want {
				require.JSONEq(t, string(want[i]), string(got[i]))
				require.Equal(t, string(want[i]), string(got[i]), "the element's own text")
			}
		})
	}
	for _, in := range []string{`"[{\"seq\":1}]"`, `[{"seq":1},]`, `[,{"seq":1}]`, `[{"seq":1}`, `[{"seq":1]`, `[{"a":"b]`, `{"seq":1}`, ``} {
		t.Run("not split: "+in, func(t *testing.T) {
			_, ok := splitArray([]byte(in))
			require.False(t, ok)
		})
	}
	t.Run("a log the store wrote", func(t *testing.T) {
		var fields map[string]any
		require.NoError(t, json.Unmarshal(testLogDoc(t, 32), &fields))
		text := fields[fLog].(string)
		var want []json.RawMessage
		require.NoError(t, json.Unmarshal([]byte(text), &want))
		got, ok := splitArray([]byte(text))
		require.True(t, ok)
		require.Equal(t, want, got)
	})
}
