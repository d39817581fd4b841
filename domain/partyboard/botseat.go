package partyboard

import (
	"math"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/bot"
)

// Bots of Party Board (docs/bots.md). A bot joins a lobby like a person
// (the host's addBot) and answers what the game awaits from it: its rolls,
// confirms, choices, targets and starters, and its reports of challenges.
// Its moves are what Legal lists, except:
//
//   - it never removes a player (removePlayer: itself or, as the host —
//     which a bot never is — anyone else);
//   - in a challenge it never reports itself the winner over a person: a bot
//     takes part in no real-world challenge, so it concedes it (between two
//     bots either report goes).
//
// The strong level searches (domain/bot) with the board's own rules and
// judges where its look-ahead stops by progress along the board (Evaluate).

// Boards is the board source of p's rules (the built-in boards and the
// uploaded ones this process has loaded): the bots' rules play the same
// boards. A bot whose board is not loaded here cannot search (every move it
// tries is refused by the rules), and plays a random listed move.
func (p PlatformGame) Boards() BoardSource { return p.boards }

// BotSpec is Party Board as the bots play it, on the boards of src. Most
// turns are a single roll (nothing to search); choices, targets and
// starters are searched 100 playouts deep to 24 steps, judged by progress.
func BotSpec(src BoardSource) bot.Spec[Game] {
	if src == nil {
		src = BuiltinSource{}
	}
	h := botHelper{src: src}
	return bot.Spec[Game]{Rules: Rules{Boards: src}, Lister: Rules{Boards: src}, Resign: h, Eval: h, Playouts: 100, Depth: 24}
}

type botHelper struct{ src BoardSource }

// Resigns implements domain.Resigner (the package comment above).
func (botHelper) Resigns(mv domain.Move) bool {
	switch mv.Type {
	case ActionRemovePlayer:
		return true
	case ActionChallenge:
		w, _ := mv.Payload["winner"].(string)
		l, _ := mv.Payload["loser"].(string)
		return domain.IsBot(w) && !domain.IsBot(l)
	}
	return false
}

// Evaluate implements domain.Evaluator: how far along the board me is
// against the furthest other player still in the game (each as a share of
// the way to the first finishing tile), through tanh: 0.5 when level.
func (h botHelper) Evaluate(g Game, me domain.Actor) float64 {
	seat := g.Seat(me.ID)
	if seat < 0 || g.Players[seat].Removed {
		return 0
	}
	b, err := h.src.Board(g.BoardID)
	if err != nil || len(b.Tiles) < 2 {
		return 0.5
	}
	goal := b.last()
	for i := 1; i < len(b.Tiles); i++ {
		if b.finishes(i) {
			goal = i
			break
		}
	}
	progress := func(p Player) float64 { return min(1, float64(p.Tile)/float64(goal)) }
	best := 0.0
	for i, p := range g.Players {
		if i != seat && !p.Removed {
			best = max(best, progress(p))
		}
	}
	mine := progress(g.Players[seat])
	// Extra and lost turns are worth about a roll each (3.5 tiles).
	turns := 3.5 * float64(g.Players[seat].ExtraTurns-g.Players[seat].LostTurns) / float64(goal)
	return 0.5 + 0.5*math.Tanh(4*(mine+turns-best))
}
