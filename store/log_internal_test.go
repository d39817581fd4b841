package store

import (
	"bytes"
	"compress/flate"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
)

// TestLogUpdateBudget: the log keeps what is not in the history and the
// action's own steps, and of the latest LogKeep only what fits in DocBudget
// packed (deflated, as it is stored), newest first; a batch is due when
// what waits for the history no longer fits, every FlushEvery steps, and
// at the game's end. Events of noise, which deflate does not shrink.
func TestLogUpdateBudget(t *testing.T) {
	step := func(seq int64, bytes int) logStep {
		ev, _ := json.Marshal([]map[string]string{{"type": "x", "data": noise(seq, bytes)}})
		return logStep{Seq: seq, Type: "roll", Actor: map[string]any{"id": "p"}, Events: ev}
	}
	steps := func(from, n int64, bytes int) []logStep {
		var out []logStep
		for i := range n {
			out = append(out, step(from+i, bytes))
		}
		return out
	}
	const rest = 6000
	tests := []struct {
		name      string
		log       []logStep // in the log
		flushed   int64     // the last of them in the history
		next      logStep   // the action's step
		over      bool
		wantBatch bool
		wantLen   int // 0: not checked
	}{
		{name: "small steps: the last LogKeep stay", log: steps(1, 6, 100), flushed: 6, next: step(7, 100), wantLen: LogKeep},
		{name: "large flushed steps: the newest that fit, no batch", log: steps(1, 5, 1800), flushed: 5, next: step(6, 1800)},
		{name: "an action's own step larger than the room stays", log: steps(1, 1, 1800), flushed: 1, next: step(2, 12000), wantBatch: true, wantLen: 1},
		{name: "steps waiting for the history that no longer fit", log: steps(1, 6, 1800), flushed: 0, next: step(7, 1800), wantBatch: true},
		{name: "every FlushEvery steps", log: steps(1, FlushEvery-1, 20), flushed: 0, next: step(FlushEvery, 20), wantBatch: true, wantLen: LogKeep},
		{name: "one short of FlushEvery", log: steps(1, FlushEvery-2, 20), flushed: 0, next: step(FlushEvery-1, 20), wantLen: FlushEvery - 1},
		{name: "the game's end", log: steps(1, 3, 20), flushed: 0, next: step(4, 20), over: true, wantBatch: true, wantLen: 4},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pl := platformLog{Log: tc.log, Flushed: tc.flushed}
			log, packed, flushed, batch, err := logUpdate(pl, []logStep{tc.next}, tc.over, rest)
			require.NoError(t, err)
			require.Equal(t, tc.wantBatch, batch != nil, "batch")
			require.Equal(t, tc.next.Seq, log[len(log)-1].Seq, "the action's own step is kept")
			want, err := packLog(log)
			require.NoError(t, err)
			require.Equal(t, want, packed, "the log as it is stored")
			if alone, _ := packLog([]logStep{tc.next}); rest+len(alone) <= DocBudget {
				require.LessOrEqual(t, rest+len(packed), DocBudget, "within the budget")
			}
			for i := 1; i < len(log); i++ {
				require.Less(t, log[i-1].Seq, log[i].Seq, "in order")
			}
			if tc.wantLen > 0 {
				require.Len(t, log, tc.wantLen)
			}
			if batch != nil {
				require.Equal(t, tc.next.Seq, flushed, "everything is in the history after a batch")
				require.Equal(t, tc.flushed+1, batch[0].Seq, "the batch starts after what was in the history")
				require.Equal(t, tc.next.Seq, batch[len(batch)-1].Seq)
			} else {
				require.Equal(t, tc.flushed, flushed)
				for _, s := range append(tc.log, tc.next) {
					if s.Seq > tc.flushed {
						require.Contains(t, log, s, "step %d waits for the history in the log", s.Seq)
					}
				}
			}
			if tc.name == "large flushed steps: the newest that fit, no batch" {
				require.Less(t, len(log), LogKeep, "some of the last 6 dropped")
				require.Greater(t, len(log), 1, "the newest flushed ones kept")
				require.Equal(t, tc.log[len(tc.log)-1].Seq, log[len(log)-2].Seq, "the newest one first")
			}
		})
	}
}

// noise is n bytes of text that deflate cannot shrink much (base64 of a
// hash chain from seed).
func noise(seed int64, n int) string {
	var b strings.Builder
	sum := sha256.Sum256([]byte(strconv.FormatInt(seed, 10)))
	for b.Len() < n {
		b.WriteString(base64.StdEncoding.EncodeToString(sum[:]))
		sum = sha256.Sum256(sum[:])
	}
	return b.String()[:n]
}

