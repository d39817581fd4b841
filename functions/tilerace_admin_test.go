package functions_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain/tilerace"
)

// TestTileRaceAdmins runs the admin side of a race through the functions:
// fog modes as players and admins see them, editing, moving, granting,
// cooldowns, acting on behalf of a team, passwords, and removing an admin.
func TestTileRaceAdmins(t *testing.T) {
	t.Parallel()
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

	t.Run("settings: gradient and reserve", func(t *testing.T) {
		r.mustAct(r.admin, "settings", map[string]any{"type": "setSettings", "reserve": 5,
			"gradient": map[string]any{"early": map[string]int{"easy": 80, "medium": 20, "hard": 0}, "late": map[string]int{"easy": 0, "medium": 20, "hard": 80}}})
		g := r.game()
		require.Equal(t, 5, g.Settings.Reserve)
		require.Equal(t, tilerace.Weights{Easy: 80, Medium: 20}, g.Settings.Gradient.Early)
		code, out := r.act(r.admin, "settings-bad", map[string]any{"type": "setSettings", "gradient": map[string]any{"early": map[string]int{}, "late": map[string]int{"hard": 1}}})
		require.Equal(t, http.StatusBadRequest, code, "%v", out)
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
			if rec.ID == r.id+":ada~behalf" {
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
	t.Parallel()
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

// TestTileRacePowerupTilesAndPools: admins manage powerup tiles and pool
// tasks; a first-team-only tile claimed by two teams at once goes to exactly
// one of them.
func TestTileRacePowerupTilesAndPools(t *testing.T) {
	s := newStack(t)
	r := newRace(t, s, 2, true)
	ctx := context.Background()

	out := r.mustAct(r.admin, "pt", map[string]any{"type": "createPowerupTile", "label": "Kill Vorkath", "points": 150, "min": 1, "max": 2, "claim": "firstTeam", "reward": "skip2"})
	var pts []tilerace.PowerupTile
	snaps, err := s.store.FS.Collection("games").Doc(r.id).Collection("powerupTiles").Documents(ctx).GetAll()
	require.NoError(t, err)
	for _, sn := range snaps {
		var pt tilerace.PowerupTile
		raw, _ := json.Marshal(sn.Data())
		require.NoError(t, json.Unmarshal(raw, &pt))
		pts = append(pts, pt)
	}
	require.Len(t, pts, 3, "%v", out)
	var first tilerace.PowerupTile
	for _, pt := range pts {
		if pt.Label == "Kill Vorkath" {
			first = pt
		}
	}
	require.Equal(t, "pt-3", first.ID)
	r.mustAct(r.admin, "pt-edit", map[string]any{"type": "editPowerupTile", "powerupTile": first.ID, "label": "Kill Vorkath twice", "points": 200, "min": 1, "max": 2, "claim": "firstTeam", "reward": "skip2"})

	codes := make(chan int, 2)
	for i, tm := range r.teams {
		go func() {
			code, _ := s.post(tm.token, "TileRace", map[string]any{"gameId": r.id, "actionId": fmt.Sprint("claim-", i), "type": "claimPowerupTile",
				"powerupTile": first.ID, "claims": 0, "players": tm.members[:1]})
			codes <- code
		}()
	}
	got := []int{<-codes, <-codes}
	require.ElementsMatch(t, []int{http.StatusOK, http.StatusConflict}, got)
	var pt tilerace.PowerupTile
	r.doc("powerupTiles/"+first.ID, &pt)
	require.NotEmpty(t, pt.ClaimedBy)
	require.Equal(t, "Kill Vorkath twice", pt.Label)
	holders := 0
	for _, tm := range r.teams {
		if len(r.team(tm.id).Inventory) > 0 {
			holders++
		}
	}
	require.Equal(t, 1, holders, "exactly one team got the reward")

	r.mustAct(r.admin, "pt-rm", map[string]any{"type": "removePowerupTile", "powerupTile": "pt-1"})
	snap, _ := s.store.FS.Doc("games/" + r.id + "/powerupTiles/pt-1").Get(ctx)
	require.False(t, snap.Exists())

	// Pool tasks: add, edit, remove; the pools stay private.
	r.mustAct(r.admin, "pool-add", map[string]any{"type": "addPoolTask", "label": "Catch a shark", "difficulty": 1, "min": 1, "max": 1})
	var pools struct {
		Pools tilerace.Pools `json:"pools"`
	}
	r.doc("private/pools", &pools)
	last := pools.Pools.Easy[len(pools.Pools.Easy)-1]
	require.Equal(t, "Catch a shark", last.Label)
	r.mustAct(r.admin, "pool-edit", map[string]any{"type": "editPoolTask", "id": last.ID, "label": "Catch 2 sharks", "difficulty": 2, "min": 1, "max": 3, "points": 50})
	r.doc("private/pools", &pools)
	require.Equal(t, "Catch 2 sharks", pools.Pools.Medium[len(pools.Pools.Medium)-1].Label)
	r.mustAct(r.admin, "pool-rm", map[string]any{"type": "removePoolTask", "id": last.ID})
	code, out := r.act(r.admin, "pool-rm-again", map[string]any{"type": "removePoolTask", "id": last.ID})
	require.Equal(t, http.StatusNotFound, code, "%v", out)
}

// TestTileRaceExport: admins export the pools and the board as task files;
// a team cannot; the export imports back.
func TestTileRaceExport(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	r := newRace(t, s, 1, false)
	out := r.mustAct(r.admin, "export", map[string]any{"type": "exportTasks", "what": "board"})
	file := out["result"].(map[string]any)["csv"].(string)
	require.True(t, strings.HasPrefix(file, "label,difficulty,max,min"), "%.80s", file)
	require.Equal(t, 57, strings.Count(file, "\n"), "a header and the 56 tiles")
	code, out := r.act(r.teams[0].token, "export", map[string]any{"type": "exportTasks"})
	require.Equal(t, http.StatusForbidden, code, "%v", out)
	r.mustAct(r.admin, "clear", map[string]any{"type": "clearPools"})
	r.mustAct(r.admin, "reimport", map[string]any{"type": "importTasks", "data": file})
}
