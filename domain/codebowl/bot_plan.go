package codebowl

import (
	"math"

	"github.com/meeple-games/meeple/domain"
)

// The strong bot's turn plan (botHelper.Policy): one action at a time, each
// chosen by an exact expectation over the dice of that one action — the
// dodges on a path, the pickup, the attack — against values of where it
// leaves the ball. It looks no further than the action, but it never takes
// a risk it does not have to:
//
//  1. my carrier: first knock down (no dodge to get there, a knockdown
//     chance of at least half) the standing enemies whose tackle zone he
//     stands in, then walk him the path of best expectation — a score, or
//     the most columns gained for the fewest dodges and enemies left next
//     to him;
//  2. a loose ball: the player with the best expectation picks it up (and
//     runs on with it), or the nearest walks towards it;
//  3. an enemy carrier: bring an assist next to him, then attack him with
//     the best knockdown chance; or walk towards him;
//  4. then stand up the knocked-down, and end the turn.
//
// Values, in touchdowns' tenths: a score 10; holding the ball 5, less ¼ a
// column to go and 0.6 an enemy next to the carrier; a trip with the ball
// −1, without −0.3; a failed pickup 0.
const (
	planScore      = 10.0
	planHold       = 5.0
	planPerColumn  = 0.25
	planPerThreat  = 0.6
	planTripBall   = -1.0
	planTrip       = -0.3
	planFailPickup = 0.0
)

// planner is one decision's view of the match for side.
type planner struct {
	m    *Match
	side Side
	// taken: a player stands or lies there (the mover excepted per path).
	taken [Width][Height]bool
	// enemyAG: the best AG of the standing enemies next to a square (0: none).
	enemyAG [Width][Height]int
	threat  [Width][Height]int // standing enemies next to a square
}

func newPlanner(m *Match, side Side) *planner {
	pl := &planner{m: m, side: side}
	for _, s := range []Side{Home, Away} {
		for _, p := range m.side(s).Players {
			if !p.OnPitch() {
				continue
			}
			pl.taken[p.Pos.X][p.Pos.Y] = true
			if s == side || p.State != StateStanding {
				continue
			}
			for _, d := range Directions {
				if q := p.Pos.Add(d); q.OnPitch() {
					pl.enemyAG[q.X][q.Y] = max(pl.enemyAG[q.X][q.Y], p.AG)
					pl.threat[q.X][q.Y]++
				}
			}
		}
	}
	return pl
}

// leave is the chance a player of agility ag leaves q on his feet.
func (pl *planner) leave(ag int, q Square) float64 {
	if e := pl.enemyAG[q.X][q.Y]; e > 0 {
		return float64(DodgeChance(ag, e)) / 100
	}
	return 1
}

// holdValue is the worth of my carrier standing on q.
func (pl *planner) holdValue(q Square) float64 {
	cols := abs(GoalColumn(pl.side) - q.X)
	return planHold - planPerColumn*float64(cols) - planPerThreat*float64(pl.threat[q.X][q.Y])
}

// stopFunc values a path ending on q with the ball (ball) and k steps
// left; ok false when it may not end there.
type stopFunc func(q Square, ball bool, k int) (float64, bool)

