package functions_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain/tilerace"
)

// TestTileRaceAdmins runs the admin side of a race through the functions:
// fog modes as players and admins see them, editing, moving, granting,
// cooldowns, acting on behalf of a team, passwords, and removing an admin.
func TestTileRaceAdmins(t *testing.T) {
	s := newStack(t)
	r := newRace(t, s, 3, true)
	red := r.teams[0]

	t.Run("fog modes", func(t *testing.T) {
		r.checkFog()
		views := 0
		view := func(token string) []tilerace.PublicTile {
			views++
			out := r.mustAct(token, fmt.Sprint("view-", views), map[string]any{"type": "viewBoard"})
			var b []tilerace.PublicTile
			raw, err := json.Marshal(out["result"].(map[string]any)["tiles"])
			require.NoError(t, err)
			require.NoError(t, json.Unmarshal(raw, &b))
			return b
		}
		revealed := func(ts []tilerace.PublicTile) int {
			n := 0
			for _, pt := range ts {
				if pt.Content != nil {
					n++
				}
			}
			return n
		}
		g := r.game()
		require.Equal(t, g.RevealedUpTo, revealed(view(r.admin)), "fog on: admins see what players see")
		code, out := r.act(red.token, "team-view", map[string]any{"type": "viewBoard"})
		require.Equal(t, http.StatusForbidden, code, "%v", out)

		r.mustAct(r.admin, "fog-admins", map[string]any{"type": "setFog", "mode": "admins"})
		require.Equal(t, tilerace.NumTiles, revealed(view(r.admin)))
		r.checkFog() // players still see only the revealed tiles

		r.mustAct(r.admin, "fog-all", map[string]any{"type": "setFog", "mode": "all"})
		require.Equal(t, tilerace.NumTiles, revealed(r.board().Tiles))

		r.mustAct(r.admin, "fog-on", map[string]any{"type": "setFog", "mode": "enabled"})
		r.checkFog()
	})

	t.Run("edit a visible tile", func(t *testing.T) {
		r.mustAct(r.admin, "edit-2", map[string]any{"type": "editTile", "tile": 2, "label": "Catch 5 sharks", "difficulty": 1, "min": 1, "max": 1, "reward": "skip1"})
		tile := r.board().Tiles[1]
		require.Equal(t, "Catch 5 sharks", tile.Content.Label)
		require.Equal(t, "skip1", tile.Content.Reward)
	})

	t.Run("on behalf of a team", func(t *testing.T) {
		tm := r.team(red.id)
		tile := r.board().Tiles[tm.Position-1]
		out := r.mustAct(r.admin, "behalf", map[string]any{"type": "complete", "team": red.id, "tile": tm.Position, "recorded": 0,
			"players": red.members[:tile.Content.Min], "complete": true})
		var by []string
		for _, ev := range out["events"].([]any) {
			if d, ok := ev.(map[string]any)["data"].(map[string]any); ok {
				if b, ok := d["by"].(string); ok {
					by = append(by, b)
				}
			}
		}
		require.NotEmpty(t, by)
		for _, b := range by {
			require.Equal(t, "Ada", b)
		}
		// The event log names the admin as the actor.
		recs, err := s.store.Events(context.Background(), r.id)
		require.NoError(t, err)
		found := false
		for _, rec := range recs {
			if rec.ID == "ada~behalf" {
				found = true
				require.Equal(t, "Ada", rec.Actor["name"])
				require.Equal(t, "admin", rec.Actor["role"])
			}
		}
		require.True(t, found, "the log has the admin's action")
	})

	t.Run("move, grant, cooldown", func(t *testing.T) {
		r.mustAct(r.admin, "move", map[string]any{"type": "moveTeam", "team": red.id, "to": 20})
		require.Equal(t, 20, r.team(red.id).Position)
		require.GreaterOrEqual(t, r.game().RevealedUpTo, 25)
		r.checkFog()
		r.mustAct(r.admin, "grant", map[string]any{"type": "grantPowerup", "team": red.id, "powerup": "skip2"})
		require.Contains(t, r.team(red.id).Inventory, "skip2")
		r.mustAct(r.admin, "cool", map[string]any{"type": "setCooldown", "team": red.id, "cooldown": true})
		require.True(t, r.team(red.id).Cooldown)
	})

	t.Run("team password change", func(t *testing.T) {
		r.mustAct(r.admin, "pw", map[string]any{"type": "updateTeam", "team": red.id, "password": "new-red-pass"})
		code, _ := s.post("", "Auth", map[string]any{"type": "teamLogin", "gameId": r.id, "team": red.id, "password": "pw-team-1"})
		require.Equal(t, http.StatusUnauthorized, code)
		r.login("teamLogin", "team", red.id, "new-red-pass")
	})

	t.Run("a removed admin can no longer act", func(t *testing.T) {
		r.mustAct(r.master, "rm-ada", map[string]any{"type": "removeAdmin", "id": "ada"})
		code, out := r.act(r.admin, "after", map[string]any{"type": "setCooldown", "team": red.id, "cooldown": false})
		require.Equal(t, http.StatusForbidden, code, "%v", out)
		code, _ = s.post("", "Auth", map[string]any{"type": "adminLogin", "gameId": r.id, "admin": "Ada", "password": "admin-pass"})
		require.Equal(t, http.StatusUnauthorized, code)
	})

	t.Run("remove a team", func(t *testing.T) {
		gone := r.teams[2]
		r.mustAct(r.master, "rm-team", map[string]any{"type": "removeTeam", "team": gone.id})
		code, _ := r.act(gone.token, "gone", map[string]any{"type": "complete", "tile": 1, "players": gone.members[:1]})
		require.Equal(t, http.StatusForbidden, code)
		snap, err := s.store.FS.Doc("games/" + r.id + "/private/cred-team-" + gone.id).Get(context.Background())
		require.False(t, snap.Exists(), "the password hash is deleted with the team (%v)", err)
	})
}

// TestTileRaceAutoDisableFog: a randomiser refused because the pools cannot
// fill the board turns the fog off for everyone, as a separate step; the
// refused action itself writes nothing.
func TestTileRaceAutoDisableFog(t *testing.T) {
	s := newStack(t)
	r := newRace(t, s, 1, false)
	r.mustAct(r.admin, "clear", map[string]any{"type": "clearPools"})
	r.mustAct(r.admin, "few", map[string]any{"type": "importTasks", "data": raceTasks(5)})
	before := r.board()
	code, out := r.act(r.admin, "rand", map[string]any{"type": "randomiseDifficulties", "fill": true})
	require.Equal(t, http.StatusConflict, code, "%v", out)
	require.Contains(t, out["error"].(map[string]any)["message"], "hard")
	g := r.game()
	require.Equal(t, tilerace.FogOffForAll, g.Fog)
	after := r.board()
	require.Equal(t, tilerace.FogOffForAll, after.Fog)
	require.Equal(t, before.Tiles[0], after.Tiles[0])
	recs, err := s.store.Events(context.Background(), r.id)
	require.NoError(t, err)
	auto := 0
	for _, rec := range recs {
		require.NotEqual(t, "ada~rand", rec.ID, "the refused action wrote no record")
		if rec.Type == "autoDisableFog" {
			auto++
			require.Equal(t, "fogSet", rec.Events[0].Type)
			require.Equal(t, "system", rec.Actor["id"])
		}
	}
	require.Equal(t, 1, auto)
}
