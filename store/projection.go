package store

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"sync"
	"time"

	"cloud.google.com/go/firestore"
	"cloud.google.com/go/firestore/apiv1/firestorepb"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// The projection pass reads the records marked due in the order of their
// commits, from a cursor kept in config/projectionPass, so it never writes a
// record back (issue 22: clearing each record's mark was a write more per
// Tile Race award and per game end, and a trigger delivery more).
//
// The order is projectAt, a server timestamp. A commit can become visible
// after others stamped later (the emulator stamps a transaction when its
// commit arrives, and it may then wait for locks: up to 0.5 s measured), so a
// record can appear behind the cursor. The pass keeps how many records it
// took in each second of the last LateWindow before the cursor (seen: the
// records strictly before it; tie: those stamped the cursor's very time), and
// every pass counts that window (an aggregation: one read per 1,000 records);
// when the counts differ, it reads the window again and takes what it finds
// (a rebuild redone changes nothing). A record visible more than LateWindow
// after its stamp would be missed.
//
// So that the count rarely differs (reading the window again costs a read
// per record of it), a deployed pass takes only records stamped at least
// Store.ProjectionSettle ago, by the wall clock: commits stamped before
// that are visible by then.
const (
	// LateWindow is how long after its commit's time a record may become
	// visible and still be projected.
	LateWindow = time.Minute
	// LegacyFor is how long after the cursor first moved the pass still
	// looks for marks of the ways written before it (projectDue records,
	// projections/* documents): the instances of an older deployment are
	// gone by then.
	LegacyFor = 10 * time.Minute
	// DefaultProjectionSettle is Store.ProjectionSettle as deployed: above
	// the 0.53 s the emulator was seen to make a record visible after others
	// stamped later; production stamps a commit with its own time.
	DefaultProjectionSettle = 750 * time.Millisecond
	// legacyEvery is how often an instance looks for old marks meanwhile
	// (its first pass always does): two queries, each a read even when empty.
	legacyEvery = 30 * time.Second

	fCursorAt    = "cursorAt"    // config/projectionPass: the last record taken, its projectAt
	fCursorDoc   = "cursorDoc"   // … and its path (ties)
	fSeen        = "seen"        // … records taken per second (unix seconds → count), the last LateWindow, strictly before cursorAt
	fCursorTie   = "cursorTie"   // … records taken stamped cursorAt itself
	fCursorSince = "cursorSince" // … when the cursor first moved (for LegacyFor)
)

// projectionMark is what asks the tick's projection pass to rebuild the
// boards a record's stats changed and, when project, its game's projection:
// fields of the event record itself. The action writes them when it creates
// the record (nothing else to wait for), the effects' transaction when it
// clears the record's pending flag. Nil when there is nothing to ask.
func projectionMark(boards []Board, project bool) map[string]any {
	if len(boards) == 0 && !project {
		return nil
	}
	bs := make([]map[string]any, 0, len(boards))
	for _, b := range boards {
		bs = append(bs, map[string]any{"kind": b.Kind, "mode": b.Mode})
	}
	return map[string]any{fProjectAt: firestore.ServerTimestamp, fBoards: bs, fProject: project}
}

// passCursor is config/projectionPass's cursor: where the last pass
// stopped, what it took in the seconds before, and since when.
type passCursor struct {
	at    time.Time
	doc   string
	seen  map[int64]int64
	tie   int64
	since time.Time
}

func (c passCursor) clone() passCursor {
	out := c
	out.seen = make(map[int64]int64, len(c.seen))
	for k, v := range c.seen {
		out.seen[k] = v
	}
	return out
}

// window is the span the late check counts: from the second LateWindow
// before the cursor to the cursor (excluded: a record stamped its very time
// may come after it, by path).
func (c passCursor) window() (from, to time.Time) {
	return c.at.Add(-LateWindow).Truncate(time.Second), c.at
}

// expected is how many records the passes took in the window.
func (c passCursor) expected() int64 {
	from, to := c.window()
	var n int64
	for sec, k := range c.seen {
		if sec >= from.Unix() && sec <= to.Unix() {
			n += k
		}
	}
	return n
}

