package tilerace

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/rulestest"
)

// powerWorld is a started race of three teams on a known board:
//
//	tile:  1E 2E 3M 4M 5H 6E 7M 8H 9E 10M 11H 12E 13M  (14… hidden)
//	team:  t3       t1          t2
//	mods:     2 copied from → 12 pasted;  10 changed;  11 doubled;  9 rewards skip2
//
// Labels are unique ("T1" … "T56"), so a label in an event names its tile.
func powerWorld(t *testing.T) *world {
	t.Helper()
	w := race(t, 3)
	diff := []Difficulty{Easy, Easy, Medium, Medium, Hard, Easy, Medium, Hard, Easy, Medium, Hard, Easy, Medium}
	for n := 1; n <= NumTiles; n++ {
		d := Hard
		if n <= len(diff) {
			d = diff[n-1]
		} else if n < FinalTile {
			d = Difficulty(n%3 + 1)
		}
		tile, _ := w.board.Tile(n)
		tile.Task = Task{Label: fmt.Sprint("T", n), Difficulty: d, Instructions: fmt.Sprint("Secret instructions ", n),
			Image: fmt.Sprintf("https://img.example/%d.png", n), Min: 1, Max: 1, Points: DefaultPoints}
		tile.Reward = ""
		tile.Mods = Mods{}
		w.board.Tiles[n-1] = tile
	}
	w.board.Tiles[9-1].Reward = PowerupSkip2
	w.board.Tiles[2-1].Mods = Mods{CopySource: true}
	w.board.Tiles[12-1].Mods = Mods{Pasted: true, PastedFrom: 2}
	w.board.Tiles[10-1].Mods = Mods{Changed: true}
	w.board.Tiles[11-1].Min, w.board.Tiles[11-1].Max = 2, 2
	w.board.Tiles[11-1].Mods = Mods{Doubled: true, DifficultyPoints: true}
	w.place("t1", 4)
	w.place("t2", 8)
	w.place("t3", 1)
	return w
}

// place puts a team on tile n (test setup) and lifts the fog to match.
func (w *world) place(team string, n int) {
	w.t.Helper()
	t := w.teams[team]
	t.Position = n
	w.teams[team] = t
	w.g.RevealedUpTo = max(w.g.RevealedUpTo, RevealUpTo(n))
	w.resync()
}

// give sets a team's inventory and cooldown (test setup).
func (w *world) give(team string, cooldown bool, inv ...string) {
	t := w.teams[team]
	t.Inventory, t.Cooldown = inv, cooldown
	w.teams[team] = t
}

// resync republishes every tile (after test setup changed the board or the
// frontier directly).
func (w *world) resync() {
	for _, pt := range ViewBoard(w.g, w.board, false) {
		w.public[pt.N] = pt
	}
}

// use runs usePowerup as the store would: it gives the action only the
// values PowerupReads lists (and the frontier only when ReadsFrontier says),
// so a use that looked at anything else would fail here; then it writes back
// exactly what the Outcome lists. A refusal must leave every value as it was.
func (w *world) use(a domain.Actor, team string, req PowerupRequest) (PowerupResult, Outcome, error) {
	w.t.Helper()
	v := Values{Game: w.g, Team: w.teams[team]}
	id, known := PowerupByID(req.Powerup)
	reads := []Doc{DocGame, DocTeam}
	if known {
		reads = PowerupReads(id)
	}
	if !known || !ReadsFrontier(id) {
		v.Game.RevealedUpTo = 0
	}
	for _, d := range reads {
		switch d {
		case DocTarget:
			v.Target = w.teams[req.Target]
		case DocTeams:
			for _, k := range sortedKeys(w.teams) {
				v.Teams = append(v.Teams, w.teams[k])
			}
		case DocBoard:
			v.Board = w.board
		case DocPools:
			v.Pools = w.pools
		}
	}
	var nv Values
	var o Outcome
	var err error
	rulestest.Pure(w.t, v, func(v Values) {
		nv, o, err = Run(Ctx{Actor: a, Now: t0}, v, Input{Type: ActionUsePowerup, Req: &req, Dice: domain.NewSeededDice("use", 1)})
	})
	if err != nil {
		require.Equal(w.t, jsonOf(w.t, v), jsonOf(w.t, nv), "a refused use returned changed values")
		require.Empty(w.t, o.Events)
		return PowerupResult{}, o, err
	}
	require.Subset(w.t, Specs[ActionUsePowerup].Writes, o.Writes)
	for _, d := range []Doc{DocTarget, DocBoard, DocPools} {
		if !o.Wrote(d) {
			require.Equal(w.t, jsonOf(w.t, valueOf(v, d)), jsonOf(w.t, valueOf(nv, d)), "%s changed but Writes does not say so", d)
		}
	}
	require.False(w.t, o.Wrote(DocGame), "a powerup never writes the game document")
	if !o.Wrote(DocPublicBoard) {
		require.Equal(w.t, v.Game.RevealedUpTo, nv.Game.RevealedUpTo)
	}
	g := nv.Game
	if !ReadsFrontier(id) {
		g.RevealedUpTo = w.g.RevealedUpTo
	}
	w.g = g
	w.teams[team] = nv.Team
	if o.Wrote(DocTarget) {
		w.teams[nv.Target.ID] = nv.Target
	}
	if o.Wrote(DocBoard) {
		w.board = nv.Board
	}
	if o.Wrote(DocPools) {
		w.pools = nv.Pools
	}
	w.apply(o)
	w.checkWorld()
	w.checkNoHiddenContent(o.Events)
	w.checkNoHiddenText(jsonOf(w.t, o.Result))
	w.checkNoHiddenText(jsonOf(w.t, w.public))
	// Discord announces from the same events: its messages carry no hidden
	// text either.
	roster := func(id string) (TeamRef, bool) {
		for _, ref := range w.g.Teams {
			if ref.ID == id {
				return ref, true
			}
		}
		return TeamRef{}, false
	}
	msgs := Announcements(o.Events, roster, time.Time{})
	require.NotEmpty(w.t, msgs, "a powerup use is announced")
	w.checkNoHiddenText(jsonOf(w.t, msgs))
	res, ok := o.Result.(PowerupResult)
	require.True(w.t, ok)
	return res, o, nil
}

