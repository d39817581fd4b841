package store

import (
	"context"
	"encoding/json"
	"maps"
	"reflect"
	"slices"
	"strings"
	"time"

	"cloud.google.com/go/firestore"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/meeple-games/meeple/domain"
)

// slots resolves a game's document slots to Firestore references.
type slots struct {
	kind   string
	byName map[string]domain.Slot
	// records is the slot that keeps action records (domain.Slot.Records;
	// record.go), "" when the game has none.
	records string
	// journal is the game's journal slot (domain.Slot.Journal; journal.go),
	// "" when it has none; ownJournal its keyed journal slot, whose
	// document keyed by a player's id is that player's own journal.
	journal, ownJournal string
}

func newSlots(g domain.Game) *slots {
	s := &slots{kind: g.Kind(), byName: map[string]domain.Slot{}}
	for _, sl := range g.Slots() {
		s.byName[sl.Name] = sl
		if sl.Records && sl.Keyed() {
			s.records = sl.Name
		}
		switch {
		case sl.Journal && !sl.Keyed():
			s.journal = sl.Name
		case sl.Journal && sl.Access == domain.ReadOwner:
			s.ownJournal = sl.Name
		}
	}
	return s
}

// path returns the document path of id in game gameID.
//
// Errors: EINVALID (a key that cannot name a document), EINTERNAL (a slot the
// game did not declare).
func (s *slots) path(gameID string, id domain.DocID) (string, error) {
	if id.Slot == domain.SlotGame {
		return gamePath(gameID), nil
	}
	sl, ok := s.byName[id.Slot]
	if !ok {
		return "", domain.Errorf(domain.EINTERNAL, "%s has no document slot %q", s.kind, id.Slot)
	}
	p := sl.Path
	if sl.Keyed() {
		if !validID(id.Key) {
			return "", domain.Errorf(domain.EINVALID, "%s %q cannot name a document", id.Slot, id.Key)
		}
		p = strings.ReplaceAll(p, "{key}", id.Key)
	}
	if abs, ok := strings.CutPrefix(p, "/"); ok {
		return abs, nil
	}
	return colGames + "/" + gameID + "/" + p, nil
}

// collection returns the collection path of a keyed slot in game gameID.
func (s *slots) collection(gameID, slot string) (string, error) {
	sl, ok := s.byName[slot]
	if !ok || !strings.HasSuffix(sl.Path, "/{key}") {
		return "", domain.Errorf(domain.EINTERNAL, "%s has no keyed document slot %q", s.kind, slot)
	}
	p := strings.TrimSuffix(sl.Path, "/{key}")
	if abs, ok := strings.CutPrefix(p, "/"); ok {
		return abs, nil
	}
	return colGames + "/" + gameID + "/" + p, nil
}

// docJSON turns a document's fields into the JSON a game decodes. A packed
// field's text goes in as stored: the store wrote it with json.Marshal, so
// it is JSON already, and marshalling it as a json.RawMessage checked and
// compacted it again, a pass over the largest field of the document on
// every read (a Tile Race public board's 10 KB on every completion: about
// 50 µs, now 6; BenchmarkDocJSON). Text that is not JSON fails where the
// JSON is decoded.
func docJSON(data map[string]any) (json.RawMessage, error) {
	fields, err := unpacked(data)
	if err != nil {
		return nil, err
	}
	rest := make(map[string]any, len(fields))
	var texts []string // the packed fields, as unpacked gives them
	size := 0
	for k, v := range fields {
		if t, ok := v.(json.RawMessage); ok {
			texts = append(texts, k)
			size += len(k) + len(t) + 4
			continue
		}
		rest[k] = jsonable(v)
	}
	b, err := json.Marshal(rest)
	if err != nil || len(texts) == 0 {
		return b, err
	}
	slices.Sort(texts)
	out := make([]byte, 0, len(b)+size)
	out = append(out, b[:len(b)-1]...) // without its closing brace
	for i, k := range texts {
		if i > 0 || len(b) > 2 {
			out = append(out, ',')
		}
		name, err := json.Marshal(k)
		if err != nil {
			return nil, err
		}
		out = append(out, name...)
		out = append(out, ':')
		out = append(out, fields[k].(json.RawMessage)...)
	}
	return append(out, '}'), nil
}

