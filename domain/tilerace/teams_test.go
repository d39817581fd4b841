package tilerace

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
)

// Ruling 2: a team.
func TestCreateTeam(t *testing.T) {
	tests := []struct {
		name string
		id   string
		req  CreateTeamRequest
		code string
	}{
		{"ok", "t9", CreateTeamRequest{Name: " Red  Dragons ", Color: "#FF0000", Members: []string{"Zed", "amy"}, Slot: 5}, ""},
		{"default colour", "t9", CreateTeamRequest{Name: "Blue", Members: []string{"Zed"}}, ""},
		{"name taken ignoring case", "t9", CreateTeamRequest{Name: "team 1", Members: []string{"Zed"}}, domain.EEXISTS},
		{"id taken", "t1", CreateTeamRequest{Name: "New", Members: []string{"Zed"}}, domain.EEXISTS},
		{"bad id", "a/b", CreateTeamRequest{Name: "New", Members: []string{"Zed"}}, domain.EINVALID},
		{"no members", "t9", CreateTeamRequest{Name: "New"}, domain.EINVALID},
		{"duplicate member", "t9", CreateTeamRequest{Name: "New", Members: []string{"Zed", "zed"}}, domain.EINVALID},
		{"slot 6", "t9", CreateTeamRequest{Name: "New", Members: []string{"Zed"}, Slot: 6}, domain.EINVALID},
		{"bad colour", "t9", CreateTeamRequest{Name: "New", Members: []string{"Zed"}, Color: "red"}, domain.EINVALID},
		{"colour taken ignoring case", "t9", CreateTeamRequest{Name: "New", Members: []string{"Zed"}, Color: strings.ToUpper(Palette[1])}, domain.EEXISTS},
		{"long name", "t9", CreateTeamRequest{Name: strings.Repeat("x", 41), Members: []string{"Zed"}}, domain.EINVALID},
		{"control character", "t9", CreateTeamRequest{Name: "a\x00b", Members: []string{"Zed"}}, domain.EINVALID},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t)
			w.addTeams(2)
			g, team, o, err := CreateTeam(ctx(adminAct), w.g, tt.id, tt.req)
			if tt.code != "" {
				require.Equal(t, tt.code, domain.ErrorCode(err), "%v", err)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.id, team.ID)
			require.Equal(t, 1, team.Position)
			require.Equal(t, team.Members[0], team.Captain, "the captain is the first member")
			require.Empty(t, team.Inventory)
			require.False(t, team.Cooldown)
			require.Len(t, g.Teams, 3)
			require.Equal(t, TeamRef{ID: team.ID, Name: team.Name, Color: team.Color, Slot: team.Slot}, g.Teams[2])
			require.ElementsMatch(t, []Doc{DocGame, DocTeam}, o.Writes)
			if tt.req.Color == "" {
				require.Equal(t, Palette[2], team.Color)
			} else {
				require.Equal(t, "Red Dragons", team.Name)
				require.Equal(t, "#ff0000", team.Color)
				require.Equal(t, "Zed", team.Captain)
			}
		})
	}
	w := newWorld(t)
	w.addTeams(MaxTeams)
	_, _, _, err := CreateTeam(ctx(adminAct), w.g, "x", CreateTeamRequest{Name: "One too many", Members: []string{"a"}})
	require.Equal(t, domain.ECONFLICT, domain.ErrorCode(err))
}

