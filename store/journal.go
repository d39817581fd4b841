package store

import (
	"encoding/json"
	"maps"

	"cloud.google.com/go/firestore"

	"github.com/meeple-games/meeple/domain"
)

// The journal (domain.Slot.Journal): action records kept in a server-only
// document every action of the game writes anyway (a hidden game's
// private/state), so an action whose other documents are not all public
// (a fog player's view) writes no record document of its own.
//
// The records wait in the document's field "journal", one JSON string
// each, the newest last, and the game document's recent actions name the
// action (key, request hash, version, marked "j") so a retry finds it. When
// JournalKeep records wait, the next journaled action moves them into one
// server-only document of the actions collection, actions/~journal-{seq}
// ({seq} its version, zero-padded as an event record's id), and starts the
// list again with its own: one record write per JournalKeep actions. A
// retry gets its first reply while its record waits in the journal and its
// key is among the game's recent actions; after that, like a one-document
// action's, a 409 "already applied" — never a second application while the
// game document knows its key (docs/api.md). A replay reads the records
// from both places.
const fJournal = "journal"

// JournalKeep is how many records wait in the journal before they move to
// a document of their own, and JournalBytes how many bytes of them: each is
// an action's whole reply (a fog player's events as they saw them) and its
// replay input, about 1.7 KB on average in the fog leak scan's games, and
// the journal document is read and written by every action of its game, so
// the records waiting stay within about twice the size of its state.
const (
	JournalKeep  = 16
	JournalBytes = 32 << 10
)

// journalEntry is one record in the journal, as its JSON string.
type journalEntry struct {
	Key     string          `json:"key"` // {actorId}~{actionId}
	Hash    string          `json:"hash"`
	Version int64           `json:"version"`
	Reply   json.RawMessage `json:"reply"`
	Session *domain.Actor   `json:"session,omitempty"`
	Replay  string          `json:"replay,omitempty"` // replayInput's JSON (replay_record.go)
}

// journaled reports whether the action's record goes into its game's
// journal: the game has one, the action writes it (having read it, so the
// records waiting there are carried over), writes the game document and
// keeps a record, but not in the game document (keptInGame), not in a
// records-slot document and not in its event record.
func (at *attempt) journaled() bool {
	x, a := at.x, at.x.req.Action
	if x.sl.journal == "" || a.ID == "" || at.hash == "" || !at.rs.journalRead || len(at.change.Spawn) != 0 || x.plan.RecordInEvent {
		return false
	}
	gw, ok := at.change.GameWrite()
	if !ok || gw.Create || at.keptInGame() {
		return false
	}
	writes := false
	for _, w := range at.change.Writes {
		if at.holdsRecord(w) {
			return false
		}
		if w.Slot == x.sl.journal && !w.Delete && !w.Create {
			writes = true
		}
	}
	return writes
}

// journalWrite returns w, a write of the journal document, with the records
// it keeps: those waiting, and the action's own when it is journaled (then
// it also moves the waiting ones to a document of their own when
// JournalKeep wait). A write of a journal document this attempt did not read
// keeps whatever records it holds (writeDoc merges it).
func (at *attempt) journalWrite(w domain.Write) (domain.Write, error) {
	rs := at.rs
	if w.Delete || (!rs.journalRead && !w.Create) {
		return w, nil
	}
	waiting := rs.journal
	if at.journaled() && !at.recordIn {
		version := at.reply().Version
		if len(waiting) >= JournalKeep || listBytes(waiting) >= JournalBytes {
			x := at.x
			ref := x.st.actionRefByID(x.req.GameID, "~journal-"+EventID(version))
			if err := at.tx.Create(ref, map[string]any{fJournal: waiting, fKind: x.entry.Game.Kind(), fAt: at.now}); err != nil {
				return w, err
			}
			waiting = nil
		}
		e := journalEntry{Key: recordKey(at.x.req.Action), Hash: at.hash, Version: version,
			Reply: at.replyJSON, Session: at.change.Session, Replay: jsonText(at.inputOf(at.x.req.Action))}
		b, err := json.Marshal(e)
		if err != nil {
			return w, err
		}
		waiting = append(append([]any{}, waiting...), string(b))
		at.recordIn = true
	}
	w.Value = withRecord{value: w.Value, fields: map[string]any{fJournal: nonNil(waiting)}}
	return w, nil
}

// listBytes is the size of a journal's records.
func listBytes(l []any) int {
	n := 0
	for _, v := range l {
		s, _ := v.(string)
		n += len(s)
	}
	return n
}

// keepJournal notes the records a journal document read holds, and takes
// them out of the fields the game sees.
func (rs *readSet) keepJournal(sl *slots, id domain.DocID, data map[string]any) map[string]any {
	if sl.journal == "" || id.Slot != sl.journal || id.Key != "" {
		return data
	}
	rs.journalRead = true
	if data == nil {
		return nil
	}
	rs.journal, _ = data[fJournal].([]any)
	if _, ok := data[fJournal]; !ok {
		return data
	}
	out := maps.Clone(data)
	delete(out, fJournal)
	return out
}

// journalList reads the records waiting in game gameID's journal document
// with get (none when the game has no journal or the document is absent).
func (st *Store) journalList(get func(*firestore.DocumentRef) (*firestore.DocumentSnapshot, error), sl *slots, gameID string) ([]any, error) {
	if sl == nil || sl.journal == "" {
		return nil, nil
	}
	p, err := sl.path(gameID, domain.Doc(sl.journal, ""))
	if err != nil {
		return nil, err
	}
	snap, err := get(st.FS.Doc(p))
	if notFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	list, _ := snap.Data()[fJournal].([]any)
	return list, nil
}

// journalEntries decodes a journal's records: a journal document's list,
// or a moved batch's.
func journalEntries(list []any) ([]journalEntry, error) {
	out := make([]journalEntry, 0, len(list))
	for _, v := range list {
		s, _ := v.(string)
		var e journalEntry
		if err := json.Unmarshal([]byte(s), &e); err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, nil
}

// journalRecord finds the record of action a in the journal document of game
// gameID, read with get (nil when it is not there).
func (st *Store) journalRecord(get func(*firestore.DocumentRef) (*firestore.DocumentSnapshot, error), sl *slots, gameID string, a domain.Action) (*recorded, error) {
	list, err := st.journalList(get, sl, gameID)
	if err != nil {
		return nil, err
	}
	entries, err := journalEntries(list)
	if err != nil {
		return nil, err
	}
	key := recordKey(a)
	for _, e := range entries {
		if e.Key == key {
			return &recorded{hash: e.Hash, reply: e.Reply, session: e.Session}, nil
		}
	}
	return nil, nil
}

// journalInputs adds to inputs the replay inputs of the records in a
// journal list (a journal document's, or a moved batch's).
func journalInputs(list []any, inputs map[string]replayInput) error {
	entries, err := journalEntries(list)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if err := addReplayInput(inputs, e.Key, e.Replay); err != nil {
			return err
		}
	}
	return nil
}
