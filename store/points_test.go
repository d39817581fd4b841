package store_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/tilerace"
	"github.com/meeple-games/meeple/store"
)

// putRaceRecord writes a Tile Race event record as TileRaceAct does.
func putRaceRecord(t *testing.T, st *store.Store, gameID, id string, events ...domain.Event) {
	t.Helper()
	b, err := json.Marshal(events)
	require.NoError(t, err)
	var evs []any
	require.NoError(t, json.Unmarshal(b, &evs))
	_, err = st.FS.Doc("games/"+gameID+"/events/"+id).Set(context.Background(), map[string]any{
		"seq": 0, "at": effectsAt, "kind": tilerace.Kind, "type": "complete", "actionId": "a",
		"events": evs, "pending": true,
	})
	require.NoError(t, err)
}

func award(key, player string, points int) domain.Event {
	return domain.Event{Type: tilerace.EventPointsAwarded, Player: "t1", Data: tilerace.AwardData{Key: key, Player: player, Points: points, Team: "t1", TeamName: "Red", Tile: 3}}
}

func TestRacePoints(t *testing.T) {
	ctx := context.Background()
	st := effectsStore(t)
	putRaceRecord(t, st, "r1", "t1~a1", award("t1-1", "Zezima", 300), award("t1-2", "Lynx", 300))
	putRaceRecord(t, st, "r1", "t2~a1", award("t2-1", "Zezima", 150))
	over := tilerace.RaceOver{GameOver: domain.GameOver{Kind: tilerace.Kind, Winners: []string{"t1"}, Losers: []string{"t2"}, Players: []string{"t1", "t2"}, Reason: "finalTile"}, Teams: true}
	putRaceRecord(t, st, "r1", "t1~a2", award("t1-3", "B0aty", 225), domain.Event{Type: domain.EventGameOver, Data: over})

	// Each record delivered twice, concurrently: applied once.
	for _, id := range []string{"t1~a1", "t2~a1", "t1~a2"} {
		var wg sync.WaitGroup
		results := make([]bool, 2)
		for i := range results {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ok, err := st.ApplyEffects(ctx, "r1", id)
				require.NoError(t, err)
				results[i] = ok
			}()
		}
		wg.Wait()
		require.ElementsMatch(t, []bool{true, false}, results, id)
	}
	require.Nil(t, docData(t, st, "games/r1/public/leaderboard"), "the effects write no leaderboard")
	project(t, st)
	var lb tilerace.RaceLeaderboard
	b, err := json.Marshal(docData(t, st, "games/r1/public/leaderboard"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &lb))
	require.Equal(t, map[string]int{"Zezima": 450, "Lynx": 300, "B0aty": 225}, lb.Totals)
	require.Equal(t, 4, lb.Awards)
	require.Equal(t, []tilerace.Standing{
		{Rank: 1, Player: "Zezima", Points: 450, Display: "4.50"},
		{Rank: 2, Player: "Lynx", Points: 300, Display: "3.00"},
		{Rank: 3, Player: "B0aty", Points: 225, Display: "2.25"},
	}, lb.Top)
	entry := docData(t, st, "games/r1/ledger/t1-2")
	require.Equal(t, "Lynx", entry["player"])
	require.Equal(t, int64(300), entry["points"])
	require.Equal(t, "3.00", entry["display"])
	require.Equal(t, "t1~a1", entry["event"])
	// The team win records no player stats.
	for _, p := range []string{"players/t1", "players/t2"} {
		require.Nil(t, docData(t, st, p), p)
	}

	// A malformed award is retired, not retried forever.
	putRaceRecord(t, st, "r1", "t3~bad", domain.Event{Type: tilerace.EventPointsAwarded, Data: map[string]any{"key": "t3-1", "player": "", "points": 5}})
	ok, err := st.ApplyEffects(ctx, "r1", "t3~bad")
	require.False(t, ok)
	require.Equal(t, domain.EINVALID, domain.ErrorCode(err))
	require.Equal(t, false, docData(t, st, "games/r1/events/t3~bad")["pending"])
}

func reversal(key, team, player string, points int) domain.Event {
	return domain.Event{Type: tilerace.EventPointsReversed, Player: team, Data: tilerace.PointsReversedData{Key: key, Player: player, Points: points, Team: team, TeamName: team, Event: team + "~a", By: "Ada"}}
}

