package store

import (
	"bytes"
	"context"
	"encoding/json"
	"sort"
	"strconv"
	"strings"
	"time"

	"cloud.google.com/go/firestore"

	"github.com/meeple-games/meeple/domain"
)

// One write per action (issue 22; docs/firestore.md "The game document's log").
//
// An action that writes the game document and nothing else keeps what used
// to take two more documents in that same document:
//
//   - its idempotency record: the key {actorId}~{actionId}, a hash of the
//     request and the version it made, in "acts" (the last ActKeep actions;
//     the reply itself for the last ReplyKeep), so a retry finds the first
//     reply without an action record;
//   - its steps' events: each versioned step in "log" (deflated JSON,
//     logpack.go), which a client's one listener on the game document
//     already receives. The log keeps every
//     step not yet written to the history, the action's own, and of the last
//     LogKeep those that fit in DocBudget; every
//     FlushEvery steps, and when the game ends, the steps not yet written go
//     to one batch document events/b{EventID(first seq)}, so the full history
//     stays queryable at one write per FlushEvery actions.
//
// A step whose events have a registered effect (a gameOver) still gets its
// own event record, which the trigger and the tick's sweep run the effects
// of; a step that versions no game (a Tile Race team's) and an action that
// does not write the game document keep their records as before.
const (
	fLog        = "log"
	fLogFlushed = "logFlushed"
	fActs       = "acts"
)

// Log sizes (chosen so that the largest game document stays under 16 KB:
// docs/firestore.md has the sizes measured by the load generator).
const (
	// LogKeep is how many of the latest steps the game document keeps after
	// they are in the history, so a listener that missed a few snapshots
	// still sees every step.
	LogKeep = 6
	// FlushEvery is how many steps not yet in the history make a batch, at
	// most. A batch is also written, earlier, when the steps not yet in the
	// history would take the game document past DocBudget bytes (the
	// state's and the recent actions' JSON, the log as stored: deflated,
	// logpack.go). Since the log is deflated every game the load generator
	// plays, a 12-player Party Board included, batches every FlushEvery
	// steps. Firestore's own limit is 1 MiB; the budget keeps every
	// listener's snapshot small. 48 was measured too: a DashDice match's
	// writes per action 1.14 → 1.13, a Party Board game's 1.08 → 1.07, for
	// 0.01–0.03× more latency (longer logs packed on every action) and
	// larger snapshots; not worth it.
	FlushEvery = 32
	DocBudget  = 14000
	// ActKeep is how many of the latest actions a retry is recognised
	// among (then refused as already applied: 409), and ReplyKeep how many
	// of them keep their reply (a retry gets it again, 200).
	ActKeep   = 32
	ReplyKeep = 4
)

// batchPrefix starts the id of a history batch in games/{id}/events.
const batchPrefix = "b"