func valueOf(v Values, d Doc) any {
	switch d {
	case DocTarget:
		return v.Target
	case DocBoard:
		return v.Board
	case DocPools:
		return v.Pools
	}
	return nil
}

// checkNoHiddenText checks text holds no label, instructions or image of a
// tile players cannot see.
func (w *world) checkNoHiddenText(text string) {
	w.t.Helper()
	for n := 1; n <= NumTiles; n++ {
		tile, _ := w.board.Tile(n)
		if !w.g.Visible(n, false) && tile.Label != "" {
			require.NotContains(w.t, text, `"`+tile.Label+`"`, "hidden tile %d's label", n)
			require.NotContains(w.t, text, tile.Instructions, "hidden tile %d's instructions", n)
			require.NotContains(w.t, text, tile.Image, "hidden tile %d's image", n)
		}
	}
}

// usedData is the powerupUsed event of an outcome (the first event).
func usedData(t *testing.T, o Outcome) PowerupUsedData {
	t.Helper()
	require.NotEmpty(t, o.Events)
	require.Equal(t, EventPowerupUsed, o.Events[0].Type)
	d, ok := o.Events[0].Data.(PowerupUsedData)
	require.True(t, ok)
	return d
}

func eventTypes(o Outcome) []string {
	var out []string
	for _, e := range o.Events {
		out = append(out, e.Type)
	}
	return out
}

// refusal is one Cannot: the request, and what the error says.
type refusal struct {
	name  string
	setup func(w *world)
	team  string // default t1
	req   PowerupRequest
	code  string
	msg   string
}

// checkRefusals runs each refusal on a fresh powerWorld: the error's code
// and message, and nothing changed — the team keeps the powerup.
func checkRefusals(t *testing.T, cases []refusal) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := powerWorld(t)
			if c.setup != nil {
				c.setup(w)
			}
			team := c.team
			if team == "" {
				team = "t1"
			}
			if id, ok := PowerupByID(c.req.Powerup); ok && len(w.teams[team].Inventory) == 0 {
				w.give(team, false, id)
			}
			before := jsonOf(t, []any{w.g, w.teams, w.board, w.pools, w.public})
			_, _, err := w.use(teamAct(team), team, c.req)
			require.Error(t, err)
			require.Equal(t, c.code, domain.ErrorCode(err), "%v", err)
			require.Contains(t, err.Error(), c.msg)
			require.Equal(t, before, jsonOf(t, []any{w.g, w.teams, w.board, w.pools, w.public}), "a refused use changed the state")
		})
	}
}

func TestPowerupSkip(t *testing.T) {
	for _, c := range []struct {
		id       string
		from, to int
	}{
		{PowerupSkip1, 4, 5}, {PowerupSkip2, 4, 6}, {PowerupSkip3, 4, 7},
		{PowerupSkip3, 52, 55}, {PowerupSkip1, 54, 55}, {PowerupSkip2, 53, 55},
	} {
		t.Run(fmt.Sprintf("%s from %d", c.id, c.from), func(t *testing.T) {
			w := powerWorld(t)
			w.place("t1", c.from)
			tm := w.teams["t1"]
			tm.Progress = []string{"t1-cap"}
			w.teams["t1"] = tm
			w.give("t1", false, PowerupSkip1, c.id)
			frontier := w.g.RevealedUpTo
			res, o, err := w.use(teamAct("t1"), "t1", PowerupRequest{Powerup: c.id})
			require.NoError(t, err)
			got := w.teams["t1"]
			require.Equal(t, c.to, got.Position)
			require.Equal(t, tm.Moves+1, got.Moves, "a move counts")
			require.Empty(t, got.Progress, "progress resets")
			require.True(t, got.Cooldown)
			require.Equal(t, tm.Awards, got.Awards, "skipped tiles give no points")
			require.Equal(t, []string{PowerupSkip1}, got.Inventory, "one copy spent")
			require.Equal(t, c.to, res.Position)
			d := usedData(t, o)
			require.Equal(t, PowerupUsedData{Team: "t1", TeamName: "Team 1", Powerup: c.id, PowerupName: PowerupName(c.id),
				From: c.from, To: c.to, FromLabel: fmt.Sprint("T", c.from), ToLabel: fmt.Sprint("T", c.to)}, d)
			require.Equal(t, EventTeamMoved, o.Events[1].Type)
			require.Equal(t, MovedData{Team: "t1", TeamName: "Team 1", From: c.from, To: c.to}, o.Events[1].Data)
			require.Equal(t, max(frontier, RevealUpTo(c.to)), w.g.RevealedUpTo, "the fog lifts for the new position")
			if w.g.RevealedUpTo > frontier {
				require.Contains(t, eventTypes(o), EventTilesRevealed)
				require.True(t, o.Wrote(DocPublicBoard))
			} else {
				require.False(t, o.Wrote(DocPublicBoard))
			}
		})
	}
	checkRefusals(t, []refusal{
		{name: "onto the final tile", setup: func(w *world) { w.place("t1", 53) }, req: PowerupRequest{Powerup: PowerupSkip3}, code: domain.ECONFLICT, msg: "may not move onto or past the final tile"},
		{name: "past the final tile", setup: func(w *world) { w.place("t1", 55) }, req: PowerupRequest{Powerup: PowerupSkip2}, code: domain.ECONFLICT, msg: "onto or past"},
		{name: "from the final tile", setup: func(w *world) { w.place("t1", 56) }, req: PowerupRequest{Powerup: PowerupSkip1}, code: domain.ECONFLICT, msg: "onto or past"},
		{name: "with a target", req: PowerupRequest{Powerup: PowerupSkip1, Target: "t2"}, code: domain.EINVALID, msg: "target is not used by Skip 1 tile"},
		{name: "with a tile", req: PowerupRequest{Powerup: PowerupSkip1, Tile: 5}, code: domain.EINVALID, msg: "tile is not used"},
	})
}

