package functions_test

import (
	"context"
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

// TestPrivateRooms: a private room's code is not in its game document (only
// its players may read games/{id}/private/room), and it can be joined only
// with the code; a public one by its id too.
func TestPrivateRooms(t *testing.T) {
	s := newStack(t)
	ctx := context.Background()
	host, eve, bob := s.guest("Host"), s.guest("Eve"), s.guest("Bob")
	for _, fn := range []string{"DashDice", "PartyBoard"} {
		t.Run(fn, func(t *testing.T) {
			create := map[string]any{"actionId": "priv-" + fn, "type": "create", "mode": "classic", "board": "pokemon-gen1", "private": true}
			if fn == "DashDice" {
				delete(create, "board")
			} else {
				delete(create, "mode")
			}
			code, out := s.post(host.Token, fn, create)
			require.Equal(t, http.StatusOK, code, "%v", out)
			res := out["result"].(map[string]any)
			id, room := res["gameId"].(string), res["roomCode"].(string)
			require.NotEmpty(t, room, "the creator gets the code")
			doc, err := s.store.GameDoc(ctx, id)
			require.NoError(t, err)
			require.NotContains(t, doc, "roomCode", "the code is not in the public document")
			require.Equal(t, true, doc["private"])
			snap, err := s.store.FS.Doc("games/" + id + "/private/room").Get(ctx)
			require.NoError(t, err)
			require.Equal(t, room, snap.Data()["code"])

			code, out = s.post(eve.Token, fn, map[string]any{"gameId": id, "actionId": "sneak", "type": "join"})
			require.Equal(t, http.StatusForbidden, code, "joining a private game by its id: %v", out)
			require.Contains(t, out["error"].(map[string]any)["message"], "room code")
			code, out = s.post(bob.Token, fn, map[string]any{"actionId": "j", "type": "join", "roomCode": room})
			require.Equal(t, http.StatusOK, code, "joining with the code: %v", out)
		})
	}
	code, out := s.post(host.Token, "DashDice", map[string]any{"actionId": "pub", "type": "create", "mode": "classic"})
	require.Equal(t, http.StatusOK, code, "%v", out)
	id := out["result"].(map[string]any)["gameId"].(string)
	code, out = s.post(eve.Token, "DashDice", map[string]any{"gameId": id, "actionId": "j", "type": "join"})
	require.Equal(t, http.StatusOK, code, "a public game is joined by its id: %v", out)
}
