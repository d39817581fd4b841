package store_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/pig"
	"github.com/meeple-games/meeple/domain/tilerace"
	"github.com/meeple-games/meeple/store"
	"github.com/meeple-games/meeple/store/storetest"
)

var effectsAt = time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)

// effectsStore is a Store on a fresh emulator project with a fixed clock.
func effectsStore(t *testing.T) *store.Store {
	t.Helper()
	st := store.New(storetest.Client(t), domain.Registry{pig.Entry(), {Game: tilerace.RaceGame{}, Function: "TileRace", Projection: tilerace.LeaderboardProjection()}})
	st.Now = func() time.Time { return effectsAt }
	return st
}

// putEventRecord writes an event record shaped as the action pipeline writes it.
func putEventRecord(t *testing.T, st *store.Store, gameID string, seq int64, pending bool, events ...domain.Event) {
	t.Helper()
	b, err := json.Marshal(events)
	require.NoError(t, err)
	var evs []any
	require.NoError(t, json.Unmarshal(b, &evs))
	if evs == nil {
		evs = []any{}
	}
	_, err = st.FS.Collection("games").Doc(gameID).Collection("events").Doc(store.EventID(seq)).Set(context.Background(), map[string]any{
		"seq": seq, "at": effectsAt.Add(-time.Minute), "kind": "pig", "type": "roll", "actionId": "a1",
		"actor": map[string]any{"id": "p1", "name": "Ann", "role": "player"}, "events": evs, "pending": pending,
	})
	require.NoError(t, err)
}

func gameOver(mode string, winners, losers []string) domain.Event {
	return domain.Event{Type: domain.EventGameOver, Data: domain.GameOver{Kind: "pig", Mode: mode, Winners: winners, Losers: losers, Reason: "target"}}
}

func docData(t *testing.T, st *store.Store, path string) map[string]any {
	t.Helper()
	snap, err := st.FS.Doc(path).Get(context.Background())
	if err != nil {
		return nil
	}
	return snap.Data()
}

func requireTotals(t *testing.T, st *store.Store, player, kind, mode string, want store.Totals) {
	t.Helper()
	got, err := st.PlayerTotals(context.Background(), player, kind, mode)
	require.NoError(t, err)
	require.Equal(t, want, got, "totals of %s in %s/%s", player, kind, mode)
}

func TestApplyEffectsAwardsOnce(t *testing.T) {
	ctx := context.Background()
	st := effectsStore(t)
	_, err := st.FS.Doc("players/ann").Set(ctx, map[string]any{"name": "Ann", "kind": "guest"})
	require.NoError(t, err)
	putEventRecord(t, st, "g1", 7, true,
		domain.Event{Type: "rolled", Player: "ann", Data: []int{3, 4}},
		gameOver("zero-hour", []string{"ann"}, []string{"bob"}))

	applied, err := st.ApplyEffects(ctx, "g1", store.EventID(7))
	require.NoError(t, err)
	require.True(t, applied, "first ApplyEffects: applied")
	applied, err = st.ApplyEffects(ctx, "g1", store.EventID(7))
	require.NoError(t, err)
	require.False(t, applied, "second ApplyEffects: applied")

	requireTotals(t, st, "ann", "pig", "zero-hour", store.Totals{Wins: 1, Played: 1})
	requireTotals(t, st, "bob", "pig", "zero-hour", store.Totals{Losses: 1, Played: 1})
	require.Equal(t, "Ann", docData(t, st, "players/ann")["name"], "sign-up name kept")

	for _, tc := range []struct{ player, result string }{{"ann", store.ResultWin}, {"bob", store.ResultLoss}} {
		got := playerResults(t, st, tc.player)
		want := []store.Result{{GameID: "g1", Event: store.EventID(7), Kind: "pig", Mode: "zero-hour",
			Result: tc.result, Reason: "target", At: effectsAt.Add(-time.Minute)}}
		require.Equal(t, want, got, "ledger of %s", tc.player)
	}
	require.Empty(t, playerResults(t, st, "cat"), "ledger of a player who did not play")

	// The board is the tick's: not there until a projection pass.
	require.Nil(t, docData(t, st, "leaderboards/pig-zero-hour"), "the effects write no leaderboard")
	project(t, st)
	lb, err := st.LeaderboardDoc(ctx, "pig", "zero-hour")
	require.NoError(t, err)
	require.Equal(t, []store.LeaderEntry{
		{PlayerID: "ann", Name: "Ann", Wins: 1},
		{PlayerID: "bob", Name: "", Losses: 1},
	}, lb.Entries)
	require.True(t, lb.Complete)

	rec := docData(t, st, "games/g1/events/"+store.EventID(7))
	require.Equal(t, false, rec["pending"], "pending after effects")
	require.Equal(t, effectsAt, rec["effectsAt"].(time.Time).UTC())
}

