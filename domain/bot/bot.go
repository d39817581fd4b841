// Package bot plays any seat of a game kept in one document, from the
// game's pure rules alone: its legal-move listing (domain.Lister) and its
// Apply, with dice the bot rolls itself in its search. It knows no game.
//
// Two levels (domain.BotLevels): random picks uniformly among the listed
// moves; strong plays the game's Policy where it has one, else runs Monte
// Carlo tree search (search.go) — moves chosen by UCB1 in playouts, within
// a budget of playouts and of time per move — and plays the root's most
// tried move. Where
// playouts cannot reach the end of the game in the budget, the game's
// Evaluator judges where they stop (docs/bots.md).
//
// A bot sees only the state it is given: the platform hands it the game
// document, which every player may read. A game that hides information in
// that state must hand the bot its seat's view instead (docs/bots.md).
package bot

import (
	"encoding/json"
	"math/rand/v2"
	"time"

	"github.com/meeple-games/meeple/domain"
)

// Defaults of a Spec.
const (
	DefaultPlayouts = 400
	DefaultDepth    = 300
	// DefaultBudget is the time one strong move may take: under the 200 ms
	// of CPU the issue allows, with room for the pipeline around it.
	DefaultBudget = 150 * time.Millisecond
)

// Spec is one game as a bot plays it.
type Spec[S any] struct {
	Rules  domain.Rules[S]
	Lister domain.Lister[S]
	// Eval judges a playout that stopped before the end (nil: 0.5).
	Eval domain.Evaluator[S]
	// Resign says which listed moves a bot never plays (nil: none).
	Resign domain.Resigner
	// Policy, when set, is asked first at the strong level: a move the
	// game knows to be best (ok true; one the rules accept in s, listed or
	// not), else the search decides. DashDice's classic rule set plays a
	// solved table, CodeBowl's turns a plan (docs/bots.md).
	Policy func(s S, me domain.Actor, moves []domain.Move) (domain.Move, bool)
	// Playouts is the strong level's playouts per move (0: DefaultPlayouts);
	// Depth the steps of one playout before it is judged (0: DefaultDepth).
	Playouts, Depth int
	// Rollout caps the random steps played from a node the search adds
	// (0: up to Depth; NoRollout: none, the Evaluator judges the node).
	Rollout int
	// Budget bounds a strong move's time by Clock (0: DefaultBudget); with
	// a nil Clock only Playouts bounds it (deterministic: tests, botmatch).
	Budget time.Duration
	Clock  func() time.Time
	// Idle, when set, is what a bot with no move sends to stay seated (a
	// game that counts a silent player as gone): ok false for nothing.
	Idle func(s S, me domain.Actor, now time.Time) (domain.Move, bool)
	// JoinPayload is the payload of the join that seats a bot (nil: {}).
	JoinPayload json.RawMessage
}

func (sp Spec[S]) playouts() int {
	if sp.Playouts > 0 {
		return sp.Playouts
	}
	return DefaultPlayouts
}

// NoRollout is Spec.Rollout for a search that judges new nodes at once.
const NoRollout = -1

func (sp Spec[S]) depth() int {
	if sp.Depth > 0 {
		return sp.Depth
	}
	return DefaultDepth
}

func (sp Spec[S]) budget() time.Duration {
	if sp.Budget > 0 {
		return sp.Budget
	}
	return DefaultBudget
}

// Moves lists what me may play in s: the listing without the moves a bot
// never plays.
func (sp Spec[S]) Moves(s S, me domain.Actor) []domain.Move {
	all := sp.Lister.Legal(s, me)
	if sp.Resign == nil {
		return all
	}
	out := all[:0:0]
	for _, mv := range all {
		if !sp.Resign.Resigns(mv) {
			out = append(out, mv)
		}
	}
	return out
}

// Choose returns the move me plays in s at level, ok false when it has
// none. rng drives every random choice, so the same rng state, state and
// budget give the same move (without a Clock).
func (sp Spec[S]) Choose(s S, me domain.Actor, level string, rng *rand.Rand, now time.Time) (domain.Move, bool) {
	moves := sp.Moves(s, me)
	switch {
	case len(moves) == 0:
		return domain.Move{}, false
	case len(moves) == 1 || level == domain.BotRandom:
		return moves[rng.IntN(len(moves))], true
	}
	if sp.Policy != nil {
		if mv, ok := sp.Policy(s, me, moves); ok {
			return mv, true
		}
	}
	return sp.search(s, me, moves, rng, now), true
}

