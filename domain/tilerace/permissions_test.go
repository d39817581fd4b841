package tilerace

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
)

// invokers call each action's function as actor a, on behalf of team t1
// where an action names a team.
func invokers(w *world) map[string]func(a domain.Actor) (Outcome, error) {
	g, b, p := w.g, w.board, w.pools
	t1 := w.teams["t1"]
	tile, _ := b.Tile(t1.Position)
	pt := w.ptiles["pt-1"]
	c := func(a domain.Actor) Ctx { return Ctx{Actor: a, Now: t0} }
	dice := func() domain.Dice { return domain.NewSeededDice("perm", 1) }
	name := "Renamed"
	return map[string]func(domain.Actor) (Outcome, error){
		ActionComplete: func(a domain.Actor) (Outcome, error) {
			_, _, o, err := Complete(c(a), g, t1, tile, CompleteRequest{Team: "t1", Tile: 1, Players: []string{"t1-cap"}})
			return o, err
		},
		ActionClaimPowerupTile: func(a domain.Actor) (Outcome, error) {
			_, _, o, err := ClaimPowerupTile(c(a), g, t1, pt, ClaimRequest{Team: "t1", PowerupTile: pt.ID, Players: []string{"t1-cap"}})
			return o, err
		},
		ActionUsePowerup: func(a domain.Actor) (Outcome, error) {
			t := t1.clone()
			t.Inventory = []string{PowerupDoublePowerup, PowerupSkip1}
			_, o, err := UsePowerup(c(a), Values{Game: g, Team: t}, PowerupRequest{Team: "t1", Powerup: PowerupDoublePowerup, Duplicate: PowerupSkip1}, nil)
			return o, err
		},
		ActionStart: func(a domain.Actor) (Outcome, error) { _, o, err := Start(c(a), g, b); return o, err },
		ActionReset: func(a domain.Actor) (Outcome, error) {
			_, _, _, o, err := Reset(c(a), g, []Team{w.teams["t1"], w.teams["t2"]}, nil)
			return o, err
		},
		ActionCreateTeam: func(a domain.Actor) (Outcome, error) {
			_, _, o, err := CreateTeam(c(a), g, "t9", CreateTeamRequest{Name: "Nine", Members: []string{"n"}})
			return o, err
		},
		ActionUpdateTeam: func(a domain.Actor) (Outcome, error) {
			_, _, o, err := UpdateTeam(c(a), g, t1, UpdateTeamRequest{Team: "t1", Name: &name})
			return o, err
		},
		ActionRemoveTeam: func(a domain.Actor) (Outcome, error) {
			_, o, err := RemoveTeam(c(a), g, t1, TeamRequest{Team: "t1"})
			return o, err
		},
		ActionMoveTeam: func(a domain.Actor) (Outcome, error) {
			_, _, o, err := MoveTeam(c(a), g, t1, MoveRequest{Team: "t1", To: 3})
			return o, err
		},
		ActionGrantPowerup: func(a domain.Actor) (Outcome, error) {
			_, o, err := GrantPowerup(c(a), g, t1, GrantRequest{Team: "t1", Powerup: "skip1"})
			return o, err
		},
		ActionSetCooldown: func(a domain.Actor) (Outcome, error) {
			_, o, err := SetCooldown(c(a), g, t1, CooldownRequest{Team: "t1", Cooldown: true})
			return o, err
		},
		ActionEditTile: func(a domain.Actor) (Outcome, error) {
			_, o, err := EditTile(c(a), g, tile, EditTileRequest{Tile: tile.N, Task: tile.Task})
			return o, err
		},
		ActionCreatePowerupTile: func(a domain.Actor) (Outcome, error) {
			_, _, o, err := CreatePowerupTile(c(a), g, PowerupTileRequest{Label: "x", Min: 1, Max: 1, Claim: ClaimUnlimited, Reward: "skip1"})
			return o, err
		},
		ActionEditPowerupTile: func(a domain.Actor) (Outcome, error) {
			_, o, err := EditPowerupTile(c(a), g, pt, PowerupTileRequest{PowerupTile: pt.ID, Label: "x", Min: 1, Max: 1, Claim: ClaimUnlimited, Reward: "skip1"})
			return o, err
		},
		ActionRemovePowerupTile: func(a domain.Actor) (Outcome, error) {
			o, err := RemovePowerupTile(c(a), g, pt, PowerupTileRef{PowerupTile: pt.ID})
			return o, err
		},
		ActionClearPowerupTiles: func(a domain.Actor) (Outcome, error) {
			o, err := ClearPowerupTiles(c(a), g, []PowerupTile{pt})
			return o, err
		},
		ActionImportPowerupTiles: func(a domain.Actor) (Outcome, error) {
			_, _, o, err := ImportPowerupTiles(c(a), g, ImportRequest{Data: "skip1,x,1,1,1,unlimited"})
			return o, err
		},
		ActionImportTasks: func(a domain.Actor) (Outcome, error) {
			_, o, err := ImportTasks(c(a), g, p, ImportRequest{Data: "x,1"})
			return o, err
		},
		ActionAddPoolTask: func(a domain.Actor) (Outcome, error) {
			_, o, err := AddPoolTask(c(a), g, p, PoolTaskRequest{Task: Task{Label: "x", Difficulty: 1, Min: 1, Max: 1}})
			return o, err
		},
		ActionEditPoolTask: func(a domain.Actor) (Outcome, error) {
			_, o, err := EditPoolTask(c(a), g, p, PoolTaskRequest{ID: "t-1", Task: Task{Label: "x", Difficulty: 1, Min: 1, Max: 1}})
			return o, err
		},
		ActionRemovePoolTask: func(a domain.Actor) (Outcome, error) {
			_, o, err := RemovePoolTask(c(a), g, p, PoolTaskRequest{ID: "t-1"})
			return o, err
		},
		ActionClearPools: func(a domain.Actor) (Outcome, error) {
			_, o, err := ClearPools(c(a), g, p, ClearPoolsRequest{})
			return o, err
		},
		ActionRandomiseDifficulties: func(a domain.Actor) (Outcome, error) {
			_, _, _, o, err := RandomiseDifficulties(c(a), g, b, p, RandomiseRequest{}, dice())
			return o, err
		},
		ActionRandomiseTiles: func(a domain.Actor) (Outcome, error) {
			_, _, o, err := RandomiseTiles(c(a), g, b, p, dice())
			return o, err
		},
		ActionSetSettings: func(a domain.Actor) (Outcome, error) {
			r := 4
			_, o, err := SetSettings(c(a), g, SettingsRequest{Reserve: &r})
			return o, err
		},
		ActionSetFog: func(a domain.Actor) (Outcome, error) {
			_, o, err := SetFog(c(a), g, FogRequest{Mode: FogOffForAll})
			return o, err
		},
		ActionViewBoard: func(a domain.Actor) (Outcome, error) { _, err := AdminBoard(c(a), g, b); return Outcome{}, err },
		ActionExportTasks: func(a domain.Actor) (Outcome, error) {
			_, err := ExportTasks(c(a), g, w.pools, b, ExportRequest{What: "board"})
			return Outcome{}, err
		},
		ActionUndo: func(a domain.Actor) (Outcome, error) {
			_, err := SelectUndo(c(a), g, ActionUndo, []HistoryEntry{{Record: "x~1"}}, UndoRequest{})
			return Outcome{}, err
		},
		ActionUndoTo: func(a domain.Actor) (Outcome, error) {
			_, err := SelectUndo(c(a), g, ActionUndoTo, []HistoryEntry{{Record: "x~2"}, {Record: "x~1"}}, UndoRequest{To: "x~1"})
			return Outcome{}, err
		},
		ActionAddAdmin: func(a domain.Actor) (Outcome, error) {
			_, o, err := AddAdmin(c(a), g, AdminRequest{ID: "a9", Name: "Neo"})
			return o, err
		},
		ActionRemoveAdmin: func(a domain.Actor) (Outcome, error) {
			_, o, err := RemoveAdmin(c(a), g, AdminRequest{ID: "a1"})
			return o, err
		},
		ActionSetDiscord: func(a domain.Actor) (Outcome, error) {
			_, _, _, o, err := SetDiscord(c(a), g, DiscordDoc{}, DiscordStatus{}, SetDiscordRequest{Slots: map[string]string{"1": "https://discord.com/api/webhooks/1/t"}})
			return o, err
		},
	}
}

