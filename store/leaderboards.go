package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"time"

	"cloud.google.com/go/firestore"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/meeple-games/meeple/domain"
)

// Leaderboards and projections are built in the tick, not by the effects
// (docs/triggers.md, "Leaderboards and projections"): an effect writes only
// per-player (per-team) documents and a marker of its own
// (projections/{gameId}~{recordId}); the tick's projection pass reads the
// markers (one query), rebuilds every leaderboard they name from a query
// over the players' totals, runs the projection of every game they name,
// and deletes them. No document is written by every game end or every
// award.

// Leaderboard sizes: Top entries are shown; up to LeaderboardPool are kept
// (Reserve), so a client can show more than the top.
const (
	LeaderboardTop  = 10
	LeaderboardPool = 50
)

// The projection pass's documents (server only: firestore.rules has no rule
// for them) and their fields.
const (
	colProjections    = "projections"    // projections/{gameId}~{recordId}: a record's rebuilds to do, as written before issue 22 (still read)
	fProjectDue       = "projectDue"     // event record: marked due the way written before the cursor (still read and cleared)
	fProjectAt        = "projectAt"      // event record: the pass has rebuilds to do for it (fBoards, fProject); its commit's time
	docProjectionPass = "projectionPass" // config/projectionPass: the latest pass
	fRankKey          = "rankKey"        // players/{id}.stats.{kind}.{mode}.rankKey
	fGame             = "game"           // legacy marker: the game
	fBoards           = "boards"         // the leaderboards the record's effects changed
	fProject          = "project"        // the game's projection is due
	fPass             = "pass"           // config/projectionPass: the pass that may write
)

// ErrSuperseded is returned by a projection pass's writes once a newer pass
// has started: the newer one redoes its work (see BeginProjection).
var ErrSuperseded = errors.New("store: a newer projection pass has started")

// LeaderboardID is the id of the leaderboard of one kind and mode.
func LeaderboardID(kind, mode string) string { return kind + "-" + mode }

// LeaderEntry is one line of a leaderboard.
type LeaderEntry struct {
	PlayerID string `json:"playerId" firestore:"playerId"`
	Name     string `json:"name" firestore:"name"`
	Wins     int64  `json:"wins" firestore:"wins"`
	Losses   int64  `json:"losses" firestore:"losses"`
	Draws    int64  `json:"draws" firestore:"draws"`
}

// ranksBefore orders a leaderboard: more wins first, then fewer losses, then
// player id. It is a strict total order.
func (e LeaderEntry) ranksBefore(o LeaderEntry) bool {
	if e.Wins != o.Wins {
		return e.Wins > o.Wins
	}
	if e.Losses != o.Losses {
		return e.Losses < o.Losses
	}
	return e.PlayerID < o.PlayerID
}

func sortEntries(es []LeaderEntry) {
	sort.SliceStable(es, func(i, j int) bool { return es[i].ranksBefore(es[j]) })
}

// rankKey orders players as ranksBefore does, but for wins and losses only,
// in one number a query can order by: wins·2³² − losses (losses stay far
// below 2³²). Equal keys are equal wins and losses; the player id decides.
func rankKey(t Totals) int64 { return t.Wins<<32 - t.Losses }

// Leaderboard is the document leaderboards/{kind}-{mode}.
type Leaderboard struct {
	Kind    string        `json:"kind" firestore:"kind"`
	Mode    string        `json:"mode" firestore:"mode"`
	Entries []LeaderEntry `json:"entries" firestore:"entries"` // the top LeaderboardTop, in order
	Reserve []LeaderEntry `json:"reserve" firestore:"reserve"` // the next ones, in order, up to LeaderboardPool in all
	// Complete is true while Entries and Reserve hold every player who has a
	// result in this kind and mode.
	Complete  bool      `json:"complete" firestore:"complete"`
	UpdatedAt time.Time `json:"updatedAt" firestore:"updatedAt"`
}

// LeaderboardDoc reads leaderboards/{kind}-{mode}; a board nobody has played
// yet (or that the tick has not built yet) is empty and complete.
func (s *Store) LeaderboardDoc(ctx context.Context, kind, mode string) (Leaderboard, error) {
	snap, err := s.leaderboardRef(kind, mode).Get(ctx)
	if status.Code(err) == codes.NotFound {
		return Leaderboard{Kind: kind, Mode: mode, Complete: true}, nil
	}
	if err != nil {
		return Leaderboard{}, err
	}
	return decodeLeaderboard(snap, kind, mode)
}

func (s *Store) leaderboardRef(kind, mode string) *firestore.DocumentRef {
	return s.FS.Collection(colLeaderboard).Doc(LeaderboardID(kind, mode))
}