// readSet is what one action has read: the documents, and for snapshot reads
// the update time a write back must find unchanged (zero: the document did
// not exist).
type readSet struct {
	docs     domain.Docs
	snapshot map[domain.DocID]time.Time
	old      map[domain.DocID]map[string]any // snapshot documents' fields, to clear removed ones
	done     map[domain.Read]bool
	// acts are the action records found in the documents read of the
	// game's records slot (record.go), kept when the game deletes one.
	acts map[domain.DocID]any
	// gameLog is the game document's log fields as read (log.go), which
	// its JSON in docs leaves out; nil when it was not read. gameRoom is
	// what it says of its room (server.go).
	gameLog  map[string]any
	gameRoom gameRoom
	// gameHead is the game document's header as read (checkGame), taken
	// from its fields; nil when it was not read, or they were not what a
	// header is.
	gameHead *domain.GameDoc[json.RawMessage]
	// gameSecret: the game document says its actions are secrets
	// (fSecretActs); gameSealed: it holds sealed text (fSealed); gameViews:
	// it holds sealed views (fViews).
	gameSecret, gameSealed, gameViews bool
	// journals are the records each journal document read held
	// (journal.go), which its JSON in docs leaves out; a document is here,
	// nil list or not, when it was read (found or not). journalAfter are
	// the records each holds after this attempt's write of it.
	journals, journalAfter map[domain.DocID][]any
	// warm is what the read does with the game document's warm copy
	// (warm.go); nil: it neither takes nor keeps one.
	warm *warmRead
}

func newReadSet() *readSet {
	return &readSet{docs: domain.NewDocs(), snapshot: map[domain.DocID]time.Time{},
		old: map[domain.DocID]map[string]any{}, done: map[domain.Read]bool{}, acts: map[domain.DocID]any{},
		journals: map[domain.DocID][]any{}, journalAfter: map[domain.DocID][]any{}}
}

// log is the game document's log fields as read (none when it was not).
func (rs *readSet) log() platformLog {
	if rs.gameLog == nil {
		return platformLog{}
	}
	return logOfFields(rs.gameLog)
}

// keepAct notes the action record a document of the records slot holds.
func (rs *readSet) keepAct(sl *slots, id domain.DocID, data map[string]any) {
	if sl.records != "" && id.Slot == sl.records {
		if act, ok := data[fAct]; ok {
			rs.acts[id] = act
		}
	}
}

