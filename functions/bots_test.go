package functions_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/dashdice"
	"github.com/meeple-games/meeple/store"
)

// createDashDice has p create a public classic DashDice match (no timer)
// and returns its id.
func createDashDice(t *testing.T, s *stack, p player, actionID string) string {
	t.Helper()
	code, out := s.post(p.Token, "DashDice", map[string]any{"actionId": actionID, "type": "create", "mode": "classic", "turnSeconds": 0})
	require.Equal(t, http.StatusOK, code, "create: %v", out)
	return out["result"].(map[string]any)["gameId"].(string)
}

func TestAddBotRefusals(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	alice, bob := s.guest("Alice"), s.guest("Bob")
	open := createDashDice(t, s, alice, "c-open")
	full := createDashDice(t, s, alice, "c-full")
	code, out := s.post(bob.Token, "DashDice", map[string]any{"gameId": full, "actionId": "j", "type": "join"})
	require.Equal(t, http.StatusOK, code, "join: %v", out)
	for _, c := range []struct {
		name   string
		who    player
		body   map[string]any
		status int
		says   string
	}{
		{"not the host", bob, map[string]any{"gameId": open, "level": "strong"}, http.StatusForbidden, "only the host"},
		{"a full game", alice, map[string]any{"gameId": full, "level": "strong"}, http.StatusConflict, "full"},
		{"a bad level", alice, map[string]any{"gameId": open, "level": "genius"}, http.StatusBadRequest, "level"},
		{"no level", alice, map[string]any{"gameId": open}, http.StatusBadRequest, "level"},
		{"an unknown field", alice, map[string]any{"gameId": open, "level": "random", "seats": 2}, http.StatusBadRequest, "seats"},
		{"no game", alice, map[string]any{"gameId": "nope", "level": "random"}, http.StatusNotFound, ""},
		{"no gameId", alice, map[string]any{"level": "random"}, http.StatusBadRequest, "gameId"},
	} {
		t.Run(c.name, func(t *testing.T) {
			before, v0 := gameState(t, s, c.body["gameId"])
			body := map[string]any{"actionId": "add-" + c.name, "type": domain.ActionAddBot}
			for k, v := range c.body {
				body[k] = v
			}
			code, out := s.post(c.who.Token, "DashDice", body)
			if got, want := code, c.status; got != want {
				t.Fatalf("got %d %v, want %d", got, out, want)
			}
			msg, _ := out["error"].(map[string]any)["message"].(string)
			require.Contains(t, msg, c.says)
			after, v1 := gameState(t, s, c.body["gameId"])
			require.Equal(t, v0, v1, "the refusal changed the game")
			require.Equal(t, before, after)
		})
	}
}

// gameState is a DashDice game's state and version (zero when id is not a
// game's).
func gameState(t *testing.T, s *stack, id any) (dashdice.Match, int64) {
	t.Helper()
	var m dashdice.Match
	gid, _ := id.(string)
	if gid == "" || gid == "nope" {
		return m, 0
	}
	v, err := s.store.GameState(context.Background(), gid, &m)
	require.NoError(t, err)
	return m, v
}

func TestAddBotSeatsOnceAndPlays(t *testing.T) {
	s := newStack(t)
	alice := s.guest("Alice")
	id := createDashDice(t, s, alice, "c1")
	add := map[string]any{"gameId": id, "actionId": "add-1", "type": domain.ActionAddBot, "level": "random"}
	code, first := s.post(alice.Token, "DashDice", add)
	require.Equal(t, http.StatusOK, code, "addBot: %v", first)
	// A retry is answered with the first reply and seats nobody else.
	code, again := s.post(alice.Token, "DashDice", add)
	require.Equal(t, http.StatusOK, code, "retried addBot: %v", again)
	require.Equal(t, first["version"], again["version"])
	m, _ := gameState(t, s, id)
	require.NotNil(t, m.Opponent)
	if got, want := m.Opponent.ID, domain.BotActor(domain.BotRandom, 1).ID; got != want {
		t.Fatalf("got opponent %q, want %q", got, want)
	}
	require.True(t, strings.HasPrefix(m.Opponent.Name, "Bot"))

	// The bot calls odd or even (the turn decider is its move).
	ctx := context.Background()
	n, err := store.PlayBots(ctx, s.store, id)
	require.NoError(t, err)
	if got, want := n, 1; got != want {
		t.Fatalf("got %d bot moves, want %d", got, want)
	}
	m, v := gameState(t, s, id)
	require.Equal(t, dashdice.PhaseGameplay, m.Phase)
	// Played again on the same version (a redelivered trigger): nothing.
	n, err = store.PlayBots(ctx, s.store, id)
	require.NoError(t, err)
	_, v2 := gameState(t, s, id)
	if m.CurrentPlayerID == alice.ID {
		require.Zero(t, n, "the bot moved on the person's turn")
		require.Equal(t, v, v2)
	}
}

func TestQuickMatchOffersABotAfterTheWait(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	alice := s.guest("Alice")
	qm := map[string]any{"actionId": "q1", "type": domain.ActionQuickMatch, "mode": "classic", "botAfter": 10}
	code, out := s.post(alice.Token, "DashDice", qm)
	require.Equal(t, http.StatusOK, code, "quickMatch: %v", out)
	require.Equal(t, "waiting", out["result"].(map[string]any)["status"])
	s.advance(5 * time.Second)
	code, out = s.post(alice.Token, "DashDice", qm)
	require.Equal(t, http.StatusOK, code, "quickMatch poll: %v", out)
	require.Equal(t, "waiting", out["result"].(map[string]any)["status"], "a bot before the wait")
	s.advance(6 * time.Second)
	code, out = s.post(alice.Token, "DashDice", qm)
	require.Equal(t, http.StatusOK, code, "quickMatch poll: %v", out)
	res := out["result"].(map[string]any)
	require.Equal(t, "matched", res["status"])
	m, _ := gameState(t, s, res["gameId"])
	require.Equal(t, alice.ID, m.Host.ID, "the waiting player hosts")
	require.NotNil(t, m.Opponent)
	if got, want := m.Opponent.ID, domain.BotActor(domain.BotStrong, 1).ID; got != want {
		t.Fatalf("got opponent %q, want %q", got, want)
	}
	// The next poll is the same match.
	code, again := s.post(alice.Token, "DashDice", qm)
	require.Equal(t, http.StatusOK, code)
	require.Equal(t, res["gameId"], again["result"].(map[string]any)["gameId"])
}

func TestQuickMatchBotAfterRefusals(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	alice := s.guest("Alice")
	for _, c := range []struct {
		name     string
		botAfter any
	}{{"zero", 0}, {"too long", 601}, {"text", "soon"}, {"fraction", 1.5}} {
		t.Run(c.name, func(t *testing.T) {
			code, out := s.post(alice.Token, "DashDice", map[string]any{"actionId": "q-" + c.name, "type": domain.ActionQuickMatch, "mode": "classic", "botAfter": c.botAfter})
			if got, want := code, http.StatusBadRequest; got != want {
				t.Fatalf("got %d %v, want %d", got, out, want)
			}
			require.Contains(t, out["error"].(map[string]any)["message"], "botAfter")
		})
	}
}