func TestPowerupSkipRevealsHiddenTile(t *testing.T) {
	// Tile 55 is beyond the frontier of a team on 53 whose raise is still to
	// come: the skip reveals it in the same step, so its label may be named.
	w := powerWorld(t)
	w.place("t1", 52)
	require.Equal(t, 54, w.g.RevealedUpTo)
	w.give("t1", false, PowerupSkip3)
	_, o, err := w.use(teamAct("t1"), "t1", PowerupRequest{Powerup: PowerupSkip3})
	require.NoError(t, err)
	require.Equal(t, 56, w.g.RevealedUpTo)
	require.Equal(t, []string{EventPowerupUsed, EventTeamMoved, EventTilesRevealed}, eventTypes(o))
	require.ElementsMatch(t, []int{55, 56}, o.Publish)
	require.Equal(t, "T55", usedData(t, o).ToLabel)
	require.Equal(t, "T55", w.public[55].Content.Label)
}

func TestPowerupBack(t *testing.T) {
	for _, c := range []struct {
		name     string
		id       string
		from, to int
	}{
		{"back1", PowerupBack1, 8, 7}, {"back2", PowerupBack2, 8, 6}, {"back3", PowerupBack3, 8, 5},
		{"back3 from 2 stops at 1", PowerupBack3, 2, 1},
		{"back1 from the final tile", PowerupBack1, 56, 55},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := powerWorld(t)
			w.place("t2", c.from)
			tg := w.teams["t2"]
			tg.Progress = []string{"t2-b"}
			w.teams["t2"] = tg
			w.give("t1", false, c.id)
			res, o, err := w.use(teamAct("t1"), "t1", PowerupRequest{Powerup: c.id, Target: "t2"})
			require.NoError(t, err)
			got := w.teams["t2"]
			require.Equal(t, c.to, got.Position)
			require.Equal(t, tg.Moves+1, got.Moves)
			require.Empty(t, got.Progress)
			require.False(t, got.Cooldown, "the target's cooldown is not touched")
			require.Equal(t, 4, w.teams["t1"].Position)
			require.True(t, w.teams["t1"].Cooldown)
			require.Empty(t, w.teams["t1"].Inventory)
			require.Equal(t, PowerupResult{Powerup: c.id, Position: 4, Cooldown: true, Inventory: []string{}, Target: "t2", TargetPosition: c.to}, res)
			require.Equal(t, PowerupUsedData{Team: "t1", TeamName: "Team 1", Powerup: c.id, PowerupName: PowerupName(c.id), Target: "t2", TargetName: "Team 2",
				From: c.from, To: c.to, FromLabel: fmt.Sprint("T", c.from), ToLabel: fmt.Sprint("T", c.to)}, usedData(t, o))
			require.Equal(t, []string{EventPowerupUsed, EventTeamMoved}, eventTypes(o))
			require.Equal(t, "t2", o.Events[1].Player)
			require.Equal(t, MovedData{Team: "t2", TeamName: "Team 2", From: c.from, To: c.to}, o.Events[1].Data)
		})
	}
	t.Run("target on tile 1: nothing moves, the powerup is spent", func(t *testing.T) {
		w := powerWorld(t)
		w.give("t1", false, PowerupBack2)
		before := w.teams["t3"]
		_, o, err := w.use(teamAct("t1"), "t1", PowerupRequest{Powerup: PowerupBack2, Target: "t3"})
		require.NoError(t, err)
		require.Equal(t, before, w.teams["t3"])
		require.False(t, o.Wrote(DocTarget))
		require.Equal(t, []string{EventPowerupUsed}, eventTypes(o))
		d := usedData(t, o)
		require.Equal(t, 1, d.From)
		require.Equal(t, 1, d.To)
		require.Empty(t, w.teams["t1"].Inventory)
		require.True(t, w.teams["t1"].Cooldown)
	})
	checkRefusals(t, []refusal{
		{name: "yourself", req: PowerupRequest{Powerup: PowerupBack1, Target: "t1"}, code: domain.EINVALID, msg: "cannot send itself back"},
		{name: "no target", req: PowerupRequest{Powerup: PowerupBack1}, code: domain.EINVALID, msg: "target is required"},
		{name: "unknown team", req: PowerupRequest{Powerup: PowerupBack1, Target: "t9"}, code: domain.ENOTFOUND, msg: `no team "t9"`},
		{name: "with a tile", req: PowerupRequest{Powerup: PowerupBack1, Target: "t2", Tile: 3}, code: domain.EINVALID, msg: "tile is not used"},
	})
}

