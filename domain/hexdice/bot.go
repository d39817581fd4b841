package hexdice

import (
	"math"
	"time"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/bot"
)

// botHelper tells the bots which listed moves they never play and judges
// a game their search stops in.
type botHelper struct{}

// Resigns implements domain.Resigner: a bot never surrenders, and in
// simultaneous mode it saves no drafts: each is a write of its own, and a
// bot saving one draft after another would write the game until the
// planning timer. It submits (empty orders: a simultaneous-mode bot only
// holds; docs/bots.md).
func (botHelper) Resigns(mv domain.Move) bool {
	if mv.Type == ActionOrders {
		submit, _ := mv.Payload["submit"].(bool)
		return !submit
	}
	return mv.Type == ActionSurrender
}

// Evaluate implements domain.Evaluator: material and position, each side's
// worth in coins — its troops (their cost, by the HP they have left), the
// coins it holds, 150 a structure and 100 a turn of dominance — and the
// difference squashed into 0..1.
func (botHelper) Evaluate(g Game, me domain.Actor) float64 {
	seat := g.SeatOf(me.ID)
	if seat < 0 || len(g.Players) < 2 {
		return 0.5
	}
	var worth [2]float64
	for _, t := range g.Troops {
		if t.Owner < 0 || int(t.Owner) > 1 {
			continue
		}
		u := g.Config.Units[t.Type]
		if u.HP > 0 {
			worth[t.Owner] += float64(u.Cost) * (0.5 + 0.5*float64(t.HP)/float64(u.HP))
		}
	}
	for _, s := range g.Structures {
		if s.Owner == 0 || s.Owner == 1 {
			worth[s.Owner] += 150 + float64(s.HP)*5
		}
	}
	for i := 0; i < 2; i++ {
		worth[i] += float64(g.Players[i].Coins) + 100*float64(g.Players[i].Dominance)
	}
	return 0.5 + 0.5*math.Tanh((worth[seat]-worth[1-seat])/600)
}

// BotIdle is how long a bot with nothing to play stays silent before it
// sends a heartbeat: well inside the disconnect clock (60 s by default),
// so a person thinking long never makes the bot forfeit as disconnected.
const BotIdle = 20 * time.Second

// idle is the heartbeat of a seated bot silent for BotIdle.
func idle(g Game, me domain.Actor, now time.Time) (domain.Move, bool) {
	seat := g.SeatOf(me.ID)
	if seat < 0 || g.Phase != PhasePlaying || now.Sub(g.Players[seat].LastSeen) < BotIdle {
		return domain.Move{}, false
	}
	return domain.Move{Type: ActionHeartbeat}, true
}

// BotSpec is Hex & Dice as the bots play it (docs/bots.md): a turn is many
// moves (buys, moves, attacks, then endTurn), so the search looks about one
// turn ahead and judges there by material and structures.
func BotSpec() bot.Spec[Game] {
	return bot.Spec[Game]{Rules: Rules{}, Lister: Rules{}, Resign: botHelper{}, Eval: botHelper{}, Depth: 16, Playouts: 80, Rollout: 2, Idle: idle}
}
