package functions_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain/tilerace"
)

// powerRace is a started race of three teams whose tiles 1…upTo are easy
// single-completion tasks labelled "P1" … without rewards, so the tests know
// what every powerup may target.
func powerRace(t *testing.T, upTo int) *race {
	t.Helper()
	r := newRace(t, newStack(t), 3, true)
	for n := 1; n <= upTo; n++ {
		r.mustAct(r.admin, fmt.Sprint("easy-", n), map[string]any{"type": "editTile", "tile": n, "label": fmt.Sprint("P", n),
			"difficulty": 1, "min": 1, "max": 1, "instructions": fmt.Sprint("Do P", n)})
	}
	return r
}

// ready gives a team the powerup and takes its cooldown off (admin actions).
func (r *race) ready(tm raceTeam, powerup, key string) {
	r.s.t.Helper()
	if r.team(tm.id).Cooldown {
		r.mustAct(r.admin, "cool-off-"+key, map[string]any{"type": "setCooldown", "team": tm.id, "cooldown": false})
	}
	if !contains(r.team(tm.id).Inventory, powerup) {
		r.mustAct(r.admin, "grant-"+key, map[string]any{"type": "grantPowerup", "team": tm.id, "powerup": powerup})
	}
}

func (r *race) move(tm raceTeam, to int, key string) {
	r.s.t.Helper()
	if r.team(tm.id).Position != to {
		r.mustAct(r.admin, "move-"+key, map[string]any{"type": "moveTeam", "team": tm.id, "to": to})
	}
}

// privateBoard is the private board (the tests read it as the server does).
func (r *race) privateBoard() tilerace.Board {
	var bd tilerace.BoardDoc
	r.doc("private/board", &bd)
	return bd.Board
}

