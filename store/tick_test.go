package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain/pig"
	"github.com/meeple-games/meeple/store"
)

func TestDueGames(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	st := f.st
	games := []struct {
		id   string
		turn time.Duration // the turn timer, started by the join at -1h; 0: none
	}{
		{"late", time.Hour - time.Second},
		{"early", time.Second},
		{"exact", time.Hour},
		{"future", time.Hour + time.Second},
		{"none", 0},
	}
	f.now = effectsAt.Add(-time.Hour)
	ids := map[string]string{}
	for _, g := range games {
		ids[g.id] = f.game(t, map[string]any{"turnSeconds": int(g.turn / time.Second)})
	}
	due := func(names ...string) []store.DueGame {
		out := []store.DueGame{}
		for _, n := range names {
			out = append(out, store.DueGame{ID: ids[n], Kind: pig.Kind})
		}
		return out
	}
	for _, tc := range []struct {
		name  string
		limit int
		want  []store.DueGame
	}{
		{"all due, earliest first", 10, due("early", "late", "exact")},
		{"limited", 2, due("early", "late")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := st.DueGames(ctx, effectsAt, tc.limit)
			require.NoError(t, err)
			require.Equal(t, tc.want, got)
		})
	}
}

func TestPendingEvents(t *testing.T) {
	ctx := context.Background()
	st := effectsStore(t)
	over := gameOver("classic", []string{"ann"}, []string{"bob"})
	putEventRecord(t, st, "g1", 1, true, over)  // at effectsAt-1m
	putEventRecord(t, st, "g1", 2, false, over) // done
	putEventRecord(t, st, "g2", 5, true, over)
	// A newer pending record, and an "events" collection that is not a game's.
	_, err := st.FS.Doc("games/g3/events/"+store.EventID(1)).Set(ctx, map[string]any{"seq": 1, "pending": true, "at": effectsAt})
	require.NoError(t, err)
	_, err = st.FS.Doc("rooms/r1/events/"+store.EventID(1)).Set(ctx, map[string]any{"pending": true, "at": effectsAt})
	require.NoError(t, err)

	for _, tc := range []struct {
		name      string
		olderThan time.Time
		limit     int
		want      []store.PendingEvent
	}{
		{"older than 30s", effectsAt.Add(-30 * time.Second), 10, []store.PendingEvent{{"g1", store.EventID(1)}, {"g2", store.EventID(5)}}},
		{"up to now", effectsAt, 10, []store.PendingEvent{{"g1", store.EventID(1)}, {"g2", store.EventID(5)}, {"g3", store.EventID(1)}}},
		{"limited", effectsAt, 1, []store.PendingEvent{{"g1", store.EventID(1)}}},
		{"none old enough", effectsAt.Add(-2 * time.Minute), 10, []store.PendingEvent{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := st.PendingEvents(ctx, tc.olderThan, tc.limit)
			require.NoError(t, err)
			require.ElementsMatch(t, tc.want, got)
			if tc.limit == 1 {
				require.Len(t, got, 1)
			}
		})
	}
}
