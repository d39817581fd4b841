package store

import (
	"errors"
	"iter"
	"maps"
	"sync"
	"time"

	"cloud.google.com/go/firestore"

	"github.com/meeple-games/meeple/domain"
)

// Warm game documents (issue 22): an instance keeps each game document as
// it last read or committed it, with its update time, and the next action
// on that game run here as a batch takes that copy instead of reading the
// document. Its commit is conditioned on that update time, as a commit after
// a read is (writeGame), so a copy that went stale — another instance, the
// tick or an effect wrote the game meanwhile — fails the commit and the
// action runs again on a fresh read: a stale copy costs one round trip,
// never a wrong write. A one-document action is then one commit.
//
// A copy is trusted only through that commit. An attempt that took it and
// does not write the game document under its guard — a refusal, a retry's
// recorded reply, a read-only action, a change written elsewhere — runs
// again on a fresh read (errCold) before it answers: no caller is refused,
// or told anything, from a copy that may be stale.
//
// A game whose copy went stale turns cold: its actions read it again until
// a read finds the copy this instance kept current (nobody else wrote in
// between), so a game whose players' requests reach two instances pays a
// stale copy once, not on every action. Whether copies pay is also counted
// per action type (warmOdds, a share like txNeedsOf's). A type reads again
// where most copies were stale — requests of one game spread over many
// instances — and its fresh reads go on telling whether a copy would have
// been current; and where most of its runs do not write the game document
// (a Tile Race completion writes its team, a preview nothing), since each
// copy it took would be read again.

// warmMax bounds the copies an instance keeps (a game document is under
// 16 KB stored; its copy as fields a few times that); warmTTL drops the
// copy of a game nobody played for that long.
const (
	warmMax = 512
	warmTTL = 10 * time.Minute
)

// errCold: the attempt took a warm copy and ends without a commit that
// checks it; the action runs again on a fresh read.
var errCold = errors.New("store: a warm game document must be checked by a fresh read")

type warmGames struct {
	mu sync.Mutex
	m  map[string]warmDoc
}

type warmDoc struct {
	data    map[string]any // the fields, as a read returns them
	updated time.Time      // the document's update time
	at      time.Time      // when kept (wall clock)
	// cold: the game's last copy went stale (someone else writes it): its
	// actions read it until a read finds the copy kept here current.
	cold bool
}

// get returns a copy of the document at path, if one is kept and fresh.
func (w *warmGames) get(path string) (map[string]any, time.Time, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	d, ok := w.m[path]
	if !ok || d.cold || time.Since(d.at) >= warmTTL {
		return nil, time.Time{}, false
	}
	// Shallow: readers replace or delete top-level fields (splitLog), and
	// change no value in place.
	return maps.Clone(d.data), d.updated, true
}

// read keeps what a read of path found (data, which the cache now owns, at
// updated) and tells whether the copy kept until then was current: a game
// whose copy was not is cold (only fresh reads) until one was. had is false
// when there was no copy to compare.
func (w *warmGames) read(path string, data map[string]any, updated time.Time) (current, had bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	d, had := w.m[path]
	current = had && d.updated.Equal(updated)
	w.keep(path, warmDoc{data: data, updated: updated, cold: had && !current})
	return current, had
}

// put keeps data (which the cache now owns) as path's document at updated,
// as this instance's commit made it: a cold game stays cold.
func (w *warmGames) put(path string, data map[string]any, updated time.Time) {
	w.mu.Lock()
	defer w.mu.Unlock()
	d, had := w.m[path]
	w.keep(path, warmDoc{data: data, updated: updated, cold: had && d.cold})
}

// stale notes that path's copy was stale: the game turns cold.
func (w *warmGames) stale(path string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if d, ok := w.m[path]; ok {
		d.cold = true
		w.m[path] = d
	}
}