// A log packed and read back is the same steps, each with its JSON; a log
// stored as a JSON string (before logs were deflated) reads the same.
func TestLogPacked(t *testing.T) {
	pl := logOf(testLogDoc(t, 12))
	packed, err := packLog(pl.Log)
	require.NoError(t, err)
	text, err := testLogText(pl.Log)
	require.NoError(t, err)
	require.Less(t, len(packed)*3, len(text), "deflated to under a third")
	// Packed by another writer (level 9: other bytes, which this process
	// did not pack): inflated and split.
	var other bytes.Buffer
	w, err := flate.NewWriter(&other, flate.BestCompression)
	require.NoError(t, err)
	_, err = w.Write([]byte(text))
	require.NoError(t, err)
	require.NoError(t, w.Close())
	_, memo := packedLogs.get(other.String())
	require.False(t, memo)
	fields := func(log any) map[string]any {
		return map[string]any{fLog: log, fActs: `[{"k":"key","h":"hash","v":3}]`, fLogFlushed: int64(8)}
	}
	for name, got := range map[string]platformLog{
		"packed here (remembered)": logOfFields(fields(packed)),
		"packed elsewhere":         logOfFields(fields(other.Bytes())),
		"as text":                  logOfFields(fields(text)),
	} {
		require.Len(t, got.Log, 12, name)
		for i := range pl.Log {
			require.Equal(t, string(pl.Log[i].raw), string(got.Log[i].raw), "%s: step %d", name, i)
			require.Equal(t, pl.Log[i].Seq, got.Log[i].Seq, "%s: step %d", name, i)
			require.Equal(t, pl.Log[i].Rec, got.Log[i].Rec, "%s: step %d", name, i)
		}
		require.Equal(t, int64(8), got.Flushed, name)
		require.Equal(t, []actEntry{{Key: "key", Hash: "hash", Version: 3}}, got.Acts, name)
	}
	got, err := LogText(packed)
	require.NoError(t, err)
	require.Equal(t, text, got)
	var steps []logStep
	require.NoError(t, decodeSteps(packed, &steps))
	require.Len(t, steps, 12)

	_, err = LogText([]byte("not deflate"))
	require.Error(t, err)
	require.Empty(t, logOfFields(map[string]any{fLog: []byte("not deflate"), fActs: "[]"}).Log, "a log it cannot read is no log")
	bomb, err := deflate(make([]byte, maxLogText+10))
	require.NoError(t, err)
	_, err = LogText(bomb)
	require.Error(t, err, "a log that inflates past its bound")
}

// testLogDoc is a game document's JSON whose log holds n steps of a
// DashDice-sized event each, as testLogText stores them.
func testLogDoc(t testing.TB, n int) json.RawMessage {
	t.Helper()
	var steps []logStep
	for i := 1; i <= n; i++ {
		ev, _ := json.Marshal([]map[string]any{{"type": "rolled", "player": "p-ann", "data": map[string]any{"dice": []int{3, 5}, "score": i, "words": "Ann rolled 3 and 5"}}})
		steps = append(steps, logStep{Seq: int64(i), Type: "roll", ActionID: "a" + strings.Repeat("x", i%5), Actor: map[string]any{"id": "p-ann", "name": "Ann", "role": "guest"}, Events: ev, P: `{"hold":[1]}`})
	}
	log, err := testLogText(steps)
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
		stored, err := stepJSON(s)
		require.NoError(t, err)
		require.Equal(t, string(b), string(stored), "step %d: written again as it was read", i)
		f.raw = nil
		fresh[i] = f
	}
	got, err := testLogText(pl.Log)
	require.NoError(t, err)
	want, err := testLogText(fresh)
	require.NoError(t, err)
	require.Equal(t, want, got, "the log written again is the steps encoded anew")
	require.True(t, json.Valid([]byte(got)))
}

// BenchmarkLogRoundTrip is what every action of a one-document game does
// with the game document's log: inflate and decode it, add its step, fit
// the budget and encode and deflate the log again.
func BenchmarkLogRoundTrip(b *testing.B) {
	doc := testLogDoc(b, 32)
	ev, _ := json.Marshal([]map[string]any{{"type": "rolled", "player": "p-ann"}})
	next := []logStep{{Seq: 33, Type: "roll", Actor: map[string]any{"id": "p-ann"}, Events: ev}}
	var fields map[string]any
	if err := json.Unmarshal(doc, &fields); err != nil {
		b.Fatal(err)
	}
	packed, err := packLog(logOf(doc).Log)
	if err != nil {
		b.Fatal(err)
	}
	stored := map[string]any{fLog: packed, fActs: fields[fActs], fLogFlushed: int64(28)}
	b.ReportAllocs()
	for b.Loop() {
		pl := logOfFields(stored)
		if _, _, _, _, err := logUpdate(pl, next, false, 6000); err != nil {
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
			got, ok := domain.SplitArray([]byte(in))
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
			_, ok := domain.SplitArray([]byte(in))
			require.False(t, ok)
		})
	}
	t.Run("a log the store wrote", func(t *testing.T) {
		var fields map[string]any
		require.NoError(t, json.Unmarshal(testLogDoc(t, 32), &fields))
		text := fields[fLog].(string)
		var want []json.RawMessage
		require.NoError(t, json.Unmarshal([]byte(text), &want))
		got, ok := domain.SplitArray([]byte(text))
		require.True(t, ok)
		require.Equal(t, want, got)
	})
}

// testLogText is steps' log as JSON text, as a log was stored before it was
// deflated.
func testLogText(steps []logStep) (string, error) {
	text, _, err := logJSON(steps)
	return string(text), err
}

// TestKnownActs: the recent actions this process wrote come back as their
// text decodes, and a text it did not write is decoded.
func TestKnownActs(t *testing.T) {
	acts := []actEntry{{Key: "k1", Hash: "h1", Version: 3, Reply: `{"result":1}`, Steps: 2}, {Key: "k2", Hash: "h2", Version: 4, Jnl: true, Own: true}}
	text := firestoreActs(acts)
	var decoded []actEntry
	require.NoError(t, json.Unmarshal([]byte(text), &decoded))
	require.Equal(t, decoded, logOfFields(map[string]any{fActs: text}).Acts)
	other := `[{"k":"z","h":"q","v":9}]`
	require.Equal(t, []actEntry{{Key: "z", Hash: "q", Version: 9}}, logOfFields(map[string]any{fActs: other}).Acts)
	require.Empty(t, logOfFields(map[string]any{}).Acts, "no acts field")
}
