package store_test

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"testing"
	"time"

	"cloud.google.com/go/firestore"
	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/store"
)

// project runs projection passes, as the tick does (sequentially here), until
// none finds anything left.
func project(t *testing.T, st *store.Store) {
	t.Helper()
	ctx := context.Background()
	for range 100 {
		p, err := st.BeginProjection(ctx, effectsAt, 100)
		require.NoError(t, err)
		if p == nil {
			return
		}
		for _, b := range p.Boards {
			_, err := p.Leaderboard(ctx, b)
			require.NoError(t, err)
		}
		for _, g := range p.Games {
			_, err := p.Project(ctx, g)
			require.NoError(t, err)
		}
		require.NoError(t, p.Finish(ctx, nil, nil))
	}
	t.Fatal("the projection passes never ran out of records")
}

// wantBoard is the board of kind and mode computed from every player's
// totals (all of them read), the way the board is defined.
func wantBoard(t *testing.T, st *store.Store, kind, mode string) store.Leaderboard {
	t.Helper()
	snaps, err := st.FS.Collection("players").Documents(context.Background()).GetAll()
	require.NoError(t, err)
	var all []store.LeaderEntry
	for _, s := range snaps {
		tot, err := st.PlayerTotals(context.Background(), s.Ref.ID, kind, mode)
		require.NoError(t, err)
		if tot.Played == 0 {
			continue
		}
		name, _ := s.Data()["name"].(string)
		all = append(all, store.LeaderEntry{PlayerID: s.Ref.ID, Name: name, Wins: tot.Wins, Losses: tot.Losses, Draws: tot.Draws})
	}
	sort.Slice(all, func(i, j int) bool {
		a, b := all[i], all[j]
		if a.Wins != b.Wins {
			return a.Wins > b.Wins
		}
		if a.Losses != b.Losses {
			return a.Losses < b.Losses
		}
		return a.PlayerID < b.PlayerID
	})
	complete := len(all) <= store.LeaderboardPool
	all = all[:min(len(all), store.LeaderboardPool)]
	top := min(len(all), store.LeaderboardTop)
	return store.Leaderboard{Kind: kind, Mode: mode, Entries: append([]store.LeaderEntry{}, all[:top]...),
		Reserve: append([]store.LeaderEntry{}, all[top:]...), Complete: complete}
}

func requireBoardExact(t *testing.T, st *store.Store, kind, mode string) store.Leaderboard {
	t.Helper()
	got, err := st.LeaderboardDoc(context.Background(), kind, mode)
	require.NoError(t, err)
	want := wantBoard(t, st, kind, mode)
	want.UpdatedAt = got.UpdatedAt
	require.Equal(t, want, got, "leaderboard %s-%s", kind, mode)
	return got
}

func updateTime(t *testing.T, st *store.Store, path string) time.Time {
	t.Helper()
	snap, err := st.FS.Doc(path).Get(context.Background())
	if err != nil {
		return time.Time{}
	}
	return snap.UpdateTime
}