func TestUpdateTeam(t *testing.T) {
	str := func(s string) *string { return &s }
	list := func(s ...string) *[]string { return &s }
	slot := func(n int) *int { return &n }
	tests := []struct {
		name    string
		req     UpdateTeamRequest
		code    string
		check   func(t *testing.T, g Game, tm Team)
		rosterW bool // writes the game
	}{
		{"rename", UpdateTeamRequest{Name: str("Gold")}, "", func(t *testing.T, g Game, tm Team) {
			require.Equal(t, "Gold", tm.Name)
			require.Equal(t, "Gold", g.Teams[0].Name)
		}, true},
		{"name taken", UpdateTeamRequest{Name: str("TEAM 2")}, domain.EEXISTS, nil, false},
		{"captain moves to front", UpdateTeamRequest{Captain: str("T1-C")}, "", func(t *testing.T, g Game, tm Team) {
			require.Equal(t, []string{"t1-c", "t1-cap", "t1-b"}, tm.Members)
			require.Equal(t, "t1-c", tm.Captain)
		}, false},
		{"captain not a member", UpdateTeamRequest{Captain: str("bob")}, domain.EINVALID, nil, false},
		{"members", UpdateTeamRequest{Members: list("new", "t1-b")}, "", func(t *testing.T, g Game, tm Team) {
			require.Equal(t, "new", tm.Captain)
		}, false},
		{"slot", UpdateTeamRequest{Slot: slot(3)}, "", func(t *testing.T, g Game, tm Team) {
			require.Equal(t, 3, tm.Slot)
			r, _ := g.TeamRef(tm.ID)
			require.Equal(t, 3, r.Slot, "the roster keeps the slot, for announcements about a team an action did not read")
		}, true},
		{"inventory", UpdateTeamRequest{Inventory: list("Skip 1 tile", "back3", "skip1")}, "", func(t *testing.T, g Game, tm Team) {
			require.Equal(t, []string{"skip1", "back3", "skip1"}, tm.Inventory)
		}, false},
		{"unknown powerup", UpdateTeamRequest{Inventory: list("nuke")}, domain.EINVALID, nil, false},
		{"colour", UpdateTeamRequest{Color: str("#00ff00")}, "", nil, true},
		{"colour of another team", UpdateTeamRequest{Color: str(Palette[1])}, domain.EEXISTS, nil, false},
		{"nothing", UpdateTeamRequest{Slot: slot(1)}, domain.ECONFLICT, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := race(t, 2)
			tt.req.Team = "t1"
			g, tm, o, err := UpdateTeam(ctx(adminAct), w.g, w.teams["t1"], tt.req)
			if tt.code != "" {
				require.Equal(t, tt.code, domain.ErrorCode(err), "%v", err)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.rosterW, o.Wrote(DocGame))
			require.NotEmpty(t, o.Events[0].Data.(TeamUpdatedData).Changes)
			if tt.check != nil {
				tt.check(t, g, tm)
			}
		})
	}
}

// TestPaletteColoursStayDistinct: teams created without a colour (the
// admin page's default) each get one no other team has, also after a
// removal frees a colour in the middle of the palette.
func TestPaletteColoursStayDistinct(t *testing.T) {
	w := race(t, 3)
	require.Equal(t, []string{Palette[0], Palette[1], Palette[2]}, []string{w.g.Teams[0].Color, w.g.Teams[1].Color, w.g.Teams[2].Color})
	g, _, err := RemoveTeam(ctx(adminAct), w.g, w.teams["t2"], TeamRequest{Team: "t2"})
	require.NoError(t, err)
	g, tm, _, err := CreateTeam(ctx(adminAct), g, "t9", CreateTeamRequest{Name: "Nine", Members: []string{"Zed"}})
	require.NoError(t, err)
	require.Equal(t, Palette[1], tm.Color, "the freed colour, not the third team's")
	g, tm, _, err = CreateTeam(ctx(adminAct), g, "t10", CreateTeamRequest{Name: "Ten", Members: []string{"Zed"}})
	require.NoError(t, err)
	require.Equal(t, Palette[3], tm.Color)
	seen := map[string]bool{}
	for _, r := range g.Teams {
		require.False(t, seen[r.Color], "two teams coloured %s", r.Color)
		seen[r.Color] = true
	}
}

func TestTeamAdminActions(t *testing.T) {
	w := race(t, 2)
	tm := w.teams["t1"]

	nt, o, err := GrantPowerup(ctx(adminAct), w.g, tm, GrantRequest{Team: "t1", Powerup: "Double Hard"})
	require.NoError(t, err)
	require.Equal(t, []string{PowerupDoubleHard}, nt.Inventory)
	require.Equal(t, PowerupGainedData{Team: "t1", TeamName: "Team 1", Powerup: PowerupDoubleHard, Granted: true, By: "Ada"}, o.Events[0].Data)
	_, _, err = GrantPowerup(ctx(adminAct), w.g, tm, GrantRequest{Team: "t1", Powerup: "bomb"})
	require.Equal(t, domain.EINVALID, domain.ErrorCode(err))

	nt, o, err = SetCooldown(ctx(adminAct), w.g, tm, CooldownRequest{Team: "t1", Cooldown: true})
	require.NoError(t, err)
	require.True(t, nt.Cooldown)
	require.Equal(t, []Doc{DocTeam}, o.Writes)
	_, _, err = SetCooldown(ctx(adminAct), w.g, nt, CooldownRequest{Team: "t1", Cooldown: true})
	require.Equal(t, domain.ECONFLICT, domain.ErrorCode(err))

	tests := []struct {
		to   int
		code string
	}{{0, domain.EINVALID}, {57, domain.EINVALID}, {1, domain.ECONFLICT}, {56, ""}}
	for _, tt := range tests {
		g, moved, o, err := MoveTeam(ctx(adminAct), w.g, tm, MoveRequest{Team: "t1", To: tt.to})
		if tt.code != "" {
			require.Equal(t, tt.code, domain.ErrorCode(err))
			continue
		}
		require.NoError(t, err)
		require.Equal(t, StatusActive, g.Status, "moving onto the final tile does not win")
		require.Equal(t, 56, g.RevealedUpTo)
		require.Equal(t, span(7, 56), o.Publish)
		require.Equal(t, 1, moved.Moves)
	}

	g, o, err := RemoveTeam(ctx(adminAct), w.g, w.teams["t2"], TeamRequest{Team: "t2"})
	require.NoError(t, err)
	require.Len(t, g.Teams, 1)
	require.Equal(t, []Doc{DocGame}, o.Writes)
	require.Equal(t, []Doc{DocTeam}, o.Deletes)
	_, _, _, err = Complete(ctx(teamAct("t2")), g, w.teams["t2"], w.board.Tiles[0], CompleteRequest{Tile: 1, Players: []string{"t2-cap"}, Complete: true})
	require.Equal(t, domain.EFORBIDDEN, domain.ErrorCode(err), "a removed team's token stops working")
}