func TestApplyEffectsNothingToDo(t *testing.T) {
	for _, tc := range []struct {
		name    string
		pending bool
		write   bool
	}{
		{"not pending", false, true},
		{"missing record", false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			st := effectsStore(t)
			if tc.write {
				putEventRecord(t, st, "g1", 3, tc.pending, gameOver("classic", []string{"ann"}, []string{"bob"}))
			}
			applied, err := st.ApplyEffects(ctx, "g1", store.EventID(3))
			require.NoError(t, err)
			require.False(t, applied)
			requireTotals(t, st, "ann", "pig", "classic", store.Totals{})
			require.Empty(t, playerResults(t, st, "ann"), "ledger")
			require.Nil(t, docData(t, st, "leaderboards/dashdice-classic"), "leaderboard")
		})
	}
}

func TestApplyEffectsResults(t *testing.T) {
	for _, tc := range []struct {
		name   string
		events []domain.Event
		game   []string // players of the game document, when written
		want   map[string]store.Totals
		mode   string
	}{
		{
			name:   "draw naming its players",
			events: []domain.Event{{Type: domain.EventGameOver, Data: domain.GameOver{Kind: "pig", Mode: "true-grit", Draw: true, Winners: []string{"ann", "bob"}}}},
			mode:   "true-grit",
			want:   map[string]store.Totals{"ann": {Draws: 1, Played: 1}, "bob": {Draws: 1, Played: 1}},
		},
		{
			name:   "draw taking the players from the game",
			events: []domain.Event{{Type: domain.EventGameOver, Data: domain.GameOver{Kind: "pig", Mode: "classic", Draw: true, Reason: "tie"}}},
			game:   []string{"ann", "bob"},
			mode:   "classic",
			want:   map[string]store.Totals{"ann": {Draws: 1, Played: 1}, "bob": {Draws: 1, Played: 1}},
		},
		{
			name:   "no mode is the default mode",
			events: []domain.Event{{Type: domain.EventGameOver, Data: domain.GameOver{Kind: "pig", Winners: []string{"ann"}, Losers: []string{"bob", "cat"}}}},
			mode:   store.DefaultMode,
			want:   map[string]store.Totals{"ann": {Wins: 1, Played: 1}, "bob": {Losses: 1, Played: 1}, "cat": {Losses: 1, Played: 1}},
		},
		{
			name:   "a player listed twice counts once",
			events: []domain.Event{gameOver("classic", []string{"ann", "ann"}, []string{"ann", "bob"})},
			mode:   "classic",
			want:   map[string]store.Totals{"ann": {Wins: 1, Played: 1}, "bob": {Losses: 1, Played: 1}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			st := effectsStore(t)
			if tc.game != nil {
				_, err := st.FS.Doc("games/g1").Set(ctx, map[string]any{"kind": "pig", "players": tc.game})
				require.NoError(t, err)
			}
			putEventRecord(t, st, "g1", 2, true, tc.events...)
			applied, err := st.ApplyEffects(ctx, "g1", store.EventID(2))
			require.NoError(t, err)
			require.True(t, applied)
			for p, want := range tc.want {
				requireTotals(t, st, p, "pig", tc.mode, want)
				got := playerResults(t, st, p)
				require.Len(t, got, 1, "ledger of %s", p)
				require.Equal(t, store.EventID(2), got[0].Event, "ledger entry of %s", p)
			}
			project(t, st)
			lb, err := st.LeaderboardDoc(ctx, "pig", tc.mode)
			require.NoError(t, err)
			require.Len(t, lb.Entries, len(tc.want), "leaderboard entries")
		})
	}
}