// Many games ending at once: every player's stats are exact at once, the
// effects write no shared document (the board's update time does not move
// until the tick), redelivery doubles nothing, and after one projection
// pass the board is exactly the board of all the players' totals.
func TestLeaderboardBuiltByTheTick(t *testing.T) {
	ctx := context.Background()
	st := effectsStore(t)
	// A first game, and a pass: the board exists.
	putEventRecord(t, st, "g0", 1, true, gameOver("classic", []string{"p00"}, []string{"p01"}))
	_, err := st.ApplyEffects(ctx, "g0", store.EventID(1))
	require.NoError(t, err)
	project(t, st)
	requireBoardExact(t, st, "pig", "classic")
	before := updateTime(t, st, "leaderboards/pig-classic")
	require.False(t, before.IsZero())

	// 30 games end at once, each delivered twice; players p00..p19 meet
	// at random-ish pairings, some with a draw.
	const games = 30
	for g := 1; g <= games; g++ {
		a, b := fmt.Sprintf("p%02d", (g*7)%20), fmt.Sprintf("p%02d", (g*3+1)%20)
		if a == b {
			b = "p99"
		}
		ev := gameOver("classic", []string{a}, []string{b})
		if g%5 == 0 {
			ev = domain.Event{Type: domain.EventGameOver, Data: domain.GameOver{Kind: "pig", Mode: "classic", Draw: true, Players: []string{a, b}}}
		}
		putEventRecord(t, st, fmt.Sprintf("g%02d", g), 1, true, ev)
	}
	var wg sync.WaitGroup
	applied := make([]int, games+1)
	for g := 1; g <= games; g++ {
		for range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ok, err := st.ApplyEffects(ctx, fmt.Sprintf("g%02d", g), store.EventID(1))
				require.NoError(t, err)
				if ok {
					applied[g]++
				}
			}()
		}
	}
	wg.Wait()
	for g := 1; g <= games; g++ {
		require.Equal(t, 1, applied[g], "game %d applied once", g)
	}
	// Stats are exact at once: every player's played count is their games.
	played := map[string]int64{"p00": 1, "p01": 1}
	for g := 1; g <= games; g++ {
		a, b := fmt.Sprintf("p%02d", (g*7)%20), fmt.Sprintf("p%02d", (g*3+1)%20)
		if a == b {
			b = "p99"
		}
		played[a]++
		played[b]++
	}
	for p, n := range played {
		tot, err := st.PlayerTotals(ctx, p, "pig", "classic")
		require.NoError(t, err)
		require.Equal(t, n, tot.Played, "games of %s", p)
		require.Equal(t, n, tot.Wins+tot.Losses+tot.Draws, "results of %s", p)
	}
	require.Equal(t, before, updateTime(t, st, "leaderboards/pig-classic"), "no effect wrote the leaderboard")

	// One pass: the board is exact, and a second pass finds nothing.
	p, err := st.BeginProjection(ctx, effectsAt, 100)
	require.NoError(t, err)
	require.NotNil(t, p)
	require.Equal(t, games, p.Records())
	require.Equal(t, []store.Board{{Kind: "pig", Mode: "classic"}}, p.Boards, "one board, however many games")
	res, err := p.Leaderboard(ctx, p.Boards[0])
	require.NoError(t, err)
	require.True(t, res.Changed)
	// Reads: the ranking query's results (21 players, all of them) plus the
	// pass check and the board.
	require.Equal(t, len(played)+2, res.Reads, "reads of the rebuild")
	require.NoError(t, p.Finish(ctx, nil, nil))
	requireBoardExact(t, st, "pig", "classic")
	p, err = st.BeginProjection(ctx, effectsAt, 100)
	require.NoError(t, err)
	require.Nil(t, p, "nothing left after the pass")

	// Rebuilding again changes nothing and writes nothing.
	at := updateTime(t, st, "leaderboards/pig-classic")
	res, err = st.RebuildLeaderboard(ctx, "pig", "classic")
	require.NoError(t, err)
	require.False(t, res.Changed)
	require.Equal(t, at, updateTime(t, st, "leaderboards/pig-classic"))
}