func decodeLeaderboard(snap *firestore.DocumentSnapshot, kind, mode string) (Leaderboard, error) {
	b := Leaderboard{Kind: kind, Mode: mode, Complete: true}
	if !snap.Exists() {
		return b, nil
	}
	if err := snap.DataTo(&b); err != nil {
		return Leaderboard{}, fmt.Errorf("store: leaderboard %s: %w", snap.Ref.ID, err)
	}
	if b.Entries == nil {
		b.Entries = []LeaderEntry{}
	}
	if b.Reserve == nil {
		b.Reserve = []LeaderEntry{}
	}
	return b, nil
}

// sameBoard reports whether two boards show the same thing (their time
// aside).
func sameBoard(a, b Leaderboard) bool {
	same := func(x, y []LeaderEntry) bool {
		if len(x) != len(y) {
			return false
		}
		for i := range x {
			if x[i] != y[i] {
				return false
			}
		}
		return true
	}
	return a.Kind == b.Kind && a.Mode == b.Mode && a.Complete == b.Complete && same(a.Entries, b.Entries) && same(a.Reserve, b.Reserve)
}

// Board names one leaderboard.
type Board struct {
	Kind string `json:"kind"`
	Mode string `json:"mode"`
}

// GameRef names one game.
type GameRef struct{ ID, Kind string }

// Rebuilt says what one rebuild did: whether it wrote, and how many
// documents it read (a query that finds nothing counts one, as Firestore
// bills it).
type Rebuilt struct {
	Changed bool
	Reads   int
}

// RebuildLeaderboard rebuilds leaderboards/{kind}-{mode} from the players'
// totals outside any projection pass (tests, operators); the tick uses
// (*ProjectionPass).Leaderboard.
func (s *Store) RebuildLeaderboard(ctx context.Context, kind, mode string) (Rebuilt, error) {
	return s.rebuild(ctx, nil, Board{kind, mode}, s.now())
}

// rankedPlayers is the board of one kind and mode as the players' totals
// make it: one query for the LeaderboardPool+1 highest rank keys (the
// automatic single-field index on stats.{kind}.{mode}.rankKey), and, when
// equal keys straddle the pool's end, a second for the lowest ids among
// them (equality on the key, ordered by id: the same index). Firestore
// orders equal keys of a descending query by descending id, which is not
// the board's order, hence the second query; it reads no more than the
// places left.
func (s *Store) rankedPlayers(ctx context.Context, b Board) (entries []LeaderEntry, complete bool, reads int, err error) {
	key := firestore.FieldPath{"stats", b.Kind, b.Mode, fRankKey}
	players := s.FS.Collection(colPlayers)
	snaps, err := players.OrderByPath(key, firestore.Desc).Limit(LeaderboardPool + 1).Documents(ctx).GetAll()
	if err != nil {
		return nil, false, 0, err
	}
	reads = max(1, len(snaps))
	keyOf := func(snap *firestore.DocumentSnapshot) int64 {
		v, _ := snap.DataAtPath(key)
		n, _ := v.(int64)
		return n
	}
	entryOf := func(snap *firestore.DocumentSnapshot) LeaderEntry {
		data := snap.Data()
		t := totalsIn(data, b.Kind, b.Mode)
		name, _ := data["name"].(string)
		return LeaderEntry{PlayerID: snap.Ref.ID, Name: name, Wins: t.Wins, Losses: t.Losses, Draws: t.Draws}
	}
	if len(snaps) <= LeaderboardPool {
		for _, snap := range snaps {
			entries = append(entries, entryOf(snap))
		}
		sortEntries(entries)
		return entries, true, reads, nil
	}
	edge := keyOf(snaps[LeaderboardPool-1])
	pool := snaps[:LeaderboardPool]
	if keyOf(snaps[LeaderboardPool]) == edge {
		pool = nil
		for _, snap := range snaps[:LeaderboardPool] {
			if keyOf(snap) > edge {
				pool = append(pool, snap)
			}
		}
		tied, err := players.WherePath(key, "==", edge).OrderBy(firestore.DocumentID, firestore.Asc).
			Limit(LeaderboardPool - len(pool)).Documents(ctx).GetAll()
		if err != nil {
			return nil, false, 0, err
		}
		reads += max(1, len(tied))
		pool = append(pool, tied...)
	}
	for _, snap := range pool {
		entries = append(entries, entryOf(snap))
	}
	sortEntries(entries)
	return entries, false, reads, nil
}