// best finds r's path of best expectation under stop: every path of up to
// his budget over free squares, the loose ball picked up on the way (and
// scoring in the goal column). It returns the path and its value; an empty
// path when staying is best.
func (pl *planner) best(r ref, stop stopFunc) ([]Square, float64) {
	p := pl.m.p(r)
	budget := p.MV
	if p.State != StateStanding {
		budget = max(0, p.MV-StandUpCost)
	}
	ball := pl.m.Ball
	carrying := ball.State == BallCarried && ball.Carrier == p.ID
	loose := ball.State == BallLoose
	pick := 0.0
	if loose {
		pick = float64(PickupChance(p.AG, pl.m.enemyNear(pl.side, ball.Pos))) / 100
	}
	goal := GoalColumn(pl.side)
	pl.taken[p.Pos.X][p.Pos.Y] = false
	defer func() { pl.taken[p.Pos.X][p.Pos.Y] = true }()

	// v[k][h][x][y]: the best value with k steps left, h holding the ball;
	// next: the step taken there (-1: stop).
	type grid [Width][Height]float64
	type dirs [Width][Height]int8
	v := make([][2]grid, budget+1)
	next := make([][2]dirs, budget+1)
	for k := 0; k <= budget; k++ {
		for h := 0; h < 2; h++ {
			for x := 0; x < Width; x++ {
				for y := 0; y < Height; y++ {
					q := Square{x, y}
					best, dir := math.Inf(-1), int8(-1)
					if s, ok := stop(q, h == 1, k); ok {
						best = s
					}
					if k > 0 && !pl.taken[x][y] {
						stay := pl.leave(p.AG, q)
						trip := planTrip
						if h == 1 {
							trip = planTripBall
						}
						for di, d := range Directions {
							n := q.Add(d)
							if !n.OnPitch() || pl.taken[n.X][n.Y] {
								continue
							}
							var in float64
							switch {
							case h == 0 && loose && n == ball.Pos:
								after := planScore
								if n.X != goal {
									after = v[k-1][1][n.X][n.Y]
								}
								in = pick*after + (1-pick)*planFailPickup
							case h == 1 && n.X == goal:
								in = planScore
							default:
								in = v[k-1][h][n.X][n.Y]
							}
							if math.IsInf(in, -1) {
								continue
							}
							if val := stay*in + (1-stay)*trip; val > best {
								best, dir = val, int8(di)
							}
						}
					}
					v[k][h][x][y], next[k][h][x][y] = best, dir
				}
			}
		}
	}
	h := 0
	if carrying {
		h = 1
	}
	value := v[budget][h][p.Pos.X][p.Pos.Y]
	var path []Square
	q := p.Pos
	for k := budget; k > 0; k-- {
		di := next[k][h][q.X][q.Y]
		if di < 0 {
			break
		}
		q = q.Add(Directions[di])
		path = append(path, q)
		if h == 0 && loose && q == ball.Pos {
			h = 1
		}
		if h == 1 && q.X == goal {
			break
		}
	}
	return path, value
}

// attackOdds are the chances of r attacking t now: knockdown, attacker down.
func (pl *planner) attackOdds(r, t ref) (kd, down float64) {
	halves, _ := pl.m.assists(r, t)
	o := AttackChances(Advantage(pl.m.p(r).ST, pl.m.p(t).ST, halves))
	return float64(o.Knockdown) / 100, float64(o.AttackerDown) / 100
}

// attackPlan is the best attack by an unacted standing player of mine on t
// (an enemy standing): the path, its value and the knockdown chance; ok
// false when none can reach him. worth is what knocking him down is worth;
// the attacker falling costs 1, a trip on the way as usual.
func (pl *planner) attackPlan(t ref, worth float64) (r ref, path []Square, val, kd float64, ok bool) {
	return pl.attackBy(pl.best, t, worth)
}

// attackPlan2 is attackPlan over paths without a dodge.
func (pl *planner) attackPlan2(t ref, worth float64) (r ref, path []Square, val, kd float64, ok bool) {
	return pl.attackBy(pl.bestNoDodge, t, worth)
}

// attackBy is attackPlan with the paths search finds.
func (pl *planner) attackBy(search func(ref, stopFunc) ([]Square, float64), t ref, worth float64) (r ref, path []Square, val, kd float64, ok bool) {
	tp := pl.m.p(t)
	best := math.Inf(-1)
	for i, p := range pl.m.side(pl.side).Players {
		a := ref{pl.side, i}
		if p.State != StateStanding || p.Acted || (pl.m.Ball.State == BallCarried && pl.m.Ball.Carrier == p.ID) {
			continue
		}
		k, d := pl.attackOdds(a, t)
		atk := k*worth - d
		ps, v := search(a, func(q Square, ball bool, steps int) (float64, bool) {
			if ball || steps < 1 || !q.Adjacent(tp.Pos) {
				return 0, false
			}
			return atk, true
		})
		if !math.IsInf(v, -1) && v > best {
			best, r, path, val, kd, ok = v, a, append(ps, tp.Pos), v, k, true
		}
	}
	return r, path, val, kd, ok
}

