// Package dashdice is the rule set of DashDice, a two-player push-your-luck dice
// game with several modes (Classic, Quickfire, Zero Hour, Last Line, True Grit).
//
// It is pure: time and dice come in through domain.Env, and Apply and Expire
// never change the state they are given. docs/dashdice.md describes every rule
// as implemented here.
package dashdice

import (
	"strings"
	"time"

	"github.com/meeple-games/meeple/domain"
)

// Kind is the game kind, as Rules.Kind reports it.
const Kind = "dashdice"

// Rule sets: how a mode scores rolls and banks.
const (
	RuleSetClassic  = "classic"
	RuleSetZeroHour = "zero-hour"
	RuleSetLastLine = "last-line"
	RuleSetTrueGrit = "true-grit"
)

// Timer settings, in seconds unless said otherwise.
const (
	DefaultTurnSeconds = 30 // Options.TurnSeconds == 0
	MinTurnSeconds     = 5
	MaxTurnSeconds     = 600
	NoTimer            = -1 // Options.TurnSeconds == NoTimer turns the timer off

	// JoinWindow is how long a match waits for an opponent before it is
	// cancelled (with no result).
	JoinWindow = 30 * time.Minute

	// AbandonAfter is how many of a player's turns in a row may time out with no
	// action of theirs before they forfeit the match (reason "abandoned").
	AbandonAfter = 3
)

// Limits on admin-supplied modes.
const (
	maxScore       = 1_000_000
	maxIDLen       = 40
	maxNameLen     = 60
	maxDescription = 500
)

// Mode is a playable variant: a rule set with its starting and target scores.
// The built-in modes come from BuiltinModes; an operator may add or override
// modes with configuration documents of the same shape.
type Mode struct {
	ID            string `json:"id"`
	Name          string `json:"name"`
	Description   string `json:"description"`
	RuleSet       string `json:"ruleSet"`       // classic, zero-hour, last-line or true-grit
	StartingScore int    `json:"startingScore"` // each player's banked score at the start
	TargetScore   int    `json:"targetScore"`   // classic: reach it to win; 0 for the other rule sets
}

// BuiltinModes returns the modes every deployment has, in display order.
func BuiltinModes() []Mode {
	return []Mode{
		{ID: "classic", Name: "Classic", RuleSet: RuleSetClassic, StartingScore: 0, TargetScore: 100,
			Description: "First to bank 100 points wins. A single 1 loses the turn score, double 6 wipes your banked score, snake eyes is +20, other doubles switch on ×2."},
		{ID: "quickfire", Name: "Quickfire", RuleSet: RuleSetClassic, StartingScore: 0, TargetScore: 50,
			Description: "Classic rules, first to bank 50 points wins."},
		{ID: "zero-hour", Name: "Zero Hour", RuleSet: RuleSetZeroHour, StartingScore: 100, TargetScore: 0,
			Description: "Start at 100 and bank to count down; land on exactly 0 to win. Going below 0 is a bust, and your doubles add to your opponent's score."},
		{ID: "last-line", Name: "Last Line", RuleSet: RuleSetLastLine, StartingScore: 50, TargetScore: 0,
			Description: "Tug of war: both start at 50 and banking takes points from your opponent. Take their last point to win."},
		{ID: "true-grit", Name: "True Grit", RuleSet: RuleSetTrueGrit, StartingScore: 0, TargetScore: 0,
			Description: "One turn each and no banking: roll until a single 1 ends your turn and keeps your score. Doubles raise the multiplier. Highest score wins."},
	}
}