// read reads what reads lists that is not read yet: locked documents in one
// batch inside tx, snapshot documents in one batch outside it, whole slots
// with one query each.
func (st *Store) read(ctx context.Context, tx txn, sl *slots, gameID string, rs *readSet, reads []domain.Read) error {
	var locked, snap []*firestore.DocumentRef
	var lockedIDs, snapIDs []domain.DocID
	var warm map[string]any // the game document, from this instance's copy (warm.go)
	var warmAt time.Time
	var copies []warmCopy // journal documents, from this instance's copies
	for _, r := range reads {
		if rs.done[r] {
			continue
		}
		rs.done[r] = true
		if r.All {
			coll, err := sl.collection(gameID, r.Slot)
			if err != nil {
				return err
			}
			q := st.FS.Collection(coll).Query
			if r.Newest > 0 && r.Order != "" {
				q = q.OrderBy(r.Order, firestore.Desc).Limit(r.Newest)
			}
			snaps, err := tx.query(q)
			if err != nil {
				return err
			}
			found := map[string]json.RawMessage{}
			for _, s := range snaps {
				j, err := docJSON(s.Data())
				if err != nil {
					return err
				}
				found[s.Ref.ID] = j
				rs.keepAct(sl, domain.Doc(r.Slot, s.Ref.ID), s.Data())
			}
			rs.docs.PutAll(r.Slot, found)
			continue
		}
		p, err := sl.path(gameID, r.DocID)
		if err != nil {
			return err
		}
		// Operators' configuration (domain.Slot.CacheFor): the instance's
		// copy while fresh, else read with the other snapshots and kept.
		if ttl := sl.byName[r.Slot].CacheFor; r.Snapshot && ttl > 0 {
			if raw, ok := st.configs.get(p, ttl); ok {
				rs.docs.Put(r.DocID, raw)
				continue
			}
		}
		if w := rs.warm; w != nil && w.use && r.Snapshot && r.DocID == domain.GameDocID {
			if data, updated, ok := st.warm.get(p); ok {
				w.used, warm, warmAt = true, data, updated
				continue
			}
		}
		if w := rs.warm; w != nil && w.use && r.Snapshot && w.ownDoc(sl, r.DocID) {
			// A journal document (the game's, or the actor's own), as
			// this instance last wrote it (warm.go): its write is guarded
			// by that update time.
			if data, updated, ok := st.warm.get(p); ok {
				w.own[r.DocID] = &ownCopy{path: p}
				copies = append(copies, warmCopy{r.DocID, p, data, updated})
				continue
			}
		}
		if r.Snapshot {
			snap, snapIDs = append(snap, st.FS.Doc(p)), append(snapIDs, r.DocID)
		} else {
			locked, lockedIDs = append(locked, st.FS.Doc(p)), append(lockedIDs, r.DocID)
		}
	}
	// take puts one document read (data nil: it does not exist) into rs.
	take := func(id domain.DocID, path string, data map[string]any, updated time.Time, snapshot bool) error {
		if snapshot {
			rs.snapshot[id] = time.Time{}
		}
		var j json.RawMessage
		data = rs.keepJournal(sl, id, data)
		if data != nil {
			if id == domain.GameDocID {
				// The platform's log fields stay the platform's: the
				// game's document JSON, which the game and the checks
				// decode whole, leaves them out (about half of it).
				rs.gameLog, rs.gameRoom, rs.gameHead = splitLog(data), roomOfFields(data), headOfFields(data)
				rs.gameSecret, _ = data[fSecretActs].(bool)
				_, rs.gameSealed = data[fSealed]
				_, rs.gameViews = data[fViews]
			}
			var err error
			if j, err = docJSON(data); err != nil {
				return err
			}
		}
		if sl.byName[id.Slot].CacheFor > 0 {
			st.configs.put(path, j)
		}
		rs.docs.Put(id, j)
		if data == nil {
			return nil
		}
		rs.keepAct(sl, id, data)
		if snapshot {
			rs.snapshot[id] = updated
			rs.old[id] = data
		}
		return nil
	}
	put := func(ids []domain.DocID, snaps []*firestore.DocumentSnapshot, snapshot bool) error {
		for i, s := range snaps {
			var data map[string]any
			if s.Exists() {
				data = s.Data()
			}
			if w := rs.warm; w != nil && snapshot && ids[i] == domain.GameDocID && data != nil {
				// What this read tells of the copy, and the copy from now.
				if current, had := st.warm.read(w.path, maps.Clone(data), s.UpdateTime); had {
					w.fresh = &current
				}
			}
			if w := rs.warm; w != nil && snapshot && data != nil && w.ownDoc(sl, ids[i]) {
				st.warm.read(docPath(s.Ref), maps.Clone(data), s.UpdateTime)
			}
			if err := take(ids[i], docPath(s.Ref), data, s.UpdateTime, snapshot); err != nil {
				return err
			}
		}
		return nil
	}
	if warm != nil {
		if err := take(domain.GameDocID, rs.warm.path, warm, warmAt, true); err != nil {
			return err
		}
	}
	for _, c := range copies {
		if err := take(c.id, c.path, c.data, c.updated, true); err != nil {
			return err
		}
	}
	if len(snap) > 0 {
		snaps, err := st.FS.GetAll(ctx, snap)
		if err != nil {
			return err
		}
		if err := put(snapIDs, snaps, true); err != nil {
			return err
		}
	}
	if len(locked) > 0 {
		snaps, err := tx.GetAll(locked)
		if err != nil {
			return err
		}
		if err := put(lockedIDs, snaps, false); err != nil {
			return err
		}
	}
	return nil
}

// docFields is the stored form of a game's document value; the fields named
// in packed (domain.Slot.Packed) are stored as their JSON text.
func docFields(v any, now time.Time, packed []string) (map[string]any, error) {
	var act, fields map[string]any
	if w, ok := v.(withRecord); ok {
		v, act, fields = w.value, w.act, w.fields
	}
	var doc map[string]any
	var err error
	if len(packed) > 0 {
		doc, err = packedFields(v, packed)
	} else {
		doc, err = objectFields(v)
	}
	if err != nil {
		return nil, err
	}
	doc[fUpdatedAt] = now
	if act != nil {
		doc[fAct] = act
	}
	maps.Copy(doc, fields)
	return doc, nil
}

