package store

import (
	"context"
	"encoding/json"
	"maps"

	"cloud.google.com/go/firestore"

	"github.com/meeple-games/meeple/domain"
)

// The journal (domain.Slot.Journal): action records kept in a server-only
// document every action of the game writes anyway (a hidden game's
// private/state), so an action whose other documents are not all public
// (a fog player's view) writes no record document of its own. A game may
// also have a keyed journal slot readable by its owner (Hex & Dice's
// orders/{playerId}): the document of the acting player is that player's
// own journal, for an action that reads and writes it and no game-wide
// journal (a simultaneous-mode orders draft). Its records are the player's
// own replies and payloads, which the player may read.
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

// isJournal reports whether id is a journal document: the game's, or a
// player's own.
func (s *slots) isJournal(id domain.DocID) bool {
	return s.isGameJournal(id) || s.isOwnJournal(id)
}

// isGameJournal reports whether id is the game's journal document (a fog
// game's private/state).
func (s *slots) isGameJournal(id domain.DocID) bool {
	return s.journal != "" && id == domain.Doc(s.journal, "")
}

// isOwnJournal reports whether id is a player's own journal document.
func (s *slots) isOwnJournal(id domain.DocID) bool {
	return s.ownJournal != "" && id.Slot == s.ownJournal && id.Key != ""
}

// journalDoc is the journal document that keeps action a's record when it
// keeps one in a journal: the game's, else the actor's own; own says which.
func (s *slots) journalDoc(a domain.Action, own bool) (domain.DocID, bool) {
	switch {
	case own && s.ownJournal != "" && a.Actor.ID != "":
		return domain.Doc(s.ownJournal, a.Actor.ID), true
	case !own && s.journal != "":
		return domain.Doc(s.journal, ""), true
	}
	return domain.DocID{}, false
}

// journaled returns the journal document the action's record goes into, if
// any: the action writes it (having read it, so the records waiting there
// are carried over), writes the game document and keeps a record, but not
// in the game document (keptInGame), not in a records-slot document and not
// in its event record. The game's journal comes first; the actor's own
// serves an action that writes no game journal.
func (at *attempt) journaled() (domain.DocID, bool) {
	x, a := at.x, at.x.req.Action
	if (x.sl.journal == "" && x.sl.ownJournal == "") || a.ID == "" || at.hash == "" || len(at.change.Spawn) != 0 || x.plan.RecordInEvent {
		return domain.DocID{}, false
	}
	gw, ok := at.change.GameWrite()
	if !ok || gw.Create || at.keptInGame() {
		return domain.DocID{}, false
	}
	written := map[domain.DocID]bool{}
	for _, w := range at.change.Writes {
		if at.holdsRecord(w) {
			return domain.DocID{}, false
		}
		if !w.Delete && !w.Create {
			written[w.DocID] = true
		}
	}
	journals := []bool{false} // the game's
	if a.Secret == "" && at.change.Session == nil {
		// The actor's own, but for a password's hash or a session signed
		// in: never in a document a client reads, its owner's included.
		journals = append(journals, true)
	}
	for _, own := range journals {
		id, ok := x.sl.journalDoc(a, own)
		if _, read := at.rs.journals[id]; ok && read && written[id] {
			return id, true
		}
	}
	return domain.DocID{}, false
}