// Ties: players equal in wins and losses rank by id; when they straddle the
// end of the pool, the board holds the lowest ids among them, as the
// definition says (the query orders equal keys the other way).
func TestLeaderboardTies(t *testing.T) {
	ctx := context.Background()
	st := effectsStore(t)
	// a00..a04: two wins; b00..b59: one win; all against zed. Pool 50: the
	// a's, then b00..b44.
	var evs []domain.Event
	for i := range 5 {
		evs = append(evs, gameOver("classic", []string{fmt.Sprintf("a%02d", i)}, []string{"zed"}))
	}
	putEventRecord(t, st, "g", 1, true, evs...)
	evs = evs[:0]
	for i := range 5 {
		evs = append(evs, gameOver("classic", []string{fmt.Sprintf("a%02d", i)}, []string{"zed"}))
	}
	for i := range 60 {
		evs = append(evs, gameOver("classic", []string{fmt.Sprintf("b%02d", i)}, []string{"zed"}))
	}
	putEventRecord(t, st, "g", 2, true, evs...)
	for seq := int64(1); seq <= 2; seq++ {
		_, err := st.ApplyEffects(ctx, "g", store.EventID(seq))
		require.NoError(t, err)
	}
	project(t, st)
	lb := requireBoardExact(t, st, "pig", "classic")
	require.False(t, lb.Complete)
	all := append(append([]store.LeaderEntry{}, lb.Entries...), lb.Reserve...)
	require.Len(t, all, store.LeaderboardPool)
	require.Equal(t, "a00", all[0].PlayerID)
	require.Equal(t, "b00", all[5].PlayerID)
	require.Equal(t, "b44", all[49].PlayerID)

	// b45..b59 win again: they rank above the other b's now, and the tie
	// at the end of the pool is among the remaining b's.
	evs = evs[:0]
	for i := 45; i < 60; i++ {
		evs = append(evs, gameOver("classic", []string{fmt.Sprintf("b%02d", i)}, []string{"zed"}))
	}
	putEventRecord(t, st, "g", 3, true, evs...)
	_, err := st.ApplyEffects(ctx, "g", store.EventID(3))
	require.NoError(t, err)
	res, err := st.RebuildLeaderboard(ctx, "pig", "classic")
	require.NoError(t, err)
	require.True(t, res.Changed)
	require.LessOrEqual(t, res.Reads, 2*store.LeaderboardPool+2, "the query reads at most twice the pool")
	lb = requireBoardExact(t, st, "pig", "classic")
	require.Equal(t, "b45", lb.Entries[5].PlayerID, "two wins, then by id")
}

// The cursor: records committed while passes run are all taken by some
// pass (each game here is the only one of its mode, so a record the cursor
// skipped would leave its board missing).
func TestProjectionPassMissesNothing(t *testing.T) {
	ctx := context.Background()
	st := effectsStore(t)
	const games = 24
	done, stop := make(chan struct{}), make(chan struct{})
	var passes int
	go func() {
		defer close(done)
		for {
			p, err := st.BeginProjection(ctx, effectsAt, 5)
			if err != nil {
				t.Error(err)
				return
			}
			if p != nil {
				passes++
				for _, b := range p.Boards {
					if _, err := p.Leaderboard(ctx, b); err != nil {
						t.Error(err)
					}
				}
				if err := p.Finish(ctx, nil, nil); err != nil {
					t.Error(err)
				}
			}
			select {
			case <-stop:
				if passes > 0 { // at least one pass ran while records came in, or just after
					return
				}
			default:
			}
		}
	}()
	var wg sync.WaitGroup
	for g := range games {
		wg.Add(1)
		go func() {
			defer wg.Done()
			id := fmt.Sprintf("m%02d", g)
			putEventRecord(t, st, id, 1, true, gameOver(id, []string{"ann" + id}, []string{"bob" + id}))
			_, err := st.ApplyEffects(ctx, id, store.EventID(1))
			require.NoError(t, err)
		}()
	}
	wg.Wait()
	close(stop)
	<-done
	project(t, st)
	require.Positive(t, passes)
	for g := range games {
		mode := fmt.Sprintf("m%02d", g)
		lb := requireBoardExact(t, st, "pig", mode)
		require.Len(t, lb.Entries, 2, "board of %s", mode)
	}
}