// isBatch reports whether a document of a game's events collection is a
// history batch: its id is batchID(seq), "b" and digits only. The prefix
// alone does not tell: an event record keyed by its action,
// "{actorId}~{actionId}", starts with "b" whenever its actor's id does, and
// a Tile Race actor's id starts with its game's id ("{gameId}:{local}"), a
// hex hash that starts with "b" once in sixteen races. Read as a batch, such
// a record had no steps, so the race's history and replay lost every step
// (issue 25: "the replayed final state differs … admins, nextGen, startedAt").
func isBatch(id string) bool {
	digits, ok := strings.CutPrefix(id, batchPrefix)
	if !ok || digits == "" {
		return false
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// logStep is one versioned step in the game document's log and in a batch.
type logStep struct {
	Seq      int64           `json:"seq"`
	At       time.Time       `json:"at"`
	Type     string          `json:"type"`
	ActionID string          `json:"actionId,omitempty"`
	Actor    map[string]any  `json:"actor"`
	Events   json.RawMessage `json:"events"`
	// Rec: the step also has its own event record (its effects run from it),
	// so batches leave it out.
	Rec bool `json:"rec,omitempty"`
	// P is the payload of the action that made the step, for a replay
	// (replay.go): only on the action's own step, only when the action wrote
	// the game document alone, and without the platform's fields.
	P string `json:"p,omitempty"`
	// Roots are the documents outside the game the action read, as one
	// JSON string of rootDoc, for a replay: only on the action's own step of
	// an action that wrote public documents besides the game document
	// (replay_record.go inlineRoots), whose record would hold them otherwise.
	Roots string `json:"roots,omitempty"`
	// raw is the step's JSON as the game document's log held it (logOf):
	// its size in the log and its text when the log is written again,
	// where encoding every kept step anew, twice per action, was a tenth of
	// a one-document action's processor time. A step read from the log is
	// never changed, so raw stays its JSON.
	raw json.RawMessage
}

// actEntry is one recent action in the game document.
type actEntry struct {
	Key     string `json:"k"`           // actKey: a hash of {actorId}~{actionId}
	Hash    string `json:"h"`           // requestHash, shortened
	Version int64  `json:"v"`           // the version the action left
	Reply   string `json:"r,omitempty"` // the reply without its events, for the last ReplyKeep
	Steps   int    `json:"n,omitempty"` // how many steps the action made (its events are theirs, in the log)
	Session string `json:"s,omitempty"` // a session the reply signed in
	// Priv: the reply is in the game's server-only document (server.go; a
	// create's: it tells the room code), not here.
	Priv bool `json:"p,omitempty"`
	// Jnl: the action's record is in the game's journal (journal.go), not
	// here; with Own, in its actor's own journal.
	Jnl bool `json:"j,omitempty"`
	Own bool `json:"o,omitempty"`
}

// platformLog is the part of the game document this file keeps.
type platformLog struct {
	Log     []logStep  `json:"log"`
	Flushed int64      `json:"logFlushed"`
	Acts    []actEntry `json:"acts"`
	// OldActs: the fingerprints of the actions that left Acts (oldacts.go).
	OldActs []byte `json:"oldActs"`
}

// logOf decodes the log fields of a game document's JSON (zero when absent):
// the log as JSON text or as an array, as documents written before the log
// was deflated hold it (logOfFields reads the fields as Firestore gives them).
func logOf(raw json.RawMessage) platformLog {
	var pl platformLog
	if raw == nil {
		return pl
	}
	var doc struct {
		Log     json.RawMessage `json:"log"`
		Flushed int64           `json:"logFlushed"`
		Acts    json.RawMessage `json:"acts"`
		OldActs []byte          `json:"oldActs"`
	}
	if json.Unmarshal(raw, &doc) != nil {
		return pl
	}
	return logFrom(doc.Log, doc.Acts, doc.Flushed, doc.OldActs)
}

// splitLog takes the log fields out of a game document's fields as
// Firestore gives them, and returns them.
func splitLog(data map[string]any) map[string]any {
	out := map[string]any{}
	for _, f := range []string{fLog, fActs, fLogFlushed, fOldActs} {
		if v, ok := data[f]; ok {
			out[f] = v
			delete(data, f)
		}
	}
	return out
}

// logOfFields decodes the log fields splitLog took out: the log deflated
// (packLog; the steps of a log this process packed come from packedLogs) or
// a JSON string, acts a JSON string; a document written before holds
// arrays, which go the long way (logOf).
func logOfFields(f map[string]any) platformLog {
	acts, aok := stringOrNil(f[fActs])
	flushed, _ := f[fLogFlushed].(int64)
	seen, _ := f[fOldActs].([]byte)
	if b, ok := f[fLog].([]byte); ok && aok {
		if steps, ok := packedLogs.get(string(b)); ok {
			pl := logFrom(nil, json.RawMessage(acts), flushed, seen)
			pl.Log = steps
			return pl
		}
	}
	log, lok, err := logText(f[fLog])
	if err != nil {
		return platformLog{}
	}
	if !lok || !aok {
		raw, err := docJSON(f)
		if err != nil {
			return platformLog{}
		}
		return logOf(raw)
	}
	return logFrom(json.RawMessage(log), json.RawMessage(acts), flushed, seen)
}

// stringOrNil is v as a string, "" when it is nil; false for anything else.
func stringOrNil(v any) (string, bool) {
	if v == nil {
		return "", true
	}
	s, ok := v.(string)
	return s, ok
}

// logFrom decodes the log fields, each the value itself or a JSON string
// holding it; oldActs are the fingerprints as stored (oldacts.go).
func logFrom(log, acts json.RawMessage, flushed int64, oldActs []byte) platformLog {
	pl := platformLog{Flushed: flushed, OldActs: oldActs}
	raws, ok := domain.SplitArray(log)
	if ok || unwrapJSON(log, &raws) == nil {
		for _, r := range raws {
			// What the log's upkeep needs of a step; the rest only when it
			// goes to a batch (full).
			seq, rec, ok := stepHead(r)
			if !ok {
				pl.Log = nil
				break
			}
			pl.Log = append(pl.Log, logStep{Seq: seq, Rec: rec, raw: r})
		}
	}
	if list, ok := knownActs.get(string(acts)); ok {
		pl.Acts = list
	} else {
		_ = unwrapJSON(acts, &pl.Acts)
	}
	return pl
}

// stepHead is a logged step's seq and rec. Decoding each step of the log
// for them was a quarter of the store's processor time for a DashDice roll,
// so the step's text is read where logStep's encoding puts them (seq first;
// rec after events, before p) when that settles it, and decoded when not
// (a step written otherwise, or events that hold a "rec" key of their own).
// raw is valid JSON (the log was decoded into steps).
func stepHead(raw json.RawMessage) (seq int64, rec, ok bool) {
	decode := func() (int64, bool, bool) {
		var s struct {
			Seq int64 `json:"seq"`
			Rec bool  `json:"rec"`
		}
		err := json.Unmarshal(raw, &s)
		return s.Seq, s.Rec, err == nil
	}
	digits, found := bytes.CutPrefix(raw, []byte(`{"seq":`))
	end := 0
	for found && end < len(digits) && '0' <= digits[end] && digits[end] <= '9' && end < 18 {
		end++
	}
	if !found || end == 0 || end >= len(digits) || digits[end] != ',' || (digits[0] == '0' && end > 1) {
		return decode()
	}
	seq, _ = strconv.ParseInt(string(digits[:end]), 10, 64)
	const recTrue = `,"rec":true`
	i := bytes.LastIndex(raw, []byte(recTrue))
	if i < 0 {
		return seq, false, true // nowhere in the step, at any depth
	}
	// At the top level "rec" is followed by the step's end, or by "p" (a
	// string, which cannot hold the unescaped quotes of `"rec":true`) and
	// then the end; a nested one is followed by its own closing brackets.
	rest := raw[i+len(recTrue):]
	if string(rest) == "}" {
		return seq, true, true
	}
	if p, ok := bytes.CutPrefix(rest, []byte(`,"p":"`)); ok && stringThenEnd(p) {
		return seq, true, true
	}
	return decode()
}

// stringThenEnd reports whether b is the rest of a JSON string (after its
// opening quote) followed by exactly "}".
func stringThenEnd(b []byte) bool {
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return string(b[i+1:]) == "}"
		}
	}
	return false
}