func TestPowerupCopyPaste(t *testing.T) {
	cp := func(n int) PowerupRequest { return PowerupRequest{Powerup: PowerupCopyPaste, Tile: n} }
	for _, c := range []struct {
		name  string
		setup func(w *world)
		tile  int
		src   int
	}{
		{"a clean tile of equal difficulty", nil, 7, 4},
		{"a clean tile of lower difficulty", nil, 6, 4},
		{"from a doubled tile (retaliate)", func(w *world) { w.place("t1", 11) }, 5, 11},
		{"from a tile that was pasted onto", func(w *world) { w.place("t1", 12) }, 6, 12},
		{"from a changed tile", func(w *world) { w.place("t1", 10) }, 7, 10},
		{"from a tile already copied from", func(w *world) { w.place("t1", 2) }, 6, 2},
	} {
		t.Run("can "+c.name, func(t *testing.T) {
			w := powerWorld(t)
			if c.setup != nil {
				c.setup(w)
			}
			w.give("t1", false, PowerupCopyPaste)
			src, _ := w.board.Tile(c.src)
			dest, _ := w.board.Tile(c.tile)
			res, o, err := w.use(teamAct("t1"), "t1", cp(c.tile))
			require.NoError(t, err)
			got, _ := w.board.Tile(c.tile)
			require.Equal(t, src.Task, got.Task, "the whole task is copied")
			require.Equal(t, dest.Reward, got.Reward)
			require.Equal(t, Mods{Pasted: true, PastedFrom: c.src, DifficultyPoints: src.Mods.DifficultyPoints}, got.Mods)
			require.Equal(t, PointsPerCompletion(src), PointsPerCompletion(got), "the points come along")
			gotSrc, _ := w.board.Tile(c.src)
			require.True(t, gotSrc.Mods.CopySource)
			require.Equal(t, src.Task, gotSrc.Task)
			require.ElementsMatch(t, []int{c.tile, c.src}, o.Publish)
			require.Equal(t, src.Label, w.public[c.tile].Content.Label)
			require.True(t, w.public[c.src].Content.Mods.CopySource)
			require.Equal(t, PowerupUsedData{Team: "t1", TeamName: "Team 1", Powerup: PowerupCopyPaste, PowerupName: "Copy and Paste",
				Tile: c.tile, Source: c.src, Label: src.Label}, usedData(t, o))
			require.Equal(t, c.tile, res.Tile)
			require.Equal(t, src.Label, res.Label)
		})
	}
	t.Run("no loops: neither end can be pasted onto again", func(t *testing.T) {
		w := powerWorld(t)
		w.give("t1", false, PowerupCopyPaste)
		_, _, err := w.use(teamAct("t1"), "t1", cp(7))
		require.NoError(t, err)
		w.place("t1", 7)
		w.give("t1", false, PowerupCopyPaste)
		_, _, err = w.use(teamAct("t1"), "t1", cp(4))
		require.ErrorContains(t, err, "was copied from")
		w.place("t1", 3)
		_, _, err = w.use(teamAct("t1"), "t1", cp(7))
		require.ErrorContains(t, err, "already received a pasted task")
	})
	checkRefusals(t, []refusal{
		{name: "a tile with a team on it", req: cp(8), code: domain.ECONFLICT, msg: "team Team 2 is on tile 8"},
		{name: "tile 1 with a team on it", req: cp(1), code: domain.ECONFLICT, msg: "team Team 3 is on tile 1"},
		{name: "your current tile", req: cp(4), code: domain.ECONFLICT, msg: "your own tile"},
		{name: "a higher difficulty", req: cp(5), code: domain.ECONFLICT, msg: "harder than your tile"},
		{name: "a reward tile", req: cp(9), code: domain.ECONFLICT, msg: "gives a powerup reward"},
		{name: "a changed tile", req: cp(10), code: domain.ECONFLICT, msg: "was changed"},
		{name: "a doubled tile", setup: func(w *world) { w.place("t1", 5) }, req: cp(11), code: domain.ECONFLICT, msg: "is doubled"},
		{name: "a tile already copied from", req: cp(2), code: domain.ECONFLICT, msg: "was copied from"},
		{name: "a paste destination", req: cp(12), code: domain.ECONFLICT, msg: "already received a pasted task"},
		{name: "a hidden tile", req: cp(20), code: domain.ECONFLICT, msg: "hidden by the fog"},
		{name: "a hidden tile, whatever it holds", setup: func(w *world) { w.board.Tiles[20-1].Mods.Doubled = true }, req: cp(20), code: domain.ECONFLICT, msg: "hidden by the fog"},
		{name: "the final tile", req: cp(56), code: domain.EINVALID, msg: "final tile"},
		{name: "from the final tile", setup: func(w *world) { w.place("t1", 56) }, req: cp(5), code: domain.ECONFLICT, msg: "final tile's task cannot be copied"},
		{name: "no tile", req: PowerupRequest{Powerup: PowerupCopyPaste}, code: domain.EINVALID, msg: "tile is required"},
		{name: "tile out of range", req: cp(57), code: domain.EINVALID, msg: "tile must be between 1 and 56"},
		{name: "with a target", req: PowerupRequest{Powerup: PowerupCopyPaste, Tile: 7, Target: "t2"}, code: domain.EINVALID, msg: "target is not used"},
	})
}

