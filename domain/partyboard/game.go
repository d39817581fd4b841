package partyboard

import (
	"regexp"
	"strconv"
	"time"

	"github.com/meeple-games/meeple/domain"
)

// Kind names the game.
const Kind = "partyboard"

// Phases of a game.
const (
	PhaseLobby   = "lobby"
	PhasePlaying = "playing"
	PhaseOver    = "over"
)

// Player limits (ruling: 2–12 players).
const (
	MinPlayers = 2
	MaxPlayers = 12
)

// Game is the whole public state of a Party Board game. It names its board
// (BoardID) rather than holding it, so the game document stays small.
type Game struct {
	ID       string   `json:"id"`
	BoardID  string   `json:"boardId"`
	Phase    string   `json:"phase"`
	Host     string   `json:"host"`
	Players  []Player `json:"players"` // in turn order
	Current  int      `json:"current"` // index in Players of the player whose turn it is
	Reversed bool     `json:"reversed"`
	Turn     int      `json:"turn"`
	// Await is the one input the game waits for; nil only when the game is in
	// the lobby (the host starts it) or over.
	Await *Await `json:"await,omitempty"`
	// Then is what follows once the awaited rule is done: "turnRoll" (the
	// current player rolls to move) or "endTurn".
	Then      []string  `json:"then,omitempty"`
	LastRolls []int     `json:"lastRolls,omitempty"`
	Winner    string    `json:"winner,omitempty"`
	CreatedAt time.Time `json:"createdAt"`
}

// Player is one seated player and the effects on them.
type Player struct {
	ID            string     `json:"id"`
	Name          string     `json:"name"`
	Tile          int        `json:"tile"`
	LostTurns     int        `json:"lostTurns"`
	ExtraTurns    int        `json:"extraTurns"`
	SpeedMods     []SpeedMod `json:"speedMods,omitempty"`
	SkipMandatory int        `json:"skipMandatory"`
	Mandatory     []int      `json:"mandatory,omitempty"` // tiles made mandatory for this player
	Anchors       int        `json:"anchors"`
	Starter       string     `json:"starter,omitempty"`
	Condition     *MoveCheck `json:"condition,omitempty"`
	GroupRoll     int        `json:"groupRoll,omitempty"` // the last group roll
}

// SpeedMod changes this player's move rolls for a number of turns.
type SpeedMod struct {
	Op    string  `json:"op"`
	Value float64 `json:"value"`
	Turns int     `json:"turns"`
}

// MoveCheck is a move condition on a player (ApplyMoveConditionRule): the
// rule at Rule says what to roll; Successes counts rolls that met it.
type MoveCheck struct {
	Rule      string `json:"rule"`
	Successes int    `json:"successes"`
}

// Actions the game takes.
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
)

// Await says exactly whose input the game waits for and what is allowed.
type Await struct {
	Action   string   `json:"action"`             // one of the Action constants
	Players  []string `json:"players"`            // who may answer (group inputs: everyone not yet answered)
	Purpose  string   `json:"purpose"`            // "turnRoll" or "rule"
	Rule     string   `json:"rule,omitempty"`     // location of the rule waiting, e.g. tiles[12].rule.choices[1].rule
	Text     string   `json:"text,omitempty"`     // the rule's displayText
	Dice     int      `json:"dice,omitempty"`     // roll: how many dice one roll action rolls
	Choices  []string `json:"choices,omitempty"`  // choose: the options' texts, by index
	Targets  []string `json:"targets,omitempty"`  // target / challenge: the player ids allowed
	Starters []string `json:"starters,omitempty"` // starter: the names allowed
}

var pathToken = regexp.MustCompile(`^(tiles|zones)\[(\d+)\]\.rule|^\.choices\[(\d+)\]\.rule|^\.diceRolls\.outcomes\[(\d+)\]\.rule|^\.condition\.consequence`)

// RuleAt finds the rule at a location LoadBoard reports and Await names.
func (b *Board) RuleAt(path string) (*Rule, bool) {
	var r *Rule
	for rest := path; rest != ""; {
		m := pathToken.FindStringSubmatch(rest)
		if m == nil {
			return nil, false
		}
		rest = rest[len(m[0]):]
		switch {
		case m[1] != "":
			i, _ := strconv.Atoi(m[2])
			if m[1] == "tiles" && i < len(b.Tiles) {
				r = &b.Tiles[i].Rule
			} else if m[1] == "zones" && i < len(b.Zones) {
				r = &b.Zones[i].Rule
			} else {
				return nil, false
			}
		case r == nil:
			return nil, false
		case m[3] != "":
			i, _ := strconv.Atoi(m[3])
			if i >= len(r.Choices) {
				return nil, false
			}
			r = &r.Choices[i].Rule
		case m[4] != "":
			i, _ := strconv.Atoi(m[4])
			if r.DiceRolls == nil || i >= len(r.DiceRolls.Outcomes) {
				return nil, false
			}
			r = &r.DiceRolls.Outcomes[i].Rule
		default:
			if r.Condition == nil || r.Condition.Consequence == nil {
				return nil, false
			}
			r = r.Condition.Consequence
		}
	}
	return r, r != nil
}

// NewGame makes a lobby on board with the host seated.
//
// Errors: EINVALID.
func NewGame(id string, host domain.Actor, board *Board, now time.Time) (Game, error) {
	if id == "" || host.ID == "" || board == nil {
		return Game{}, domain.Errorf(domain.EINVALID, "a game needs an id, a host and a board")
	}
	return Game{ID: id, BoardID: board.ID, Phase: PhaseLobby, Host: host.ID,
		Players: []Player{{ID: host.ID, Name: host.Name}}, CreatedAt: now.UTC()}, nil
}

// clone returns a copy of g that shares nothing mutable with it.
func (g Game) clone() Game {
	c := g
	c.Players = make([]Player, len(g.Players))
	for i, p := range g.Players {
		p.SpeedMods = append([]SpeedMod(nil), p.SpeedMods...)
		p.Mandatory = append([]int(nil), p.Mandatory...)
		if p.Condition != nil {
			cc := *p.Condition
			p.Condition = &cc
		}
		c.Players[i] = p
	}
	if g.Await != nil {
		a := *g.Await
		a.Players = append([]string(nil), a.Players...)
		a.Choices = append([]string(nil), a.Choices...)
		a.Targets = append([]string(nil), a.Targets...)
		a.Starters = append([]string(nil), a.Starters...)
		c.Await = &a
	}
	c.Then = append([]string(nil), g.Then...)
	c.LastRolls = append([]int(nil), g.LastRolls...)
	return c
}

func (g *Game) seat(id string) int {
	for i, p := range g.Players {
		if p.ID == id {
			return i
		}
	}
	return -1
}

func (g *Game) ids() []string {
	out := make([]string, len(g.Players))
	for i, p := range g.Players {
		out[i] = p.ID
	}
	return out
}