// unwrapJSON decodes raw into out, whether raw is the value itself or a JSON
// string holding it.
func unwrapJSON(raw json.RawMessage, out any) error {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	if raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return err
		}
		if s == "" {
			return nil
		}
		raw = json.RawMessage(s)
	}
	return json.Unmarshal(raw, out)
}

// decodeSteps decodes steps as Firestore gives them: bytes (the game
// document's log, deflated), a JSON string (a log written before that) or an
// array (a batch's steps; a log older still).
func decodeSteps(v any, out any) error {
	text, ok, err := logText(v)
	switch {
	case err != nil:
		return err
	case !ok:
		return fromFirestore(v, out)
	case len(text) == 0:
		return nil
	}
	return json.Unmarshal(text, out)
}

// shortHash keeps enough of a request hash to tell two requests apart.
func shortHash(h string) string { return h[:min(len(h), 12)] }

// find returns the recent action of key, if the game document has it.
func (pl platformLog) find(key string) (actEntry, bool) {
	for _, e := range pl.Acts {
		if e.Key == key {
			return e, true
		}
	}
	return actEntry{}, false
}

// recorded turns an entry of acts into what a retry gets: its reply, its
// events put back from the log's steps; or when the reply or those steps
// are no longer kept, a 409 saying the action was applied.
func (e actEntry) recorded(hash string, a domain.Action, pl platformLog) (*recorded, error) {
	if e.Hash != shortHash(hash) {
		return nil, reused(a)
	}
	gone := e.gone(a)
	if e.Reply == "" {
		return nil, gone
	}
	reply, ok := withEvents(e, pl)
	if !ok {
		return nil, gone
	}
	out := &recorded{hash: hash, reply: reply}
	if e.Session != "" {
		var s domain.Actor
		if json.Unmarshal([]byte(e.Session), &s) == nil {
			out.session = &s
		}
	}
	return out, nil
}