// Ruling 19: every role × every action, through Authorize and through each
// action's own function (so no action forgets to check).
func TestPermissionMatrix(t *testing.T) {
	actors := []struct {
		name  string
		actor domain.Actor
		may   map[Who]bool
	}{
		{"master", masterAct, map[Who]bool{WhoTeam: true, WhoAdmin: true, WhoMaster: true}},
		{"admin", adminAct, map[Who]bool{WhoTeam: true, WhoAdmin: true}},
		{"admin holding a master token", domain.Actor{ID: "a1", Name: "Ada", Role: RoleMaster, Game: gameID, Gen: 1}, map[Who]bool{WhoTeam: true, WhoAdmin: true}},
		{"own team", teamAct("t1"), map[Who]bool{WhoTeam: true}},
		{"other team", teamAct("t2"), map[Who]bool{}},
		{"team token without team", domain.Actor{ID: "x", Role: RoleTeam, Game: gameID}, map[Who]bool{}},
		{"removed admin", domain.Actor{ID: "gone", Name: "Gone", Role: RoleAdmin, Game: gameID}, map[Who]bool{}},
		{"admin of another game", domain.Actor{ID: "a1", Name: "Ada", Role: RoleAdmin, Game: "g2", Gen: 1}, map[Who]bool{}},
		{"team of another game", domain.Actor{ID: "g2:t1", Role: RoleTeam, Game: "g2"}, map[Who]bool{}},
		{"guest", domain.Actor{ID: "p", Name: "P", Role: domain.RoleGuest, Game: gameID}, map[Who]bool{}},
		{"player", domain.Actor{ID: "p", Name: "P", Role: domain.RolePlayer, Game: gameID}, map[Who]bool{}},
		{"system", domain.System, map[Who]bool{}},
	}
	w := race(t, 2)
	inv := invokers(w)
	require.Len(t, inv, len(Specs), "an invoker per action")
	for _, action := range ActionTypes() {
		spec := Specs[action]
		f := inv[action]
		require.NotNil(t, f, action)
		for _, a := range actors {
			t.Run(action+"/"+a.name, func(t *testing.T) {
				want := a.may[spec.Who]
				team := ""
				if spec.Who == WhoTeam {
					team = "t1"
				}
				err := Authorize(w.g, a.actor, action, team)
				require.Equal(t, want, err == nil, "Authorize: %v", err)
				if err != nil {
					require.Equal(t, domain.EFORBIDDEN, domain.ErrorCode(err))
				}
				o, err := f(a.actor)
				require.Equal(t, !want, domain.ErrorCode(err) == domain.EFORBIDDEN, "%s by %s: %v", action, a.name, err)
				if err == nil { // it did only what its Spec allows
					require.Subset(t, spec.Writes, o.Writes, "%s writes", action)
					require.Subset(t, spec.Deletes, o.Deletes, "%s deletes", action)
					if len(o.Publish) > 0 {
						require.Contains(t, spec.Writes, DocPublicBoard)
					}
				}
			})
		}
	}
	require.Equal(t, domain.EINVALID, domain.ErrorCode(Authorize(w.g, masterAct, "fly", "")))
	require.Equal(t, domain.ENOTFOUND, domain.ErrorCode(Authorize(w.g, adminAct, ActionComplete, "t7")))
}

