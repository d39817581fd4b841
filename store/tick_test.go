package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/store"
)

// sweepRules is a two-player rule set for the effects and tick tests: "win"
// ends the game with the actor winning; a deadline, when set, ends the game as
// a timeout loss for the second player.
type sweepRules struct{}

type sweepState struct {
	Players  []string  `json:"players"`
	Deadline time.Time `json:"deadline"`
	Over     bool      `json:"over"`
}

func (sweepRules) Kind() string { return "sweep" }

func (sweepRules) Header(s sweepState) domain.Header {
	h := domain.Header{Status: domain.StatusActive, Players: s.Players, Deadline: s.Deadline}
	if s.Over {
		h.Status, h.Deadline = domain.StatusOver, time.Time{}
	}
	return h
}

func (sweepRules) Apply(s sweepState, a domain.Action, env domain.Env) (sweepState, domain.Outcome, error) {
	if a.Type != "win" || s.Over {
		return s, domain.Outcome{}, domain.Errorf(domain.EINVALID, "no")
	}
	var losers []string
	for _, p := range s.Players {
		if p != a.Actor.ID {
			losers = append(losers, p)
		}
	}
	s.Over = true
	return s, domain.Outcome{Events: []domain.Event{{Type: domain.EventGameOver, Data: domain.GameOver{
		Kind: "sweep", Winners: []string{a.Actor.ID}, Losers: losers, Reason: "win"}}}}, nil
}

func (sweepRules) Expire(s sweepState, env domain.Env) (sweepState, domain.Outcome, error) {
	s.Over = true
	return s, domain.Outcome{Events: []domain.Event{{Type: domain.EventGameOver, Data: domain.GameOver{
		Kind: "sweep", Winners: s.Players[:1], Losers: s.Players[1:], Reason: "timeout"}}}}, nil
}

func TestDueGames(t *testing.T) {
	ctx := context.Background()
	st := effectsStore(t)
	st.FixedSeeds = true
	games := []struct {
		id       string
		deadline time.Time // zero: none
	}{
		{"late", effectsAt.Add(-time.Second)},
		{"early", effectsAt.Add(-time.Hour)},
		{"exact", effectsAt},
		{"future", effectsAt.Add(time.Second)},
		{"none", time.Time{}},
	}
	for _, g := range games {
		_, err := store.CreateGame(ctx, st, sweepRules{}, store.Create{ID: g.id, Seed: "s"}, sweepState{Players: []string{"a", "b"}, Deadline: g.deadline})
		require.NoError(t, err)
	}
	for _, tc := range []struct {
		name  string
		limit int
		want  []store.DueGame
	}{
		{"all due, earliest first", 10, []store.DueGame{{"early", "sweep"}, {"late", "sweep"}, {"exact", "sweep"}}},
		{"limited", 2, []store.DueGame{{"early", "sweep"}, {"late", "sweep"}}},
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