// gone is what a retry of the entry's action gets once its reply is no
// longer kept: a 409, never a second application.
func (e actEntry) gone(a domain.Action) error {
	return domain.Errorf(domain.ECONFLICT,
		"actionId %q was already applied (it made version %d); its reply is no longer kept: read the game instead", a.ID, e.Version)
}

// replyWithoutEvents is the reply an entry of acts keeps: its events are in
// the log already.
func replyWithoutEvents(reply []byte) string {
	var m map[string]json.RawMessage
	if json.Unmarshal(reply, &m) != nil {
		return string(reply)
	}
	delete(m, "events")
	b, _ := json.Marshal(m)
	return string(b)
}

// withEvents puts an entry's reply back together: the events of the steps
// that made versions Version-Steps+1 … Version, from the log; false when
// the log no longer has them all.
func withEvents(e actEntry, pl platformLog) (json.RawMessage, bool) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(e.Reply), &m); err != nil {
		return nil, false
	}
	if _, ok := m["events"]; ok || e.Steps == 0 {
		if !ok {
			m["events"] = json.RawMessage("[]")
		}
		b, err := json.Marshal(m)
		return b, err == nil
	}
	evs := []json.RawMessage{}
	for seq := e.Version - int64(e.Steps) + 1; seq <= e.Version; seq++ {
		found := false
		for _, s := range pl.Log {
			if s.Seq != seq {
				continue
			}
			s, err := s.full()
			if err != nil {
				return nil, false
			}
			var part []json.RawMessage
			if json.Unmarshal(s.Events, &part) != nil {
				return nil, false
			}
			evs = append(evs, part...)
			found = true
			break
		}
		if !found {
			return nil, false
		}
	}
	b, err := json.Marshal(evs)
	if err != nil {
		return nil, false
	}
	m["events"] = b
	out, err := json.Marshal(m)
	return out, err == nil
}

// withAct adds an action to the recent ones, dropping the oldest beyond
// ActKeep and the replies beyond ReplyKeep.
func withAct(acts []actEntry, e actEntry) []actEntry {
	out := append(append([]actEntry{}, acts...), e)
	if len(out) > ActKeep {
		out = out[len(out)-ActKeep:]
	}
	for i := 0; i < len(out)-ReplyKeep; i++ {
		out[i].Reply, out[i].Session = "", ""
	}
	return out
}