// Validate reports whether m is a playable mode, with an EINVALID error saying
// what is wrong.
func (m Mode) Validate() error {
	bad := func(format string, args ...any) error {
		return domain.Errorf(domain.EINVALID, "mode %q: "+format, append([]any{m.ID}, args...)...)
	}
	switch {
	case m.ID == "":
		return domain.Errorf(domain.EINVALID, "mode: id is required")
	case len(m.ID) > maxIDLen || strings.Trim(m.ID, "abcdefghijklmnopqrstuvwxyz0123456789-") != "":
		return bad("id must be 1 to %d characters of a-z, 0-9 and -", maxIDLen)
	case strings.TrimSpace(m.Name) == "":
		return bad("name is required")
	case len(m.Name) > maxNameLen:
		return bad("name is longer than %d bytes", maxNameLen)
	case len(m.Description) > maxDescription:
		return bad("description is longer than %d bytes", maxDescription)
	case m.StartingScore < 0 || m.StartingScore > maxScore || m.TargetScore < 0 || m.TargetScore > maxScore:
		return bad("scores must be between 0 and %d", maxScore)
	}
	switch m.RuleSet {
	case RuleSetClassic:
		if m.TargetScore <= m.StartingScore {
			return bad("classic needs a target score above the starting score (%d ≤ %d)", m.TargetScore, m.StartingScore)
		}
	case RuleSetZeroHour:
		if m.StartingScore <= 0 || m.TargetScore != 0 {
			return bad("zero-hour counts down to exactly 0: it needs a starting score above 0 and target score 0")
		}
	case RuleSetLastLine:
		if m.StartingScore <= 0 || m.TargetScore != 0 {
			return bad("last-line is won by taking the opponent's last point: it needs a starting score above 0 and target score 0")
		}
	case RuleSetTrueGrit:
		if m.TargetScore != 0 {
			return bad("true-grit has no target score (the higher score after one turn each wins): set it to 0")
		}
	case "":
		return bad("ruleSet is required (classic, zero-hour, last-line or true-grit)")
	default:
		return bad("unknown ruleSet %q (want classic, zero-hour, last-line or true-grit)", m.RuleSet)
	}
	return nil
}

// Phase is where a match is: waiting → turnDecider → gameplay → gameOver. A
// match cancelled while waiting goes straight to gameOver.
type Phase string

const (
	PhaseWaiting     Phase = "waiting"     // the host waits for an opponent
	PhaseTurnDecider Phase = "turnDecider" // the opponent calls odd or even
	PhaseGameplay    Phase = "gameplay"    // players take turns
	PhaseGameOver    Phase = "gameOver"    // finished (or cancelled)
)

// Seat is one of the two places at the table.
type Seat string

const (
	SeatHost     Seat = "host"     // created the match
	SeatOpponent Seat = "opponent" // joined it
)

// Other returns the other seat.
func (s Seat) Other() Seat {
	if s == SeatHost {
		return SeatOpponent
	}
	return SeatHost
}

// End reasons (Match.EndReason, GameOver.Reason).
const (
	ReasonTarget    = "target"    // a score goal was reached (classic target, zero-hour exact 0, last-line opponent at 0)
	ReasonScore     = "score"     // True Grit: both turns played, scores compared
	ReasonForfeit   = "forfeit"   // a player forfeited
	ReasonAbandoned = "abandoned" // a player's turn timed out AbandonAfter times in a row
	ReasonCancelled = "cancelled" // ended before an opponent joined: no result
)

// Player is one seated player.
type Player struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Score int    `json:"score"` // banked score
	// Timeouts counts this player's turns in a row that timed out with no
	// action of theirs; any roll, bank or call resets it.
	Timeouts int `json:"timeouts"`
	// Rematch is true once the player asked for a rematch (after the game).
	Rematch bool `json:"rematch"`
}