func cursorOf(data map[string]any) passCursor {
	c := passCursor{seen: map[int64]int64{}}
	c.at, _ = data[fCursorAt].(time.Time)
	c.doc, _ = data[fCursorDoc].(string)
	c.since, _ = data[fCursorSince].(time.Time)
	c.tie, _ = data[fCursorTie].(int64)
	if m, ok := data[fSeen].(map[string]any); ok {
		for k, v := range m {
			sec, err := strconv.ParseInt(k, 10, 64)
			n, ok := v.(int64)
			if err == nil && ok {
				c.seen[sec] = n
			}
		}
	}
	return c
}

// passCursorCache is the cursor as this instance last read or wrote it, so
// a pass need not read config/projectionPass: another instance's pass may
// have moved it since, and then this one takes again records already taken
// (a rebuild redone changes nothing; the counts are set anew from what the
// pass reads).
//
// Old marks are looked for at an instance's first pass and then every
// legacyEvery, while LegacyFor has not passed since the cursor first moved.
type passCursorCache struct {
	mu    sync.Mutex
	c     passCursor
	known bool
	// legacyAt: when this instance last looked for old marks (wall clock).
	legacyAt time.Time
}

// legacyDue reports whether this instance's pass should look for old marks
// now, and if so notes that it did.
func (pc *passCursorCache) legacyDue() bool {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	if !pc.legacyAt.IsZero() && time.Since(pc.legacyAt) < legacyEvery {
		return false
	}
	pc.legacyAt = time.Now()
	return true
}

func (pc *passCursorCache) get() (passCursor, bool) {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	return pc.c.clone(), pc.known
}

func (pc *passCursorCache) set(c passCursor) {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	pc.c, pc.known = c.clone(), true
}

func (pc *passCursorCache) forget() {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	pc.known = false
}

// ProjectionPass is one run of the tick's projection pass: the records
// marked due after the cursor (up to a limit), those found behind it, and
// what they ask for. Its writes go through only while it is the latest pass
// to have started, so an older pass that overlaps a newer one can never
// write over the newer one's boards with what it read earlier, nor move the
// cursor.
type ProjectionPass struct {
	st      *Store
	id      string
	now     time.Time
	claimed time.Time // config/projectionPass's update time once claimed
	cursor  passCursor
	// recount: the window was read again (its counts differed); window are
	// the records of it, by second.
	recount bool
	window  map[int64]int64
	records []passRecord
	// Boards and Games are what the records ask for, each once, in the order
	// of their first record.
	Boards []Board
	Games  []GameRef
}

type passRecord struct {
	ref  *firestore.DocumentRef
	kind recordKind
	at   time.Time // projectAt (cursor and behind)
	// boards and game are what the record asks for.
	boards []Board
	game   *GameRef
}

type recordKind int

const (
	afterCursor  recordKind = iota // found by the cursor's query
	behindCursor                   // found again in the window (late, or already taken)
	markedDue                      // marked the old way: projectDue, cleared when done
	legacyMarker                   // a projections/* document, deleted when done
)

// Records is how many event records (markers) the pass took.
func (p *ProjectionPass) Records() int { return len(p.records) }

func (s *Store) passRef() *firestore.DocumentRef {
	return s.FS.Collection(colConfig).Doc(docProjectionPass)
}

// check, inside a write's transaction, fails with ErrSuperseded once a
// newer pass has started. A nil pass checks nothing.
func (p *ProjectionPass) check(tx txn) error {
	if p == nil {
		return nil
	}
	snap, err := tx.Get(p.st.passRef())
	if notFound(err) {
		return ErrSuperseded
	}
	if err != nil {
		return err
	}
	if id, _ := snap.Data()[fPass].(string); id != p.id {
		return ErrSuperseded
	}
	return nil
}

func (p *ProjectionPass) reads() int {
	if p == nil {
		return 0
	}
	return 1
}

