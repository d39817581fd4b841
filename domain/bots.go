package domain

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"
)

// A bot is a seat the platform plays (docs/bots.md): it is seated through
// the game's own join and acts through the same pipeline as a person, with
// an actor of role RoleBot whose id says it is a bot. Sessions are never
// issued for that role and no sign-in makes such an id (guests are "g_…",
// accounts "u_…", a game's principals "{gameId}:…").
const RoleBot Role = "bot"

// ActionAddBot is the platform action the host of a waiting game sends to
// seat a bot (functions: addBot).
const ActionAddBot = "addBot"

// Bot levels every game with bots offers.
const (
	BotRandom = "random" // a uniformly random legal move
	BotStrong = "strong" // Monte Carlo search over the pure rules
)

// BotLevels lists the levels, weakest first.
var BotLevels = []string{BotRandom, BotStrong}

// BotPrefix starts every bot's actor id.
const BotPrefix = "bot-"

// MaxBotSeats bounds the bots one game seats (bot ids run bot-<level>-1 to
// -MaxBotSeats), so the tick finds games with bots with one query.
const MaxBotSeats = 4

// BotActor is the actor of the n-th bot (1 ≤ n ≤ MaxBotSeats) of a level.
func BotActor(level string, n int) Actor {
	id := BotPrefix + level + "-" + strconv.Itoa(n)
	return Actor{ID: id, Name: "Bot (" + level + ") " + strconv.Itoa(n), Role: RoleBot}
}

// BotIDs lists every bot id a game may seat: the tick's query.
func BotIDs() []string {
	var out []string
	for _, l := range BotLevels {
		for n := 1; n <= MaxBotSeats; n++ {
			out = append(out, BotActor(l, n).ID)
		}
	}
	return out
}

// IsBot reports whether a player id is a bot's.
func IsBot(id string) bool { return strings.HasPrefix(id, BotPrefix) }

// BotOf returns the actor and level of a seated bot id, ok false when id is
// not a bot's.
func BotOf(id string) (a Actor, level string, ok bool) {
	rest, found := strings.CutPrefix(id, BotPrefix)
	if !found {
		return Actor{}, "", false
	}
	i := strings.LastIndexByte(rest, '-')
	if i < 0 {
		return Actor{}, "", false
	}
	n, err := strconv.Atoi(rest[i+1:])
	if err != nil || n < 1 || n > MaxBotSeats {
		return Actor{}, "", false
	}
	level = rest[:i]
	for _, l := range BotLevels {
		if l == level {
			return BotActor(level, n), level, true
		}
	}
	return Actor{}, "", false
}

// Bots is what a game with bots gives the platform (Entry.Bots): it decides
// a bot's move from the game document's state as stored, and says how a bot
// joins. It is built from the game's pure rules by domain/bot; the platform
// never sees the state's type.
type Bots interface {
	// Move is what bot (of level) plays in state (the game document's
	// "state", JSON), ok false when it has nothing to do now. seed makes the
	// choice repeatable: the platform derives it from the game version, so
	// a redelivered trigger chooses the same move. now is the time the
	// move is made at.
	Move(state json.RawMessage, bot Actor, level string, seed uint64, now time.Time) (mv Move, ok bool, err error)
	// Join is the payload of the join that seats bot (usually {}).
	Join(bot Actor) json.RawMessage
}

// ViewBots is implemented by the Bots of a game that hides part of its
// state from its seats (Hidden): while the game keeps a view document for
// a bot (SlotView, keyed by the bot's id), the platform asks MoveView with
// the game document's state (public: what everyone reads) and that view
// document as stored (view) — exactly what a person in the bot's seat
// reads — never the whole state. Without a view document (a game that
// hides nothing) it asks Move as for any game. A game whose state a view
// document hides and whose Bots are not ViewBots gets no bot moves.
type ViewBots interface {
	Bots
	MoveView(public, view json.RawMessage, bot Actor, level string, seed uint64, now time.Time) (mv Move, ok bool, err error)
}

// Evaluator is implemented by a game's bot helper (domain/<game>/bot.go)
// where random playouts cannot reach the end of a game in the time a move
// has: it judges s for seat me, from 0 (lost) to 1 (won).
type Evaluator[S any] interface {
	Evaluate(s S, me Actor) float64
}

// Resigner is implemented by a game's bot helper whose listing includes
// moves a bot must not play: those that give the game up or leave it
// (forfeit, surrender, a rematch offer), or that only save a draft. Bots
// never choose them, and random playouts skip them.
type Resigner interface {
	Resigns(mv Move) bool
}

// AddBotRequest is the payload of addBot.
type AddBotRequest struct {
	// Level is the bot's strength: random or strong.
	Level string `json:"level" field:"enum=random|strong"`
}
