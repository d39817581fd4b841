package tilerace

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/rulestest"
)

// undoWorld is a race played through RaceGame on in-memory documents.
type undoWorld struct {
	t      *testing.T
	w      *rulestest.World
	master domain.Actor
	teams  []domain.Actor
	n      int
}

func (u *undoWorld) do(a domain.Actor, typ string, body map[string]any, secret string) (domain.Change, error) {
	u.t.Helper()
	u.n++
	u.w.Now = u.w.Now.Add(time.Second) // history orders by time
	if body == nil {
		body = map[string]any{}
	}
	raw, _ := json.Marshal(body)
	return u.w.Do(domain.Action{ID: fmt.Sprint("a", u.n), Type: typ, Actor: a, Payload: raw, Secret: secret})
}

func (u *undoWorld) must(a domain.Actor, typ string, body map[string]any, secret string) domain.Change {
	u.t.Helper()
	ch, err := u.do(a, typ, body, secret)
	require.NoError(u.t, err, typ)
	return ch
}

// newUndoWorld makes a race with 3 teams, pools, powerup tiles and a board;
// started when start.
func newUndoWorld(t *testing.T, start bool) *undoWorld {
	t.Helper()
	u := &undoWorld{t: t, w: rulestest.NewWorld(RaceGame{}, "undo-seed", t0)}
	u.must(domain.Actor{ID: "p-mia", Name: "Mia", Role: domain.RoleGuest}, domain.ActionCreate, map[string]any{"name": "Mia"}, "hash")
	u.master = domain.Actor{ID: domain.ScopedID(u.w.Games, MasterAdminID), Name: "Mia", Role: RoleMaster, Game: u.w.Games}
	for i := range 3 {
		ch := u.must(u.master, ActionCreateTeam, map[string]any{"name": fmt.Sprint("Team ", i), "members": []string{fmt.Sprint("A", i), fmt.Sprint("B", i)}}, "hash")
		id := ch.Result.(TeamResult).Team.ID
		u.teams = append(u.teams, domain.Actor{ID: domain.ScopedID(u.w.Games, id), Name: fmt.Sprint("Team ", i), Role: RoleTeam, Game: u.w.Games})
	}
	var tasks strings.Builder
	for _, d := range []string{"easy", "medium", "hard"} {
		for i := 0; i < 30; i++ {
			fmt.Fprintf(&tasks, "%s %d,%s,1,1\n", d, i, d)
		}
	}
	u.must(u.master, ActionImportTasks, map[string]any{"data": tasks.String()}, "")
	u.must(u.master, ActionImportPowerupTiles, map[string]any{"data": "skip1,Kill a boss,1.5,3,1,eachTeam\nback2,First to 99,2,1,1,firstTeam\n"}, "")
	u.must(u.master, ActionRandomiseDifficulties, map[string]any{"fill": true}, "")
	if start {
		u.must(u.master, ActionStart, nil, "")
	}
	return u
}

// state is every document but the history, with the game document's
// version and the counters undo keeps left out.
func (u *undoWorld) state() map[string]string {
	out := map[string]string{}
	for id, raw := range u.w.Docs {
		if id.Slot == SlotHistory || id.Slot == SlotHistoryPart {
			continue
		}
		img := imageOf(id, raw)
		if fields := counters[id.Slot]; len(fields) > 0 {
			var m map[string]any
			require.NoError(u.t, json.Unmarshal([]byte(img), &m))
			for _, f := range fields {
				delete(m, f)
			}
			b, _ := json.Marshal(m)
			img = string(b)
		}
		if id == domain.GameDocID {
			var g struct {
				Status string `json:"status"`
			}
			require.NoError(u.t, json.Unmarshal(raw, &g))
			img = g.Status + " " + img
		}
		out[id.Slot+"/"+id.Key] = img
	}
	return out
}

func (u *undoWorld) team(i int) Team {
	var t Team
	require.NoError(u.t, json.Unmarshal(u.w.Docs[domain.Doc(SlotTeam, u.teams[i].Local())], &t))
	return t
}

func (u *undoWorld) tile(n int) Tile {
	var bd BoardDoc
	require.NoError(u.t, json.Unmarshal(u.w.Docs[domain.Doc(SlotBoard, "")], &bd))
	tile, _ := bd.Board.Tile(n)
	return tile
}

