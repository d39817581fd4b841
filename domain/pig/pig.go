// Package pig is Pig, the dice game, as the smallest complete Meeple game:
// the example docs/architecture.md walks through, and the game the
// platform's own tests (store, triggers) play. Two players take turns rolling
// a die: each roll adds to the turn's total, a 1 loses it and ends the turn,
// holding banks it; the first to the target wins. A turn may have a timer:
// when it runs out the player holds.
//
// It is a one-document game: a state, a rule set (domain.Rules) and a create,
// made a domain.Game with domain.Single. Everything else — idempotency,
// expiry as of the deadline, seeded dice, event records, stats and
// leaderboards from its gameOver — the platform does.
package pig

import (
	"slices"
	"time"

	"github.com/meeple-games/meeple/domain"
)

// Kind is the game kind.
const Kind = "pig"

// Limits.
const (
	DefaultTarget = 30
	MaxTarget     = 1000
	MaxTurn       = 86400 // turn timer, seconds
)

// Game is Pig's state: the game document's "state".
type Game struct {
	ID         string         `json:"id"`
	Players    []string       `json:"players"` // host first
	Names      []string       `json:"names"`
	Scores     []int          `json:"scores"`
	Target     int            `json:"target"`
	TurnSecs   int            `json:"turnSeconds"` // 0: no timer
	Current    int            `json:"current"`     // index into Players
	TurnTotal  int            `json:"turnTotal"`
	Rolls      int            `json:"rolls"` // rolls this turn
	Deadline   time.Time      `json:"deadline,omitzero"`
	Winner     string         `json:"winner,omitempty"`
	Over       bool           `json:"over"`
	Started    bool           `json:"started"`
	LastRolled map[string]int `json:"lastRolled,omitempty"` // each player's last roll
}

// Events.
const (
	EventJoined  = "joined"  // Player joined; the game starts
	EventRolled  = "rolled"  // RolledData
	EventHeld    = "held"    // HeldData
	EventTimeout = "timeout" // the turn's timer ran out: the player held
)

// RolledData is the data of EventRolled.
type RolledData struct {
	Roll      int `json:"roll"`
	TurnTotal int `json:"turnTotal"` // after the roll (0 after a 1)
}

// HeldData is the data of EventHeld.
type HeldData struct {
	Banked int `json:"banked"`
	Score  int `json:"score"`
}

// Options of a new game (the create request's payload).
type Options struct {
	Target      int `json:"target"`      // 0: DefaultTarget
	TurnSeconds int `json:"turnSeconds"` // 0: no timer
}

// NewGame makes a game waiting for a second player.
//
// Errors: EINVALID.
func NewGame(id string, host domain.Actor, o Options) (Game, error) {
	if o.Target == 0 {
		o.Target = DefaultTarget
	}
	if o.Target < 1 || o.Target > MaxTarget {
		return Game{}, domain.Errorf(domain.EINVALID, "target must be 1 to %d", MaxTarget)
	}
	if o.TurnSeconds < 0 || o.TurnSeconds > MaxTurn {
		return Game{}, domain.Errorf(domain.EINVALID, "turnSeconds must be 0 to %d", MaxTurn)
	}
	return Game{ID: id, Players: []string{host.ID}, Names: []string{host.Name}, Scores: []int{0},
		Target: o.Target, TurnSecs: o.TurnSeconds}, nil
}

// Rules is Pig's rule set.
type Rules struct{}

var (
	_ domain.Rules[Game]  = Rules{}
	_ domain.Lister[Game] = Rules{}
)

// Kind implements domain.Rules.
func (Rules) Kind() string { return Kind }

// Header implements domain.Rules.
func (Rules) Header(g Game) domain.Header {
	h := domain.Header{Players: slices.Clone(g.Players), Status: domain.StatusActive, Deadline: g.Deadline}
	switch {
	case g.Over:
		h.Status, h.Deadline = domain.StatusOver, time.Time{}
	case !g.Started:
		h.Status = domain.StatusWaiting
	}
	return h
}

// Apply implements domain.Rules: join, roll, hold. On an error it returns g
// unchanged.
//
// Errors: EINVALID (unknown action), EFORBIDDEN (not a player), ECONFLICT
// (not your turn, not started, over, full).
func (Rules) Apply(g Game, a domain.Action, env domain.Env) (Game, domain.Outcome, error) {
	if err := domain.DecodePayload(a.Payload, nil); err != nil {
		return g, domain.Outcome{}, err
	}
	n := clone(g)
	var out domain.Outcome
	switch a.Type {
	case "join":
		if g.Started || g.Over {
			return g, out, domain.Errorf(domain.ECONFLICT, "the game has started")
		}
		if slices.Contains(g.Players, a.Actor.ID) {
			return g, out, domain.Errorf(domain.ECONFLICT, "you are already in this game")
		}
		n.Players = append(n.Players, a.Actor.ID)
		n.Names = append(n.Names, a.Actor.Name)
		n.Scores = append(n.Scores, 0)
		n.Started = true
		n.startTurn(0, env.Now)
		out.Events = []domain.Event{{Type: EventJoined, Player: a.Actor.ID}}
	case "roll", "hold":
		if err := g.turnOf(a.Actor.ID); err != nil {
			return g, out, err
		}
		if a.Type == "roll" {
			out.Events = n.roll(env)
		} else {
			out.Events = n.hold(env.Now)
		}
		out.Result = map[string]any{"turnTotal": n.TurnTotal, "scores": n.Scores}
	default:
		return g, out, domain.Errorf(domain.EINVALID, "unknown action type %q (join, roll, hold)", a.Type)
	}
	return n, out, nil
}

