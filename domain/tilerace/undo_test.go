package tilerace

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
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
	// book is the points ledger so far: the entries of the changes' event
	// records (LedgerOf), by key.
	book map[string]LedgerEntry
}

func (u *undoWorld) do(a domain.Actor, typ string, body map[string]any, secret string) (domain.Change, error) {
	u.t.Helper()
	u.n++
	u.w.Now = u.w.Now.Add(time.Second) // history orders by time
	if body == nil {
		body = map[string]any{}
	}
	raw, _ := json.Marshal(body)
	act := domain.Action{ID: fmt.Sprint("a", u.n), Type: typ, Actor: a, Payload: raw, Secret: secret}
	ch, err := u.w.Do(act)
	if err != nil {
		return ch, err
	}
	// A race's action makes one step, its event record keyed by the action.
	entries, lerr := LedgerOf(actionRecord(act), ch.Events())
	require.NoError(u.t, lerr)
	if u.book == nil {
		u.book = map[string]LedgerEntry{}
	}
	for _, le := range entries {
		_, dup := u.book[le.Key]
		require.False(u.t, dup, "ledger entry %s twice", le.Key)
		u.book[le.Key] = le
	}
	return ch, nil
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

// copy is u for test t: a copy of its world, which the copy's actions
// leave unchanged.
func (u *undoWorld) copy(t *testing.T) *undoWorld {
	c := *u
	c.t, c.w, c.teams, c.book = t, u.w.Clone(), slices.Clone(u.teams), maps.Clone(u.book)
	return &c
}

// state is every document but the history, with the game document's
// version and the counters undo keeps left out.
func (u *undoWorld) state() map[string]string {
	out := map[string]string{}
	for id, raw := range u.w.Docs {
		if id.Slot == SlotHistory || id.Slot == SlotHistoryPart || id.Slot == domain.SlotOutbox {
			continue // undo's own, announcements (which stay sent)
		}
		img := imageOf(id, raw)
		if fields := counters[id.Slot]; len(fields) > 0 {
			var m map[string]any
			require.NoError(u.t, json.Unmarshal([]byte(img), &m))
			for _, f := range fields {
				setPath(m, f, nil, true)
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

// ledger returns the ledger entry of key (ok false when there is none).
func (u *undoWorld) ledger(key string) (LedgerEntry, bool) {
	le, ok := u.book[key]
	return le, ok
}

// requireReversed checks that the action's awards each have their ledger
// entry and the undo's compensating one, and returns how many were team's.
func (u *undoWorld) requireReversed(awards []AwardData, undoRecord, team string) int {
	u.t.Helper()
	n := 0
	for _, a := range awards {
		le, ok := u.ledger(a.Key)
		require.True(u.t, ok, "award %s is in the ledger", a.Key)
		require.Equal(u.t, a.Points, le.Points)
		rev, ok := u.ledger(ReversalKey(a.Key))
		require.True(u.t, ok, "award %s is taken back in the ledger", a.Key)
		require.Equal(u.t, LedgerEntry{Key: ReversalKey(a.Key), Player: a.Player, Points: -a.Points, Display: FormatPoints(-a.Points),
			Team: a.Team, TeamName: a.TeamName, Event: undoRecord, Tile: a.Tile,
			PowerupTile: a.PowerupTile, By: "Mia", Reverses: a.Key}, rev)
		if a.Team == team {
			n++
		}
	}
	return n
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
	grant := func(ids ...string) func(u *undoWorld) {
		return func(u *undoWorld) {
			for _, id := range ids {
				u.must(u.master, ActionGrantPowerup, map[string]any{"team": u.teams[0].Local(), "powerup": id}, "")
			}
		}
	}
	use := func(body map[string]any) func(u *undoWorld) map[string]any {
		return func(u *undoWorld) map[string]any { return body }
	}
	// prep readies a powerup use: the powerups in the inventory, a target
	// off tile 1, a cooldown to clear. It runs before the state is taken.
	prep := map[string]func(u *undoWorld){
		"use skip": grant("skip1"),
		"use back": func(u *undoWorld) {
			grant("back1")(u)
			u.must(u.teams[1], ActionComplete, map[string]any{"tile": 1, "recorded": 0, "players": []string{"A1"}, "complete": true}, "")
		},
		"use clear cooldown": func(u *undoWorld) {
			grant("clearCooldown")(u)
			u.must(u.master, ActionSetCooldown, map[string]any{"team": u.teams[0].Local(), "cooldown": true}, "")
		},
		"use double powerup": grant("doublePowerup", "skip1"),
		"use change tile":    grant("changeTile"),
		"use double tile":    grant("doubleEasy", "doubleMedium", "doubleHard"),
	}
	double := func(u *undoWorld) map[string]any {
		return map[string]any{"powerup": "double" + strings.ToUpper(u.tile(4).Difficulty.String()[:1]) + u.tile(4).Difficulty.String()[1:], "tile": 4}
	}
	active := []act{
		{"use skip", team0, ActionUsePowerup, use(map[string]any{"powerup": "skip1"}), ""},
		{"use back", team0, ActionUsePowerup, func(u *undoWorld) map[string]any {
			return map[string]any{"powerup": "back1", "target": u.teams[1].Local()}
		}, ""},
		{"use clear cooldown", team0, ActionUsePowerup, use(map[string]any{"powerup": "clearCooldown"}), ""},
		{"use double powerup", team0, ActionUsePowerup, use(map[string]any{"powerup": "doublePowerup", "duplicate": "skip1"}), ""},
		{"use change tile", team0, ActionUsePowerup, use(map[string]any{"powerup": "changeTile", "tile": 4}), ""},
		{"use double tile", team0, ActionUsePowerup, double, ""},
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
	run := func(t *testing.T, start, discord bool, acts []act) {
		// Every case starts from the same race: it is built once, and each
		// case plays on a copy of it (building it was most of a case's
		// time under the race detector).
		base := newUndoWorld(t, start)
		if discord {
			base.discord()
		}
		if start {
			// Some history first, and a team that has moved, so a reset
			// and a move have something to undo.
			base.must(base.teams[0], ActionComplete, map[string]any{"tile": 1, "recorded": 0, "players": []string{"B0"}, "complete": true}, "")
			base.must(base.master, ActionAddPoolTask, map[string]any{"label": "Mine", "difficulty": 1, "min": 1, "max": 1}, "")
		}
		for _, tc := range acts {
			t.Run(tc.name, func(t *testing.T) {
				u := base.copy(t)
				if p := prep[tc.name]; p != nil {
					p(u)
				}
				if tc.name == "reset" || tc.name == "move" {
					u.must(u.master, ActionMoveTeam, map[string]any{"team": tid(u), "to": 3}, "")
				}
				before := u.state()
				teamBefore := u.team(0)
				ch := u.must(tc.actor(u), tc.typ, tc.body(u), tc.secret)
				require.NotEqual(t, before, u.state(), "the action changed something")
				if discord {
					// Delivery state is not game state: the action's
					// announcements have gone out before the undo.
					u.deliverOutbox()
				}
				histBefore := u.history()
				undo := u.must(u.master, ActionUndo, nil, "")
				awards := rulestest.All[AwardData](t, ch.Events(), EventPointsAwarded)
				back := u.requireReversed(awards, fmt.Sprintf("%s~a%d", u.master.ID, u.n), tid(u))
				require.Equal(t, teamBefore.Points, u.team(0).Points, "the team's points are back")
				require.Equal(t, teamBefore.Reversed+back, u.team(0).Reversed, "reversed counts the awards taken back")
				got := u.state()
				if discord {
					requireUndoAnnounced(t, undo, slices.Contains(undo.Result.(UndoResult).Teams, tid(u)))
				}
				if tc.name == "move" || tc.name == "complete" || tc.name == "complete for a team" || tc.name == "use skip" {
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
				require.Len(t, rulestest.All[PointsReversedData](t, undo.Events(), EventPointsReversed), len(awards))
				require.Equal(t, len(awards), res.Reversed)
				if tc.name == "use back" {
					require.ElementsMatch(t, []string{tid(u), u.teams[1].Local()}, res.Teams, "the user and the target")
				} else if tc.actor(u).Role == RoleTeam || tc.typ == ActionMoveTeam {
					require.Equal(t, []string{tid(u)}, res.Teams)
				}
				hist := u.history()
				require.NotEmpty(t, hist)
				require.Len(t, hist, len(histBefore)-1, "only the undone entry goes")
				for _, h := range hist {
					require.NotEqual(t, res.Undone[0].Record, h.Record, "the undone entry is used up")
				}
			})
		}
	}
	t.Run("active", func(t *testing.T) { run(t, true, false, active) })
	t.Run("setup", func(t *testing.T) { run(t, false, false, setup) })
	// The same with Discord configured (ruling 20, issue 20): every action
	// is announced, its messages delivered, and the undo still restores
	// exactly and is announced itself (ruling 22: main gets every
	// announcement).
	t.Run("discord active", func(t *testing.T) { run(t, true, true, active) })
	t.Run("discord setup", func(t *testing.T) { run(t, false, true, setup) })
}

// discordTestBase is the fake Discord the undo world's webhooks point at.
const discordTestBase = "http://discord.test"

// discord configures the main webhook and team 0's slot 1.
func (u *undoWorld) discord() {
	u.t.Helper()
	u.w.Game = RaceGame{DiscordBase: func() string { return discordTestBase }}
	u.must(u.master, ActionUpdateTeam, map[string]any{"team": u.teams[0].Local(), "slot": 1}, "")
	u.must(u.master, ActionSetDiscord, map[string]any{
		"main":  discordTestBase + "/api/webhooks/100/main-token",
		"slots": map[string]any{"1": discordTestBase + "/api/webhooks/101/slot-token"},
	}, "")
	u.deliverOutbox()
}

// deliverOutbox marks every outbox message delivered, as the platform's
// delivery does (it adds its state to the message document).
func (u *undoWorld) deliverOutbox() {
	for id, raw := range u.w.Docs {
		if id.Slot != domain.SlotOutbox {
			continue
		}
		var m map[string]any
		require.NoError(u.t, json.Unmarshal(raw, &m))
		if m["state"] == "delivered" {
			continue
		}
		m["state"], m["attempts"], m["deliveredAt"] = "delivered", 1, u.w.Now.Format(time.RFC3339Nano)
		b, _ := json.Marshal(m)
		u.w.Docs[id] = b
	}
}

// requireUndoAnnounced checks that an undo's change sends its announcement
// to the main webhook, and to team 0's slot when it affected team 0.
func requireUndoAnnounced(t *testing.T, undo domain.Change, team0 bool) {
	t.Helper()
	titles := map[string][]string{}
	for _, w := range undo.Writes {
		if w.Slot != domain.SlotOutbox {
			continue
		}
		m := w.Value.(domain.Message)
		var body WebhookBody
		require.NoError(t, json.Unmarshal(m.Body, &body))
		titles[m.To] = append(titles[m.To], body.Embeds[0].Title)
	}
	want := map[string][]string{DestMain: {"↩️ Undo: 1 action reverted"}}
	if team0 {
		want[DestSlot(1)] = want[DestMain]
	}
	require.Equal(t, want, titles, "the undo's announcements, by destination")
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

// undoTo reverts several actions at once, of several teams and admins, and
// names every team they affected.
func TestUndoToSeveral(t *testing.T) {
	u := newUndoWorld(t, true)
	u.must(u.teams[2], ActionComplete, map[string]any{"tile": 1, "recorded": 0, "players": []string{"A2"}, "complete": true}, "")
	before := u.state()
	u.must(u.teams[0], ActionComplete, map[string]any{"tile": 1, "recorded": 0, "players": []string{"A0"}, "complete": true}, "")
	rec := fmt.Sprintf("%s~a%d", u.teams[0].ID, u.n) // its event record id
	u.must(u.master, ActionGrantPowerup, map[string]any{"team": u.teams[1].Local(), "powerup": "skip3"}, "")
	u.must(u.teams[0], ActionComplete, map[string]any{"tile": 2, "recorded": 0, "players": []string{"B0"}, "complete": true}, "")
	u.must(u.master, ActionSetFog, map[string]any{"mode": "admins"}, "")
	u.must(u.teams[1], ActionClaimPowerupTile, map[string]any{"powerupTile": "pt-1", "claims": 0, "players": []string{"A1", "B1"}}, "")
	_, err := u.do(u.master, ActionUndoTo, map[string]any{"to": u.teams[0].ID + "~nope"}, "")
	require.Equal(t, domain.ENOTFOUND, domain.ErrorCode(err), "%v", err)
	hist := u.history()
	require.Greater(t, len(hist), HistoryDepth)
	ch := u.must(u.master, ActionUndoTo, map[string]any{"to": rec}, "")
	require.Len(t, u.history(), len(hist)-5, "the five undone entries go; older ones, beyond the last 10, stay")
	// The fog frontier stays where the completions took it (revealed tiles
	// stay revealed): compare the rest.
	got := u.state()
	require.Contains(t, got[SlotPublicBoard+"/"], `"revealedUpTo":8`, "the frontier the undone completions raised stays")
	delete(got, SlotPublicBoard+"/")
	delete(before, SlotPublicBoard+"/")
	require.Equal(t, before, got, "all five actions undone")
	res := ch.Result.(UndoResult)
	require.Len(t, res.Undone, 5)
	require.Equal(t, ActionClaimPowerupTile, res.Undone[0].Type, "newest first")
	require.Equal(t, rec, res.Undone[4].Record)
	require.ElementsMatch(t, []string{u.teams[0].Local(), u.teams[1].Local()}, res.Teams)
	require.ElementsMatch(t, []string{"Team 0", "Team 1"}, res.TeamNames)
	require.Equal(t, 4, res.Reversed, "two completions and a claim by two players")
	ev := rulestest.All[UndoneData](t, ch.Events(), EventUndone)
	require.Len(t, ev, 1)
	require.Equal(t, "Mia", ev[0].By)
	require.Equal(t, res.Teams, ev[0].Teams)
	require.Equal(t, 2, u.team(0).Reversed)
	require.Equal(t, 2, u.team(1).Reversed)
	m := &memStore{t: t, docs: u.w.Docs}
	require.True(t, m.project())
	require.Equal(t, RaceLeaderboard{Totals: map[string]int{"A2": 100}, Top: []Standing{{Rank: 1, Player: "A2", Points: 100, Display: "1.00"}},
		Awards: 5, Reversed: 4}, m.leaderboard())
	// An award counter never goes down: the next award has a new key.
	require.Equal(t, 2, u.team(0).Awards)
	next := u.must(u.teams[0], ActionComplete, map[string]any{"tile": 1, "recorded": 0, "players": []string{"A0"}}, "")
	aw := rulestest.All[AwardData](t, next.Events(), EventPointsAwarded)
	require.Equal(t, AwardKey(u.teams[0].Local(), 3), aw[0].Key, "keys 1 and 2 were undone, never reused")
}

func TestUndoRefusals(t *testing.T) {
	u := newUndoWorld(t, false)
	// Only admins undo.
	_, err := u.do(u.teams[0], ActionUndo, nil, "")
	require.Equal(t, domain.EFORBIDDEN, domain.ErrorCode(err))
	_, err = u.do(u.master, ActionUndoTo, nil, "")
	require.Equal(t, domain.EINVALID, domain.ErrorCode(err))
	require.Contains(t, err.Error(), "to is required")
	_, err = u.do(u.master, ActionUndo, map[string]any{"to": "x"}, "")
	require.Equal(t, domain.EINVALID, domain.ErrorCode(err))
	// Undo is not undone: undoing everything there is, then nothing is left.
	for range len(u.history()) {
		u.must(u.master, ActionUndo, nil, "")
	}
	_, err = u.do(u.master, ActionUndo, nil, "")
	require.Equal(t, domain.ECONFLICT, domain.ErrorCode(err))
	require.Contains(t, err.Error(), "nothing to undo")
	require.Empty(t, u.history())
}

// A document an undone action changed that has changed again since (a
// concurrent action committed in between) is never overwritten: the undo
// is refused, naming it, and writes nothing.
func TestUndoConflict(t *testing.T) {
	u := newUndoWorld(t, true)
	u.must(u.master, ActionGrantPowerup, map[string]any{"team": u.teams[0].Local(), "powerup": "skip3"}, "")
	id := domain.Doc(SlotTeam, u.teams[0].Local())
	var tm Team
	require.NoError(t, json.Unmarshal(u.w.Docs[id], &tm))
	tm.Inventory = append(tm.Inventory, "back1") // as a concurrent action would
	raw, _ := json.Marshal(tm)
	u.w.Docs[id] = raw
	before := u.state()
	_, err := u.do(u.master, ActionUndo, nil, "")
	require.Equal(t, domain.ECONFLICT, domain.ErrorCode(err))
	require.Contains(t, err.Error(), "team "+u.teams[0].Local()+" has changed since")
	require.Equal(t, before, u.state())
	// Counters do not count as a change: a team whose award counter moved
	// on (an earlier undo kept it) can still be undone.
	tm.Inventory = tm.Inventory[:len(tm.Inventory)-1]
	tm.Awards += 7
	raw, _ = json.Marshal(tm)
	u.w.Docs[id] = raw
	u.must(u.master, ActionUndo, nil, "")
	require.Equal(t, tm.Awards, u.team(0).Awards)
	require.NotContains(t, u.team(0).Inventory, "skip3")
}

// Undo after a win: the race is on again, without a winner.
func TestUndoWin(t *testing.T) {
	u := newUndoWorld(t, true)
	u.must(u.master, ActionMoveTeam, map[string]any{"team": u.teams[0].Local(), "to": FinalTile}, "")
	before := u.state()
	win := u.must(u.teams[0], ActionComplete, map[string]any{"tile": FinalTile, "recorded": 0, "players": []string{"A0"}, "complete": true}, "")
	require.True(t, win.Result.(CompleteResult).Won)
	st, _, _ := u.w.Header()
	require.Equal(t, domain.StatusOver, st)
	u.must(u.master, ActionUndo, nil, "")
	require.Equal(t, before, u.state())
	st, _, _ = u.w.Header()
	require.Equal(t, domain.StatusActive, st)
	g, err := domain.ReadGame[Game](docsOf(u.w), Kind)
	require.NoError(t, err)
	require.Equal(t, StatusActive, g.State.Status)
	require.Empty(t, g.State.Winner)
	// Team actions work again.
	u.must(u.teams[1], ActionComplete, map[string]any{"tile": 1, "recorded": 0, "players": []string{"A1"}, "complete": true}, "")
}

// Before-images too large for the entry (the pools, the board) go to parts.
func TestUndoLargeImages(t *testing.T) {
	u := newUndoWorld(t, false)
	var tasks strings.Builder
	long := strings.Repeat("Ünïcödé instructions ", 45)
	for i := 0; i < 400; i++ {
		fmt.Fprintf(&tasks, "Task %d,easy,1,1,%s\n", i, long)
	}
	u.must(u.master, ActionImportTasks, map[string]any{"data": tasks.String()}, "")
	before := u.state()
	u.must(u.master, ActionClearPools, map[string]any{}, "")
	next := u.pools().NextID
	h := u.history()[0]
	require.Equal(t, ActionClearPools, h.Type)
	require.Greater(t, h.Parts, 0)
	require.Empty(t, h.Images)
	for id, raw := range u.w.Docs {
		require.Less(t, len(raw), 1<<20-64<<10, "%s/%s stays well under 1 MiB", id.Slot, id.Key)
	}
	u.must(u.master, ActionUndo, nil, "")
	require.Equal(t, before, u.state())
	for id := range u.w.Docs {
		require.NotEqual(t, SlotHistoryPart, id.Slot, "parts go with their entry")
	}
	require.Equal(t, next, u.pools().NextID, "task ids are never reused")
	u.must(u.master, ActionAddPoolTask, map[string]any{"label": "Mine", "difficulty": 1, "min": 1, "max": 1}, "")
	u.must(u.master, ActionUndo, nil, "")
	require.Equal(t, next+1, u.pools().NextID, "task ids are never reused")
}

func docsOf(w *rulestest.World) domain.Docs {
	d := domain.NewDocs()
	for id, raw := range w.Docs {
		d.Put(id, raw)
	}
	return d
}

func (u *undoWorld) pools() Pools {
	var pd PoolsDoc
	require.NoError(u.t, json.Unmarshal(u.w.Docs[domain.Doc(SlotPools, "")], &pd))
	return pd.Pools
}
