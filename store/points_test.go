package store_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

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

// putRaceTeam writes a team document with its points, as the race's actions
// leave it (they award points in their own commit).
func putRaceTeam(t *testing.T, st *store.Store, gameID string, team tilerace.Team) {
	t.Helper()
	b, err := json.Marshal(team)
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(b, &m))
	_, err = st.FS.Doc("games/"+gameID+"/teams/"+team.ID).Set(context.Background(), m)
	require.NoError(t, err)
}

func award(key, team, player string, points int) domain.Event {
	return domain.Event{Type: tilerace.EventPointsAwarded, Player: team, Data: tilerace.AwardData{Key: key, Player: player, Points: points, Team: team, TeamName: team, Tile: 3}}
}

func reversal(key, team, player string, points int) domain.Event {
	return domain.Event{Type: tilerace.EventPointsReversed, Player: team, Data: tilerace.PointsReversedData{Key: key, Player: player, Points: points, Team: team, TeamName: team, Event: team + "~a", By: "Ada"}}
}

func raceBoard(t *testing.T, st *store.Store, race string) tilerace.RaceLeaderboard {
	t.Helper()
	var lb tilerace.RaceLeaderboard
	b, err := json.Marshal(docData(t, st, "games/"+race+"/public/leaderboard"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &lb))
	return lb
}

// The race's leaderboard is the tick's. Points need no effect handler: a
// record awarding or taking back points is pending only so that applying
// its effects (once, whatever delivers it twice) marks the race for the
// projection pass; it writes no points and no leaderboard. One projection
// makes the leaderboard the sum of the teams' points, and projecting again
// writes nothing.
func TestRaceLeaderboardProjection(t *testing.T) {
	ctx := context.Background()
	st := effectsStore(t)
	// The race exists with its empty leaderboard, as create writes it.
	_, err := st.FS.Doc("games/r1/public/leaderboard").Set(ctx, map[string]any{"totals": map[string]any{}, "top": []any{}, "awards": 0})
	require.NoError(t, err)
	before := updateTime(t, st, "games/r1/public/leaderboard")
	putRaceTeam(t, st, "r1", tilerace.Team{ID: "t1", Name: "Red", Points: map[string]int{"Zezima": 300}, Awards: 2, Reversed: 1})
	putRaceTeam(t, st, "r1", tilerace.Team{ID: "t2", Name: "Blue", Points: map[string]int{"B0aty": 100}, Awards: 3, Reversed: 2})
	putRaceRecord(t, st, "r1", "t1~a1", award("t1-1", "t1", "Zezima", 300), award("t1-2", "t1", "Lynx", 300))
	putRaceRecord(t, st, "r1", "t2~a1", award("t2-1", "t2", "Zezima", 150), award("t2-2", "t2", "B0aty", 100))
	over := tilerace.RaceOver{GameOver: domain.GameOver{Kind: tilerace.Kind, Winners: []string{"t2"}, Losers: []string{"t1"}, Players: []string{"t1", "t2"}, Reason: "finalTile"}, Teams: true}
	putRaceRecord(t, st, "r1", "t2~a2", award("t2-3", "t2", "B0aty", 50), domain.Event{Type: domain.EventGameOver, Data: over})
	putRaceRecord(t, st, "r1", "r1:ada~u1", reversal("t1-2", "t1", "Lynx", 300), reversal("t2-1", "t2", "Zezima", 150), reversal("t2-3", "t2", "B0aty", 50))
	for _, id := range []string{"t1~a1", "t2~a1", "r1:ada~u1", "t2~a2"} {
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
		require.ElementsMatch(t, []bool{true, false}, results, "%s: applied once", id)
		require.Equal(t, false, docData(t, st, "games/r1/events/"+id)["pending"], id)
		require.IsType(t, time.Time{}, docData(t, st, "games/r1/events/"+id)["projectAt"], "%s marks the race for the pass", id)
	}
	require.Equal(t, before, updateTime(t, st, "games/r1/public/leaderboard"), "no effect wrote the leaderboard")
	// The team win records no player stats.
	for _, p := range []string{"players/t1", "players/t2"} {
		require.Nil(t, docData(t, st, p), p)
	}

	project(t, st)
	got := raceBoard(t, st, "r1")
	require.Equal(t, tilerace.RaceLeaderboard{Totals: map[string]int{"Zezima": 300, "B0aty": 100}, Top: []tilerace.Standing{
		{Rank: 1, Player: "Zezima", Points: 300, Display: "3.00"},
		{Rank: 2, Player: "B0aty", Points: 100, Display: "1.00"},
	}, Awards: 5, Reversed: 3}, got)

	at := updateTime(t, st, "games/r1/public/leaderboard")
	res, err := st.Project(ctx, tilerace.Kind, "r1")
	require.NoError(t, err)
	require.False(t, res.Changed)
	require.Equal(t, 3, res.Reads, "the leaderboard and the two teams")
	require.Equal(t, at, updateTime(t, st, "games/r1/public/leaderboard"))
}