func TestPowerupChangeTile(t *testing.T) {
	ch := func(n int) PowerupRequest { return PowerupRequest{Powerup: PowerupChangeTile, Tile: n} }
	for _, c := range []struct {
		name string
		tile int
	}{
		{"an unmodified tile", 7},
		{"an unmodified reward tile (the reward stays)", 9},
		{"an unmodified hard tile", 5},
	} {
		t.Run("can "+c.name, func(t *testing.T) {
			w := powerWorld(t)
			old, _ := w.board.Tile(c.tile)
			// the old task comes from the pool: an unused one, now placed here
			pool := w.pools.Pool(old.Difficulty)
			i := slices.IndexFunc(*pool, func(pt PoolTask) bool { return !pt.Used })
			(*pool)[i].Used = true
			w.board.Tiles[c.tile-1].TaskID = (*pool)[i].ID
			old.TaskID = (*pool)[i].ID
			unused := w.pools.Unused(old.Difficulty)
			w.give("t1", false, PowerupChangeTile)
			res, o, err := w.use(teamAct("t1"), "t1", ch(c.tile))
			require.NoError(t, err)
			got, _ := w.board.Tile(c.tile)
			require.Equal(t, old.Difficulty, got.Difficulty)
			require.Equal(t, old.Reward, got.Reward)
			require.Equal(t, Mods{Changed: true}, got.Mods)
			require.NotEqual(t, old.TaskID, got.TaskID)
			placed := w.pools.Pool(old.Difficulty)
			var newTask, oldTask PoolTask
			for _, pt := range *placed {
				switch pt.ID {
				case got.TaskID:
					newTask = pt
				case old.TaskID:
					oldTask = pt
				}
			}
			require.True(t, newTask.Used, "the drawn task is marked used")
			require.Equal(t, newTask.Task.Label, got.Label)
			require.False(t, oldTask.Used, "the old task is back in the pool")
			require.Equal(t, unused, w.pools.Unused(old.Difficulty), "one out, one back")
			require.True(t, o.Wrote(DocPools))
			require.Equal(t, got.Label, usedData(t, o).Label)
			require.Equal(t, got.Label, res.Label)
			require.Equal(t, got.Label, w.public[c.tile].Content.Label)
		})
	}
	t.Run("content an admin typed goes to the pool as a new task", func(t *testing.T) {
		w := powerWorld(t)
		w.board.Tiles[7-1].TaskID = ""
		n := len(w.pools.Medium)
		w.give("t1", false, PowerupChangeTile)
		_, _, err := w.use(teamAct("t1"), "t1", ch(7))
		require.NoError(t, err)
		require.Len(t, w.pools.Medium, n+1)
		last := w.pools.Medium[n]
		require.Equal(t, "T7", last.Label)
		require.False(t, last.Used)
	})
	t.Run("the same dice draw the same task", func(t *testing.T) {
		var labels []string
		for range 2 {
			w := powerWorld(t)
			w.give("t1", false, PowerupChangeTile)
			_, _, err := w.use(teamAct("t1"), "t1", ch(7))
			require.NoError(t, err)
			labels = append(labels, w.board.Tiles[7-1].Label)
		}
		require.Equal(t, labels[0], labels[1])
	})
	noMedium := func(w *world) {
		for i := range w.pools.Medium {
			w.pools.Medium[i].Used = true
		}
	}
	checkRefusals(t, []refusal{
		{name: "the final tile", req: ch(56), code: domain.EINVALID, msg: "final tile"},
		{name: "a tile with a team on it", req: ch(8), code: domain.ECONFLICT, msg: "is on tile 8"},
		{name: "your own tile", req: ch(4), code: domain.ECONFLICT, msg: "is on tile 4"},
		{name: "an already changed tile", req: ch(10), code: domain.ECONFLICT, msg: "already changed"},
		{name: "a pasted tile", req: ch(12), code: domain.ECONFLICT, msg: "was copied"},
		{name: "a copied-from tile", req: ch(2), code: domain.ECONFLICT, msg: "was copied"},
		{name: "a doubled tile", req: ch(11), code: domain.ECONFLICT, msg: "is doubled"},
		{name: "a hidden tile", req: ch(30), code: domain.ECONFLICT, msg: "hidden by the fog"},
		{name: "an empty pool", setup: noMedium, req: ch(7), code: domain.ECONFLICT, msg: "medium pool has no unused task"},
	})
}

