package codebowl

import (
	"math"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/bot"
)

// botHelper judges a match the bots' search stops in. CodeBowl lists no
// forfeit, so nothing is left out.
type botHelper struct{}

// Evaluate implements domain.Evaluator. Random playouts almost never score
// (two random coaches draw 0–0), so the search is guided by the position:
// touchdowns first, then the ball (carried, and how far from the goal
// column; or, loose, who stands nearer to it), then the players standing.
func (botHelper) Evaluate(m Match, me domain.Actor) float64 {
	side := m.SideOf(me.ID)
	if side == "" || m.Away.Coach == "" {
		return 0.5
	}
	mine, theirs := m.side(side), m.side(side.Other())
	v := 3 * float64(mine.Score-theirs.Score)
	switch m.Ball.State {
	case BallCarried:
		if s, i, ok := m.find(m.Ball.Carrier); ok {
			p := m.side(s).Players[i]
			far := math.Abs(float64(p.Pos.X-GoalColumn(s))) / Width
			worth := 1 + 1.5*(1-far)
			if s == side {
				v += worth
			} else {
				v -= worth
			}
		}
	case BallLoose:
		near := func(t *TeamSide) float64 {
			best := float64(Width + Height)
			for _, p := range t.Players {
				if p.State == StateStanding {
					best = min(best, float64(abs(p.Pos.X-m.Ball.Pos.X)+abs(p.Pos.Y-m.Ball.Pos.Y)))
				}
			}
			return best
		}
		v += 0.1 * (near(theirs) - near(mine))
	}
	standing := func(t *TeamSide) float64 {
		n := 0.0
		for _, p := range t.Players {
			if p.State == StateStanding {
				n++
			}
		}
		return n
	}
	v += 0.15 * (standing(mine) - standing(theirs))
	return 0.5 + 0.5*math.Tanh(v/3)
}

// BotSpec is CodeBowl as the bots play it (docs/bots.md): a turn is up to
// seven player actions and endTurn, each with dozens of choices, so the
// search plays a few steps ahead and judges each new node by Evaluate.
func BotSpec() bot.Spec[Match] {
	return bot.Spec[Match]{Rules: Rules{}, Lister: Rules{}, Eval: botHelper{}, Policy: botHelper{}.Policy,
		Depth: 6, Playouts: 150, Rollout: bot.NoRollout}
}

// Policy plays the strong level's turns by the plan of bot_plan.go; the
// search places the players at a kick-off.
func (botHelper) Policy(m Match, me domain.Actor, _ []domain.Move) (domain.Move, bool) {
	side := m.SideOf(me.ID)
	if side == "" {
		return domain.Move{}, false
	}
	return plan(m, side)
}
