// Package codebowl is the rule set of CodeBowl, a 1v1 turn-based tile game
// loosely after Blood Bowl: two coaches field teams of seven players on a
// 20×11 pitch, run the ball into the far column and knock each other's
// players out of the game — permanently.
//
// It is pure: time and dice come in through domain.Env, and nothing here
// changes a value it is given. Teams (team.go) live outside a match, one
// document per coach's team; a Match (match.go) holds copies of both teams'
// players as they entered it. docs/codebowl.md describes every rule as
// implemented here.
package codebowl

import (
	"time"

	"github.com/meeple-games/meeple/domain"
)

// Kind is the game kind, as Rules.Kind reports it.
const Kind = "codebowl"

// Pitch size (ruling 1): columns x = 0…Width-1, rows y = 0…Height-1. The home
// half is columns 0…HalfWidth-1, the away half HalfWidth…Width-1.
const (
	Width     = 20
	Height    = 11
	HalfWidth = Width / 2
)

// Team shape (ruling 11).
const (
	TeamSize    = 7  // players per team
	StatBudget  = 12 // ST + AG + MV of every player
	MinStat     = 1  // each of ST, AG, MV
	ArmorBudget = 21 // the sum of AR over a team's seven players
	MinArmor    = 1
	MaxArmor    = 6
	// DefaultArmor is every player's AR when a team is created without armor.
	DefaultArmor = ArmorBudget / TeamSize
)

// Timer and turn settings.
const (
	DefaultTurnSeconds  = 120 // Options.TurnSeconds == 0
	MinTurnSeconds      = 10
	MaxTurnSeconds      = 600
	NoTimer             = -1 // Options.TurnSeconds == NoTimer turns the timer off
	DefaultTurnsPerHalf = 8  // ruling 2; the seed's 6 is a variant
	MaxTurnsPerHalf     = 16

	// JoinWindow is how long a match waits for an opponent before it is
	// cancelled with no result.
	JoinWindow = 30 * time.Minute

	// AbandonAfter is how many of a coach's turns (or placements) in a row may
	// time out with no action of theirs before they forfeit ("abandoned").
	AbandonAfter = 3

	// StandUpCost is the MV a knocked-down player spends standing up (ruling 4).
	StandUpCost = 3

	// LogSize is how many lines Match.Log keeps (the newest).
	LogSize = 20

	// maxBounces bounds one chain of ball bounces (see ball.go).
	maxBounces = 100
	// maxPath bounds a path in a payload before it is looked at.
	maxPath = 32
)

// End reasons (Match.EndReason, GameOver.Reason).
const (
	ReasonElimination = "elimination" // every opposing player is dead
	ReasonPoints      = "points"      // both halves played; the score decides (or draws)
	ReasonForfeit     = "forfeit"     // a coach forfeited (left)
	ReasonAbandoned   = "abandoned"   // a coach timed out AbandonAfter times in a row
	ReasonCancelled   = "cancelled"   // nobody joined: no result, no gameOver event
)

// Options are a match's settings chosen at creation. The match stores them
// resolved: TurnSeconds 0 there means no timer.
type Options struct {
	// TurnSeconds is the turn (and placement) timer: 0 for the default (120 s),
	// NoTimer (-1) for none, otherwise MinTurnSeconds…MaxTurnSeconds.
	TurnSeconds int `json:"turnSeconds"`
	// TurnsPerHalf is each coach's turns per half: 0 for the default (8), or
	// 1…16 (the seed's variant is 6).
	TurnsPerHalf int `json:"turnsPerHalf"`
	// Armor switches on the advanced injury rule (ruling 7): the chance
	// depends on the attacker's ST against the victim's AR.
	Armor bool `json:"armor"`
	// Private marks a match made for a friend (by room code).
	Private bool `json:"private"`
}

// resolve returns o as the match stores it.
//
// Errors: EINVALID naming the option out of range.
func (o Options) resolve() (Options, error) {
	switch t := o.TurnSeconds; {
	case t == 0:
		o.TurnSeconds = DefaultTurnSeconds
	case t == NoTimer:
		o.TurnSeconds = 0
	case t < MinTurnSeconds || t > MaxTurnSeconds:
		return o, domain.Errorf(domain.EINVALID, "turnSeconds must be between %d and %d (or %d for no timer), not %d",
			MinTurnSeconds, MaxTurnSeconds, NoTimer, t)
	}
	switch n := o.TurnsPerHalf; {
	case n == 0:
		o.TurnsPerHalf = DefaultTurnsPerHalf
	case n < 1 || n > MaxTurnsPerHalf:
		return o, domain.Errorf(domain.EINVALID, "turnsPerHalf must be between 1 and %d, not %d", MaxTurnsPerHalf, n)
	}
	return o, nil
}
