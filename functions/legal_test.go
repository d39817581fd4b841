package functions_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// moves asks the game what the caller may do now.
func (s *stack) moves(token, fn, gameID string) []string {
	s.t.Helper()
	code, out := s.post(token, fn, map[string]any{"gameId": gameID, "actionId": "legal", "type": "legal"})
	require.Equal(s.t, http.StatusOK, code, "%v", out)
	var types []string
	for _, m := range out["result"].(map[string]any)["moves"].([]any) {
		types = append(types, m.(map[string]any)["type"].(string))
	}
	return types
}

// TestLegalAndAdvance: every game answers "legal" the same way, and a client
// may send "advance" once a deadline it sees has passed.
func TestLegalAndAdvance(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	alice, bob := s.guest("Alice"), s.guest("Bob")
	m := newMatch(s, "classic", 30, alice, bob) // Bob joined: he calls odd or even
	require.ElementsMatch(t, []string{"call", "call", "forfeit"}, s.moves(bob.Token, "DashDice", m.id))
	require.Equal(t, []string{"forfeit"}, s.moves(alice.Token, "DashDice", m.id))

	r := newRace(t, s, 2, true)
	require.Contains(t, s.moves(r.teams[0].token, "TileRace", r.id), "complete")
	require.Equal(t, []string{"viewBoard"}, s.moves(r.admin, "TileRace", r.id))

	// Nothing due: advance changes nothing. Past the call's deadline it applies
	// the timeout (the host starts), as of the deadline.
	code, out := s.post(alice.Token, "DashDice", map[string]any{"gameId": m.id, "actionId": "adv1", "type": "advance"})
	require.Equal(t, http.StatusOK, code, "%v", out)
	require.Empty(t, out["events"])
	s.advance(31 * time.Second)
	code, out = s.post(alice.Token, "DashDice", map[string]any{"gameId": m.id, "actionId": "adv2", "type": "advance"})
	require.Equal(t, http.StatusOK, code, "%v", out)
	require.NotEmpty(t, out["events"], "the timeout applied")
	require.Equal(t, []string{"roll", "bank", "forfeit"}, s.moves(alice.Token, "DashDice", m.id), "the host starts")
}