func TestPowerupDouble(t *testing.T) {
	db := func(id string, n int) PowerupRequest { return PowerupRequest{Powerup: id, Tile: n} }
	for _, c := range []struct {
		name string
		id   string
		tile int
	}{
		{"an easy tile", PowerupDoubleEasy, 6},
		{"a medium tile", PowerupDoubleMedium, 7},
		{"a hard tile", PowerupDoubleHard, 5},
		{"a changed tile", PowerupDoubleMedium, 10},
		{"a pasted tile", PowerupDoubleEasy, 12},
		{"a copied-from tile", PowerupDoubleEasy, 2},
		{"a reward tile", PowerupDoubleEasy, 9},
		{"a multi-completion tile", PowerupDoubleMedium, 13},
	} {
		t.Run("can double "+c.name, func(t *testing.T) {
			w := powerWorld(t)
			w.board.Tiles[13-1].Min, w.board.Tiles[13-1].Max, w.board.Tiles[13-1].Points = 2, 3, 150
			w.resync()
			old, _ := w.board.Tile(c.tile)
			w.give("t1", false, c.id)
			_, o, err := w.use(teamAct("t1"), "t1", db(c.id, c.tile))
			require.NoError(t, err)
			got, _ := w.board.Tile(c.tile)
			require.Equal(t, 2*old.Min, got.Min)
			require.Equal(t, 2*old.Max, got.Max)
			require.True(t, got.Mods.Doubled)
			require.Equal(t, old.Mods.Pasted, got.Mods.Pasted, "other marks stay")
			require.Equal(t, old.Mods.Changed, got.Mods.Changed)
			require.Equal(t, PointsPerCompletion(old), PointsPerCompletion(got), "points per completion stay (ruling 6)")
			require.Equal(t, old.Label, got.Label)
			require.Equal(t, []int{c.tile}, o.Publish)
			require.True(t, w.public[c.tile].Content.Mods.Doubled)
			require.Equal(t, PowerupUsedData{Team: "t1", TeamName: "Team 1", Powerup: c.id, PowerupName: PowerupName(c.id), Tile: c.tile, Label: old.Label}, usedData(t, o))
		})
	}
	t.Run("a doubled tile is locked", func(t *testing.T) {
		w := powerWorld(t)
		w.give("t1", false, PowerupDoubleMedium)
		_, _, err := w.use(teamAct("t1"), "t1", db(PowerupDoubleMedium, 7))
		require.NoError(t, err)
		for _, req := range []PowerupRequest{db(PowerupDoubleMedium, 7), {Powerup: PowerupChangeTile, Tile: 7}, {Powerup: PowerupCopyPaste, Tile: 7}} {
			w.give("t1", false, req.Powerup)
			_, _, err := w.use(teamAct("t1"), "t1", req)
			require.ErrorContains(t, err, "doubled", req.Powerup)
		}
	})
	checkRefusals(t, []refusal{
		{name: "another difficulty", req: db(PowerupDoubleEasy, 7), code: domain.ECONFLICT, msg: "only targets easy tiles; tile 7 is medium"},
		{name: "hard on a medium tile", req: db(PowerupDoubleHard, 13), code: domain.ECONFLICT, msg: "tile 13 is medium"},
		{name: "the final tile", req: db(PowerupDoubleHard, 56), code: domain.EINVALID, msg: "final tile"},
		{name: "an already doubled tile", req: db(PowerupDoubleHard, 11), code: domain.ECONFLICT, msg: "already doubled"},
		{name: "a tile with a team on it", req: db(PowerupDoubleHard, 8), code: domain.ECONFLICT, msg: "is on tile 8"},
		{name: "a hidden tile", req: db(PowerupDoubleHard, 17), code: domain.ECONFLICT, msg: "hidden by the fog"},
	})
}

func TestPowerupDisable(t *testing.T) {
	w := powerWorld(t)
	w.give("t1", false, PowerupDisablePowerup)
	w.give("t2", true, PowerupSkip1, PowerupBack2, PowerupSkip1)
	res, o, err := w.use(teamAct("t1"), "t1", PowerupRequest{Powerup: PowerupDisablePowerup, Target: "t2", Remove: "Skip 1 tile"})
	require.NoError(t, err)
	require.Equal(t, []string{PowerupBack2, PowerupSkip1}, w.teams["t2"].Inventory, "one copy removed")
	require.True(t, w.teams["t2"].Cooldown, "the target's cooldown stays")
	require.Equal(t, 8, w.teams["t2"].Position)
	require.Equal(t, PowerupUsedData{Team: "t1", TeamName: "Team 1", Powerup: PowerupDisablePowerup, PowerupName: "Disable Powerup",
		Target: "t2", TargetName: "Team 2", Removed: PowerupSkip1}, usedData(t, o))
	require.Equal(t, []string{EventPowerupUsed}, eventTypes(o))
	require.Equal(t, "t2", res.Target)
	require.Equal(t, []Doc{DocTeam, DocTarget}, o.Writes)

	dis := func(target, remove string) PowerupRequest {
		return PowerupRequest{Powerup: PowerupDisablePowerup, Target: target, Remove: remove}
	}
	checkRefusals(t, []refusal{
		{name: "a team holding none at all", req: dis("t2", PowerupSkip1), code: domain.ECONFLICT, msg: "team Team 2 holds no powerups"},
		{name: "a team not holding that one", setup: func(w *world) { w.give("t2", false, PowerupBack1) }, req: dis("t2", PowerupSkip1), code: domain.ECONFLICT, msg: "team Team 2 holds no Skip 1 tile"},
		{name: "yourself", setup: func(w *world) { w.give("t1", false, PowerupDisablePowerup, PowerupSkip1) }, req: dis("t1", PowerupSkip1), code: domain.EINVALID, msg: "cannot disable its own powerups"},
		{name: "an unknown powerup", setup: func(w *world) { w.give("t2", false, PowerupBack1) }, req: dis("t2", "fly"), code: domain.EINVALID, msg: `unknown powerup "fly"`},
		{name: "no remove", req: dis("t2", ""), code: domain.EINVALID, msg: "remove is required"},
		{name: "no target", req: dis("", PowerupSkip1), code: domain.EINVALID, msg: "target is required"},
	})
}

