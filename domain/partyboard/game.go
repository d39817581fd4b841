package partyboard

import (
	"strings"
	"time"

	"github.com/meeple-games/meeple/domain"
)

// Kind names the game.
const Kind = "partyboard"

// Phases of a game.
const (
	PhaseLobby   = "lobby"   // players join; the host starts
	PhasePlaying = "playing" // Await says whose input the game waits for
	PhaseOver    = "over"    // someone reached the finish
)

// Player limits.
const (
	MinPlayers = 2
	MaxPlayers = 12
)

// LogSize is how many recent happenings Game.Log keeps.
const LogSize = 10

// LogTextMax bounds the text of a log entry (a rule's displayText), so the
// game document stays small.
const LogTextMax = 200

// Game is the whole public state of a Party Board game. It names its board
// (BoardID) rather than holding it, so the game document stays small: a
// 12-player game is a few KB of JSON.
type Game struct {
	ID      string   `json:"id"`
	BoardID string   `json:"boardId"`
	Phase   string   `json:"phase"`
	Host    string   `json:"host"`
	Players []Player `json:"players"` // in turn order (the order they joined)
	// Current is the index in Players of the player whose turn it is.
	Current int `json:"current"`
	// Reversed is the turn direction: false is Players order, true the
	// other way round (ReverseTurnOrderRule).
	Reversed bool `json:"reversed,omitempty"`
	// Turn counts turns from 1, lost and extra ones included.
	Turn int `json:"turn"`
	// Await is the input the game waits for. While playing there is always
	// exactly one; it is nil in the lobby (anyone may join, the host starts)
	// and once the game is over.
	Await *Await `json:"await,omitempty"`
	// Next is the engine's continuation: the automatic steps (StepBegin,
	// StepZone, ...) that run once the awaited input is answered.
	Next      []string `json:"next,omitempty"`
	LastRolls []int    `json:"lastRolls,omitempty"` // the dice of the last roll of any kind
	Winner    string   `json:"winner,omitempty"`
	// Log is the last LogSize things that happened, oldest first; the event
	// log has them all, with more detail.
	Log       []Entry   `json:"log,omitempty"`
	CreatedAt time.Time `json:"createdAt"`
	// Private: only those given the room code may join, and the game is not
	// listed among open games.
	Private bool `json:"private,omitempty"`
	// TurnSeconds is the input timer set at creation (0: none): each awaited
	// input must come within it, or Expire answers it with the default.
	TurnSeconds int `json:"turnSeconds,omitempty"`
	// Deadline is when the awaited input times out (zero without a timer,
	// in the lobby and at the end).
	Deadline time.Time `json:"deadline,omitzero"`
}

// Player is one seated player, their position and the effects on them.
type Player struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Tile    int    `json:"tile"` // index in the board's tiles
	Starter string `json:"starter,omitempty"`
	// LostTurns are turns the player will skip; LostTurnDrinks is what the
	// DrinkDuringLostTurnsRule said to drink in each (words only, ruling 9).
	LostTurns      int `json:"lostTurns,omitempty"`
	LostTurnDrinks int `json:"lostTurnDrinks,omitempty"`
	ExtraTurns     int `json:"extraTurns,omitempty"`
	// SpeedMods (SpeedModifierRule) and then RollMods (RollAugmentationRule)
	// change the player's next move rolls, in the order they were gained.
	SpeedMods []Mod `json:"speedMods,omitempty"`
	RollMods  []Mod `json:"rollMods,omitempty"`
	// MandatorySkips is how many more mandatory stops the player passes.
	MandatorySkips int `json:"mandatorySkips,omitempty"`
	// Mandatory are tiles AddMandatoryRule made mandatory stops for this
	// player; a tile leaves the list when the player stops there.
	Mandatory []int `json:"mandatory,omitempty"`
	// Anchors: while above 0, another player's move roll cannot pass this
	// player; each stop it causes uses one.
	Anchors   int            `json:"anchors,omitempty"`
	Condition *MoveCondition `json:"condition,omitempty"`
	GroupRoll int            `json:"groupRoll,omitempty"` // the player's die in the last GroupRollRule
	// Items the player holds, in the order gained (a set).
	Items []string `json:"items,omitempty"`
	// Cleared are the tiles with mandatoryType "once" the player has
	// stopped on: they no longer stop the player.
	Cleared []int `json:"cleared,omitempty"`
	// Strikes counts the player's inputs in a row taken by the timer; at
	// MaxStrikes the player is removed. Answering themselves resets it.
	Strikes int `json:"strikes,omitempty"`
	// Removed: the player left, was removed by the host or timed out
	// MaxStrikes times in a row. They keep their seat in Players (and lose),
	// but take no more turns and no rule picks or moves them.
	Removed bool `json:"removed,omitempty"`
}

// MaxStrikes is how many timed-out inputs in a row remove a player.
const MaxStrikes = 3

// Turn timer limits (create's turnSeconds; 0 is no timer).
const (
	MinTurnSeconds = 5
	MaxTurnSeconds = 24 * 60 * 60
)

// Mod is a roll modifier on a player for Turns more move rolls.
type Mod struct {
	Op    string  `json:"op"` // "*", "+", "-", "="
	Value float64 `json:"value"`
	Turns int     `json:"turns"`
}

// MoveCondition is an ApplyMoveConditionRule's condition on a player (ruling
// 6): Rule is the location of the rule, whose condition says what to roll.
type MoveCondition struct {
	Rule        string `json:"rule"`
	Description string `json:"description,omitempty"`
	Successes   int    `json:"successes,omitempty"`
	Required    int    `json:"required,omitempty"` // 0: one success, and a failure ends the condition too
	Dice        int    `json:"dice"`               // dice per attempt
}