// writeDoc writes one document of a game (not the game document). A
// document read as a snapshot is written only if it has not changed since.
func writeDoc(tx txn, ref *firestore.DocumentRef, w domain.Write, rs *readSet, now time.Time, sl *slots) error {
	_, err := writeWhole(tx, ref, w, rs, now, sl)
	return err
}

// writeWhole is writeDoc, and returns the document's fields when the write
// makes the document exactly those (a create, or an update under the
// update time read): what a read would find after it (nil otherwise).
func writeWhole(tx txn, ref *firestore.DocumentRef, w domain.Write, rs *readSet, now time.Time, sl *slots) (map[string]any, error) {
	if w.DocID.Slot == domain.SlotOutbox && !w.Delete {
		return nil, createOutbox(tx, ref, w.Value, sl.kind, now)
	}
	packed := sl.byName[w.DocID.Slot].Packed
	since, snapshot := rs.snapshot[w.DocID]
	var pre []firestore.Precondition
	if snapshot && !since.IsZero() {
		pre = append(pre, firestore.LastUpdateTime(since))
	}
	switch {
	case w.Delete && rs.acts[w.DocID] != nil:
		// The document keeps an action's record: it stays as a stub
		// holding the record alone (record.go).
		return nil, tx.Set(ref, map[string]any{fAct: rs.acts[w.DocID], fUpdatedAt: now})
	case w.Delete:
		return nil, tx.Delete(ref, pre...)
	case w.Create || (snapshot && since.IsZero()):
		doc, err := docFields(w.Value, now, packed)
		if err != nil {
			return nil, err
		}
		return doc, tx.Create(ref, doc)
	case snapshot:
		doc, err := docFields(w.Value, now, packed)
		if err != nil {
			return nil, err
		}
		// Update (the only write that takes a precondition) replaces the
		// fields given; fields the new value dropped are deleted.
		var ups []firestore.Update
		for k, v := range doc {
			ups = append(ups, firestore.Update{FieldPath: firestore.FieldPath{k}, Value: v})
		}
		for k := range rs.old[w.DocID] {
			if _, kept := doc[k]; !kept {
				ups = append(ups, firestore.Update{FieldPath: firestore.FieldPath{k}, Value: firestore.Delete})
			}
		}
		return doc, tx.Update(ref, ups, pre...)
	default:
		doc, err := docFields(w.Value, now, packed)
		if err != nil {
			return nil, err
		}
		if _, read := rs.journals[w.DocID]; sl.isJournal(w.DocID) && !read {
			// A journal document written unread (a fog game's orders):
			// its fields replaced, the records it holds kept (journal.go).
			// A merge alone would keep a field the new value leaves out
			// (an empty list, omitted): every field the slot's type
			// declares that the value does not have is deleted.
			var paths []firestore.FieldPath
			for k := range doc {
				paths = append(paths, firestore.FieldPath{k})
			}
			for _, k := range jsonFields(sl.byName[w.DocID.Slot].Type) {
				if _, ok := doc[k]; !ok && k != fJournal {
					doc[k] = firestore.Delete
					paths = append(paths, firestore.FieldPath{k})
				}
			}
			return nil, tx.Set(ref, doc, firestore.Merge(paths...))
		}
		return nil, tx.Set(ref, doc)
	}
}

// notFound reports a Firestore NotFound.
func notFound(err error) bool { return status.Code(err) == codes.NotFound }

// jsonFields are the top-level JSON field names of a value of v's type (a
// struct, or a pointer to one; none for anything else), embedded structs'
// fields included, and the platform's field "packed".
func jsonFields(v any) []string {
	t := reflect.TypeOf(v)
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || t.Kind() != reflect.Struct {
		return nil
	}
	var out []string
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		for f := range t.Fields() {
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			switch {
			case name == "-" || !f.IsExported() && !f.Anonymous:
			case f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct:
				walk(f.Type)
			case name == "":
				out = append(out, f.Name)
			default:
				out = append(out, name)
			}
		}
	}
	walk(t)
	return append(out, domain.PackedField)
}