func TestPowerupDoublePowerup(t *testing.T) {
	w := powerWorld(t)
	w.give("t1", false, PowerupSkip2, PowerupDoublePowerup, PowerupDoublePowerup)
	res, o, err := w.use(teamAct("t1"), "t1", PowerupRequest{Powerup: PowerupDoublePowerup, Duplicate: PowerupSkip2})
	require.NoError(t, err)
	require.Equal(t, []string{PowerupSkip2, PowerupDoublePowerup, PowerupSkip2}, w.teams["t1"].Inventory)
	require.Equal(t, w.teams["t1"].Inventory, res.Inventory)
	require.True(t, res.Cooldown)
	require.Equal(t, PowerupSkip2, usedData(t, o).Duplicated)
	require.Equal(t, []Doc{DocTeam}, o.Writes, "a team's own powerup writes its team alone")

	dup := func(id string) PowerupRequest { return PowerupRequest{Powerup: PowerupDoublePowerup, Duplicate: id} }
	checkRefusals(t, []refusal{
		{name: "a powerup not held", req: dup(PowerupSkip1), code: domain.ECONFLICT, msg: "holds no Skip 1 tile to duplicate"},
		{name: "another Double Powerup", setup: func(w *world) { w.give("t1", false, PowerupDoublePowerup, PowerupDoublePowerup) }, req: dup(PowerupDoublePowerup), code: domain.EINVALID, msg: "cannot duplicate a Double Powerup"},
		{name: "no duplicate", req: PowerupRequest{Powerup: PowerupDoublePowerup}, code: domain.EINVALID, msg: "duplicate is required"},
	})
}

func TestPowerupUseRules(t *testing.T) {
	checkRefusals(t, []refusal{
		{name: "not held", setup: func(w *world) { w.give("t1", false, PowerupSkip2) }, req: PowerupRequest{Powerup: PowerupSkip1}, code: domain.ECONFLICT, msg: "team Team 1 holds no Skip 1 tile"},
		{name: "on cooldown", setup: func(w *world) { w.give("t1", true, PowerupSkip1) }, req: PowerupRequest{Powerup: PowerupSkip1}, code: domain.ECONFLICT, msg: "on cooldown"},
		{name: "on cooldown, a tile powerup", setup: func(w *world) { w.give("t1", true, PowerupDoubleMedium) }, req: PowerupRequest{Powerup: PowerupDoubleMedium, Tile: 7}, code: domain.ECONFLICT, msg: "on cooldown"},
		{name: "clear cooldown without a cooldown", req: PowerupRequest{Powerup: PowerupClearCooldown}, code: domain.ECONFLICT, msg: "not on cooldown"},
		{name: "unknown powerup", req: PowerupRequest{Powerup: "teleport"}, code: domain.EINVALID, msg: `unknown powerup "teleport"`},
		{name: "no powerup", req: PowerupRequest{}, code: domain.EINVALID, msg: "powerup is required"},
		{name: "race not started", setup: func(w *world) { w.g.Status = StatusSetup }, req: PowerupRequest{Powerup: PowerupSkip1}, code: domain.ECONFLICT, msg: "not started"},
		{name: "race over", setup: func(w *world) { w.g.Status, w.g.Winner = StatusFinished, "t2" }, req: PowerupRequest{Powerup: PowerupSkip1}, code: domain.ECONFLICT, msg: "the race is over: Team 2 won"},
		{name: "another team's request", req: PowerupRequest{Team: "t2", Powerup: PowerupSkip1}, code: domain.EINVALID, msg: "names team"},
	})
	t.Run("a team cannot use another team's powerups", func(t *testing.T) {
		w := powerWorld(t)
		w.give("t2", false, PowerupSkip1)
		_, _, err := w.use(teamAct("t1"), "t2", PowerupRequest{Powerup: PowerupSkip1})
		require.Equal(t, domain.EFORBIDDEN, domain.ErrorCode(err))
	})
	t.Run("names are accepted like ids", func(t *testing.T) {
		w := powerWorld(t)
		w.give("t1", false, PowerupSkip1)
		_, o, err := w.use(teamAct("t1"), "t1", PowerupRequest{Powerup: "SKIP 1 tile"})
		require.NoError(t, err)
		require.Equal(t, PowerupSkip1, usedData(t, o).Powerup)
	})
	t.Run("an admin on a team's behalf is named", func(t *testing.T) {
		w := powerWorld(t)
		w.give("t1", false, PowerupBack1)
		_, o, err := w.use(adminAct, "t1", PowerupRequest{Team: "t1", Powerup: PowerupBack1, Target: "t2"})
		require.NoError(t, err)
		require.Equal(t, "Ada", usedData(t, o).By)
		require.Equal(t, "Ada", o.Events[1].Data.(MovedData).By)
		require.True(t, w.teams["t1"].Cooldown, "the team's cooldown, not the admin's")
	})
}

// Ruling 11: the cooldown is set by every use, cleared by completing a tile,
// by Clear Cooldown (usable during the cooldown) and by an admin.
func TestPowerupCooldown(t *testing.T) {
	w := powerWorld(t)
	w.give("t1", false, PowerupDoublePowerup, PowerupSkip1, PowerupClearCooldown, PowerupClearCooldown)
	_, _, err := w.use(teamAct("t1"), "t1", PowerupRequest{Powerup: PowerupDoublePowerup, Duplicate: PowerupSkip1})
	require.NoError(t, err)
	require.True(t, w.teams["t1"].Cooldown, "set by a use")
	_, _, err = w.use(teamAct("t1"), "t1", PowerupRequest{Powerup: PowerupSkip1})
	require.ErrorContains(t, err, "on cooldown")

	_, o, err := w.use(teamAct("t1"), "t1", PowerupRequest{Powerup: PowerupClearCooldown})
	require.NoError(t, err, "Clear Cooldown works during the cooldown")
	require.False(t, w.teams["t1"].Cooldown, "cleared by Clear Cooldown")
	require.Equal(t, []Doc{DocTeam}, o.Writes)
	require.Equal(t, []string{PowerupSkip1, PowerupClearCooldown, PowerupSkip1}, w.teams["t1"].Inventory)

	_, _, err = w.use(teamAct("t1"), "t1", PowerupRequest{Powerup: PowerupSkip1})
	require.NoError(t, err)
	require.True(t, w.teams["t1"].Cooldown)
	w.finishTile("t1")
	require.False(t, w.teams["t1"].Cooldown, "cleared by completing a tile")

	_, _, err = w.use(teamAct("t1"), "t1", PowerupRequest{Powerup: PowerupSkip1})
	require.NoError(t, err)
	nt, o, err := SetCooldown(ctx(adminAct), w.g, w.teams["t1"], CooldownRequest{Team: "t1", Cooldown: false})
	require.NoError(t, err)
	w.teams["t1"] = nt
	w.apply(o)
	require.False(t, w.teams["t1"].Cooldown, "cleared by an admin")
	_, _, err = w.use(teamAct("t1"), "t1", PowerupRequest{Powerup: PowerupClearCooldown})
	require.ErrorContains(t, err, "not on cooldown", "Clear Cooldown is kept when there is nothing to clear")
	require.Equal(t, []string{PowerupClearCooldown}, w.teams["t1"].Inventory)
}