// logUpdate computes the game document's new log after steps, packed as it
// is stored (packLog), and the batch to write to the history (nil when none
// is due). over: the game ends now, so everything goes to the history. rest
// is the size of the game document besides its log.
//
// The log keeps every step not in the history yet, the action's own, and
// the latest LogKeep; a batch is due every FlushEvery steps, when the game
// ends, and when the packed log would take the document past DocBudget
// even without the latest steps already in the history. After a batch the
// log keeps the action's own steps and of the latest LogKeep those that fit.
func logUpdate(pl platformLog, steps []logStep, over bool, rest int) (log []logStep, packed []byte, flushed int64, batch []logStep, err error) {
	all := append(append([]logStep{}, pl.Log...), steps...)
	sort.SliceStable(all, func(i, j int) bool { return all[i].Seq < all[j].Seq })
	flushed = pl.Flushed
	pending := func(i int) bool { return all[i].Seq > pl.Flushed && !all[i].Rec } // not in the history yet
	// This action's own steps stay whatever their size: a retry of it gets
	// its events back from the log (withEvents).
	own := func(i int) bool { return i >= len(all)-len(steps) }
	recent := func(i int) bool { return i >= len(all)-LogKeep }
	var unflushed []logStep
	for i, s := range all {
		if pending(i) {
			unflushed = append(unflushed, s)
		}
	}
	keep := make([]bool, len(all))
	if due := over || len(unflushed) >= FlushEvery; !due {
		for i := range all {
			keep[i] = pending(i) || own(i) || recent(i)
		}
		var fits bool
		log, packed, fits, err = fitLog(all, keep, DocBudget-rest, func(i int) bool { return !pending(i) && !own(i) })
		if err != nil || fits {
			return log, packed, flushed, nil, err
		}
		// The steps waiting for the history no longer fit: a batch.
	}
	if n := len(all); n > 0 {
		flushed = max(flushed, all[n-1].Seq)
	}
	if len(unflushed) > 0 {
		batch = make([]logStep, len(unflushed))
		for i, s := range unflushed {
			if f, err := s.full(); err == nil {
				s = f
			}
			batch[i] = s
		}
	}
	for i := range all {
		keep[i] = own(i) || recent(i)
	}
	log, packed, _, err = fitLog(all, keep, DocBudget-rest, func(i int) bool { return !own(i) })
	return log, packed, flushed, batch, err
}

// fitLog packs the steps of all that keep marks, dropping the oldest of
// those it may drop until the packed log takes at most room bytes: false
// when it still does not fit with all of them dropped. A log fits at the
// first try but for a batch's action: packed once per action.
func fitLog(all []logStep, keep []bool, room int, may func(i int) bool) ([]logStep, []byte, bool, error) {
	for {
		log := []logStep{}
		for i, s := range all {
			if keep[i] {
				log = append(log, s)
			}
		}
		packed, err := packLog(log)
		if err != nil || len(packed) <= room {
			return log, packed, err == nil, err
		}
		dropped := false
		for i := range all {
			if keep[i] && may(i) {
				keep[i], dropped = false, true
				break
			}
		}
		if !dropped {
			return log, packed, false, nil
		}
	}
}

// stepOf is a versioned step as the log keeps it.
func stepOf(s domain.Step, actionID string, now time.Time, rec bool) (logStep, error) {
	evs := s.Events
	if evs == nil {
		evs = []domain.Event{}
	}
	b, err := json.Marshal(evs)
	if err != nil {
		return logStep{}, err
	}
	return logStep{Seq: s.Version, At: now, Type: s.Type, ActionID: actionID, Actor: actorMap(s.Actor), Events: b, Rec: rec}, nil
}

func actorMap(a domain.Actor) map[string]any {
	m := map[string]any{"id": a.ID, "name": a.Name, "role": string(a.Role)}
	if a.Game != "" {
		m["game"] = a.Game
	}
	if a.Gen != 0 {
		m["gen"] = a.Gen // a replay acts as this very session
	}
	return m
}

// firestoreSteps turns steps into the values a history batch stores (events
// as maps, times as timestamps): a batch is written once and read as an
// array.
func firestoreSteps(steps []logStep) ([]any, error) {
	out := make([]any, 0, len(steps))
	for _, s := range steps {
		evs, err := toFirestore(s.Events)
		if err != nil {
			return nil, err
		}
		m := map[string]any{"seq": s.Seq, fAt: s.At, "type": s.Type, "actor": s.Actor, "events": evs}
		if s.ActionID != "" {
			m["actionId"] = s.ActionID
		}
		if s.Rec {
			m["rec"] = true
		}
		if s.P != "" {
			m["p"] = s.P
		}
		if s.Roots != "" {
			m["roots"] = s.Roots
		}
		out = append(out, m)
	}
	return out, nil
}

