package dashdice

import (
	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/bot"
)

// botHelper tells the bots which listed moves they never play and judges
// a match their search stops in.
type botHelper struct{}

// Resigns implements domain.Resigner: a bot never forfeits and never asks
// for a rematch (the host starts another game).
func (botHelper) Resigns(mv domain.Move) bool {
	return mv.Type == ActionForfeit || mv.Type == ActionRematch
}

// Evaluate implements domain.Evaluator: how far each player is towards
// winning, from the banked scores (half the current turn's unbanked points
// counted for whoever is rolling), as 0.5 plus half the difference.
func (botHelper) Evaluate(m Match, me domain.Actor) float64 {
	seat := m.SeatOf(me.ID)
	if seat == "" || m.Opponent == nil {
		return 0.5
	}
	progress := func(s Seat) float64 {
		p := m.player(s)
		score := float64(p.Score)
		if m.CurrentTurn == s {
			switch m.Mode.RuleSet {
			case RuleSetZeroHour, RuleSetLastLine:
				score -= float64(m.TurnScore) / 2
			default:
				score += float64(m.TurnScore) / 2
			}
		}
		start, target := float64(m.Mode.StartingScore), float64(m.Mode.TargetScore)
		switch m.Mode.RuleSet {
		case RuleSetClassic:
			return clamp(score / target)
		case RuleSetZeroHour:
			return clamp((start - score) / start)
		case RuleSetLastLine:
			// Banking takes from the opponent: mine against theirs.
			return clamp(score / (2 * start))
		default: // true grit: the higher score; 100 is a lot
			return clamp(score / 100)
		}
	}
	return 0.5 + (progress(seat)-progress(seat.Other()))/2
}

func clamp(x float64) float64 { return max(0, min(1, x)) }

// BotSpec is DashDice as the bots play it (docs/bots.md): the search looks
// 40 steps (a few turns) ahead and judges there by the scores.
func BotSpec() bot.Spec[Match] {
	return bot.Spec[Match]{Rules: Rules{}, Lister: Rules{}, Resign: botHelper{}, Eval: botHelper{}, Depth: 12, Playouts: 300}
}