// Ruling 16 through powerups: whatever a team uses, with the fog in every
// mode, no event, reply or public tile carries a hidden tile's content. use
// checks it after every successful use; here every powerup is tried on
// every tile and every team.
func TestPowerupFog(t *testing.T) {
	for _, mode := range []FogMode{FogEnabled, FogOffForAdmins, FogOffForAll} {
		t.Run(string(mode), func(t *testing.T) {
			ok := map[string]int{}
			for _, p := range Powerups() {
				w := powerWorld(t)
				if mode != w.g.Fog {
					w.g, _ = w.must(SetFog(ctx(adminAct), w.g, FogRequest{Mode: mode}))
				}
				w.resync()
				hasTarget, hasTile, remove, dup := PowerupFields(p.ID)
				targets := []string{""}
				if hasTarget {
					targets = []string{"t2", "t3"}
				}
				for n := 1; n <= NumTiles; n++ {
					for _, target := range targets {
						req := PowerupRequest{Powerup: p.ID, Target: target}
						if hasTile {
							req.Tile = n
						} else if n > 1 {
							continue
						}
						if remove {
							req.Remove = PowerupSkip1
							w.give(target, false, PowerupSkip1)
						}
						if dup {
							req.Duplicate = PowerupSkip1
						}
						w.give("t1", p.ID == PowerupClearCooldown, p.ID, PowerupSkip1)
						for _, a := range []domain.Actor{teamAct("t1"), adminAct} {
							req.Team = ""
							if a.Role != RoleTeam {
								req.Team = "t1"
							}
							_, _, err := w.use(a, "t1", req)
							if err == nil {
								ok[p.ID]++
								w.give("t1", p.ID == PowerupClearCooldown, p.ID, PowerupSkip1)
							}
							if err != nil {
								w.checkNoHiddenText(err.Error())
							}
						}
					}
				}
				require.Positive(t, ok[p.ID], "%s never succeeded", p.ID)
				if hasTile && mode != FogOffForAll {
					for n := w.g.RevealedUpTo + 1; n <= NumTiles; n++ {
						tile, _ := w.board.Tile(n)
						require.False(t, tile.Mods.Any(), "hidden tile %d was modified", n)
					}
				}
			}
		})
	}
}

func TestPowerupFogOffForAllTargetsEveryTile(t *testing.T) {
	w := powerWorld(t)
	w.g, _ = w.must(SetFog(ctx(adminAct), w.g, FogRequest{Mode: FogOffForAll}))
	w.give("t1", false, PowerupDoubleHard)
	_, _, err := w.use(teamAct("t1"), "t1", PowerupRequest{Powerup: PowerupDoubleHard, Tile: 20})
	require.NoError(t, err, "with the fog off for all, players see tile 20, so it is a target")
	w.g, _ = w.must(SetFog(ctx(adminAct), w.g, FogRequest{Mode: FogOffForAdmins}))
	w.give("t1", false, PowerupDoubleEasy)
	_, _, err = w.use(adminAct, "t1", PowerupRequest{Team: "t1", Powerup: PowerupDoubleEasy, Tile: 21})
	require.ErrorContains(t, err, "hidden by the fog", "an admin acting for a team targets what players see")
}

func TestPowerupReadsAreMinimal(t *testing.T) {
	for _, id := range []string{PowerupSkip1, PowerupClearCooldown, PowerupDoublePowerup} {
		require.NotContains(t, PowerupReads(id), DocTeams, id)
		require.NotContains(t, PowerupReads(id), DocTarget, id)
		require.NotContains(t, PowerupReads(id), DocPools, id)
	}
	require.Equal(t, []Doc{DocGame, DocTeam}, PowerupReads(PowerupClearCooldown))
	require.Equal(t, []Doc{DocGame, DocTeam}, PowerupReads(PowerupDoublePowerup))
	require.Equal(t, []Doc{DocGame, DocTeam, DocTarget}, PowerupReads(PowerupDisablePowerup))
	require.Contains(t, PowerupReads(PowerupChangeTile), DocPools)
	for _, p := range Powerups() {
		require.Subset(t, Specs[ActionUsePowerup].Reads, PowerupReads(p.ID), p.ID)
	}
	// every read powerup id appears somewhere in the helper tables
	require.True(t, slices.Contains(PowerupReads(PowerupCopyPaste), DocTeams))
}