// rebuild builds one board from the players' totals and writes it when it
// changed; with a pass, only while no newer pass has started.
func (s *Store) rebuild(ctx context.Context, p *ProjectionPass, b Board, now time.Time) (Rebuilt, error) {
	var out Rebuilt
	err := s.retrying(ctx, func() error {
		out = Rebuilt{}
		entries, complete, reads, err := s.rankedPlayers(ctx, b)
		if err != nil {
			return err
		}
		out.Reads = reads
		top := min(len(entries), LeaderboardTop)
		lb := Leaderboard{Kind: b.Kind, Mode: b.Mode, Complete: complete, UpdatedAt: now,
			Entries: append([]LeaderEntry{}, entries[:top]...), Reserve: append([]LeaderEntry{}, entries[top:]...)}
		ref := s.leaderboardRef(b.Kind, b.Mode)
		return s.inTransaction(ctx, func(ctx context.Context, tx txn) error {
			out.Changed = false
			if err := p.check(tx); err != nil {
				return err
			}
			snap, err := tx.Get(ref)
			if err != nil && !notFound(err) {
				return err
			}
			out.Reads = reads + 1 + p.reads()
			if err == nil {
				if cur, err := decodeLeaderboard(snap, b.Kind, b.Mode); err == nil && sameBoard(cur, lb) {
					return nil
				}
			}
			out.Changed = true
			return tx.Set(ref, lb)
		})
	})
	return out, err
}

// Project runs the projection of a game outside any projection pass
// (tests, operators); the tick uses (*ProjectionPass).Project.
func (s *Store) Project(ctx context.Context, kind, gameID string) (Rebuilt, error) {
	return s.project(ctx, nil, GameRef{ID: gameID, Kind: kind}, s.now())
}

// project runs a game's projection: its reads at one moment without locks
// (documents first, then whole slots, so a document it wrote is never newer
// than the slots it is compared with), Run, and its writes in one
// transaction, each document read as a snapshot only if unchanged since
// (else it all runs again).
func (s *Store) project(ctx context.Context, p *ProjectionPass, g GameRef, now time.Time) (Rebuilt, error) {
	e, ok := s.Games.Find(g.Kind)
	if !ok || e.Projection == nil {
		return Rebuilt{}, nil
	}
	if !validID(g.ID) {
		return Rebuilt{}, domain.Errorf(domain.EINVALID, "bad game id %q", g.ID)
	}
	sl := s.slotsOf(e.Game)
	var out Rebuilt
	err := s.retrying(ctx, func() error {
		out = Rebuilt{}
		rs := newReadSet()
		ch, err := rounds(e.Projection.Reads, func(reads []domain.Read) error {
			n, err := s.readLoose(ctx, sl, g.ID, rs, reads)
			out.Reads += n
			return err
		}, func() (domain.Change, error) { return e.Projection.Run(rs.docs, now) })
		if err != nil {
			return err
		}
		if len(ch.Writes) == 0 {
			return nil
		}
		return s.inTransaction(ctx, func(ctx context.Context, tx txn) error {
			if err := p.check(tx); err != nil {
				return err
			}
			for _, w := range ch.Writes {
				path, err := sl.path(g.ID, w.DocID)
				if err != nil {
					return err
				}
				if err := writeDoc(tx, s.FS.Doc(path), w, rs, now, sl); err != nil {
					return err
				}
			}
			out.Changed = true
			return nil
		})
	})
	return out, err
}

// readLoose reads what a projection lists without a transaction: every
// document as a snapshot (written back only if unchanged), then each whole
// slot with one query. It returns the documents read.
func (s *Store) readLoose(ctx context.Context, sl *slots, gameID string, rs *readSet, reads []domain.Read) (int, error) {
	var docs, all []domain.Read
	for _, r := range reads {
		if r.All {
			if !rs.done[r] {
				rs.done[r] = true
				all = append(all, r)
			}
			continue
		}
		r.Snapshot = true // st.read skips what it has read
		docs = append(docs, r)
	}
	if err := s.read(ctx, nil, sl, gameID, rs, docs); err != nil {
		return 0, err
	}
	n := len(docs)
	for _, r := range all {
		coll, err := sl.collection(gameID, r.Slot)
		if err != nil {
			return 0, err
		}
		snaps, err := s.FS.Collection(coll).Documents(ctx).GetAll()
		if err != nil {
			return 0, err
		}
		n += max(1, len(snaps))
		found := map[string]json.RawMessage{}
		for _, snap := range snaps {
			j, err := docJSON(snap.Data())
			if err != nil {
				return 0, err
			}
			found[snap.Ref.ID] = j
		}
		rs.docs.PutAll(r.Slot, found)
	}
	return n, nil
}

// Leaderboard rebuilds one of the pass's boards: the players' query
// (rankedPlayers), then in a transaction the pass check and the board,
// written only when it changed. Reads ≈ the query's results + 2; writes 0
// or 1.
func (p *ProjectionPass) Leaderboard(ctx context.Context, b Board) (Rebuilt, error) {
	return p.st.rebuild(ctx, p, b, p.now)
}

// Project runs the projection of one of the pass's games.
func (p *ProjectionPass) Project(ctx context.Context, g GameRef) (Rebuilt, error) {
	return p.st.project(ctx, p, g, p.now)
}