// keep stores d as path's copy unless a newer one is kept already (a
// concurrent action committed later): w.mu held.
func (w *warmGames) keep(path string, d warmDoc) {
	if w.m == nil {
		w.m = map[string]warmDoc{}
	}
	old, had := w.m[path]
	if had && old.updated.After(d.updated) {
		return
	}
	if !had && len(w.m) >= warmMax {
		w.evict()
	}
	d.at = time.Now()
	w.m[path] = d
}

// evict drops expired copies, and the oldest when none has: w.mu held.
func (w *warmGames) evict() {
	var oldest string
	var at time.Time
	for p, d := range w.m {
		if time.Since(d.at) >= warmTTL {
			delete(w.m, p)
			continue
		}
		if oldest == "" || d.at.Before(at) {
			oldest, at = p, d.at
		}
	}
	if len(w.m) >= warmMax {
		delete(w.m, oldest)
	}
}

// forget drops path's copy: the store cannot tell what a write made of it.
func (w *warmGames) forget(path string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	delete(w.m, path)
}

// warmOdds are an action type's counts: how many copies it took were stale,
// how many of its runs did not write the game document, and how many of
// its runs that named a version wrote nothing, asked at the version the
// game document had (answersFromCopy).
type warmOdds struct{ stale, unguarded, asked share }

// worth reports whether the type's next run takes a copy: once a run has
// shown it writes the game document (a type that never does would pay its
// first copy with a second read), and while most do and most copies were
// current.
func (o *warmOdds) worth() bool {
	return o.unguarded.runs.Load() > 0 && !o.unguarded.mostly() && !o.stale.mostly()
}

// warmRead is what a read set does with the game document: take the warm
// copy (use), and tell what it found of it.
type warmRead struct {
	path string
	use  bool
	used bool // the game document came from the copy
	// fresh: a read found the document at the copy's update time (true),
	// at another (false); nil when no copy was there to compare.
	fresh *bool
	// actor is the acting player. The journal documents an action writes
	// with the game document (domain.Slot.Journal: an older fog game's
	// private/state, and the actor's own, which no game writes now) are
	// kept warm too, as this instance last read or wrote them, and taken
	// when use is; own are the documents taken so.
	actor string
	own   map[domain.DocID]*ownCopy
}

// ownCopy is a journal document an attempt took from the instance's copy:
// its path, and whether the attempt writes it under the copy's update time.
type ownCopy struct {
	path  string
	wrote bool
}

// ownDoc reports whether id is a journal document this action may take from
// the instance's copy: the game's (private/state of a fog game created
// before its whole state was sealed in the game document, which every
// action of such a game reads and writes with the game document), or the
// actor's own. Another player's own journal is read fresh.
func (w *warmRead) ownDoc(sl *slots, id domain.DocID) bool {
	return sl.isGameJournal(id) || (sl.isOwnJournal(id) && id.Key == w.actor)
}

// ownChecked reports whether every own document taken from a copy is
// written under its update time (else the attempt runs again on a fresh
// read: errCold).
func (w *warmRead) ownChecked() bool {
	for _, c := range w.own {
		if !c.wrote {
			return false
		}
	}
	return true
}

// warmCopy is a document taken from this instance's copy.
type warmCopy struct {
	id      domain.DocID
	path    string
	data    map[string]any
	updated time.Time
}

// keepOwn keeps doc, a journal document (ownDoc) as this attempt
// writes it whole at path (writeDoc: created, or updated under the update
// time read), as this instance's copy once the batch commits. A
// transaction's commit does not tell the update time: the copy is dropped.
func (at *attempt) keepOwn(id domain.DocID, path string, doc map[string]any) {
	w, st, sl := at.rs.warm, at.x.st, at.x.sl
	if w == nil {
		if sl.isJournal(id) {
			st.warm.forget(path) // written in a transaction: whatever copy is kept is stale
		}
		return
	}
	if !w.ownDoc(sl, id) {
		return
	}
	b, batch := at.tx.(*batchTx)
	var copied any
	if batch && doc != nil {
		fields := maps.Clone(doc)
		delete(fields, fJournal) // what the write sends of the records (an append)
		if list := at.rs.journalAfter[id]; len(list) > 0 {
			fields[fJournal] = list // the records it leaves
		}
		copied, batch = asRead(fields)
	}
	if !batch || doc == nil {
		st.warm.forget(path)
		return
	}
	if c := w.own[id]; c != nil {
		c.wrote = true
	}
	b.onCommit(func(updated time.Time) { st.warm.put(path, copied.(map[string]any), updated) })
}

