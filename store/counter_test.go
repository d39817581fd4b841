package store_test

import (
	"context"
	"testing"

	"cloud.google.com/go/firestore"
	"github.com/stretchr/testify/require"
	"google.golang.org/api/option"

	"github.com/meeple-games/meeple/store/fsemu"
	"github.com/meeple-games/meeple/store/storetest"
)

// The load generator leaves the tick's work out of an action's figures by
// what the counter saw the tick do (fsemu.Tick), so every kind of call made
// with a tick's context must be keyed as the tick's, and no other.
func TestCounterTellsTheTicksCalls(t *testing.T) {
	c := &fsemu.Counter{}
	conn, err := c.Dial(storetest.EmulatorHost())
	require.NoError(t, err)
	fs, err := firestore.NewClient(context.Background(), storetest.Project(t), option.WithGRPCConn(conn))
	require.NoError(t, err)
	t.Cleanup(func() { fs.Close(); conn.Close() })

	calls := func(ctx context.Context) {
		t.Helper()
		doc := fs.Collection("counted").Doc("doc-1")
		_, err := doc.Set(ctx, map[string]any{"n": 1}) // a commit
		require.NoError(t, err)
		_, err = doc.Get(ctx) // a batched get
		require.NoError(t, err)
		err = fs.RunTransaction(ctx, func(ctx context.Context, tx *firestore.Transaction) error {
			if _, err := tx.Get(doc); err != nil {
				return err
			}
			return tx.Update(doc, []firestore.Update{{Path: "n", Value: 2}})
		})
		require.NoError(t, err)
		_, err = fs.Collection("counted").Where("n", "==", 2).Documents(ctx).GetAll() // a query
		require.NoError(t, err)
		_, err = fs.Collection("nothing").Documents(ctx).GetAll() // an empty one
		require.NoError(t, err)
	}
	want := map[string]int64{
		"write counted/*": 2,
		"read counted/*":  2,
		"query counted/*": 1,
		"query (empty)":   1,
	}

	calls(context.Background())
	require.Equal(t, want, c.Paths(), "an action's calls")
	r0, w0 := c.Counts()

	calls(fsemu.Tick(context.Background()))
	got := c.Paths()
	for k, v := range want {
		require.Equal(t, v, got[k], "%s: the action's count, after the tick's calls", k)
		require.Equal(t, v, got["tick "+k], "tick %s", k)
	}
	require.Len(t, got, 2*len(want), "keys: %v", got)
	r1, w1 := c.Counts()
	require.Equal(t, [2]int64{2 * r0, 2 * w0}, [2]int64{r1, w1}, "Counts counts the tick's calls too (reads, writes)")
}