// wantRaceBoard is the race's leaderboard as its ledger defines it: every
// entry (awards and compensating ones) summed by player.
func wantRaceBoard(t *testing.T, st *store.Store, race string) tilerace.RaceLeaderboard {
	t.Helper()
	ledger, err := st.FS.Collection("games").Doc(race).Collection("ledger").Documents(context.Background()).GetAll()
	require.NoError(t, err)
	lb := tilerace.RaceLeaderboard{Totals: map[string]int{}}
	for _, e := range ledger {
		var le tilerace.LedgerEntry
		b, _ := json.Marshal(e.Data())
		require.NoError(t, json.Unmarshal(b, &le))
		lb.Totals[le.Player] += le.Points
		if le.Points < 0 {
			lb.Reversed++
		} else {
			lb.Awards++
		}
	}
	for p, pts := range lb.Totals {
		if pts == 0 {
			delete(lb.Totals, p)
		}
	}
	lb.Top = tilerace.Leaderboard(lb.Totals, tilerace.LeaderboardSize)
	return lb
}

func raceBoard(t *testing.T, st *store.Store, race string) tilerace.RaceLeaderboard {
	t.Helper()
	var lb tilerace.RaceLeaderboard
	b, err := json.Marshal(docData(t, st, "games/"+race+"/public/leaderboard"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &lb))
	return lb
}

// The race's leaderboard is the tick's: awards and reversals (in either
// order, each delivered twice) write the ledger and their team's points,
// never the leaderboard; one projection makes it exactly the ledger's sum,
// and projecting again writes nothing.
func TestRaceLeaderboardProjection(t *testing.T) {
	ctx := context.Background()
	st := effectsStore(t)
	// The race exists with its empty leaderboard, as create writes it.
	_, err := st.FS.Doc("games/r1/public/leaderboard").Set(ctx, map[string]any{"totals": map[string]any{}, "top": []any{}, "awards": 0})
	require.NoError(t, err)
	before := updateTime(t, st, "games/r1/public/leaderboard")
	t2 := func(key, player string, points int) domain.Event {
		e := award(key, player, points)
		d := e.Data.(tilerace.AwardData)
		d.Team, d.TeamName = "t2", "Blue"
		e.Data, e.Player = d, "t2"
		return e
	}
	putRaceRecord(t, st, "r1", "t1~a1", award("t1-1", "Zezima", 300), award("t1-2", "Lynx", 300))
	putRaceRecord(t, st, "r1", "t2~a1", t2("t2-1", "Zezima", 150), t2("t2-2", "B0aty", 100))
	putRaceRecord(t, st, "r1", "t2~a2", t2("t2-3", "B0aty", 50))
	// An undo taking back t1-2 and t2-1 (applied), and t2-3 (not yet).
	putRaceRecord(t, st, "r1", "r1:ada~u1", reversal("t1-2", "t1", "Lynx", 300), reversal("t2-1", "t2", "Zezima", 150), reversal("t2-3", "t2", "B0aty", 50))
	for _, id := range []string{"t1~a1", "t2~a1", "r1:ada~u1", "t2~a2"} {
		var wg sync.WaitGroup
		for range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, err := st.ApplyEffects(ctx, "r1", id)
				require.NoError(t, err)
			}()
		}
		wg.Wait()
	}
	require.Equal(t, before, updateTime(t, st, "games/r1/public/leaderboard"), "no effect wrote the leaderboard")
	// Each team's points are its own ledger entries' sum.
	var tp tilerace.TeamPoints
	b, _ := json.Marshal(docData(t, st, "games/r1/points/t2"))
	require.NoError(t, json.Unmarshal(b, &tp))
	require.Equal(t, tilerace.TeamPoints{Totals: map[string]int{"B0aty": 100}, Awards: 3, Reversed: 2}, tp)

	project(t, st)
	got := raceBoard(t, st, "r1")
	want := wantRaceBoard(t, st, "r1")
	require.Equal(t, want, got)
	require.Equal(t, map[string]int{"Zezima": 300, "B0aty": 100}, got.Totals)
	require.Equal(t, 5, got.Awards)
	require.Equal(t, 3, got.Reversed)

	at := updateTime(t, st, "games/r1/public/leaderboard")
	res, err := st.Project(ctx, tilerace.Kind, "r1")
	require.NoError(t, err)
	require.False(t, res.Changed)
	require.Equal(t, 3, res.Reads, "the leaderboard and the two teams' points")
	require.Equal(t, at, updateTime(t, st, "games/r1/public/leaderboard"))
}