// bestNoDodge is best over paths that leave no tackle zone and do not
// cross the loose ball: a value of -Inf when none reaches a stop.
func (pl *planner) bestNoDodge(r ref, stop stopFunc) ([]Square, float64) {
	p := pl.m.p(r)
	budget := p.MV
	if p.State != StateStanding {
		budget = max(0, p.MV-StandUpCost)
	}
	pl.taken[p.Pos.X][p.Pos.Y] = false
	defer func() { pl.taken[p.Pos.X][p.Pos.Y] = true }()
	type node struct {
		q    Square
		path []Square
	}
	seen := map[Square]bool{p.Pos: true}
	frontier := []node{{p.Pos, nil}}
	best, bestPath := math.Inf(-1), []Square(nil)
	for steps := 0; steps <= budget; steps++ {
		var grow []node
		for _, nd := range frontier {
			if s, ok := stop(nd.q, false, budget-steps); ok && s > best {
				best, bestPath = s, nd.path
			}
			if steps == budget || pl.enemyAG[nd.q.X][nd.q.Y] > 0 {
				continue
			}
			for _, d := range Directions {
				n := nd.q.Add(d)
				if !n.OnPitch() || pl.taken[n.X][n.Y] || seen[n] || (pl.m.Ball.State == BallLoose && pl.m.Ball.Pos == n) {
					continue
				}
				seen[n] = true
				grow = append(grow, node{n, append(append([]Square(nil), nd.path...), n)})
			}
		}
		frontier = grow
	}
	return bestPath, best
}

func moveOf(p *MatchPlayer, path []Square) domain.Move {
	if path == nil {
		path = []Square{}
	}
	return domain.Move{Type: ActionMove, Payload: map[string]any{"player": p.ID, "path": path}}
}

// plan is the next action of side in m (ok false: not its turn to play).
func plan(m Match, side Side) (domain.Move, bool) {
	if m.Phase != PhasePlay || m.Active != side {
		return domain.Move{}, false
	}
	pl := newPlanner(&m, side)
	mine := m.side(side)
	switch m.Ball.State {
	case BallCarried:
		cs, ci, ok := m.find(m.Ball.Carrier)
		if !ok {
			break
		}
		if cs == side {
			if mv, ok := pl.carry(ref{cs, ci}); ok {
				return mv, true
			}
		} else if mv, ok := pl.stop(ref{cs, ci}); ok {
			return mv, true
		}
	case BallLoose:
		if mv, ok := pl.fetch(); ok {
			return mv, true
		}
	}
	for i := range mine.Players {
		if p := &mine.Players[i]; p.State == StateDown && !p.Acted {
			return domain.Move{Type: ActionStandUp, Payload: map[string]any{"player": p.ID}}, true
		}
	}
	return domain.Move{Type: ActionEndTurn}, true
}

// carry plays my carrier c's turn: clear his tackle zone, then run.
func (pl *planner) carry(c ref) (domain.Move, bool) {
	cp := pl.m.p(c)
	if cp.Acted {
		// He has run: knock down who stands next to him, at good odds.
		return pl.clear(cp.Pos, 0.5)
	}
	// (A carrier stands: a knocked-down one has dropped the ball.)
	if pl.threat[cp.Pos.X][cp.Pos.Y] > 0 {
		if mv, ok := pl.clear(cp.Pos, 0.5); ok {
			return mv, true
		}
	}
	path, v := pl.best(c, func(q Square, ball bool, _ int) (float64, bool) {
		return pl.holdValue(q), ball
	})
	if len(path) == 0 || v <= pl.holdValue(cp.Pos) {
		// Staying is best: he does not act; knock down who stands next to
		// him, if anyone may.
		return pl.clear(cp.Pos, 0.5)
	}
	return moveOf(cp, path), true
}

