package store_test

import (
	"context"
	"slices"
	"sync"
	"testing"

	"cloud.google.com/go/firestore"
	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain/tilerace"
	"github.com/meeple-games/meeple/store"
)

// TestRaiseFrontierConcurrently: raises for many positions at once, in any
// order and repeated, leave the frontier at the highest and the public board
// showing exactly the tiles up to it; each move is logged once.
func TestRaiseFrontierConcurrently(t *testing.T) {
	ctx := context.Background()
	st := effectsStore(t)
	_, err := store.CreateTileRace(ctx, st, "race", tilerace.Admin{ID: "master", Name: "Mia"}, "hash", "")
	require.NoError(t, err)

	moved, err := store.RaiseFrontier(ctx, st, "race", 12)
	require.NoError(t, err)
	require.False(t, moved, "not while the race is in setup")

	_, err = st.FS.Doc("games/race").Update(ctx, []firestore.Update{{Path: "state.status", Value: "active"}})
	require.NoError(t, err)

	positions := []int{2, 30, 7, 30, 12, 29, 3, 28, 1, 15, 30, 5}
	var wg sync.WaitGroup
	var mu sync.Mutex
	moves := 0
	for _, p := range positions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ok, err := store.RaiseFrontier(ctx, st, "race", p)
			require.NoError(t, err)
			if ok {
				mu.Lock()
				moves++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	snap, err := st.FS.Doc("games/race/public/board").Get(ctx)
	require.NoError(t, err)
	var pb store.PublicBoard
	require.NoError(t, snap.DataTo(&pb))
	want := tilerace.RevealUpTo(30)
	require.Equal(t, want, pb.RevealedUpTo)
	for _, pt := range pb.Tiles {
		require.Equal(t, pt.N <= want, pt.Revealed, "tile %d", pt.N)
	}
	recs, err := st.Events(ctx, "race")
	require.NoError(t, err)
	require.Len(t, recs, moves, "one record per move")
	require.GreaterOrEqual(t, moves, 1)
	var tos []int
	for _, r := range recs {
		tos = append(tos, int(r.Events[0].Data.(map[string]any)["to"].(float64)))
	}
	slices.Sort(tos)
	require.Equal(t, want, tos[len(tos)-1])
	for i := 1; i < len(tos); i++ {
		require.Greater(t, tos[i], tos[i-1], "no two moves to the same frontier: %v", tos)
	}
}
