package bot

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"time"

	"github.com/meeple-games/meeple/domain"
)

// search is open-loop Monte Carlo tree search (UCT): each iteration plays
// from s with fresh dice, choosing at each tree node the move with the best
// UCB1 bound for whoever moves there (moves told apart by their request, so
// a node's moves may differ with the dice that led to it), adds one node,
// then plays random moves to the end or Depth steps, where the game's
// Evaluator judges. The move played is the root's most tried one.
func (sp Spec[S]) search(s S, me domain.Actor, moves []domain.Move, rng *rand.Rand, now time.Time) domain.Move {
	var stop time.Time
	if sp.Clock != nil {
		stop = sp.Clock().Add(sp.budget())
	}
	root := &node{children: map[string]*node{}}
	for it := 0; it < sp.playouts(); it++ {
		if sp.Clock != nil && it%4 == 0 && sp.Clock().After(stop) {
			break
		}
		sp.iterate(root, s, me, moves, rng, now)
	}
	best := -1
	var bn *node
	for i, mv := range moves {
		c := root.children[key(mv)]
		if c == nil || c.bad || c.n == 0 {
			continue
		}
		if bn == nil || c.n > bn.n || (c.n == bn.n && c.w > bn.w) {
			best, bn = i, c
		}
	}
	if best < 0 {
		return moves[rng.IntN(len(moves))]
	}
	return moves[best]
}

// node is a tree node: the moves tried from it, by key, and, for the move
// that led to it, its visits and the total result of the player who made it.
type node struct {
	children map[string]*node
	n, w     float64
	bad      bool // the rules refused the move
}

// key tells moves apart: the request they make.
func key(mv domain.Move) string {
	if len(mv.Payload) == 0 {
		return mv.Type
	}
	b, _ := json.Marshal(mv.Payload)
	return mv.Type + string(b)
}

type visit struct {
	nd  *node
	who string
}

// iterate runs one iteration of the search from the root.
func (sp Spec[S]) iterate(root *node, s S, me domain.Actor, rootMoves []domain.Move, rng *rand.Rand, now time.Time) {
	d := &Dice{R: rng}
	nd := root
	who, moves := me, rootMoves
	var path []visit
	var out domain.Outcome
	backup := func(v float64) { // v is me's result
		for _, p := range path {
			p.nd.n++
			if p.who == me.ID {
				p.nd.w += v
			} else {
				p.nd.w += 1 - v
			}
		}
	}
	for depth := 0; ; depth++ {
		if depth > 0 {
			if v, over := sp.ended(s, out, me); over {
				backup(v)
				return
			}
			if nd == nil || depth >= sp.depth() {
				backup(sp.rollout(s, me, depth, rng, d, now))
				return
			}
			var ok bool
			if s, out, who, moves, ok = sp.next(s, rng, d); !ok {
				backup(sp.judge(s, me))
				return
			}
			if len(moves) == 0 { // a deadline passed: look again
				continue
			}
		}
		if nd.children == nil {
			nd.children = map[string]*node{}
		}
		i, child, fresh := pick(nd, moves, rng)
		if i < 0 {
			backup(sp.judge(s, me))
			return
		}
		next, o, err := sp.Apply(s, who, moves[i], d, now)
		if err != nil {
			child.bad = true
			return
		}
		path = append(path, visit{child, who.ID})
		s, out, nd = next, o, child
		if fresh {
			nd = nil // expanded: a playout from here
		}
	}
}

// ended reports whether the last step ended the game, with me's result.
func (sp Spec[S]) ended(s S, out domain.Outcome, me domain.Actor) (float64, bool) {
	if v, over := Result(out, me.ID); over {
		return v, true
	}
	if sp.Rules.Header(s).Status == domain.StatusOver {
		return 0.5, true
	}
	return 0, false
}

// next finds who moves in s. When nobody may, a passed deadline moves the
// game on (the state after it, no moves); ok false when nothing does.
func (sp Spec[S]) next(s S, rng *rand.Rand, d *Dice) (S, domain.Outcome, domain.Actor, []domain.Move, bool) {
	who, moves := sp.Mover(s, rng)
	if len(moves) > 0 {
		return s, domain.Outcome{}, who, moves, true
	}
	h := sp.Rules.Header(s)
	if h.Deadline.IsZero() {
		return s, domain.Outcome{}, who, nil, false
	}
	next, o, err := sp.Rules.Expire(s, domain.Env{Now: h.Deadline, Dice: d})
	if err != nil {
		return s, domain.Outcome{}, who, nil, false
	}
	return next, o, who, nil, true
}

// rollout plays random moves from s (reached after depth steps) to the end
// or Depth steps and returns me's result.
func (sp Spec[S]) rollout(s S, me domain.Actor, depth int, rng *rand.Rand, d *Dice, now time.Time) float64 {
	end := sp.depth()
	if sp.Rollout != 0 {
		end = min(end, depth+max(0, sp.Rollout))
	}
	for ; depth < end; depth++ {
		next, out, who, moves, ok := sp.next(s, rng, d)
		if !ok {
			break
		}
		if len(moves) > 0 {
			if next, out, ok = sp.randomStep(next, who, moves, rng, d, now); !ok {
				break
			}
		}
		s = next
		if v, over := sp.ended(s, out, me); over {
			return v
		}
	}
	return sp.judge(s, me)
}

// randomStep plays one of moves at random (another if the rules refuse it).
func (sp Spec[S]) randomStep(s S, who domain.Actor, moves []domain.Move, rng *rand.Rand, d *Dice, now time.Time) (S, domain.Outcome, bool) {
	for try := 0; try < 3; try++ {
		next, out, err := sp.Apply(s, who, moves[rng.IntN(len(moves))], d, now)
		if err == nil {
			return next, out, true
		}
	}
	return s, domain.Outcome{}, false
}

// judge is the value for me of a playout stopped before the end.
func (sp Spec[S]) judge(s S, me domain.Actor) float64 {
	if sp.Eval != nil {
		return sp.Eval.Evaluate(s, me)
	}
	return 0.5
}

// pick returns the move to try at nd among moves: an untried one first
// (fresh true: its node is new), then the best UCB1 bound; -1 when every
// move was refused.
func pick(nd *node, moves []domain.Move, rng *rand.Rand) (int, *node, bool) {
	kids := make([]*node, len(moves))
	total := 0.0
	off := rng.IntN(len(moves))
	for j := range moves {
		i := (j + off) % len(moves)
		k := key(moves[i])
		c := nd.children[k]
		if c == nil {
			c = &node{}
			nd.children[k] = c
			return i, c, true
		}
		kids[i] = c
		total += c.n
	}
	best, bestU := -1, math.Inf(-1)
	logT := math.Log(total + 1)
	for i, c := range kids {
		if c.bad {
			continue
		}
		if c.n == 0 {
			return i, c, false
		}
		u := c.w/c.n + math.Sqrt(2*logT/c.n)
		if u > bestU {
			best, bestU = i, u
		}
	}
	if best < 0 {
		return -1, nil, false
	}
	return best, kids[best], false
}