func TestApplyEffectsInvalidRecordIsRetired(t *testing.T) {
	for _, tc := range []struct {
		name  string
		event domain.Event
	}{
		{"player id with a slash", gameOver("classic", []string{"a/b"}, nil)},
		{"gameOver without data", domain.Event{Type: domain.EventGameOver}},
		{"gameOver data of the wrong shape", domain.Event{Type: domain.EventGameOver, Data: []int{1}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			st := effectsStore(t)
			putEventRecord(t, st, "g1", 1, true, tc.event)
			applied, err := st.ApplyEffects(ctx, "g1", store.EventID(1))
			require.False(t, applied)
			require.Equal(t, domain.EINVALID, domain.ErrorCode(err), "error %v", err)
			rec := docData(t, st, "games/g1/events/"+store.EventID(1))
			require.Equal(t, false, rec["pending"], "pending")
			require.NotEmpty(t, rec["effectsError"], "effectsError")
			pending, err := st.PendingEvents(ctx, effectsAt, 10)
			require.NoError(t, err)
			require.Empty(t, pending, "left for the sweep")
		})
	}
}

func TestApplyEffectsConcurrent(t *testing.T) {
	ctx := context.Background()
	st := effectsStore(t)
	putEventRecord(t, st, "g1", 4, true, gameOver("classic", []string{"ann"}, []string{"bob"}))
	const n = 3
	var wg sync.WaitGroup
	results := make([]bool, n)
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i], errs[i] = st.ApplyEffects(ctx, "g1", store.EventID(4))
		}()
	}
	wg.Wait()
	applied := 0
	for i := range n {
		require.NoError(t, errs[i], "call %d", i)
		if results[i] {
			applied++
		}
	}
	require.Equal(t, 1, applied, "calls that applied the effects")
	requireTotals(t, st, "ann", "pig", "classic", store.Totals{Wins: 1, Played: 1})
	requireTotals(t, st, "bob", "pig", "classic", store.Totals{Losses: 1, Played: 1})
}

