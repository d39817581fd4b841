package store_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"testing"

	"cloud.google.com/go/firestore"
	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/tilerace"
	"github.com/meeple-games/meeple/store"
)

// TestRaiseFrontierConcurrently: raises for many positions at once, in any
// order and repeated, leave the frontier at the highest and the public board
// showing exactly the tiles up to it; each move is logged once.
func TestRaiseFrontierConcurrently(t *testing.T) {
	ctx := context.Background()
	st := effectsStore(t)
	mia := domain.Actor{ID: "p-mia", Name: "Mia", Role: domain.RoleGuest}
	out, _, err := store.Run(ctx, st, store.Request{Kind: tilerace.Kind, Action: domain.Action{ID: "race", Type: domain.ActionCreate,
		Actor: mia, Payload: []byte(`{"name":"Mia"}`), Secret: "hash"}})
	require.NoError(t, err)
	var created store.Reply
	require.NoError(t, json.Unmarshal(out, &created))
	race := created.GameID
	// A completion's record: the effects raise the frontier for its position.
	completed := func(id string, pos int) {
		putRaceRecord(t, st, race, id, domain.Event{Type: tilerace.EventTileCompleted, Data: tilerace.TileCompletedData{Team: "t1", Tile: pos - 1, Position: pos}})
	}
	completed("setup", 12)
	_, err = st.ApplyEffects(ctx, race, "setup")
	require.NoError(t, err)
	recs, err := st.Events(ctx, race)
	require.NoError(t, err)
	require.Len(t, recs, 1, "not raised while the race is in setup")

	_, err = st.FS.Doc("games/"+race).Update(ctx, []firestore.Update{{Path: "state.status", Value: "active"}})
	require.NoError(t, err)

	positions := []int{2, 30, 7, 30, 12, 29, 3, 28, 1, 15, 30, 5}
	var wg sync.WaitGroup
	for i, p := range positions {
		id := fmt.Sprint("c", i)
		completed(id, p)
		wg.Add(1)
		go func() {
			defer wg.Done()
			ok, err := st.ApplyEffects(ctx, race, id)
			require.NoError(t, err)
			require.True(t, ok)
		}()
	}
	wg.Wait()
	var pb tilerace.PublicBoard
	b, err := json.Marshal(docData(t, st, "games/"+race+"/public/board"))
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(b, &pb))
	want := tilerace.RevealUpTo(30)
	require.Equal(t, want, pb.RevealedUpTo)
	for _, pt := range pb.Tiles {
		require.Equal(t, pt.N <= want, pt.Revealed, "tile %d", pt.N)
	}
	recs, err = st.Events(ctx, race)
	require.NoError(t, err)
	var tos []int
	for _, r := range recs {
		if r.Type == "raiseFrontier" {
			tos = append(tos, int(r.Events[0].Data.(map[string]any)["to"].(float64)))
		}
	}
	require.NotEmpty(t, tos, "one record per move")
	slices.Sort(tos)
	require.Equal(t, want, tos[len(tos)-1])
	for i := 1; i < len(tos); i++ {
		require.Greater(t, tos[i], tos[i-1], "no two moves to the same frontier: %v", tos)
	}
}
