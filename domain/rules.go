package domain

import (
	"encoding/json"
	"time"
)

// Status is where a game is in its life; the store keeps it on the game document.
type Status string

const (
	StatusWaiting Status = "waiting" // created, not all seats filled
	StatusActive  Status = "active"
	StatusOver    Status = "over"
)

// Env is what varies between calls, injected into the rules.
type Env struct {
	Now  time.Time
	Dice Dice
	// DiceAt gives the dice of a sequence number of the game's choosing;
	// Single sets Dice from it with the game version each step makes.
	DiceAt DiceSource
	// Seal keeps a player's secret in a document everyone reads (seal.go),
	// keyed by the game's seed; nil where nothing is sealed (the rules'
	// own tests, bots' searches).
	Seal Sealer
	// New describes the game a create action makes (nil otherwise).
	New *Created
	// Stop reports that the action has used the compute time the platform
	// gives one request (nil: never). Only work whose answer may honestly be
	// partial checks it — a board simulation stops between games and says
	// how many it played — never a rule that decides a game's state, so a
	// replay cannot depend on it.
	Stop func() bool
}

// Created is what the platform tells a create action, and what a create
// replies by default.
type Created struct {
	GameID   string `json:"gameId"`
	RoomCode string `json:"roomCode,omitempty"` // reserved only if the Change asks for a room
	SeedHash string `json:"seedHash"`
	Version  int64  `json:"version"`
}

// Action is one authenticated request to change a game.
type Action struct {
	ID      string          `json:"id"`   // client-chosen; makes the request idempotent
	Type    string          `json:"type"` // e.g. "roll"
	Actor   Actor           `json:"actor"`
	Payload json.RawMessage `json:"-"` // the whole request body; each game decodes its fields
	// GameID is the game acted on (for a create, the new game's id).
	GameID string `json:"-"`
	// Secret is the hash of the request's password, for games whose actions
	// carry one (Passworder): the game stores it, never the password.
	Secret string `json:"-"`
}

// Header is what the shared pipeline needs to know of any game's state: it is
// written next to the state on the game document, where queries and rules use it.
type Header struct {
	Status   Status
	Players  []string  // ids of the players seated in the game
	Deadline time.Time // when Expire must run; zero for none
	// Private: only the game's players know its room code; strangers cannot
	// list it and cannot join it without the code.
	Private bool
	// Secret: every action of the game is its actor's secret (a game with
	// hidden information: a fog move says where a troop went). Kept from
	// the game's create on: the platform keys every action's retry
	// fingerprint and seals its payload in the log everyone reads, as it
	// does for an action whose Plan is Secret (docs/randomness.md).
	Secret bool
}

// Outcome is what an action did besides changing the state.
type Outcome struct {
	Events []Event
	Result any     // returned to the caller as "result"
	Spawn  []Spawn // games this action creates (a rematch), in the same transaction
}

// Spawn is a new game of the same kind, created with the action that made it.
type Spawn struct {
	ID     string
	State  any    // the rule set's state type (a hidden game's: its public projection)
	Header Header // filled in by Single
	// Writes are the new game's other documents, created with it (a hidden
	// game's private/state and views: Single fills them).
	Writes []Write
}

// Rules is one game's rule set, as the shared pipeline drives it. S is the
// game's state: a value that marshals cleanly to JSON.
type Rules[S any] interface {
	// Kind names the game, e.g. "dashdice".
	Kind() string
	// Header describes s to the pipeline.
	Header(s S) Header
	// Apply performs a player's action. It returns the new state and what
	// happened, or an *Error (EINVALID, ECONFLICT, EFORBIDDEN) and changes nothing.
	Apply(s S, a Action, env Env) (S, Outcome, error)
	// Expire applies what happens when Header(s).Deadline passes, as of env.Now,
	// which the pipeline sets to that deadline.
	Expire(s S, env Env) (S, Outcome, error)
}