// Ruling 19: the master admin manages admins.
func TestAdmins(t *testing.T) {
	w := newWorld(t)
	require.Len(t, w.g.Admins, 2)
	tests := []struct {
		name  string
		actor domain.Actor
		add   bool
		req   AdminRequest
		code  string
	}{
		{"master adds", masterAct, true, AdminRequest{ID: "a2", Name: "Bo"}, ""},
		{"regular admin cannot add", adminAct, true, AdminRequest{ID: "a3", Name: "Cy"}, domain.EFORBIDDEN},
		{"name taken", masterAct, true, AdminRequest{ID: "a3", Name: "ada"}, domain.EEXISTS},
		{"id taken", masterAct, true, AdminRequest{ID: "a1", Name: "Cy"}, domain.EEXISTS},
		{"bad id", masterAct, true, AdminRequest{ID: "", Name: "Cy"}, domain.EINVALID},
		{"regular admin cannot remove", adminAct, false, AdminRequest{ID: "a2"}, domain.EFORBIDDEN},
		{"master cannot be removed", masterAct, false, AdminRequest{ID: "m1"}, domain.ECONFLICT},
		{"unknown", masterAct, false, AdminRequest{ID: "zz"}, domain.ENOTFOUND},
		{"master removes", masterAct, false, AdminRequest{ID: "a2"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := RemoveAdmin
			if tt.add {
				f = AddAdmin
			}
			g, o, err := f(ctx(tt.actor), w.g, tt.req)
			if tt.code != "" {
				require.Equal(t, tt.code, domain.ErrorCode(err), "%v", err)
				return
			}
			require.NoError(t, err)
			require.Equal(t, "Mia", o.Events[0].Data.(AdminChangeData).By)
			w.g = g
		})
	}
	require.Equal(t, []Admin{{ID: "m1", Name: "Mia", Master: true}, {ID: "a1", Name: "Ada", Gen: 1}}, w.g.Admins)
	// a removed admin's token stops working at once
	g, _, err := RemoveAdmin(ctx(masterAct), w.g, AdminRequest{ID: "a1"})
	require.NoError(t, err)
	_, _, err = SetFog(ctx(adminAct), g, FogRequest{Mode: FogOffForAll})
	require.Equal(t, domain.EFORBIDDEN, domain.ErrorCode(err))
}

func TestSetSettings(t *testing.T) {
	w := newWorld(t)
	res := 5
	gr := Gradient{Early: Weights{1, 0, 0}, Late: Weights{0, 0, 1}}
	g, _, err := SetSettings(ctx(adminAct), w.g, SettingsRequest{Gradient: &gr, Reserve: &res})
	require.NoError(t, err)
	require.Equal(t, Settings{Gradient: gr, Reserve: 5}, g.Settings)
	for _, bad := range []SettingsRequest{
		{},
		{Gradient: &Gradient{Early: Weights{0, 0, 0}, Late: Weights{1, 1, 1}}},
		{Gradient: &Gradient{Early: Weights{-1, 5, 5}, Late: Weights{1, 1, 1}}},
		{Gradient: &Gradient{Early: Weights{1, 1, 1}, Late: Weights{1001, 1, 1}}},
		{Reserve: new(int)},
	} {
		if bad.Reserve != nil {
			*bad.Reserve = -1
		}
		_, _, err := SetSettings(ctx(adminAct), w.g, bad)
		require.Error(t, err, "%+v", bad)
	}
}

