package tilerace

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
)

// simulate plays a whole race of 5 teams with random legal (and some stale
// or illegal) requests from a seeded generator, checking invariants after
// every step. It returns the number of steps.
func simulate(t *testing.T, seed uint64) int {
	r := rand.New(rand.NewPCG(seed, 5))
	w := newWorld(t)
	w.addTeams(5)
	w.prepare(fmt.Sprint(seed))
	w.start()
	ids := sortedKeys(w.teams)
	last := map[string]CompleteRequest{} // each team's last applied completion request
	gameOvers := 0
	for step := 0; step < 20000; step++ {
		if w.g.Status == StatusFinished {
			break
		}
		id := ids[r.IntN(len(ids))]
		tm := w.teams[id]
		actor := teamAct(id)
		if r.IntN(7) == 0 {
			actor = adminAct
		}
		before := map[string]Team{}
		for k, v := range w.teams {
			before[k] = v
		}
		frontier := w.g.RevealedUpTo
		var (
			o   Outcome
			err error
		)
		switch x := r.IntN(100); {
		case x < 75: // a legal completion request
			req := legalRequest(r, w, tm)
			req.Team = id
			o, err = w.complete(actor, id, req)
			require.NoError(t, err, "step %d: %+v", step, req)
			last[id] = req
			after := w.teams[id]
			if req.Complete {
				if tm.Position == FinalTile {
					require.Equal(t, StatusFinished, w.g.Status)
				} else {
					require.Equal(t, tm.Position+1, after.Position, "step %d: a completion advances one tile", step)
				}
			} else {
				require.Equal(t, tm.Position, after.Position)
				require.Len(t, after.Progress, len(tm.Progress)+len(req.Players))
			}
		case x < 85: // the same request again: a double click or a retry with a new id
			req, ok := last[id]
			if !ok {
				continue
			}
			o, err = w.complete(actor, id, req)
			require.Equal(t, domain.ECONFLICT, domain.ErrorCode(err), "step %d: a repeated request must be refused", step)
		case x < 90: // illegal requests
			req := legalRequest(r, w, tm)
			switch r.IntN(3) {
			case 0:
				req.Recorded++
			case 1:
				req.Players = append(req.Players, "stranger")
			default:
				req.Tile = tm.Position%NumTiles + 1
			}
			o, err = w.complete(actor, id, req)
			require.Error(t, err, "step %d", step)
		case x < 95: // a powerup tile claim, legal or not
			pid := sortedKeys(w.ptiles)[r.IntN(len(w.ptiles))]
			pt := w.ptiles[pid]
			var players []string
			for i := 0; i < pt.Min+r.IntN(pt.Max-pt.Min+1); i++ {
				players = append(players, tm.Members[r.IntN(len(tm.Members))])
			}
			o, err = w.claim(actor, id, ClaimRequest{Team: id, PowerupTile: pid, Claims: tm.Claims[pid], Players: players})
			if err != nil {
				require.Contains(t, []string{domain.ECONFLICT}, domain.ErrorCode(err), "step %d: %v", step, err)
			}
		case x < 98: // an admin moves the team a few tiles, as powerups will
			to := max(1, min(NumTiles-1, tm.Position+r.IntN(7)-3))
			var g Game
			var nt Team
			g, nt, o, err = MoveTeam(ctx(adminAct), w.g, tm, MoveRequest{Team: id, To: to})
			if err == nil {
				w.g, w.teams[id] = g, nt
				w.apply(o)
				delete(last, id)
			}
		default: // the fog mode changes
			mode := []FogMode{FogEnabled, FogOffForAdmins, FogOffForAll}[r.IntN(3)]
			var g Game
			g, o, err = SetFog(ctx(adminAct), w.g, FogRequest{Mode: mode})
			if err == nil {
				w.g = g
				w.apply(o)
			}
		}
		for _, e := range o.Events {
			if e.Type == domain.EventGameOver {
				gameOvers++
			}
		}
		// only the acting team changed, and never by more than one tile forward
		for k, v := range w.teams {
			if k != id {
				require.Equal(t, jsonOf(t, before[k]), jsonOf(t, v), "step %d: team %s changed by %s's action", step, k, id)
			}
		}
		if err != nil {
			require.Equal(t, jsonOf(t, before[id]), jsonOf(t, w.teams[id]), "step %d: a refused action changed the team", step)
		}
		require.GreaterOrEqual(t, w.g.RevealedUpTo, frontier, "step %d: the frontier went back", step)
		w.checkWorld()
		w.checkNoHiddenContent(o.Events)
	}
	require.Equal(t, StatusFinished, w.g.Status, "seed %d: no winner", seed)
	require.Equal(t, 1, gameOvers, "one gameOver event")
	require.Equal(t, FinalTile, w.teams[w.g.Winner].Position)
	// after the race, team actions are refused
	for _, id := range ids {
		tm := w.teams[id]
		_, err := w.complete(teamAct(id), id, CompleteRequest{Tile: tm.Position, Recorded: len(tm.Progress), Players: []string{tm.Captain}, Complete: true})
		require.Equal(t, domain.ECONFLICT, domain.ErrorCode(err))
	}
	// every award is in the ledger once, none negative
	total := 0
	for _, a := range w.awards {
		require.Positive(t, a.Points)
		total += a.Points
	}
	sum := 0
	for _, p := range w.points {
		sum += p
	}
	require.Equal(t, total, sum)
	require.NotEmpty(t, Leaderboard(w.points, 0))
	// and the teams carry exactly those points
	fromTeams, counted := map[string]int{}, 0
	for _, tm := range w.teams {
		for p, pts := range tm.Points {
			fromTeams[p] += pts
		}
		counted += tm.Awards
	}
	require.Equal(t, w.points, fromTeams)
	require.Equal(t, len(w.awards), counted)
	return len(w.events)
}

