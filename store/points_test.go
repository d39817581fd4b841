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