// checkEventsFog checks that no event record of the race names a tile
// players cannot see now (labels, instructions).
func (r *race) checkEventsFog() {
	r.s.t.Helper()
	recs, err := r.s.store.Events(context.Background(), r.id)
	require.NoError(r.s.t, err)
	raw, err := json.Marshal(recs)
	require.NoError(r.s.t, err)
	g, b := r.game(), r.privateBoard()
	for _, tile := range b.Tiles {
		if !g.Visible(tile.N, false) {
			require.NotContains(r.s.t, string(raw), `"`+tile.Label+`"`, "hidden tile %d named in an event", tile.N)
			require.NotContains(r.s.t, string(raw), tile.Instructions, "hidden tile %d's instructions in an event", tile.N)
		}
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// reply is one HTTP answer.
type reply struct {
	code int
	out  map[string]any
	took time.Duration
}

// atOnce sends both requests at the same moment, or b a little later
// (later[0]) so that either may commit first across rounds; nothing asserts
// on the timing.
func atOnce(a, b func() reply, later ...time.Duration) (reply, reply) {
	var ra, rb reply
	var wg sync.WaitGroup
	start := make(chan struct{})
	wg.Add(2)
	go func() { defer wg.Done(); <-start; t0 := time.Now(); ra = a(); ra.took = time.Since(t0) }()
	go func() {
		defer wg.Done()
		<-start
		if len(later) > 0 {
			time.Sleep(later[0])
		}
		t0 := time.Now()
		rb = b()
		rb.took = time.Since(t0)
	}()
	close(start)
	wg.Wait()
	return ra, rb
}

func errMessage(out map[string]any) string {
	if e, ok := out["error"].(map[string]any); ok {
		m, _ := e["message"].(string)
		return m
	}
	return ""
}

func TestTileRacePowerupsThroughHTTP(t *testing.T) {
	t.Parallel()
	r := powerRace(t, 12)
	red, blue := r.teams[0], r.teams[1]

	t.Run("skip", func(t *testing.T) {
		r.ready(red, "skip2", "skip")
		out := r.mustAct(red.token, "skip", map[string]any{"type": "usePowerup", "powerup": "skip2"})
		res := out["result"].(map[string]any)
		require.Equal(t, 3.0, res["position"])
		require.Equal(t, true, res["cooldown"])
		tm := r.team(red.id)
		require.Equal(t, 3, tm.Position)
		require.True(t, tm.Cooldown)
		require.NotContains(t, tm.Inventory, "skip2")
		var types []string
		for _, ev := range out["events"].([]any) {
			types = append(types, ev.(map[string]any)["type"].(string))
		}
		require.Equal(t, []string{"powerupUsed", "teamMoved", "tilesRevealed"}, types, "tile 1 + 2 lifts the fog from 6 to 8")
		used := out["events"].([]any)[0].(map[string]any)["data"].(map[string]any)
		require.Equal(t, "P1", used["fromLabel"])
		require.Equal(t, "P3", used["toLabel"])
		r.checkFog()
	})

	t.Run("on cooldown", func(t *testing.T) {
		r.mustAct(r.admin, "grant-skip1", map[string]any{"type": "grantPowerup", "team": red.id, "powerup": "skip1"})
		code, out := r.act(red.token, "skip-again", map[string]any{"type": "usePowerup", "powerup": "skip1"})
		require.Equal(t, http.StatusConflict, code, "%v", out)
		require.Contains(t, errMessage(out), "on cooldown")
		require.Contains(t, r.team(red.id).Inventory, "skip1", "a refused use keeps the powerup")
		r.mustAct(r.admin, "grant-clear", map[string]any{"type": "grantPowerup", "team": red.id, "powerup": "clearCooldown"})
		r.mustAct(red.token, "clear", map[string]any{"type": "usePowerup", "powerup": "clearCooldown"})
		require.False(t, r.team(red.id).Cooldown)
	})

	t.Run("bad requests", func(t *testing.T) {
		before := r.team(red.id)
		for i, c := range []struct {
			body map[string]any
			code int
			msg  string
		}{
			{map[string]any{"powerup": "skip1", "tiel": 4}, http.StatusBadRequest, "tiel"},
			{map[string]any{"powerup": "skip1", "target": blue.id}, http.StatusBadRequest, "target is not used"},
			{map[string]any{"powerup": "warp"}, http.StatusBadRequest, "unknown powerup"},
			{map[string]any{"powerup": "back1"}, http.StatusBadRequest, "target is required"},
			{map[string]any{"powerup": "back1", "target": "no/such"}, http.StatusBadRequest, "target"},
			{map[string]any{"powerup": "back1", "target": "t-nobody"}, http.StatusNotFound, "t-nobody"},
			{map[string]any{"powerup": "copypaste", "tile": 40}, http.StatusConflict, "hidden by the fog"},
			{map[string]any{"powerup": "doubleEasy", "tile": "4"}, http.StatusBadRequest, "tile"},
		} {
			body := map[string]any{"type": "usePowerup"}
			for k, v := range c.body {
				body[k] = v
			}
			if p, ok := c.body["powerup"].(string); ok && p != "warp" && !contains(r.team(red.id).Inventory, p) {
				r.mustAct(r.admin, fmt.Sprint("grant-bad-", i), map[string]any{"type": "grantPowerup", "team": red.id, "powerup": p})
				before = r.team(red.id)
			}
			code, out := r.act(red.token, fmt.Sprint("bad-", i), body)
			require.Equal(t, c.code, code, "%v: %v", c.body, out)
			require.Contains(t, errMessage(out), c.msg, "%v", c.body)
			require.Equal(t, before, r.team(red.id), "a refused use changes nothing")
		}
		r.checkEventsFog()
	})

	t.Run("an admin uses a team's powerup", func(t *testing.T) {
		r.ready(red, "back1", "behalf")
		r.move(blue, 6, "behalf")
		out := r.mustAct(r.admin, "behalf-back", map[string]any{"type": "usePowerup", "team": red.id, "powerup": "back1", "target": blue.id})
		for _, ev := range out["events"].([]any) {
			require.Equal(t, "Ada", ev.(map[string]any)["data"].(map[string]any)["by"])
		}
		require.Equal(t, 5, r.team(blue.id).Position)
		require.True(t, r.team(red.id).Cooldown)
		code, out := r.act(blue.token, "not-yours", map[string]any{"type": "usePowerup", "team": red.id, "powerup": "back1", "target": blue.id})
		require.Equal(t, http.StatusForbidden, code, "%v", out)
	})

	t.Run("tile modifications reach the public board", func(t *testing.T) {
		r.ready(red, "doubleEasy", "double")
		target := 7
		for _, tm := range r.teams {
			require.NotContains(t, []int{target, target + 1}, r.team(tm.id).Position)
		}
		out := r.mustAct(red.token, "double", map[string]any{"type": "usePowerup", "powerup": "doubleEasy", "tile": target})
		require.Equal(t, fmt.Sprint("P", target), out["result"].(map[string]any)["label"])
		pt := r.board().Tiles[target-1]
		require.True(t, pt.Content.Mods.Doubled)
		require.Equal(t, 2, pt.Content.Max)

		r.ready(red, "changeTile", "change")
		out = r.mustAct(red.token, "change", map[string]any{"type": "usePowerup", "powerup": "changeTile", "tile": target + 1})
		label := out["result"].(map[string]any)["label"].(string)
		require.NotEqual(t, fmt.Sprint("P", target+1), label)
		require.Equal(t, label, r.board().Tiles[target].Content.Label)
		require.True(t, r.board().Tiles[target].Content.Mods.Changed)
		r.checkFog()
		r.checkEventsFog()
	})
}

// TestTileRacePowerupCopyWhileEntering: team 1 pastes its task onto tile X
// while team 2 completes tile X−1 and so enters X. Whichever commits first,
// the end is one of the two serial orders: the paste first (both succeed,
// team 2 on the pasted tile) or the completion first (the paste is refused
// because a team is on X; nothing changed, the powerup kept).
func TestTileRacePowerupCopyWhileEntering(t *testing.T) {
	r := powerRace(t, 26)
	red, blue := r.teams[0], r.teams[1]
	r.move(red, 2, "red")
	orders := map[string]int{}
	for i := 0; i < 10; i++ {
		x := 6 + 2*i
		key := fmt.Sprint(i)
		roundStart := time.Now()
		r.ready(red, "copypaste", key)
		r.move(blue, x-1, key)
		redBefore := r.team(red.id)
		t0 := time.Now()
		a, b := atOnce(
			func() reply {
				c, o := r.act(red.token, "copy-"+key, map[string]any{"type": "usePowerup", "powerup": "copypaste", "tile": x})
				return reply{code: c, out: o}
			},
			func() reply {
				c, o := r.act(blue.token, "enter-"+key, map[string]any{"type": "complete", "tile": x - 1, "recorded": 0, "players": blue.members[:1], "complete": true})
				return reply{code: c, out: o}
			}, time.Duration(i%4)*40*time.Millisecond)
		t.Logf("round %d: %d in %s, %d in %s (setup before: %s)", i, a.code, a.took, b.code, b.took, t0.Sub(roundStart))
		require.Equal(t, http.StatusOK, b.code, "the completion never depends on the paste: %v", b.out)
		require.Equal(t, x, r.team(blue.id).Position)
		tile := r.privateBoard().Tiles[x-1]
		switch a.code {
		case http.StatusOK: // paste, then completion
			orders["paste first"]++
			require.Equal(t, "P2", tile.Label)
			require.True(t, tile.Mods.Pasted)
			require.NotContains(t, r.team(red.id).Inventory, "copypaste")
			require.True(t, r.team(red.id).Cooldown)
		case http.StatusConflict: // completion, then paste
			orders["completion first"]++
			require.Contains(t, errMessage(a.out), "is on tile", "%v", a.out)
			require.Equal(t, fmt.Sprint("P", x), tile.Label)
			require.False(t, tile.Mods.Any())
			require.Equal(t, redBefore, r.team(red.id), "the refused paste changed nothing")
		default:
			t.Fatalf("round %d: paste %d %v", i, a.code, a.out)
		}
		require.Equal(t, tile.Label, r.board().Tiles[x-1].Content.Label, "the public board agrees")
	}
	t.Logf("orders seen: %v", orders)
	r.checkFog()
	r.checkEventsFog()
}

// TestTileRacePowerupBackWhileCompleting: team 1 sends team 2 back two tiles
// while team 2 completes its tile. Serial orders: back first (team 2 on p−2,
// its completion of p refused as stale) or completion first (team 2 on p+1,
// then back to p−1).
func TestTileRacePowerupBackWhileCompleting(t *testing.T) {
	r := powerRace(t, 40)
	red, blue := r.teams[0], r.teams[1]
	orders := map[string]int{}
	for i := 0; i < 10; i++ {
		p := 10 + 3*i
		key := fmt.Sprint(i)
		roundStart := time.Now()
		r.ready(red, "back2", key)
		r.move(blue, p, key)
		awards := r.team(blue.id).Awards
		t0 := time.Now()
		a, b := atOnce(
			func() reply {
				c, o := r.act(red.token, "back-"+key, map[string]any{"type": "usePowerup", "powerup": "back2", "target": blue.id})
				return reply{code: c, out: o}
			},
			func() reply {
				c, o := r.act(blue.token, "done-"+key, map[string]any{"type": "complete", "tile": p, "recorded": 0, "players": blue.members[:1], "complete": true})
				return reply{code: c, out: o}
			}, time.Duration(i%4)*40*time.Millisecond)
		t.Logf("round %d: %d in %s, %d in %s (setup before: %s)", i, a.code, a.took, b.code, b.took, t0.Sub(roundStart))
		require.Equal(t, http.StatusOK, a.code, "the back always goes through: %v", a.out)
		got := r.team(blue.id)
		require.Empty(t, got.Progress)
		switch b.code {
		case http.StatusOK: // completion, then back
			orders["completion first"]++
			require.Equal(t, p-1, got.Position)
			require.Equal(t, awards+1, got.Awards)
			used := a.out["events"].([]any)[0].(map[string]any)["data"].(map[string]any)
			require.Equal(t, float64(p+1), used["from"])
		case http.StatusConflict: // back, then the stale completion
			orders["back first"]++
			require.Contains(t, errMessage(b.out), "stale")
			require.Equal(t, p-2, got.Position)
			require.Equal(t, awards, got.Awards)
		default:
			t.Fatalf("round %d: completion %d %v", i, b.code, b.out)
		}
	}
	t.Logf("orders seen: %v", orders)
	r.checkFog()
}

// TestTileRacePowerupTwoPastesOneTile: two teams paste onto the same tile at
// once; one serial order wins, the other team is refused and keeps its
// powerup.
func TestTileRacePowerupTwoPastesOneTile(t *testing.T) {
	r := powerRace(t, 30)
	red, green := r.teams[0], r.teams[2]
	r.move(r.teams[1], 24, "blue") // lifts the fog to 28, out of the way
	r.move(red, 2, "red")
	r.move(green, 3, "green")
	wins := map[string]int{}
	for i := 0; i < 8; i++ {
		y := 6 + 2*i
		key := fmt.Sprint(i)
		roundStart := time.Now()
		r.ready(red, "copypaste", "r"+key)
		r.ready(green, "copypaste", "g"+key)
		use := func(tm raceTeam) func() reply {
			return func() reply {
				c, o := r.act(tm.token, "paste-"+key, map[string]any{"type": "usePowerup", "powerup": "copypaste", "tile": y})
				return reply{code: c, out: o}
			}
		}
		t0 := time.Now()
		a, b := atOnce(use(red), use(green))
		t.Logf("round %d: %d in %s, %d in %s (setup before: %s)", i, a.code, a.took, b.code, b.took, t0.Sub(roundStart))
		tile := r.privateBoard().Tiles[y-1]
		switch {
		case a.code == http.StatusOK && b.code == http.StatusConflict:
			wins["red"]++
			require.Equal(t, "P2", tile.Label)
			require.Contains(t, r.team(green.id).Inventory, "copypaste")
			require.False(t, r.team(green.id).Cooldown)
		case b.code == http.StatusOK && a.code == http.StatusConflict:
			wins["green"]++
			require.Equal(t, "P3", tile.Label)
			require.Contains(t, r.team(red.id).Inventory, "copypaste")
			require.False(t, r.team(red.id).Cooldown)
		default:
			t.Fatalf("round %d: %d %v / %d %v", i, a.code, a.out, b.code, b.out)
		}
		loser := a
		if a.code == http.StatusOK {
			loser = b
		}
		require.True(t, strings.Contains(errMessage(loser.out), "pasted"), "%v", loser.out)
		require.Equal(t, tile.Label, r.board().Tiles[y-1].Content.Label)
	}
	t.Logf("wins: %v", wins)
}