// BeginProjection starts a projection pass as of now: it counts the records
// of the late window behind the cursor (reading them all when the count is
// not what the passes took), reads up to limit event records marked due
// after the cursor (projectAt, then the path: a collection-group index on
// projectAt), then, while the limit allows and old marks are looked for
// (passCursorCache), records marked the old way (projectDue) and marker
// documents from before issue 22 (projections/*), and claims the pass
// (config/projectionPass), so that passes still running from before write
// nothing more. It returns nil when there is nothing to do.
//
// Cost: the cursor's document when this instance does not know it (1 read),
// the count (1 read per 1,000 records of the window; none before the cursor
// has moved), 1 read per record found (at least 1), and 1 each for the old
// marks while they are looked for; the window's records when a count
// differs; with records, 1 write to claim (and 1 to move the cursor:
// Finish).
func (s *Store) BeginProjection(ctx context.Context, now time.Time, limit int) (*ProjectionPass, error) {
	cur, known := s.projCursor.get()
	if !known {
		snap, err := s.passRef().Get(ctx)
		if err != nil && !notFound(err) {
			return nil, err
		}
		cur = passCursor{seen: map[int64]int64{}}
		if err == nil {
			cur = cursorOf(snap.Data())
		}
		s.projCursor.set(cur)
	}
	p := &ProjectionPass{st: s, id: NewID(), now: now, cursor: cur}
	events := s.FS.CollectionGroup(colEvents)
	var found []*firestore.DocumentSnapshot
	var kinds []recordKind
	add := func(snaps []*firestore.DocumentSnapshot, k recordKind) {
		for _, sn := range snaps {
			found, kinds = append(found, sn), append(kinds, k)
		}
	}
	if !cur.at.IsZero() {
		from, to := cur.window()
		q := events.Where(fProjectAt, ">=", from).Where(fProjectAt, "<", to)
		res, err := q.NewAggregationQuery().WithCount("n").Get(ctx)
		if err != nil {
			return nil, err
		}
		n := int64(-1)
		if v, ok := res["n"].(*firestorepb.Value); ok {
			n = v.GetIntegerValue()
		}
		if n != cur.expected() {
			snaps, err := q.Documents(ctx).GetAll()
			if err != nil {
				return nil, err
			}
			p.recount, p.window = true, map[int64]int64{}
			for _, sn := range snaps {
				if at, ok := sn.Data()[fProjectAt].(time.Time); ok {
					p.window[at.Unix()]++
				}
			}
			add(snaps, behindCursor)
		}
	}
	q := events.OrderBy(fProjectAt, firestore.Asc).OrderBy(firestore.DocumentID, firestore.Asc)
	if !cur.at.IsZero() && cur.doc != "" {
		q = q.StartAfter(cur.at, s.FS.Doc(cur.doc))
	}
	if s.ProjectionSettle > 0 {
		q = q.Where(fProjectAt, "<=", time.Now().Add(-s.ProjectionSettle))
	}
	snaps, err := q.Limit(limit).Documents(ctx).GetAll()
	if err != nil {
		return nil, err
	}
	add(snaps, afterCursor)
	if left := limit - len(snaps); left > 0 && (cur.since.IsZero() || now.Sub(cur.since) < LegacyFor) && s.projCursor.legacyDue() {
		old, err := events.Where(fProjectDue, "==", true).OrderBy(fAt, firestore.Asc).Limit(left).Documents(ctx).GetAll()
		if err != nil {
			return nil, err
		}
		add(old, markedDue)
		if left -= len(old); left > 0 {
			legacy, err := s.FS.Collection(colProjections).OrderBy(fAt, firestore.Asc).Limit(left).Documents(ctx).GetAll()
			if err != nil {
				return nil, err
			}
			add(legacy, legacyMarker)
		}
	}
	seenBoard, seenGame := map[Board]bool{}, map[string]bool{}
	for i, snap := range found {
		rec := passRecord{ref: snap.Ref, kind: kinds[i]}
		data := snap.Data()
		game, _ := data[fGame].(string)
		if rec.kind != legacyMarker {
			var ok bool
			if game, ok = gameOf(snap.Ref); !ok {
				continue
			}
			rec.at, _ = data[fProjectAt].(time.Time)
		}
		var bs []Board
		if err := fromFirestore(data[fBoards], &bs); err == nil {
			for _, b := range bs {
				if validID(b.Kind) && validID(b.Mode) {
					rec.boards = append(rec.boards, b)
					if !seenBoard[b] {
						seenBoard[b] = true
						p.Boards = append(p.Boards, b)
					}
				}
			}
		}
		if project, _ := data[fProject].(bool); project && validID(game) {
			kind, _ := data[fKind].(string)
			rec.game = &GameRef{ID: game, Kind: kind}
			if !seenGame[game] {
				seenGame[game] = true
				p.Games = append(p.Games, *rec.game)
			}
		}
		p.records = append(p.records, rec)
	}
	if len(p.records) == 0 && !p.recount {
		return nil, nil
	}
	// Merged, so the cursor stays.
	res, err := s.passRef().Set(ctx, map[string]any{fPass: p.id, fAt: now}, firestore.Merge([]string{fPass}, []string{fAt}))
	if err != nil {
		return nil, err
	}
	p.claimed = res.UpdateTime
	return p, nil
}