// Overlapping passes: once a newer pass has started, the older one writes
// nothing (it could hold older reads); the newer one does all the work. A
// record whose rebuild failed stays marked.
func TestProjectionPassOverlapAndFailure(t *testing.T) {
	ctx := context.Background()
	st := effectsStore(t)
	putEventRecord(t, st, "g1", 1, true, gameOver("classic", []string{"ann"}, []string{"bob"}))
	_, err := st.ApplyEffects(ctx, "g1", store.EventID(1))
	require.NoError(t, err)
	older, err := st.BeginProjection(ctx, effectsAt, 10)
	require.NoError(t, err)
	newer, err := st.BeginProjection(ctx, effectsAt, 10)
	require.NoError(t, err)
	_, err = older.Leaderboard(ctx, older.Boards[0])
	require.ErrorIs(t, err, store.ErrSuperseded)
	require.Nil(t, docData(t, st, "leaderboards/pig-classic"))
	res, err := newer.Leaderboard(ctx, newer.Boards[0])
	require.NoError(t, err)
	require.True(t, res.Changed)

	// Had the newer pass failed on the board, the cursor stays before the
	// record: the next pass takes it again.
	require.NoError(t, newer.Finish(ctx, map[store.Board]bool{{Kind: "pig", Mode: "classic"}: true}, nil))
	again, err := st.BeginProjection(ctx, effectsAt, 10)
	require.NoError(t, err)
	require.NotNil(t, again)
	require.Equal(t, 1, again.Records())
	require.NoError(t, again.Finish(ctx, nil, nil))
	none, err := st.BeginProjection(ctx, effectsAt, 10)
	require.NoError(t, err)
	require.Nil(t, none)
	requireBoardExact(t, st, "pig", "classic")
}

// ended writes game id's pending record of one gameOver in mode (winner
// beat loser) and applies its effects, as the trigger would.
func ended(t *testing.T, st *store.Store, id, mode, winner, loser string) {
	t.Helper()
	putEventRecord(t, st, id, 1, true, gameOver(mode, []string{winner}, []string{loser}))
	_, err := st.ApplyEffects(context.Background(), id, store.EventID(1))
	require.NoError(t, err)
}

// restarted is another instance of st's store: same Firestore, registry and
// clock, nothing remembered.
func restarted(st *store.Store) *store.Store {
	s := store.New(st.FS, nil)
	s.Games, s.Now = st.Games, st.Now
	return s
}

// A record whose effects changed a leaderboard is marked saying which, with
// its commit's time (in the same write that clears its pending flag: no
// marker document), and the pass's cursor moves past it without writing it;
// one that changed none is not marked. A record marked the old way
// (projectDue) and a marker document left from before issue 22 are still
// projected, the mark cleared and the document deleted.
func TestProjectionMarkers(t *testing.T) {
	ctx := context.Background()
	st := effectsStore(t)
	putEventRecord(t, st, "g1", 1, true, gameOver("classic", []string{"ann"}, []string{"bob"}), gameOver("", []string{"ann"}, []string{"bob"}))
	putEventRecord(t, st, "g1", 2, true, domain.Event{Type: "rolled"})
	for seq := int64(1); seq <= 2; seq++ {
		_, err := st.ApplyEffects(ctx, "g1", store.EventID(seq))
		require.NoError(t, err)
	}
	m := docData(t, st, "games/g1/events/"+store.EventID(1))
	require.Equal(t, []any{map[string]any{"kind": "pig", "mode": "classic"}, map[string]any{"kind": "pig", "mode": store.DefaultMode}}, m["boards"])
	require.IsType(t, time.Time{}, m["projectAt"], "the commit's time")
	require.Equal(t, false, m["project"])
	require.ElementsMatch(t, []string{"seq", "at", "kind", "type", "actionId", "actor", "events", "pending", "effectsAt", "projectAt", "boards", "project", "players", "results"}, keysOf(m))
	// Two gameOvers in one record: an entry per player per event, each player once in players.
	require.Equal(t, []any{"ann", "bob"}, m["players"])
	require.Len(t, m["results"], 4, "the record's ledger entries")
	rec := docData(t, st, "games/g1/events/"+store.EventID(2))
	require.ElementsMatch(t, []string{"seq", "at", "kind", "type", "actionId", "actor", "events", "pending", "effectsAt"}, keysOf(rec), "changed no board: no mark")
	empty, err := st.FS.Collection("projections").Documents(ctx).GetAll()
	require.NoError(t, err)
	require.Empty(t, empty, "no marker document")
	done := updateTime(t, st, "games/g1/events/"+store.EventID(1))
	project(t, st)
	require.Equal(t, done, updateTime(t, st, "games/g1/events/"+store.EventID(1)), "the pass does not write the record: its cursor moves past it")
	requireBoardExact(t, st, "pig", "classic")
	requireBoardExact(t, st, "pig", store.DefaultMode)

	// A record marked the old way (projectDue): projected, its mark cleared.
	ended(t, st, "g3", "turbo", "di", "ed")
	_, err = st.FS.Doc("games/g3/events/"+store.EventID(1)).Update(ctx, []firestore.Update{{Path: "projectAt", Value: firestore.Delete}, {Path: "projectDue", Value: true}})
	require.NoError(t, err)
	project(t, restarted(st)) // an instance looks for old marks at its first pass
	require.NotContains(t, docData(t, st, "games/g3/events/"+store.EventID(1)), "projectDue", "done")
	requireBoardExact(t, st, "pig", "turbo")

	// A marker document left from before: projected, then deleted.
	ended(t, st, "g2", "blitz", "cy", "ann")
	_, err = st.FS.Doc("games/g2/events/"+store.EventID(1)).Update(ctx, []firestore.Update{{Path: "projectAt", Value: firestore.Delete}})
	require.NoError(t, err)
	_, err = st.FS.Doc("projections/g2~"+store.EventID(1)).Set(ctx, map[string]any{
		"game": "g2", "kind": "pig", "boards": []any{map[string]any{"kind": "pig", "mode": "blitz"}}, "project": false, "at": time.Now()})
	require.NoError(t, err)
	project(t, restarted(st))
	require.Nil(t, docData(t, st, "projections/g2~"+store.EventID(1)), "the legacy marker is done")
	requireBoardExact(t, st, "pig", "blitz")
}

