package triggers_test

import (
	"context"
	"encoding/json"
	"testing"

	"cloud.google.com/go/firestore/apiv1/firestorepb"
	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/tilerace"
	"github.com/meeple-games/meeple/triggers"
)

// TestGameEventTileRace: a record of a game with a projection (Tile Race's
// points awarded; its id {actor}~{actionId}, not a padded version) delivered
// twice marks the race once; the race's leaderboard, the sum of its teams'
// points (which the completion wrote in its own commit), follows in the tick.
func TestGameEventTileRace(t *testing.T) {
	e := newEnv(t, domain.Entry{Game: tilerace.RaceGame{}, Function: "TileRace", Projection: tilerace.LeaderboardProjection()})
	ctx := context.Background()
	_, err := e.st.FS.Doc("games/r1/teams/t-1").Set(ctx, map[string]any{"id": "t-1", "name": "Red", "awards": 1, "points": map[string]any{"Zezima": 300}})
	require.NoError(t, err)
	_, err = e.st.FS.Doc("games/r1/events/t-1~a1").Set(ctx, map[string]any{
		"seq": 0, "at": e.clock(), "kind": tilerace.Kind, "type": "complete", "pending": true,
		"events": []any{map[string]any{"type": tilerace.EventPointsAwarded, "player": "t-1",
			"data": map[string]any{"key": "t-1-1", "player": "Zezima", "points": 300, "team": "t-1", "teamName": "Red", "tile": 4}}},
	})
	require.NoError(t, err)
	name := triggers.DocumentName{Project: e.project, Database: "(default)", Path: "games/r1/events/t-1~a1"}
	doc := &firestorepb.Document{Name: name.String(), Fields: map[string]*firestorepb.Value{
		"pending": {ValueType: &firestorepb.Value_BooleanValue{BooleanValue: true}},
	}}
	ev, err := triggers.NewDocumentCloudEvent(triggers.DocumentCloudEvent{ID: "e1", Type: triggers.TypeWritten, Time: e.clock(), Document: name,
		Data: triggers.DocumentEvent{Value: doc}})
	require.NoError(t, err)
	for range 2 {
		require.NoError(t, e.tr.GameEvent(ctx, ev))
	}
	_, err = e.st.FS.Doc("games/r1/public/leaderboard").Get(ctx)
	require.Error(t, err, "the record's effects write no leaderboard")
	r, err := e.tr.RunTick(ctx, e.clock())
	require.NoError(t, err)
	require.Equal(t, triggers.TickReport{Projected: 1, Rebuilt: 1, Changed: 1}, r, "the tick projects the race")
	snap, err := e.st.FS.Doc("games/r1/public/leaderboard").Get(ctx)
	require.NoError(t, err)
	var lb tilerace.RaceLeaderboard
	b, _ := json.Marshal(snap.Data())
	require.NoError(t, json.Unmarshal(b, &lb))
	require.Equal(t, map[string]int{"Zezima": 300}, lb.Totals)
	require.Equal(t, []tilerace.Standing{{Rank: 1, Player: "Zezima", Points: 300, Display: "3.00"}}, lb.Top)
	require.Equal(t, 1, lb.Awards)
}