func TestPoolTasks(t *testing.T) {
	w := newWorld(t)
	p, o, err := AddPoolTask(ctx(adminAct), w.g, w.pools, PoolTaskRequest{Task: Task{Label: "Fish", Difficulty: Easy, Min: 1, Max: 1}})
	require.NoError(t, err)
	require.Equal(t, map[string]string{"id": "t-1"}, o.Result)
	require.Len(t, p.Easy, 1)
	require.Equal(t, DefaultPoints, p.Easy[0].Points)
	p, _, err = EditPoolTask(ctx(adminAct), w.g, p, PoolTaskRequest{ID: "t-1", Task: Task{Label: "Big fish", Difficulty: Hard, Min: 1, Max: 2, Points: 50}})
	require.NoError(t, err)
	require.Empty(t, p.Easy)
	require.Equal(t, "Big fish", p.Hard[0].Label, "a new difficulty moves it")
	_, _, err = EditPoolTask(ctx(adminAct), w.g, p, PoolTaskRequest{ID: "t-9", Task: Task{Label: "x", Difficulty: Hard, Min: 1, Max: 1}})
	require.Equal(t, domain.ENOTFOUND, domain.ErrorCode(err))
	p, _, err = RemovePoolTask(ctx(adminAct), w.g, p, PoolTaskRequest{ID: "t-1"})
	require.NoError(t, err)
	require.Empty(t, p.Hard)
	_, _, err = ClearPools(ctx(adminAct), w.g, p, ClearPoolsRequest{})
	require.Equal(t, domain.ECONFLICT, domain.ErrorCode(err))
	p, _, err = ImportTasks(ctx(adminAct), w.g, p, ImportRequest{Data: taskFile(3, 2, 1)})
	require.NoError(t, err)
	require.Equal(t, "t-2", p.Easy[0].ID, "ids are never reused")
	p, o, err = ClearPools(ctx(adminAct), w.g, p, ClearPoolsRequest{Difficulty: Easy})
	require.NoError(t, err)
	require.Equal(t, 3, o.Events[0].Data.(PoolsChangedData).Count)
	require.Empty(t, p.Easy)
	require.Len(t, p.Medium, 2)
	// pool events carry no task content (pools are private)
	require.NotContains(t, jsonOf(t, o.Events), "E1")
}

func TestPowerupTiles(t *testing.T) {
	w := newWorld(t)
	req := PowerupTileRequest{Label: "Kill Vorkath", Points: 150, Min: 1, Max: 2, Claim: "first team only", Reward: "Skip 2 tiles"}
	g, pt, o, err := CreatePowerupTile(ctx(adminAct), w.g, req)
	require.NoError(t, err)
	require.Equal(t, "pt-1", pt.ID)
	require.Equal(t, ClaimFirstTeam, pt.Claim)
	require.Equal(t, PowerupSkip2, pt.Reward)
	require.Equal(t, 2, g.NextPowerupTile)
	require.ElementsMatch(t, []Doc{DocGame, DocPowerupTile}, o.Writes)

	pt.ClaimedBy = "t1"
	req.PowerupTile, req.Claim = "pt-1", ClaimUnlimited
	edited, _, err := EditPowerupTile(ctx(adminAct), g, pt, req)
	require.NoError(t, err)
	require.Empty(t, edited.ClaimedBy, "not first-team-only any more")
	_, _, err = EditPowerupTile(ctx(adminAct), g, pt, PowerupTileRequest{PowerupTile: "pt-1", Label: "x", Min: 1, Max: 1, Claim: "sometimes", Reward: "skip1"})
	require.Equal(t, domain.EINVALID, domain.ErrorCode(err))
	_, _, err = EditPowerupTile(ctx(adminAct), g, pt, PowerupTileRequest{PowerupTile: "pt-1", Label: "x", Min: 1, Max: 1, Claim: "unlimited"})
	require.Equal(t, domain.EINVALID, domain.ErrorCode(err), "a reward is required")

	o, err = RemovePowerupTile(ctx(adminAct), g, pt, PowerupTileRef{PowerupTile: "pt-1"})
	require.NoError(t, err)
	require.Empty(t, o.Writes)
	require.Equal(t, []Doc{DocPowerupTile}, o.Deletes)
	_, err = ClearPowerupTiles(ctx(adminAct), g, nil)
	require.Equal(t, domain.ECONFLICT, domain.ErrorCode(err))
	o, err = ClearPowerupTiles(ctx(adminAct), g, []PowerupTile{pt})
	require.NoError(t, err)
	require.Equal(t, 1, o.Events[0].Data.(PowerupTilesData).Count)

	g, tiles, _, err := ImportPowerupTiles(ctx(adminAct), g, ImportRequest{Data: "skip1\tA\t1\t\t\teach\nback1\tB\t2\t2\t1\tunlimited\n"})
	require.NoError(t, err)
	require.Equal(t, "pt-2", tiles[0].ID, "ids are never reused")
	require.Equal(t, "pt-3", tiles[1].ID)
	require.Equal(t, 4, g.NextPowerupTile)
}