// logJSON is the text of the game document's log: its steps' JSON array
// (times in RFC 3339), which packLog deflates, and the steps as reading that
// text back gives them (seq, rec and their JSON). One value where the same
// steps as maps are hundreds, each encoded by the client and indexed by the
// emulator (production exempts the field, firestore.indexes.json):
// measured on the emulator, a commit of a 40-step log took 17.5 ms as maps
// and 6.5–9.5 ms as one string.
func logJSON(steps []logStep) ([]byte, []logStep, error) {
	var b bytes.Buffer
	read := make([]logStep, len(steps))
	b.WriteByte('[')
	for i, s := range steps {
		if i > 0 {
			b.WriteByte(',')
		}
		j, err := stepJSON(s)
		if err != nil {
			return nil, nil, err
		}
		b.Write(j)
		read[i] = logStep{Seq: s.Seq, Rec: s.Rec, raw: j}
	}
	b.WriteByte(']')
	return b.Bytes(), read, nil
}

// full is s with every field, decoded from its JSON when it was read from
// the log (logOf decodes only its seq and rec).
func (s logStep) full() (logStep, error) {
	if s.raw == nil {
		return s, nil
	}
	var f logStep
	if err := json.Unmarshal(s.raw, &f); err != nil {
		return logStep{}, err
	}
	f.raw = s.raw
	return f, nil
}

// stepJSON is a step as the log stores it: its JSON as read, or encoded.
func stepJSON(s logStep) ([]byte, error) {
	if s.raw != nil {
		return s.raw, nil
	}
	return json.Marshal(s)
}

// firestoreActs is acts as the game document stores it: one JSON string, like
// the log before it was deflated (logJSON).
func firestoreActs(acts []actEntry) string {
	text := jsonText(nonNil(acts))
	if text != "" {
		knownActs.put(text, acts) // what decoding text gives back
	}
	return text
}

// batchID is the id of the history batch whose first step made version seq.
func batchID(seq int64) string { return batchPrefix + EventID(seq) }

// writeBatch writes steps to the history as one document.
func (st *Store) writeBatch(tx txn, gameID, kind string, steps []logStep, now time.Time) error {
	fs, err := firestoreSteps(steps)
	if err != nil {
		return err
	}
	doc := withKeys(map[string]any{ // an old retry is looked for by its keys (oldacts.go)
		"seq": steps[0].Seq, "last": steps[len(steps)-1].Seq, fAt: now, fKind: kind, "batch": true, fPending: false, "steps": fs,
	}, stepKeys(steps)...)
	return tx.Create(st.eventRef(gameID, batchID(steps[0].Seq)), doc)
}

// expandRecords turns the documents of a game's events collection and its
// game document's log into the event log, one EventRecord per step, in
// order: batches are expanded, and a step is listed once however many of
// them name it.
func expandRecords(snaps []*firestore.DocumentSnapshot, game map[string]any) ([]EventRecord, error) {
	var out []EventRecord
	seen := map[int64]bool{}
	add := func(r EventRecord) {
		if r.Seq > 0 {
			if seen[r.Seq] {
				return
			}
			seen[r.Seq] = true
		}
		out = append(out, r)
	}
	at := map[string]time.Time{}
	steps := func(v any, kind string) error {
		var ls []struct {
			logStep
			Events []domain.Event `json:"events"`
		}
		if err := decodeSteps(v, &ls); err != nil {
			return err
		}
		for _, s := range ls {
			r := EventRecord{ID: EventID(s.Seq), Seq: s.Seq, Kind: kind, Type: s.Type, ActionID: s.ActionID, Actor: s.Actor, Events: s.Events}
			at[r.ID] = s.At
			add(r)
		}
		return nil
	}
	for _, snap := range snaps {
		data := snap.Data()
		kind, _ := data[fKind].(string)
		if isBatch(snap.Ref.ID) {
			if err := steps(data["steps"], kind); err != nil {
				return nil, err
			}
			continue
		}
		if v, ok := data["steps"]; ok {
			// The last batch, in the game's last record (writeGame).
			if err := steps(v, kind); err != nil {
				return nil, err
			}
		}
		var r EventRecord
		if err := fromFirestore(data, &r); err != nil {
			return nil, err
		}
		r.ID = snap.Ref.ID
		if t, ok := data[fAt].(time.Time); ok {
			at[r.ID] = t
		}
		add(r)
	}
	if game != nil {
		kind, _ := game[fKind].(string)
		if err := steps(game[fLog], kind); err != nil {
			return nil, err
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Seq > 0 && b.Seq > 0 {
			return a.Seq < b.Seq
		}
		if !at[a.ID].Equal(at[b.ID]) {
			return at[a.ID].Before(at[b.ID])
		}
		return a.ID < b.ID
	})
	return out, nil
}