// Undo after every kind of state-changing action puts back exactly the
// documents it changed (whole documents, counters aside).
func TestUndoEveryAction(t *testing.T) {
	type act struct {
		name   string
		actor  func(u *undoWorld) domain.Actor
		typ    string
		body   func(u *undoWorld) map[string]any
		secret string
	}
	master := func(u *undoWorld) domain.Actor { return u.master }
	team0 := func(u *undoWorld) domain.Actor { return u.teams[0] }
	tid := func(u *undoWorld) string { return u.teams[0].Local() }
	active := []act{
		{"record", team0, ActionComplete, func(u *undoWorld) map[string]any {
			return map[string]any{"tile": u.team(0).Position, "recorded": 0, "players": []string{"A0"}}
		}, ""},
		{"complete", team0, ActionComplete, func(u *undoWorld) map[string]any {
			return map[string]any{"tile": u.team(0).Position, "recorded": 0, "players": []string{"A0"}, "complete": true}
		}, ""},
		{"complete for a team", master, ActionComplete, func(u *undoWorld) map[string]any {
			return map[string]any{"team": tid(u), "tile": u.team(0).Position, "recorded": 0, "players": []string{"A0"}, "complete": true}
		}, ""},
		{"claim each team", team0, ActionClaimPowerupTile, func(u *undoWorld) map[string]any {
			return map[string]any{"powerupTile": "pt-1", "claims": 0, "players": []string{"A0", "B0"}}
		}, ""},
		{"claim first team", team0, ActionClaimPowerupTile, func(u *undoWorld) map[string]any {
			return map[string]any{"powerupTile": "pt-2", "claims": 0, "players": []string{"A0"}}
		}, ""},
		{"move", master, ActionMoveTeam, func(u *undoWorld) map[string]any { return map[string]any{"team": tid(u), "to": 4} }, ""},
		{"grant", master, ActionGrantPowerup, func(u *undoWorld) map[string]any { return map[string]any{"team": tid(u), "powerup": "skip2"} }, ""},
		{"cooldown", master, ActionSetCooldown, func(u *undoWorld) map[string]any { return map[string]any{"team": tid(u), "cooldown": true} }, ""},
		{"edit visible tile", master, ActionEditTile, func(u *undoWorld) map[string]any {
			return map[string]any{"tile": 2, "label": "Fish", "difficulty": 1, "min": 1, "max": 1}
		}, ""},
		{"edit hidden tile", master, ActionEditTile, func(u *undoWorld) map[string]any {
			return map[string]any{"tile": 30, "label": "Secret", "difficulty": u.tile(30).Difficulty, "min": 1, "max": 1}
		}, ""},
		{"create powerup tile", master, ActionCreatePowerupTile, func(u *undoWorld) map[string]any {
			return map[string]any{"label": "Boss", "points": 150, "min": 1, "max": 2, "claim": "firstTeam", "reward": "skip2"}
		}, ""},
		{"edit powerup tile", master, ActionEditPowerupTile, func(u *undoWorld) map[string]any {
			return map[string]any{"powerupTile": "pt-1", "label": "Boss", "points": 150, "min": 1, "max": 2, "claim": "eachTeam", "reward": "skip2"}
		}, ""},
		{"remove powerup tile", master, ActionRemovePowerupTile, func(u *undoWorld) map[string]any { return map[string]any{"powerupTile": "pt-2"} }, ""},
		{"clear powerup tiles", master, ActionClearPowerupTiles, func(u *undoWorld) map[string]any { return nil }, ""},
		{"import powerup tiles", master, ActionImportPowerupTiles, func(u *undoWorld) map[string]any {
			return map[string]any{"data": "skip3,Raid,1,1,1,unlimited\n"}
		}, ""},
		{"import tasks", master, ActionImportTasks, func(u *undoWorld) map[string]any { return map[string]any{"data": "Chop,easy,1,1\n"} }, ""},
		{"add pool task", master, ActionAddPoolTask, func(u *undoWorld) map[string]any {
			return map[string]any{"label": "Mine", "difficulty": 2, "min": 1, "max": 1}
		}, ""},
		{"edit pool task", master, ActionEditPoolTask, func(u *undoWorld) map[string]any {
			return map[string]any{"id": "t-90", "label": "Mine", "difficulty": 3, "min": 1, "max": 1}
		}, ""},
		{"remove pool task", master, ActionRemovePoolTask, func(u *undoWorld) map[string]any { return map[string]any{"id": "t-90"} }, ""},
		{"clear pools", master, ActionClearPools, func(u *undoWorld) map[string]any { return map[string]any{"difficulty": 1} }, ""},
		{"settings", master, ActionSetSettings, func(u *undoWorld) map[string]any { return map[string]any{"reserve": 5} }, ""},
		{"fog off for all", master, ActionSetFog, func(u *undoWorld) map[string]any { return map[string]any{"mode": "all"} }, ""},
		{"fog off for admins", master, ActionSetFog, func(u *undoWorld) map[string]any { return map[string]any{"mode": "admins"} }, ""},
		{"add admin", master, ActionAddAdmin, func(u *undoWorld) map[string]any { return map[string]any{"id": "bo", "name": "Bo"} }, "hash2"},
		{"create team", master, ActionCreateTeam, func(u *undoWorld) map[string]any {
			return map[string]any{"name": "Late", "members": []string{"Zed"}}
		}, "hash3"},
		{"update team", master, ActionUpdateTeam, func(u *undoWorld) map[string]any {
			return map[string]any{"team": tid(u), "name": "Gold", "members": []string{"A0", "B0", "C0"}}
		}, ""},
		{"remove team", master, ActionRemoveTeam, func(u *undoWorld) map[string]any { return map[string]any{"team": tid(u)} }, ""},
		{"reset", master, ActionReset, func(u *undoWorld) map[string]any { return nil }, ""},
	}
	setup := []act{
		{"randomise difficulties", master, ActionRandomiseDifficulties, func(u *undoWorld) map[string]any { return map[string]any{"fill": true} }, ""},
		{"randomise tiles", master, ActionRandomiseTiles, func(u *undoWorld) map[string]any { return nil }, ""},
		{"start", master, ActionStart, func(u *undoWorld) map[string]any { return nil }, ""},
	}
	run := func(t *testing.T, start bool, acts []act) {
		for _, tc := range acts {
			t.Run(tc.name, func(t *testing.T) {
				u := newUndoWorld(t, start)
				if start {
					// Some history first, and a team that has moved, so a
					// reset and a move have something to undo.
					u.must(u.teams[0], ActionComplete, map[string]any{"tile": 1, "recorded": 0, "players": []string{"B0"}, "complete": true}, "")
					u.must(u.master, ActionAddPoolTask, map[string]any{"label": "Mine", "difficulty": 1, "min": 1, "max": 1}, "")
				}
				if tc.name == "reset" || tc.name == "move" {
					u.must(u.master, ActionMoveTeam, map[string]any{"team": tid(u), "to": 3}, "")
				}
				before := u.state()
				teamBefore := u.team(0)
				ch := u.must(tc.actor(u), tc.typ, tc.body(u), tc.secret)
				require.NotEqual(t, before, u.state(), "the action changed something")
				undo := u.must(u.master, ActionUndo, nil, "")
				got := u.state()
				if tc.name == "move" || tc.name == "complete" || tc.name == "complete for a team" {
					// The fog frontier stays where the move took it
					// (revealed tiles stay revealed): compare the rest.
					delete(got, SlotPublicBoard+"/")
					delete(before, SlotPublicBoard+"/")
				}
				require.Equal(t, before, got, "undo restores every document")
				if tc.name != "remove team" && tc.name != "reset" {
					require.GreaterOrEqual(t, u.team(0).Awards, teamBefore.Awards)
				}
				res := undo.Result.(UndoResult)
				require.Len(t, res.Undone, 1)
				require.Equal(t, tc.typ, res.Undone[0].Type)
				awards := rulestest.All[AwardData](t, ch.Events(), EventPointsAwarded)
				require.Len(t, rulestest.All[PointsReversedData](t, undo.Events(), EventPointsReversed), len(awards))
				require.Equal(t, len(awards), res.Reversed)
				if tc.actor(u).Role == RoleTeam || tc.typ == ActionMoveTeam {
					require.Equal(t, []string{tid(u)}, res.Teams)
				}
				hist := u.history()
				require.NotEmpty(t, hist)
				require.LessOrEqual(t, len(hist), HistoryDepth, "older entries are pruned")
				for _, h := range hist {
					require.NotEqual(t, res.Undone[0].Record, h.Record, "the undone entry is used up")
				}
			})
		}
	}
	t.Run("active", func(t *testing.T) { run(t, true, active) })
	t.Run("setup", func(t *testing.T) { run(t, false, setup) })
}

// history returns the history entries, newest first.
func (u *undoWorld) history() []HistoryEntry {
	d := domain.NewDocs()
	found := map[string]json.RawMessage{}
	for id, raw := range u.w.Docs {
		if id.Slot == SlotHistory {
			found[id.Key] = raw
		}
	}
	d.PutAll(SlotHistory, found)
	h, err := historyOf(d)
	require.NoError(u.t, err)
	return h
}
