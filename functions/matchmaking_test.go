package functions_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/dashdice"
)

func TestDashDiceQuickMatch(t *testing.T) {
	s := newStack(t)
	alice, bob, carol := s.guest("Alice"), s.guest("Bob"), s.guest("Carol")
	quick := func(p player, actionID, mode string) map[string]any {
		t.Helper()
		code, out := s.post(p.Token, "DashDice", map[string]any{"actionId": actionID, "type": "quickMatch", "mode": mode})
		require.Equal(t, http.StatusOK, code, "%v", out)
		return out["result"].(map[string]any)
	}
	require.Equal(t, "waiting", quick(alice, "q1", "classic")["status"])
	require.Equal(t, "waiting", quick(alice, "q1", "classic")["status"], "polling keeps alice waiting")
	require.Equal(t, "waiting", quick(carol, "q1", "zero-hour")["status"], "queues are per mode")

	got := quick(bob, "q1", "classic")
	require.Equal(t, "matched", got["status"])
	gameID := got["gameId"].(string)
	polled := quick(alice, "q1", "classic")
	require.Equal(t, "matched", polled["status"])
	require.Equal(t, gameID, polled["gameId"], "the waiting player learns the match by polling")

	var m dashdice.Match
	_, err := s.store.GameState(context.Background(), gameID, &m)
	require.NoError(t, err)
	require.Equal(t, dashdice.PhaseTurnDecider, m.Phase)
	require.Equal(t, alice.ID, m.Host.ID, "whoever waited hosts")
	require.Equal(t, bob.ID, m.Opponent.ID)
	require.Equal(t, dashdice.DefaultTurnSeconds, m.TurnSeconds)

	require.Equal(t, "waiting", quick(alice, "q2", "classic")["status"], "a new action id is a new search")
	code, out := s.post(alice.Token, "DashDice", map[string]any{"actionId": "l1", "type": "leaveQueue", "mode": "classic"})
	require.Equal(t, http.StatusOK, code, "%v", out)
	require.Equal(t, "left", out["result"].(map[string]any)["status"])
	require.Equal(t, "waiting", quick(bob, "q2", "classic")["status"], "alice left, so bob waits")

	s.advance(2 * time.Minute)
	require.Equal(t, "waiting", quick(alice, "q3", "classic")["status"], "a player who stopped polling is not matched")
}

func TestDashDiceForfeitAndRematch(t *testing.T) {
	s := newStack(t)
	alice, bob := s.guest("Alice"), s.guest("Bob")
	m := newMatch(s, "last-line", 0, alice, bob)
	m.must(bob, "call", map[string]any{"call": "even"})
	out := m.must(alice, "forfeit", nil)
	events := out["events"].([]any)
	last := events[len(events)-1].(map[string]any)
	require.Equal(t, domain.EventGameOver, last["type"])
	st, _ := m.state()
	require.Equal(t, bob.ID, st.Winner)
	require.Equal(t, dashdice.ReasonForfeit, st.EndReason)

	code, out := m.do(alice, "roll", nil)
	require.Equal(t, http.StatusConflict, code, "no play after the end: %v", out)

	m.must(alice, "rematch", nil)
	out = m.must(bob, "rematch", nil)
	st, _ = m.state()
	require.NotEmpty(t, st.RematchID)
	var next dashdice.Match
	_, err := s.store.GameState(context.Background(), st.RematchID, &next)
	require.NoError(t, err, "the rematch was created with the action that agreed to it")
	require.Equal(t, dashdice.PhaseTurnDecider, next.Phase)
	require.Equal(t, "last-line", next.Mode.ID)
	require.ElementsMatch(t, []string{alice.ID, bob.ID}, []string{next.Host.ID, next.Opponent.ID})

	rematch := &match{s: s, id: st.RematchID, players: m.players}
	rematch.must(m.players[next.Opponent.ID], "call", map[string]any{"call": "odd"})
	doc, err := s.store.GameDoc(context.Background(), st.RematchID)
	require.NoError(t, err)
	require.NotEmpty(t, doc["seedHash"])
	require.Nil(t, doc["seed"])
}

func TestDashDiceListenerSeesEveryChange(t *testing.T) {
	s := newStack(t)
	alice, bob := s.guest("Alice"), s.guest("Bob")
	m := newMatch(s, "classic", 0, alice, bob)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	it := s.store.FS.Collection("games").Doc(m.id).Snapshots(ctx)
	defer it.Stop()
	snap, err := it.Next()
	require.NoError(t, err)
	require.Equal(t, int64(1), snap.Data()["version"])

	m.must(bob, "call", map[string]any{"call": "odd"})
	for v := int64(2); v <= 6; v++ {
		if v > 2 {
			st, _ := m.state()
			m.must(m.players[st.CurrentPlayerID], "roll", nil)
		}
		snap, err := it.Next()
		require.NoError(t, err)
		require.Equal(t, v, snap.Data()["version"], "the listener sees each version in order")
	}
}