// journalWrite returns w, a write of a journal document, with the records
// it keeps: those waiting, and the action's own when it is journaled there
// (then it also moves the waiting ones to a document of their own when
// JournalKeep wait). A write of a journal document this attempt did not read
// keeps whatever records it holds (writeDoc merges it).
//
// An update of a document read as a snapshot (writeDoc: it replaces the
// fields it names, under the update time read) names the records only as
// far as they change: nothing when none is added, the new one appended
// (ArrayUnion) when one is, rather than the whole list of up to
// JournalBytes on every write. The list after the write is noted for the
// instance's copy (keepOwn).
func (at *attempt) journalWrite(w domain.Write) (domain.Write, error) {
	waiting, read := at.rs.journals[w.DocID]
	if w.Delete || (!read && !w.Create) {
		return w, nil
	}
	since, snapshot := at.rs.snapshot[w.DocID]
	update := snapshot && !since.IsZero() && !w.Create
	var appended string
	if id, ok := at.journaled(); ok && id == w.DocID && !at.recordIn {
		version := at.reply().Version
		if len(waiting) >= JournalKeep || listBytes(waiting) >= JournalBytes {
			x := at.x
			ref := x.st.actionRefByID(x.req.GameID, "~journal-"+EventID(version))
			if err := at.tx.Create(ref, map[string]any{fJournal: waiting, fKind: x.entry.Game.Kind(), fAt: at.now}); err != nil {
				return w, err
			}
			waiting, update = nil, false // the list starts again: written whole
		}
		e := journalEntry{Key: recordKey(at.x.req.Action), Hash: at.hash, Version: version,
			Reply: at.replyJSON, Session: at.change.Session, Replay: jsonText(at.inputOf(at.x.req.Action))}
		b, err := json.Marshal(e)
		if err != nil {
			return w, err
		}
		appended = string(b)
		waiting = append(append([]any{}, waiting...), appended)
		at.recordIn = true
	}
	at.rs.journalAfter[w.DocID] = nonNil(waiting)
	switch {
	case update && appended == "":
		return w, nil // the records stay as they are
	case update:
		w.Value = withRecord{value: w.Value, fields: map[string]any{fJournal: firestore.ArrayUnion(appended)}}
	default:
		w.Value = withRecord{value: w.Value, fields: map[string]any{fJournal: nonNil(waiting)}}
	}
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
	if !sl.isJournal(id) {
		return data
	}
	list, _ := data[fJournal].([]any)
	rs.journals[id] = list
	if _, ok := data[fJournal]; !ok {
		return data
	}
	out := maps.Clone(data)
	delete(out, fJournal)
	return out
}

// journalList reads the records waiting in game gameID's journal document
// id with get (none when the document is absent).
func (st *Store) journalList(get func(*firestore.DocumentRef) (*firestore.DocumentSnapshot, error), sl *slots, gameID string, id domain.DocID) ([]any, error) {
	p, err := sl.path(gameID, id)
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

// journalRecord finds the record of action a in game gameID's journal
// document, the actor's own when own, read with get (nil when it is not
// there).
func (st *Store) journalRecord(get func(*firestore.DocumentRef) (*firestore.DocumentSnapshot, error), sl *slots, gameID string, a domain.Action, own bool) (*recorded, error) {
	if sl == nil {
		return nil, nil
	}
	id, ok := sl.journalDoc(a, own)
	if !ok {
		return nil, nil
	}
	list, err := st.journalList(get, sl, gameID, id)
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

// waitingInputs adds to inputs the replay inputs of the records waiting in
// game gameID's journals: the game's, and every player's own (one query).
func (st *Store) waitingInputs(ctx context.Context, sl *slots, gameID string, inputs map[string]replayInput) error {
	var lists [][]any
	if sl.journal != "" {
		list, err := st.journalList(plainGet(ctx), sl, gameID, domain.Doc(sl.journal, ""))
		if err != nil {
			return err
		}
		lists = append(lists, list)
	}
	if sl.ownJournal != "" {
		col, err := sl.collection(gameID, sl.ownJournal)
		if err != nil {
			return err
		}
		snaps, err := st.FS.Collection(col).Documents(ctx).GetAll()
		if err != nil {
			return err
		}
		for _, snap := range snaps {
			list, _ := snap.Data()[fJournal].([]any)
			lists = append(lists, list)
		}
	}
	for _, list := range lists {
		if err := journalInputs(list, inputs); err != nil {
			return err
		}
	}
	return nil
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