// clear attacks, without a dodge on the way, a standing enemy next to q
// whose knockdown chance is at least min.
func (pl *planner) clear(q Square, least float64) (domain.Move, bool) {
	for i, e := range pl.m.side(pl.side.Other()).Players {
		if e.State != StateStanding || !e.Pos.Adjacent(q) {
			continue
		}
		r, path, v, kd, ok := pl.attackPlan2(ref{pl.side.Other(), i}, 2)
		if ok && kd >= least && v > 0 {
			return moveOf(pl.m.p(r), path), true
		}
	}
	return domain.Move{}, false
}

// fetch sends the player of best expectation for the loose ball, or the
// nearest towards it.
func (pl *planner) fetch() (domain.Move, bool) {
	ball := pl.m.Ball.Pos
	var bestMove domain.Move
	best, found := 0.0, false
	for i, p := range pl.m.side(pl.side).Players {
		if !p.OnPitch() || p.Acted {
			continue
		}
		r := ref{pl.side, i}
		near := func(q Square) float64 { return -0.05 * float64(max(abs(q.X-ball.X), abs(q.Y-ball.Y))) }
		path, v := pl.best(r, func(q Square, hold bool, _ int) (float64, bool) {
			if hold {
				return pl.holdValue(q), true
			}
			return near(q), true
		})
		gain := v - near(p.Pos)
		if len(path) > 0 && gain > 0.01 && (!found || gain > best) {
			best, found, bestMove = gain, true, moveOf(&pl.m.side(pl.side).Players[i], path)
		}
	}
	return bestMove, found
}

// stop goes for the enemy carrier e: an assist first when there are
// players to spare, then the attack; or walks towards him.
func (pl *planner) stop(e ref) (domain.Move, bool) {
	ep := pl.m.p(e)
	if ep.State != StateStanding {
		return domain.Move{}, false
	}
	r, path, v, kd, ok := pl.attackPlan(e, 4)
	if ok && kd < 0.7 {
		// An assist: a spare player onto a free square next to him that no
		// other enemy touches, without a dodge.
		spare := 0
		for _, p := range pl.m.side(pl.side).Players {
			if p.State == StateStanding && !p.Acted {
				spare++
			}
		}
		if spare >= 2 {
			for i, p := range pl.m.side(pl.side).Players {
				if p.State != StateStanding || p.Acted || r == (ref{pl.side, i}) {
					continue
				}
				if p.Pos.Adjacent(ep.Pos) && pl.threat[p.Pos.X][p.Pos.Y] == 1 {
					continue // assists already
				}
				ps, av := pl.bestNoDodge(ref{pl.side, i}, func(q Square, _ bool, _ int) (float64, bool) {
					return 1, q.Adjacent(ep.Pos) && pl.threat[q.X][q.Y] == 1
				})
				if !math.IsInf(av, -1) && len(ps) > 0 {
					return moveOf(&pl.m.side(pl.side).Players[i], ps), true
				}
			}
		}
	}
	if ok && v > -0.5 {
		return moveOf(pl.m.p(r), path), true
	}
	// Nobody reaches him: the nearest unacted player walks his way.
	for i, p := range pl.m.side(pl.side).Players {
		if p.State != StateStanding || p.Acted {
			continue
		}
		dist := func(q Square) float64 { return -float64(max(abs(q.X-ep.Pos.X), abs(q.Y-ep.Pos.Y))) }
		ps, v := pl.bestNoDodge(ref{pl.side, i}, func(q Square, _ bool, _ int) (float64, bool) { return dist(q), true })
		if len(ps) > 0 && v > dist(p.Pos) {
			return moveOf(&pl.m.side(pl.side).Players[i], ps), true
		}
	}
	return domain.Move{}, false
}
