package dashdice

import "github.com/meeple-games/meeple/domain"

var _ domain.Lister[Match] = Rules{}

// Legal implements domain.Lister: what a may do in m now — join an open
// match; the opponent's odd/even call; the current player's roll and bank
// (no bank in True Grit); a seated player's forfeit while the match runs;
// a rematch once it is over.
func (Rules) Legal(m Match, a domain.Actor) []domain.Move {
	seat := m.SeatOf(a.ID)
	var moves []domain.Move
	switch m.Phase {
	case PhaseWaiting:
		if seat == "" {
			return []domain.Move{{Type: ActionJoin}}
		}
	case PhaseTurnDecider:
		if seat == SeatOpponent {
			moves = append(moves, domain.Move{Type: ActionCall, Payload: map[string]any{"call": "odd"}},
				domain.Move{Type: ActionCall, Payload: map[string]any{"call": "even"}})
		}
	case PhaseGameplay:
		if seat != "" && seat == m.CurrentTurn {
			moves = append(moves, domain.Move{Type: ActionRoll})
			if m.Mode.RuleSet != RuleSetTrueGrit {
				moves = append(moves, domain.Move{Type: ActionBank})
			}
		}
	case PhaseGameOver:
		if seat != "" && m.Opponent != nil && m.RematchID == "" && !m.player(seat).Rematch {
			return []domain.Move{{Type: ActionRematch}}
		}
		return nil
	}
	if seat != "" {
		moves = append(moves, domain.Move{Type: ActionForfeit})
	}
	return moves
}
