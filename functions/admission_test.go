package functions_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
)

// TestAdmission: a token scoped to one race (its master, an admin, a team)
// is refused by every other game and by every other race; the masters of two
// races are two actors.
func TestAdmission(t *testing.T) {
	s := newStack(t)
	a, b := newRace(t, s, 1, true), newRace(t, s, 1, true)
	scoped := map[string]string{"master": a.master, "admin": a.admin, "team": a.teams[0].token}
	for who, tok := range scoped {
		t.Run(who+" of race A", func(t *testing.T) {
			for _, tc := range []struct {
				fn   string
				body map[string]any
			}{
				{"DashDice", map[string]any{"actionId": "x-" + who, "type": "create", "mode": "classic"}},
				{"DashDice", map[string]any{"actionId": "q-" + who, "type": "quickMatch", "mode": "classic"}},
				{"PartyBoard", map[string]any{"actionId": "x-" + who, "type": "create", "board": "pokemon-gen1"}},
				{"TileRace", map[string]any{"actionId": "x-" + who, "type": "create", "name": "Eve", "password": "password1"}},
				{"TileRace", map[string]any{"gameId": b.id, "actionId": "x-" + who, "type": "viewBoard"}},
				{"TileRace", map[string]any{"gameId": b.id, "actionId": "y-" + who, "type": "complete", "team": b.teams[0].id, "tile": 1, "recorded": 0, "players": []string{"Cap1"}}},
			} {
				code, out := s.post(tok, tc.fn, tc.body)
				require.Equal(t, http.StatusForbidden, code, "%s %v: %v", tc.fn, tc.body["type"], out)
				require.Equal(t, domain.EFORBIDDEN, errCode(out))
			}
		})
	}
	// The two masters are two actors: their sessions name different ids.
	ma := s.session(a.master)
	mb := s.session(b.master)
	require.NotEqual(t, ma.ID, mb.ID)
	require.Equal(t, a.id+":master", ma.ID)
}