// Mover returns a seated player with moves in s and those moves, in a
// random order of the players (where several may act, as in simultaneous
// play); no moves when nobody has one.
func (sp Spec[S]) Mover(s S, rng *rand.Rand) (domain.Actor, []domain.Move) {
	players := sp.Rules.Header(s).Players
	off := 0
	if len(players) > 1 {
		off = rng.IntN(len(players))
	}
	for k := range players {
		a := Seat(players[(k+off)%len(players)])
		if moves := sp.Moves(s, a); len(moves) > 0 {
			return a, moves
		}
	}
	return domain.Actor{}, nil
}

// Seat is the actor of a seated player id as the rules see it: a bot's
// own actor, or a player.
func Seat(id string) domain.Actor {
	if a, _, ok := domain.BotOf(id); ok {
		return a
	}
	return domain.Actor{ID: id, Name: id, Role: domain.RolePlayer}
}

// Apply plays mv for who in s as the pipeline would (the move's payload as
// the request body).
func (sp Spec[S]) Apply(s S, who domain.Actor, mv domain.Move, d domain.Dice, now time.Time) (S, domain.Outcome, error) {
	body, err := Payload(mv)
	if err != nil {
		return s, domain.Outcome{}, err
	}
	return sp.Rules.Apply(s, domain.Action{ID: "bot", Type: mv.Type, Actor: who, Payload: body}, domain.Env{Now: now, Dice: d})
}

// Payload is a move's request body without the envelope ({} for none).
func Payload(mv domain.Move) (json.RawMessage, error) {
	if len(mv.Payload) == 0 {
		return json.RawMessage("{}"), nil
	}
	return json.Marshal(mv.Payload)
}

// Result reads me's result from the gameOver event among out's events:
// 1 won, 0.5 drawn, 0 lost; over false when the game did not end.
func Result(out domain.Outcome, me string) (v float64, over bool) {
	for _, ev := range out.Events {
		if ev.Type != domain.EventGameOver {
			continue
		}
		g, ok := gameOver(ev.Data)
		if !ok {
			return 0.5, true
		}
		if g.Draw {
			return 0.5, true
		}
		for _, w := range g.Winners {
			if w == me {
				return 1, true
			}
		}
		return 0, true
	}
	return 0, false
}

func gameOver(data any) (domain.GameOver, bool) {
	switch g := data.(type) {
	case domain.GameOver:
		return g, true
	case *domain.GameOver:
		return *g, true
	}
	var g domain.GameOver
	b, err := json.Marshal(data)
	if err != nil || json.Unmarshal(b, &g) != nil {
		return g, false
	}
	return g, true
}

// Dice rolls from a math/rand source: a playout's dice, not a game's.
type Dice struct{ R *rand.Rand }

// Roll implements domain.Dice.
func (d *Dice) Roll(sides int) int { return d.R.IntN(sides) + 1 }

// New returns the domain.Bots of a spec: what a registry entry carries.
func New[S any](sp Spec[S]) domain.Bots { return bots[S]{sp} }

type bots[S any] struct{ sp Spec[S] }

// Move implements domain.Bots.
func (b bots[S]) Move(state json.RawMessage, bot domain.Actor, level string, seed uint64, now time.Time) (domain.Move, bool, error) {
	var s S
	if err := json.Unmarshal(state, &s); err != nil {
		return domain.Move{}, false, domain.Errorf(domain.EINTERNAL, "bot: the state does not decode: %v", err)
	}
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	mv, ok := b.sp.Choose(s, bot, level, rng, now)
	if !ok && b.sp.Idle != nil {
		mv, ok = b.sp.Idle(s, bot, now)
	}
	return mv, ok, nil
}

// Join implements domain.Bots.
func (b bots[S]) Join(domain.Actor) json.RawMessage {
	if b.sp.JoinPayload != nil {
		return b.sp.JoinPayload
	}
	return json.RawMessage("{}")
}