// TestStatsInTheEndingCommit: the action that ends a game writes its
// players' totals and ledger entries in its own commit, with its record,
// which is not pending (nothing is left for the trigger or the sweep) and
// carries the leaderboard's mark; the effects run on it again do nothing,
// and a retry of the action gets its reply and awards nothing twice.
func TestStatsInTheEndingCommit(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	id := f.game(t, map[string]any{"target": 1})
	win(t, f, id)
	s, _ := state(t, f, id)
	loser := ann.ID
	if s.Winner == ann.ID {
		loser = bob.ID
	}
	requireTotals(t, f.st, s.Winner, pig.Kind, store.DefaultMode, store.Totals{Wins: 1, Played: 1})
	requireTotals(t, f.st, loser, pig.Kind, store.DefaultMode, store.Totals{Losses: 1, Played: 1})

	pending, err := f.st.PendingEvents(ctx, f.now.Add(time.Hour), 10)
	require.NoError(t, err)
	require.Empty(t, pending, "records left pending")
	events, err := f.st.Events(ctx, id)
	require.NoError(t, err)
	last := events[len(events)-1]
	snap, err := f.st.FS.Collection("games").Doc(id).Collection("events").Doc(last.ID).Get(ctx)
	require.NoError(t, err)
	over := snap.Data()
	require.Contains(t, fmt.Sprint(over["events"]), domain.EventGameOver, "the last record")
	require.Equal(t, false, over["pending"], "pending")
	require.NotNil(t, over["effectsAt"], "effectsAt")
	require.NotNil(t, over["projectAt"], "the leaderboard's mark")
	require.Equal(t, []any{map[string]any{"kind": pig.Kind, "mode": store.DefaultMode}}, over["boards"], "boards")
	ledger := playerResults(t, f.st, s.Winner)
	require.Len(t, ledger, 1, "the winner's ledger entries")
	require.Equal(t, store.ResultWin, ledger[0].Result, "result")
	require.Equal(t, last.ID, ledger[0].Event, "the ledger entry's record")
	require.Equal(t, []any{s.Winner, loser}, over["players"], "the record's players")

	applied, err := f.st.ApplyEffects(ctx, id, last.ID)
	require.NoError(t, err)
	require.False(t, applied, "the effects applied again")
	who := ann
	if last.Actor["id"] == bob.ID {
		who = bob
	}
	_, err = f.run(t, who, id, last.ActionID, last.Type, nil)
	require.NoError(t, err, "the ending action retried")
	requireTotals(t, f.st, s.Winner, pig.Kind, store.DefaultMode, store.Totals{Wins: 1, Played: 1})
	requireTotals(t, f.st, loser, pig.Kind, store.DefaultMode, store.Totals{Losses: 1, Played: 1})
}

func TestLeaderboardOrderAcrossGames(t *testing.T) {
	ctx := context.Background()
	st := effectsStore(t)
	// 12 players; in round r every player p(i) with i >= r beats "zed", all
	// in one record. Player i ends with i wins and no losses, so the board
	// shows p12..p03, then p02, p01 and zed (78 losses) in reserve.
	const players = 12
	for r := int64(1); r <= players; r++ {
		var evs []domain.Event
		for i := r; i <= players; i++ {
			evs = append(evs, gameOver("classic", []string{fmt.Sprintf("p%02d", i)}, []string{"zed"}))
		}
		putEventRecord(t, st, "g", r, true, evs...)
		applied, err := st.ApplyEffects(ctx, "g", store.EventID(r))
		require.NoError(t, err)
		require.True(t, applied, "round %d applied", r)
	}
	project(t, st)
	lb, err := st.LeaderboardDoc(ctx, "pig", "classic")
	require.NoError(t, err)
	ids := func(es []store.LeaderEntry) []string {
		var out []string
		for _, e := range es {
			out = append(out, e.PlayerID)
		}
		return out
	}
	require.Equal(t, []string{"p12", "p11", "p10", "p09", "p08", "p07", "p06", "p05", "p04", "p03"}, ids(lb.Entries))
	require.Equal(t, store.LeaderEntry{PlayerID: "p12", Wins: 12}, lb.Entries[0])
	require.Equal(t, []string{"p02", "p01", "zed"}, ids(lb.Reserve))
	require.Equal(t, store.LeaderEntry{PlayerID: "zed", Losses: 78}, lb.Reserve[2])
	requireTotals(t, st, "zed", "pig", "classic", store.Totals{Losses: 78, Played: 78})
	// Round 3's record held one gameOver per player: each is an entry.
	zed := playerResults(t, st, "zed")
	require.Len(t, zed, 78, "zed's ledger")
	inRound3 := 0
	for _, r := range zed {
		if r.Event == store.EventID(3) {
			inRound3++
		}
	}
	require.Equal(t, 10, inRound3, "zed's entries from round 3")
	require.Len(t, playerResults(t, st, "p12"), 12, "p12's ledger")
}

// playerResults is a player's ledger, newest first.
func playerResults(t *testing.T, st *store.Store, player string) []store.Result {
	t.Helper()
	got, err := st.PlayerResults(context.Background(), player, 500)
	require.NoError(t, err)
	return got
}