// Expire implements domain.Rules: the current player's timer ran out, so
// they hold, as of the deadline.
//
// Errors: ECONFLICT (no deadline passed).
func (Rules) Expire(g Game, env domain.Env) (Game, domain.Outcome, error) {
	if g.Over || g.Deadline.IsZero() || env.Now.Before(g.Deadline) {
		return g, domain.Outcome{}, domain.Errorf(domain.ECONFLICT, "no deadline has passed")
	}
	n := clone(g)
	evs := append([]domain.Event{{Type: EventTimeout, Player: g.Players[g.Current]}}, n.hold(g.Deadline)...)
	return n, domain.Outcome{Events: evs}, nil
}

// Legal implements domain.Lister.
func (Rules) Legal(g Game, a domain.Actor) []domain.Move {
	switch {
	case g.Over:
		return nil
	case !g.Started && !slices.Contains(g.Players, a.ID):
		return []domain.Move{{Type: "join"}}
	case g.Started && g.Players[g.Current] == a.ID:
		return []domain.Move{{Type: "roll"}, {Type: "hold"}}
	}
	return nil
}

func (g Game) turnOf(id string) error {
	switch {
	case g.Over:
		return domain.Errorf(domain.ECONFLICT, "the game is over")
	case !slices.Contains(g.Players, id):
		return domain.Errorf(domain.EFORBIDDEN, "you are not a player of this game")
	case !g.Started:
		return domain.Errorf(domain.ECONFLICT, "waiting for a second player")
	case g.Players[g.Current] != id:
		return domain.Errorf(domain.ECONFLICT, "it is not your turn")
	}
	return nil
}

func clone(g Game) Game {
	g.Players, g.Names, g.Scores = slices.Clone(g.Players), slices.Clone(g.Names), slices.Clone(g.Scores)
	if g.LastRolled != nil {
		m := make(map[string]int, len(g.LastRolled))
		for k, v := range g.LastRolled {
			m[k] = v
		}
		g.LastRolled = m
	}
	return g
}

func (g *Game) startTurn(i int, now time.Time) {
	g.Current, g.TurnTotal, g.Rolls = i, 0, 0
	g.Deadline = time.Time{}
	if g.TurnSecs > 0 {
		g.Deadline = now.Add(time.Duration(g.TurnSecs) * time.Second).UTC()
	}
}

func (g *Game) roll(env domain.Env) []domain.Event {
	r := env.Dice.Roll(6)
	me := g.Players[g.Current]
	if g.LastRolled == nil {
		g.LastRolled = map[string]int{}
	}
	g.LastRolled[me] = r
	g.Rolls++
	if r == 1 {
		g.TurnTotal = 0
		ev := domain.Event{Type: EventRolled, Player: me, Data: RolledData{Roll: r}}
		g.startTurn(1-g.Current, env.Now)
		return []domain.Event{ev}
	}
	g.TurnTotal += r
	return []domain.Event{{Type: EventRolled, Player: me, Data: RolledData{Roll: r, TurnTotal: g.TurnTotal}}}
}

func (g *Game) hold(now time.Time) []domain.Event {
	me := g.Players[g.Current]
	g.Scores[g.Current] += g.TurnTotal
	evs := []domain.Event{{Type: EventHeld, Player: me, Data: HeldData{Banked: g.TurnTotal, Score: g.Scores[g.Current]}}}
	if g.Scores[g.Current] >= g.Target {
		g.Over, g.Winner, g.Deadline, g.TurnTotal = true, me, time.Time{}, 0
		loser := g.Players[1-g.Current]
		return append(evs, domain.Event{Type: domain.EventGameOver, Player: me, Data: domain.GameOver{
			Kind: Kind, Winners: []string{me}, Losers: []string{loser}, Players: slices.Clone(g.Players), Reason: "target"}})
	}
	g.startTurn(1-g.Current, now)
	return evs
}

// NewPlatformGame is Pig as the platform drives it: Single over Rules, with a
// create that reads the Options from the request and reserves a room code.
func NewPlatformGame() domain.Game {
	return platformGame{domain.Single(domain.SingleGame[Game]{Rules: Rules{}, Create: create})}
}

// platformGame adds Pig's API reference to the platform's Single game.
type platformGame struct{ domain.Game }

// ActionDocs implements domain.ActionDocer: every action a game offers is
// documented with the struct it decodes (docs/reference.md).
func (platformGame) ActionDocs() []domain.ActionDoc {
	turn := "the player whose turn it is"
	return []domain.ActionDoc{
		{Type: domain.ActionCreate, Payload: Options{}, Who: "any signed-in player", Summary: "open a game"},
		{Type: "join", Who: "any signed-in player but the host", Summary: "take the second seat; the game starts"},
		{Type: "roll", Who: turn, Summary: "roll the die: a 1 ends the turn with nothing"},
		{Type: "hold", Who: turn, Summary: "bank the turn total and pass"},
	}
}

// ActionTypes implements domain.ActionTyper.
func (platformGame) ActionTypes() []string {
	return []string{domain.ActionCreate, "join", "roll", "hold"}
}

// create builds a new game from a create request.
func create(d domain.Docs, a domain.Action, env domain.Env) (Game, bool, error) {
	var o Options
	if err := domain.DecodePayload(a.Payload, &o); err != nil {
		return Game{}, false, err
	}
	g, err := NewGame(a.GameID, a.Actor, o)
	return g, true, err
}

// Entry is Pig's registry entry: used by the platform's tests and the docs
// (Meeple does not deploy it).
func Entry() domain.Entry {
	return domain.Entry{Game: NewPlatformGame(), Function: "Pig", Stats: true}
}
