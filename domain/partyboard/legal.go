package partyboard

import (
	"slices"

	"github.com/meeple-games/meeple/domain"
)

var _ domain.Lister[Game] = Rules{}

// Legal implements domain.Lister: in the lobby, join for those not seated
// and start for the host (with enough players); in play, the answers to
// state.await that a may give — each choice, each target, each starter, each
// way to report a challenge. Besides, a seated player still in the game may
// remove themselves (leave) and the host anyone else (removePlayer).
func (Rules) Legal(g Game, a domain.Actor) []domain.Move {
	seat := g.Seat(a.ID)
	if g.Phase == PhaseOver || (seat >= 0 && g.Players[seat].Removed) {
		return nil
	}
	var moves []domain.Move
	if seat >= 0 {
		for i, p := range g.Players {
			if p.Removed || (i != seat && a.ID != g.Host) || (g.Phase == PhaseLobby && len(g.Players) == 1) {
				continue
			}
			moves = append(moves, domain.Move{Type: ActionRemovePlayer, Payload: map[string]any{"playerId": p.ID}})
		}
	}
	if g.Phase == PhaseLobby {
		switch {
		case seat < 0 && len(g.Players) < MaxPlayers:
			return []domain.Move{{Type: ActionJoin}}
		case a.ID == g.Host && len(g.Players) >= MinPlayers:
			return append([]domain.Move{{Type: ActionStart}}, moves...)
		}
		return moves
	}
	w := g.Await
	if w == nil || seat < 0 || !slices.Contains(w.Players, a.ID) {
		return moves
	}
	leave := moves
	moves = nil
	switch w.Action {
	case ActionChoose:
		for i := range w.Choices {
			moves = append(moves, domain.Move{Type: ActionChoose, Payload: map[string]any{"choice": i}})
		}
	case ActionTarget:
		for _, id := range w.Targets {
			moves = append(moves, domain.Move{Type: ActionTarget, Payload: map[string]any{"playerId": id}})
		}
	case ActionStarter:
		for _, st := range w.Starters {
			moves = append(moves, domain.Move{Type: ActionStarter, Payload: map[string]any{"starter": st}})
		}
	case ActionChallenge:
		me := w.Targets[0]
		for _, other := range w.Targets[1:] {
			moves = append(moves,
				domain.Move{Type: ActionChallenge, Payload: map[string]any{"winner": me, "loser": other}},
				domain.Move{Type: ActionChallenge, Payload: map[string]any{"winner": other, "loser": me}})
		}
	default: // roll, groupRoll, confirm
		moves = append(moves, domain.Move{Type: w.Action})
	}
	return append(moves, leave...)
}