// In setup too (start and the randomisers succeed there), no action writes
// more than its Spec says.
func TestSpecsCoverOutcomes(t *testing.T) {
	w := newWorld(t)
	w.addTeams(2)
	w.prepare("spec")
	ran := 0
	for action, f := range invokers(w) {
		o, err := f(masterAct)
		if err != nil {
			continue
		}
		ran++
		spec := Specs[action]
		require.Subset(t, spec.Writes, o.Writes, action)
		require.Subset(t, spec.Deletes, o.Deletes, action)
	}
	require.Greater(t, ran, len(Specs)-5) // team actions (complete, claim, usePowerup) wait for the start
}

func TestSpecs(t *testing.T) {
	for _, action := range ActionTypes() {
		s := Specs[action]
		require.Contains(t, s.Reads, DocGame, "%s: every action reads the game (permissions, status)", action)
		req, err := DecodeRequest(action, nil)
		require.NoError(t, err, action)
		require.NotNil(t, req)
	}
}

func TestDecodeRequest(t *testing.T) {
	v, err := DecodeRequest(ActionComplete, []byte(`{"gameId":"g1","actionId":"a","type":"complete","tile":3,"recorded":1,"players":["a","b"],"complete":true}`))
	require.NoError(t, err)
	require.Equal(t, &CompleteRequest{Tile: 3, Recorded: 1, Players: []string{"a", "b"}, Complete: true}, v)
	v, err = DecodeRequest(ActionEditTile, []byte(`{"tile":4,"label":"L","difficulty":2,"min":1,"max":3,"points":150,"reward":"skip1"}`))
	require.NoError(t, err)
	require.Equal(t, &EditTileRequest{Tile: 4, Task: Task{Label: "L", Difficulty: 2, Min: 1, Max: 3, Points: 150}, Reward: "skip1"}, v)
	for _, bad := range []struct{ typ, body string }{
		{"fly", `{}`},
		{ActionComplete, `[]`},
		{ActionComplete, `{"tile":"3"}`},
		{ActionComplete, `{"players":"a"}`},
		{ActionComplete, `{`},
	} {
		_, err := DecodeRequest(bad.typ, []byte(bad.body))
		require.Equal(t, domain.EINVALID, domain.ErrorCode(err), "%s %s", bad.typ, bad.body)
	}
	require.Equal(t, "t1", TeamOf(teamAct("t1"), ""))
	require.Equal(t, "t2", TeamOf(adminAct, "t2"))
}