// Entry is one line of Game.Log.
type Entry struct {
	Turn   int    `json:"turn"`
	Player string `json:"player,omitempty"`
	Type   string `json:"type"`             // the event type, e.g. EventRolled
	Rule   string `json:"rule,omitempty"`   // the rule's location
	Text   string `json:"text,omitempty"`   // the rule's displayText (cut to LogTextMax bytes)
	Rolls  []int  `json:"rolls,omitempty"`  // EventRolled, EventCondition, EventRolledUntil
	Tiles  []int  `json:"tiles,omitempty"`  // EventMoved: [from, to]
	Target string `json:"target,omitempty"` // the other player concerned
}

// Actions Apply takes (the request's "type").
const (
	ActionJoin      = "join"
	ActionStart     = "start"
	ActionRoll      = "roll"
	ActionChoose    = "choose"
	ActionTarget    = "target"
	ActionStarter   = "starter"
	ActionGroupRoll = "groupRoll"
	ActionConfirm   = "confirm"
	ActionChallenge = "challenge"
	// ActionRemovePlayer takes a player out of the game: the host removes
	// anyone, a player removes themselves (leaves).
	ActionRemovePlayer = "removePlayer"
)

// Purposes of an awaited input.
const (
	PurposeTurnRoll  = "turnRoll"  // the roll to move
	PurposeCondition = "condition" // a move condition's dice before the turn roll (ruling 6)
	PurposeRule      = "rule"      // a rule's input: Rule says which
)

// Await is the input the game waits for: exactly who may answer, with what
// action, and what is allowed.
type Await struct {
	Action string `json:"action"` // one of the Action constants
	// Players may answer: one player, or for a group input (starter,
	// groupRoll) everyone who has not answered yet.
	Players  []string `json:"players"`
	Purpose  string   `json:"purpose"`            // PurposeTurnRoll, PurposeCondition or PurposeRule
	Rule     string   `json:"rule,omitempty"`     // the rule waiting, e.g. tiles[43].rule
	RuleType string   `json:"ruleType,omitempty"` // its type
	Text     string   `json:"text,omitempty"`     // its displayText (a condition's description for a turn roll)
	Dice     int      `json:"dice,omitempty"`     // roll, groupRoll: the dice one action rolls
	Choices  []string `json:"choices,omitempty"`  // choose: the options' texts; "choice" is an index
	Targets  []string `json:"targets,omitempty"`  // target: player ids allowed; challenge: the challenger first, then who they may challenge
	Starters []string `json:"starters,omitempty"` // starter: the starters allowed
	Target   string   `json:"target,omitempty"`   // roll: the player a MoveRule's dice move (set after a target)
	Rolls    []int    `json:"rolls,omitempty"`    // roll for a RollUntilRule: the rolls so far
	Tiles    []int    `json:"tiles,omitempty"`    // choose for a RefightRule: the tile each choice sends the player to
}

// NewGame makes a lobby on board with the host seated.
//
// Errors: EINVALID.
func NewGame(id string, host domain.Actor, board *Board, now time.Time) (Game, error) {
	switch {
	case id == "":
		return Game{}, domain.Errorf(domain.EINVALID, "a game needs an id")
	case host.ID == "":
		return Game{}, domain.Errorf(domain.EINVALID, "a game needs a host")
	case board == nil || board.ID == "" || len(board.Tiles) == 0:
		return Game{}, domain.Errorf(domain.EINVALID, "a game needs a board")
	}
	return Game{ID: id, BoardID: board.ID, Phase: PhaseLobby, Host: host.ID,
		Players: []Player{{ID: host.ID, Name: playerName(host)}}, CreatedAt: now.UTC()}, nil
}

func playerName(a domain.Actor) string {
	if n := strings.TrimSpace(a.Name); n != "" {
		return n
	}
	return a.ID
}

// PlayerIDs returns the seated players' ids in turn order.
func (g *Game) PlayerIDs() []string {
	out := make([]string, len(g.Players))
	for i, p := range g.Players {
		out[i] = p.ID
	}
	return out
}

// Active returns the indexes of the players still in the game.
func (g *Game) Active() []int {
	out := make([]int, 0, len(g.Players))
	for i, p := range g.Players {
		if !p.Removed {
			out = append(out, i)
		}
	}
	return out
}

// Seat returns the index of player id in Players, -1 when not seated.
func (g *Game) Seat(id string) int {
	for i, p := range g.Players {
		if p.ID == id {
			return i
		}
	}
	return -1
}

// clone returns a copy of g that shares nothing Apply changes.
func (g Game) clone() Game {
	c := g
	c.Players = make([]Player, len(g.Players))
	for i, p := range g.Players {
		p.SpeedMods = cloneSlice(p.SpeedMods)
		p.RollMods = cloneSlice(p.RollMods)
		p.Mandatory = cloneSlice(p.Mandatory)
		p.Items = cloneSlice(p.Items)
		p.Cleared = cloneSlice(p.Cleared)
		if p.Condition != nil {
			cc := *p.Condition
			p.Condition = &cc
		}
		c.Players[i] = p
	}
	if g.Await != nil {
		a := *g.Await
		a.Players = cloneSlice(a.Players)
		a.Choices = cloneSlice(a.Choices)
		a.Targets = cloneSlice(a.Targets)
		a.Starters = cloneSlice(a.Starters)
		a.Rolls = cloneSlice(a.Rolls)
		a.Tiles = cloneSlice(a.Tiles)
		c.Await = &a
	}
	c.Next = cloneSlice(g.Next)
	c.LastRolls = cloneSlice(g.LastRolls)
	c.Log = cloneSlice(g.Log) // entries are never changed once written
	return c
}

func cloneSlice[T any](s []T) []T {
	if s == nil {
		return nil
	}
	return append(make([]T, 0, len(s)), s...)
}
