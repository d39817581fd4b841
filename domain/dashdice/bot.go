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

// Policy plays the classic rule set by the solved table for its target
// (bot_policy.go): roll or bank, whichever wins most often against the
// random bot. Elsewhere (other rule sets, a target without a table, the
// odd/even call) it leaves the move to the search.
func (botHelper) Policy(m Match, me domain.Actor, moves []domain.Move) (domain.Move, bool) {
	seat := m.SeatOf(me.ID)
	if m.Mode.RuleSet != RuleSetClassic || m.Mode.StartingScore != 0 || m.Phase != PhaseGameplay ||
		seat == "" || m.CurrentTurn != seat || m.Opponent == nil {
		return domain.Move{}, false
	}
	tb := classicPolicy(m.Mode.TargetScore)
	if tb == nil {
		return domain.Move{}, false
	}
	// (The tables start at 0: a double six resets a score to 0, not to a
	// starting score, so a mode starting above 0 is another game.)
	a, b := m.player(seat).Score, m.player(seat.Other()).Score
	want := ActionBank
	if tb.Roll(a, b, m.TurnScore, m.Multiplier) {
		want = ActionRoll
	}
	for _, mv := range moves {
		if mv.Type == want {
			return mv, true
		}
	}
	return domain.Move{}, false
}

// BotSpec is DashDice as the bots play it (docs/bots.md): classic by its
// solved table, the rest by a search 12 steps ahead judged by the scores.
func BotSpec() bot.Spec[Match] {
	h := botHelper{}
	return bot.Spec[Match]{Rules: Rules{}, Lister: Rules{}, Resign: h, Eval: h, Policy: h.Policy, Depth: 12, Playouts: 300}
}
