package functions_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
)

// TestUnknownFieldsAreRefused: a field an action does not take is a 400
// naming it (a client's typo, or a field the docs once named wrongly, never
// passes silently), in every game; the game is unchanged.
func TestUnknownFieldsAreRefused(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	alice, bob := s.guest("Alice"), s.guest("Bob")
	m := newMatch(s, "classic", 0, alice, bob)
	r := newRace(t, s, 1, true)
	for _, tc := range []struct {
		name, token, fn string
		body            map[string]any
		field           string
	}{
		{"a stale-version guard spelled wrong", bob.Token, "DashDice", map[string]any{"gameId": m.id, "actionId": "u1", "type": "call", "call": "odd", "expectVersion": 1}, "expectVersion"},
		{"a typo", bob.Token, "DashDice", map[string]any{"gameId": m.id, "actionId": "u2", "type": "call", "cal": "odd"}, "cal"},
		{"a field of another action", alice.Token, "DashDice", map[string]any{"actionId": "u3", "type": "create", "mode": "classic", "board": "x"}, "board"},
		{"party board", alice.Token, "PartyBoard", map[string]any{"actionId": "u4", "type": "create", "board": "pokemon-gen1", "boards": 1}, "boards"},
		{"tile race", r.teams[0].token, "TileRace", map[string]any{"gameId": r.id, "actionId": "u5", "type": "complete", "tile": 1, "recorded": 0, "player": "x"}, "player"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, v0 := m.state()
			code, out := s.post(tc.token, tc.fn, tc.body)
			require.Equal(t, http.StatusBadRequest, code, "%v", out)
			require.Equal(t, domain.EINVALID, errCode(out))
			require.Contains(t, out["error"].(map[string]any)["message"], `unknown field "`+tc.field+`"`)
			_, v1 := m.state()
			require.Equal(t, v0, v1)
		})
	}
}

// TestActionIDsAreKeptApartByKind: one caller's action id used for a create
// in two games makes two games; a game of another kind is named in the error.
func TestActionIDsAreKeptApartByKind(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	ann := s.guest("Ann")
	code, dd := s.post(ann.Token, "DashDice", map[string]any{"actionId": "new", "type": "create", "mode": "classic"})
	require.Equal(t, http.StatusOK, code, "%v", dd)
	code, pb := s.post(ann.Token, "PartyBoard", map[string]any{"actionId": "new", "type": "create", "board": "pokemon-gen1"})
	require.Equal(t, http.StatusOK, code, "%v", pb)
	require.NotEqual(t, dd["gameId"], pb["gameId"], "the same action id makes a Party Board game, not the DashDice one again")
	code, out := s.post(ann.Token, "PartyBoard", map[string]any{"gameId": dd["gameId"], "actionId": "x", "type": "start"})
	require.Equal(t, http.StatusNotFound, code, "%v", out)
	require.Contains(t, out["error"].(map[string]any)["message"], "is a dashdice game, not partyboard")
}