// Finish records what the pass did. The cursor moves past the records
// after it whose work is done, up to the first that asked for a board or a
// game that failed (that one and those after it are taken again by the next
// pass; redoing a rebuild changes nothing), and the counts of the seconds
// they fall in grow; a window read again (its counts differed) sets its
// counts when nothing failed. That is one write, which goes through only if
// no newer pass has claimed since this one did (it redoes it all). A record
// marked the old way has its mark cleared and a legacy marker document is
// deleted (one write each). Every rebuild of the pass read after the
// records' transactions had committed, so a record passed has its changes
// in the boards. A record deleted meanwhile (its game was) is done.
func (p *ProjectionPass) Finish(ctx context.Context, failedBoards map[Board]bool, failedGames map[string]bool) error {
	bad := func(r passRecord) bool {
		if r.game != nil && failedGames[r.game.ID] {
			return true
		}
		return slices.ContainsFunc(r.boards, func(b Board) bool { return failedBoards[b] })
	}
	errs := []error{p.clearOldMarks(ctx, bad)}
	next := p.cursor.clone()
	recounted := p.recount && !slices.ContainsFunc(p.records, bad)
	if recounted {
		// The window's records as read replace its remembered counts.
		from, to := p.cursor.window()
		for sec := range next.seen {
			if sec >= from.Unix() && sec <= to.Unix() {
				delete(next.seen, sec)
			}
		}
		for sec, n := range p.window {
			next.seen[sec] += n
		}
	}
	moved := false
	for _, r := range p.records {
		if r.kind != afterCursor || r.at.IsZero() {
			continue
		}
		if bad(r) {
			break // this one and those after it: the next pass
		}
		if r.at.After(next.at) {
			if !next.at.IsZero() {
				next.seen[next.at.Unix()] += next.tie // now strictly before
			}
			next.at, next.tie = r.at, 0
		}
		next.tie++
		next.doc, moved = docPath(r.ref), true
	}
	if !moved && !recounted {
		return errors.Join(errs...)
	}
	if next.since.IsZero() {
		next.since = p.now
	}
	from, _ := next.window()
	seen := map[string]any{}
	for sec, n := range next.seen {
		if sec < from.Unix() {
			delete(next.seen, sec)
			continue
		}
		seen[strconv.FormatInt(sec, 10)] = n
	}
	ups := []firestore.Update{{Path: fSeen, Value: seen}, {Path: fCursorSince, Value: next.since}, {Path: fCursorTie, Value: next.tie}}
	if !next.at.IsZero() {
		ups = append(ups, firestore.Update{Path: fCursorAt, Value: next.at}, firestore.Update{Path: fCursorDoc, Value: next.doc})
	}
	_, err := p.st.passRef().Update(ctx, ups, firestore.LastUpdateTime(p.claimed))
	switch {
	case err == nil:
		p.st.projCursor.set(next)
	case status.Code(err) == codes.FailedPrecondition:
		// A newer pass claimed: it redoes these. This instance's copy of
		// the cursor may be behind; read it again next time.
		p.st.projCursor.forget()
	default:
		errs = append(errs, err)
		p.st.projCursor.forget()
	}
	return errors.Join(errs...)
}

// clearOldMarks clears the mark of every record marked the old way and
// deletes every legacy marker document whose work succeeded (bulk: one
// write each).
func (p *ProjectionPass) clearOldMarks(ctx context.Context, bad func(passRecord) bool) error {
	var bw *firestore.BulkWriter
	var jobs []*firestore.BulkWriterJob
	for _, r := range p.records {
		if (r.kind != markedDue && r.kind != legacyMarker) || bad(r) {
			continue
		}
		if bw == nil {
			bw = p.st.FS.BulkWriter(ctx)
		}
		var j *firestore.BulkWriterJob
		var err error
		if r.kind == legacyMarker {
			j, err = bw.Delete(r.ref)
		} else {
			j, err = bw.Update(r.ref, []firestore.Update{{Path: fProjectDue, Value: firestore.Delete}})
		}
		if err != nil {
			bw.End()
			return err
		}
		jobs = append(jobs, j)
	}
	if bw == nil {
		return nil
	}
	bw.End()
	var errs []error
	for _, j := range jobs {
		if _, err := j.Results(); err != nil && !notFound(err) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