// afterCommit is the document a game update made, as a read would return
// it: the fields read (with the log fields, which the read set keeps
// apart) and updates applied. ok is false when an update is not one asRead
// can tell the stored form of (then nothing is kept).
func afterCommit(fields, log map[string]any, updates []firestore.Update) (map[string]any, bool) {
	next := maps.Clone(fields)
	maps.Copy(next, log)
	for _, u := range updates {
		if u.Path == "" || len(u.FieldPath) > 0 {
			return nil, false
		}
		for _, c := range u.Path {
			if c == '.' || c == '`' {
				return nil, false
			}
		}
		if u.Value == firestore.Delete { // a private game's room code taken off (gameFields)
			delete(next, u.Path)
			continue
		}
		v, ok := asRead(u.Value)
		if !ok {
			return nil, false
		}
		next[u.Path] = v
	}
	return next, true
}

// asRead is v as Firestore's client returns it on a read: whole numbers as
// int64, timestamps in UTC to the microsecond, lists as []any, bytes
// copied. ok is false for any other kind of value (a sentinel, a struct).
func asRead(v any) (any, bool) {
	switch t := v.(type) {
	case nil, string, bool, int64, float64:
		return t, true
	case int:
		return int64(t), true
	case int32:
		return int64(t), true
	case time.Time:
		return t.UTC().Truncate(time.Microsecond), true
	case []byte: // the log (logpack.go)
		return append([]byte{}, t...), true
	case []string:
		out := make([]any, len(t))
		for i, s := range t {
			out[i] = s
		}
		return out, true
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			var ok bool
			if out[i], ok = asRead(x); !ok {
				return nil, false
			}
		}
		return out, true
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, x := range t {
			var ok bool
			if out[k], ok = asRead(x); !ok {
				return nil, false
			}
		}
		return out, true
	}
	return nil, false
}

// answersFromCopy reports whether the attempt, which writes nothing, read
// no document but the game document, operators' configuration
// (domain.Slot.CacheFor) and the game's journal document as the commit that
// made the game document's version left it: asked at a version its game
// document has, its answer holds for that version whether the documents
// came from this instance's copies or from Firestore, since every write of
// a game document raises its version (writeGame), and the journal document
// (a fog game's private/state, its whole state) has the game document's
// update time only when the same commit wrote both. A call that reads any
// other document of the game (a Tile Race team) reads it as it is now,
// perhaps past that version, so it runs on a fresh read as before. What it
// spares: a read per `legal` or `preview` a web client sends with the
// version it shows, two in a fog game (docs/firestore.md, "Warm game
// documents").
func (at *attempt) answersFromCopy() bool {
	if !at.answersWith(maps.Keys(at.rs.done)) {
		return false
	}
	game, ok := at.rs.snapshot[domain.GameDocID]
	for r := range at.rs.done {
		if at.x.sl.isGameJournal(r.DocID) && (!ok || !at.rs.snapshot[r.DocID].Equal(game)) {
			return false
		}
	}
	return true
}

// answersWith reports whether reads are of the game document, operators'
// configuration and the game's journal document alone (answersFromCopy).
func (at *attempt) answersWith(reads iter.Seq[domain.Read]) bool {
	for r := range reads {
		if r.DocID != domain.GameDocID && at.x.sl.byName[r.Slot].CacheFor <= 0 && !at.x.sl.isGameJournal(r.DocID) {
			return false
		}
	}
	return true
}