// retried is what an attempt returns for an action the game document
// records already: the retry gets that action's reply.
type retried struct {
	actEntry
	log platformLog
}

func (retried) Error() string { return "a retry of a recorded action" }

// recordedAnywhere finds the recorded reply of a: in the game document's
// recent actions, else in its action record (nil when neither has it).
func (st *Store) recordedAnywhere(ctx context.Context, sl *slots, inEvent bool, gameID string, a domain.Action, hash string) (*recorded, error) {
	get := plainGet(ctx)
	snap, err := get(st.gameRef(gameID))
	if err == nil {
		pl := logOfFields(splitLog(snap.Data()))
		if e, ok := pl.find(actKey(a)); ok {
			return st.recall(get, sl, gameID, e, hash, a, pl, roomOfFields(snap.Data()))
		}
	} else if !notFound(err) {
		return nil, err
	}
	return st.recordedAction(get, sl, inEvent, gameID, a)
}

// seedCacheSize bounds Store.seeds, the seeds of the games this process
// has played (a seed is written once, at creation, and never changes):
// about 100 bytes a game.
const seedCacheSize = 20000

// restOf estimates the bytes of a game document besides its log: the state
// (as it is stored: packedSize), the texts w seals in it (a hidden game's
// whole state and views), the recent actions and the header.
func restOf(state json.RawMessage, w domain.Write, pl platformLog) (int, error) {
	size, err := packedSize(state) // the state as stored (packed.go)
	if err != nil {
		return 0, err
	}
	n := 400 + size + len(w.Sealed) // and the header fields
	for v, text := range w.Views {
		n += len(v) + len(text) + 2
	}
	// The recent actions as they are stored (one JSON string), and room for
	// the one this action adds with its reply.
	if b, err := json.Marshal(pl.Acts); err == nil {
		n += len(b) + 300
	}
	return n + len(pl.OldActs) + 2, nil // and the fingerprints (oldacts.go), one more perhaps
}

// recall is what a retry of a recent action gets: e.recorded, or for an
// action whose reply is kept in the game's server-only document (a
// create's, found by room: server.go) or in the game's journal
// (journal.go), that reply, read with get.
func (st *Store) recall(get getter, sl *slots, gameID string, e actEntry, hash string, a domain.Action, pl platformLog, room gameRoom) (*recorded, error) {
	if !e.Priv && !e.Jnl {
		if domain.IsSealed(e.Reply) && e.Hash == shortHash(hash) {
			// Sealed under its actor's label (sealsReply): opened with the
			// game's key for the retry of that actor only.
			s, err := st.sealerOf(get, gameID, room)
			if err != nil {
				return nil, err
			}
			plain, err := s.Open(domain.ReplyLabel(a.Actor.ID), e.Reply)
			if err != nil {
				return nil, e.gone(a)
			}
			e.Reply = string(plain)
		}
		return e.recorded(hash, a, pl)
	}
	if e.Hash != shortHash(hash) {
		return nil, reused(a)
	}
	if e.Jnl {
		prev, err := st.journalRecord(get, sl, gameID, a, e.Own)
		if err != nil {
			return nil, err
		}
		if prev == nil || prev.hash != hash {
			return nil, e.gone(a)
		}
		return prev, nil
	}
	return recordedReply(st.serverDoc(get, gameID, room))
}
