package store

import (
	"bytes"
	"compress/flate"
	"errors"
	"io"
	"sync"
)

// The game document's log is stored deflated (RFC 1951, raw: no zlib or
// gzip header), as Firestore bytes: its steps repeat the same player ids,
// names and event types, and compress five to six times over. The room
// that saves in DocBudget holds FlushEvery steps for every game, where
// JSON text held a dozen of a 12-player Party Board's or a Hex & Dice
// game's: half the history batches, and each listener's snapshot of the
// game document half the size (issue 22). Clients inflate it
// (docs/firestore.md, "The game document's log"); the acts beside it stay
// JSON text (the server alone reads them, and short as they are they
// would not shrink enough to pay for the processor time).

// logLevel is the deflate level: flate.BestSpeed, at about half level 2's
// processor time for a log a sixth larger (a Party Board log 8.1 KB → 1.8
// KB where level 2 makes 1.6 KB and level 9 1.45 KB). The game document has
// room to spare either way; every action pays the time.
const logLevel = flate.BestSpeed

// maxLogText bounds what one stored log may inflate to: far above what
// DocBudget lets a log hold, so only a document that is not the store's own
// output reaches it.
const maxLogText = 8 << 20

var deflaters = sync.Pool{New: func() any {
	w, _ := flate.NewWriter(nil, logLevel)
	return w
}}

var inflaters = sync.Pool{New: func() any { return flate.NewReader(bytes.NewReader(nil)) }}

// packLog is steps as the game document stores them: their JSON array
// (logJSON), deflated. It remembers the steps by what it made of them
// (packedLogs), as reading the log back gives them.
func packLog(steps []logStep) ([]byte, error) {
	text, read, err := logJSON(steps)
	if err != nil {
		return nil, err
	}
	packed, err := deflate(text)
	if err == nil {
		packedLogs.put(string(packed), read)
	}
	return packed, err
}

// packedLogs are the steps of the logs this process packed lately, by the
// bytes it packed them to. The next action on a game reads (or takes from
// its warm copy) the bytes its last action wrote, and takes the steps back
// from here without inflating and splitting them: with logs of up to 38
// steps since they are deflated, that was most of what the log cost an
// action. Keyed by the whole packed text, so a hit is that very log.
var packedLogs = &fifo[[]logStep]{max: logMemoSize}

// knownActs are the recent actions' entries (the game document's "acts")
// this process wrote lately, by the text it wrote them as: the next action
// on the game takes them back from here instead of decoding up to ActKeep
// entries, the last ReplyKeep with their replies (about 45 µs of a DashDice
// roll's processor time, a tenth of the store's part of it). Keyed by the
// whole text, so a hit is that very list; its entries are never changed
// (withAct copies).
var knownActs = &fifo[[]actEntry]{max: logMemoSize}

// logMemoSize bounds packedLogs and knownActs: the last logs packed, one per action, so
// a game's latest is kept while fewer than this many actions of other games
// come between two of its own (512 games acting at like rates); a few to
// some 40 KB each.
const logMemoSize = 512

// deflate compresses b at logLevel.
func deflate(b []byte) ([]byte, error) {
	var buf bytes.Buffer
	buf.Grow(len(b)/4 + 64)
	w := deflaters.Get().(*flate.Writer)
	defer deflaters.Put(w)
	w.Reset(&buf)
	if _, err := w.Write(b); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// inflate is the text a stored log deflated.
func inflate(b []byte) ([]byte, error) {
	r := inflaters.Get().(io.ReadCloser)
	defer inflaters.Put(r)
	if err := r.(flate.Resetter).Reset(bytes.NewReader(b), nil); err != nil {
		return nil, err
	}
	var out bytes.Buffer
	out.Grow(len(b) * 6)
	n, err := out.ReadFrom(io.LimitReader(r, maxLogText+1))
	if err != nil {
		return nil, err
	}
	if n > maxLogText {
		return nil, errors.New("store: the game document's log inflates past its bound")
	}
	return out.Bytes(), nil
}

// logText is a stored log's JSON: the text a deflated log (bytes) holds, a
// string as it is (a log written before logs were deflated), "" for none.
// false for anything else (a log stored as an array, older still).
func logText(v any) ([]byte, bool, error) {
	switch t := v.(type) {
	case nil:
		return nil, true, nil
	case string:
		return []byte(t), true, nil
	case []byte:
		if len(t) == 0 {
			return nil, true, nil
		}
		text, err := inflate(t)
		return text, err == nil, err
	}
	return nil, false, nil
}

// LogText is the JSON text of a game document's log field as read (a
// deflated one inflated, the JSON string of an older document as it is),
// for tests and tools that look into game documents; Unpacked applies it.
func LogText(v any) (string, error) {
	text, ok, err := logText(v)
	if err != nil {
		return "", err
	}
	if !ok {
		return "", errors.New("store: the log is neither bytes nor text")
	}
	return string(text), nil
}