func keysOf(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// A record that becomes visible behind the cursor (its commit's time is
// earlier than records the pass already took: on the emulator a commit is
// stamped when it arrives and may then wait for locks) is still projected:
// the pass counts the records of the window behind the cursor and reads it
// again when the count is not what it took. Then it finds nothing more.
func TestProjectionLateRecord(t *testing.T) {
	ctx := context.Background()
	st := effectsStore(t)
	ended(t, st, "g1", "early", "ann", "bob")
	project(t, st)
	requireBoardExact(t, st, "pig", "early")
	cursor, _ := docData(t, st, "config/projectionPass")["cursorAt"].(time.Time)
	require.False(t, cursor.IsZero(), "the cursor moved")

	ended(t, st, "g2", "late", "cy", "di")
	_, err := st.FS.Doc("games/g2/events/"+store.EventID(1)).Update(ctx, []firestore.Update{{Path: "projectAt", Value: cursor.Add(-2 * time.Second)}})
	require.NoError(t, err)
	p, err := st.BeginProjection(ctx, effectsAt, 100)
	require.NoError(t, err)
	require.NotNil(t, p, "the count behind the cursor differs")
	require.Equal(t, []store.Board{{Kind: "pig", Mode: "late"}}, p.Boards, "the window behind the cursor read again: the late record")
	for _, b := range p.Boards {
		_, err := p.Leaderboard(ctx, b)
		require.NoError(t, err)
	}
	require.NoError(t, p.Finish(ctx, nil, nil))
	requireBoardExact(t, st, "pig", "late")
	none, err := st.BeginProjection(ctx, effectsAt, 100)
	require.NoError(t, err)
	require.Nil(t, none, "the counts match again")
}

// A deployed pass takes a record only once it is ProjectionSettle old by the
// wall clock (commits stamped before it are visible by then).
func TestProjectionSettle(t *testing.T) {
	ctx := context.Background()
	st := effectsStore(t)
	st.ProjectionSettle = 700 * time.Millisecond
	ended(t, st, "g1", "settle", "ann", "bob")
	stamped := docData(t, st, "games/g1/events/"+store.EventID(1))["projectAt"].(time.Time)
	p, err := st.BeginProjection(ctx, effectsAt, 100)
	require.NoError(t, err)
	require.Nil(t, p, "not yet: stamped %s ago", time.Since(stamped))
	time.Sleep(time.Until(stamped.Add(st.ProjectionSettle + 50*time.Millisecond)))
	project(t, st)
	requireBoardExact(t, st, "pig", "settle")
}