// Match is the whole public state of a DashDice match. It holds no secrets; it
// is stored as the game document's state and web clients read it directly.
type Match struct {
	ID        string    `json:"id"`
	Mode      Mode      `json:"mode"` // a copy of the mode the match was created with
	Phase     Phase     `json:"phase"`
	Private   bool      `json:"private"` // created for a friend (room code), not by quick match
	CreatedAt time.Time `json:"createdAt"`

	Host     Player  `json:"host"`
	Opponent *Player `json:"opponent"` // null until someone joins

	// Turn decider: the opponent's call, the die rolled for it, and who started.
	Call       string `json:"call,omitempty"`       // "odd" or "even"; empty when the call timed out
	DeciderDie int    `json:"deciderDie,omitempty"` // 1..6; 0 when not rolled
	FirstTurn  Seat   `json:"firstTurn,omitempty"`

	// CurrentTurn is the seat whose turn it is in gameplay, empty otherwise;
	// CurrentPlayerID is the id of the player in that seat.
	CurrentTurn     Seat   `json:"currentTurn,omitempty"`
	CurrentPlayerID string `json:"currentPlayerId,omitempty"`
	Turn            int    `json:"turn"`      // gameplay turn number: 1 for the first turn, 0 before
	TurnScore       int    `json:"turnScore"` // unbanked points this turn
	TurnRolls       int    `json:"turnRolls"` // rolls made this turn
	// Multiplier applies to normal rolls: 1 (none) or 2; in True Grit 1..7.
	Multiplier int    `json:"multiplier"`
	Dice       [2]int `json:"dice"`                // the last roll; [0,0] before any
	RollClass  string `json:"rollClass,omitempty"` // class of the last roll

	// TurnSeconds is the turn timer; 0 means the match has none.
	TurnSeconds int `json:"turnSeconds"`
	// TurnDeadline is when the current turn (or the opponent's odd/even call)
	// times out; absent when there is no timer or no turn.
	TurnDeadline time.Time `json:"turnDeadline,omitzero"`
	// JoinDeadline is when a waiting match is cancelled if nobody joined.
	JoinDeadline time.Time `json:"joinDeadline,omitzero"`

	// Result, set when Phase is gameOver.
	Winner    string    `json:"winner,omitempty"` // player id
	Loser     string    `json:"loser,omitempty"`  // player id
	Draw      bool      `json:"draw,omitempty"`
	EndReason string    `json:"endReason,omitempty"`
	EndedAt   time.Time `json:"endedAt,omitzero"`

	// Rematch: the id of the match both players agreed to play next, and the id
	// of the match this one is a rematch of.
	RematchID string `json:"rematchId,omitempty"`
	RematchOf string `json:"rematchOf,omitempty"`
}

// Options are a match's settings chosen at creation.
type Options struct {
	// TurnSeconds is the turn timer: 0 for the default (30 s), NoTimer (-1) for
	// none, otherwise 5 to 600.
	TurnSeconds int
	// Private marks a match made for a friend (by room code).
	Private bool
}

// turnSeconds resolves o.TurnSeconds to the stored value (0 = no timer).
func (o Options) turnSeconds() (int, error) {
	switch t := o.TurnSeconds; {
	case t == 0:
		return DefaultTurnSeconds, nil
	case t == NoTimer:
		return 0, nil
	case t < MinTurnSeconds || t > MaxTurnSeconds:
		return 0, domain.Errorf(domain.EINVALID, "turnSeconds must be between %d and %d (or %d for no timer), not %d",
			MinTurnSeconds, MaxTurnSeconds, NoTimer, t)
	default:
		return t, nil
	}
}

// NewMatch creates a match hosted by host, waiting for an opponent until
// now + JoinWindow.
//
// Errors: EINVALID (empty id or host id, invalid mode or options).
func NewMatch(id string, host domain.Actor, mode Mode, opts Options, now time.Time) (Match, error) {
	if id == "" {
		return Match{}, domain.Errorf(domain.EINVALID, "match id is required")
	}
	if host.ID == "" {
		return Match{}, domain.Errorf(domain.EINVALID, "host id is required")
	}
	if err := mode.Validate(); err != nil {
		return Match{}, err
	}
	secs, err := opts.turnSeconds()
	if err != nil {
		return Match{}, err
	}
	now = now.UTC()
	return Match{
		ID:           id,
		Mode:         mode,
		Phase:        PhaseWaiting,
		Private:      opts.Private,
		CreatedAt:    now,
		Host:         Player{ID: host.ID, Name: host.Name, Score: mode.StartingScore},
		Multiplier:   1,
		TurnSeconds:  secs,
		JoinDeadline: now.Add(JoinWindow),
	}, nil
}

// clone returns a copy of m that shares nothing mutable with it.
func (m Match) clone() Match {
	if m.Opponent != nil {
		o := *m.Opponent
		m.Opponent = &o
	}
	return m
}

// player returns the player in seat s, nil when the seat is empty.
func (m *Match) player(s Seat) *Player {
	switch s {
	case SeatHost:
		return &m.Host
	case SeatOpponent:
		return m.Opponent
	}
	return nil
}

// SeatOf returns the seat of player id, or "" when id is not seated.
func (m Match) SeatOf(id string) Seat {
	switch {
	case id == "":
		return ""
	case m.Host.ID == id:
		return SeatHost
	case m.Opponent != nil && m.Opponent.ID == id:
		return SeatOpponent
	}
	return ""
}

// Cancelled reports whether the match ended with no result.
func (m Match) Cancelled() bool { return m.Phase == PhaseGameOver && m.EndReason == ReasonCancelled }