// legalRequest builds a legal completion request for the team's tile: some
// new completions, and sometimes the completion itself.
func legalRequest(r *rand.Rand, w *world, tm Team) CompleteRequest {
	tile, _ := w.board.Tile(tm.Position)
	room := tile.Max - len(tm.Progress)
	var free []string // members that may still count on a group tile
	for _, m := range tm.Members {
		used := false
		for _, p := range tm.Progress {
			used = used || p == m
		}
		if !tile.Group || !used {
			free = append(free, m)
		}
	}
	if tile.Group {
		room = min(room, len(free))
	}
	k := 0
	if room > 0 {
		k = r.IntN(room + 1)
	}
	canComplete := len(tm.Progress)+k >= tile.Min
	complete := canComplete && r.IntN(3) > 0
	if k == 0 && !complete {
		if canComplete {
			complete = true
		} else {
			k = tile.Min - len(tm.Progress)
		}
	}
	if len(tm.Progress)+k >= tile.Min && r.IntN(2) == 0 {
		complete = true
	}
	req := CompleteRequest{Tile: tm.Position, Recorded: len(tm.Progress), Complete: complete}
	perm := r.Perm(len(free))
	for i := 0; i < k; i++ {
		if tile.Group {
			req.Players = append(req.Players, free[perm[i]])
		} else {
			req.Players = append(req.Players, free[r.IntN(len(free))])
		}
	}
	return req
}

// TestSimulatedRace simulates twelve races, four under the race detector
// (MEEPLE_FULL_GAMES=1: twelve).
func TestSimulatedRace(t *testing.T) {
	for seed := uint64(1); seed <= uint64(randomGames(12, 4)); seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			n := simulate(t, seed)
			t.Logf("%d events", n)
		})
	}
}

func BenchmarkComplete(b *testing.B) {
	w := race(b, 5)
	tm := w.teams["t1"]
	tile, _ := w.board.Tile(1)
	c := ctx(teamAct("t1"))
	req := CompleteRequest{Tile: 1, Players: []string{"t1-cap", "t1-b"}[:tile.Min], Complete: true}
	b.ReportAllocs()
	for b.Loop() {
		if _, _, _, err := Complete(c, w.g, tm, tile, req); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkClaimPowerupTile(b *testing.B) {
	w := race(b, 5)
	tm := w.teams["t1"]
	pt := w.ptiles["pt-3"]
	c := ctx(teamAct("t1"))
	req := ClaimRequest{PowerupTile: "pt-3", Players: []string{"t1-cap"}}
	b.ReportAllocs()
	for b.Loop() {
		if _, _, _, err := ClaimPowerupTile(c, w.g, tm, pt, req); err != nil {
			b.Fatal(err)
		}
	}
}
