package codebowl

import "time"

// Event types. Event.Player is the coach who acted (Apply), who joined
// (Join), or whose time ran out (Expire; the home coach for a cancelled
// wait); the gameOver event names the winner instead, and nobody on a draw.
// The data say which side and player each event is about. Every roll is
// reported with the chance it was made against, so a client can show
// "62 % → rolled 71: tripped".
const (
	EventJoined       = "joined"       // JoinedData
	EventCoinFlipped  = "coinFlipped"  // CoinFlippedData
	EventSetupStarted = "setupStarted" // SetupStartedData: a kick-off's placements begin
	EventPlaced       = "placed"       // PlacedData
	EventKickoff      = "kickoff"      // KickoffData: the ball lands on the offense half
	EventTurnStarted  = "turnStarted"  // TurnStartedData
	EventStoodUp      = "stoodUp"      // PlayerData
	EventMoved        = "moved"        // MovedData: one step
	EventDodged       = "dodged"       // DodgeData: left a tackle zone safely
	EventTripped      = "tripped"      // DodgeData: failed to (then knockedDown, turnover)
	EventPickedUp     = "pickedUp"     // BallRollData
	EventPickupFailed = "pickupFailed" // BallRollData (then scattered, turnover)
	EventCaught       = "caught"       // BallRollData: a bouncing ball caught
	EventCatchFailed  = "catchFailed"  // BallRollData (then scattered)
	EventScattered    = "scattered"    // BallMoveData: d8 to an adjacent square
	EventDropped      = "dropped"      // BallMoveData: d9 into the 3×3 around a fallen carrier
	EventBallOut      = "ballOut"      // BallMoveData: off the pitch, d220 to a random square
	EventBallRests    = "ballRests"    // BallMoveData: on an empty square
	EventPossession   = "possession"   // PossessionData: the offense changes hands
	EventAttacked     = "attacked"     // AttackedData
	EventKnockedDown  = "knockedDown"  // KnockedDownData
	EventPushed       = "pushed"       // PushedData
	EventPushedOff    = "pushedOff"    // PushedData (To absent): off the pitch, dead
	EventFollowedUp   = "followedUp"   // MovedData: the attacker into the target's square
	EventInjuryRoll   = "injuryRoll"   // InjuryRollData
	EventPlayerKilled = "playerKilled" // PlayerKilledData: remove him from his coach's team
	EventScored       = "scored"       // ScoredData
	EventTurnover     = "turnover"     // TurnoverData
	EventTurnEnded    = "turnEnded"    // TurnEndedData
	EventHalftime     = "halftime"     // HalftimeData
	EventTimedOut     = "timedOut"     // TimedOutData
	EventForfeited    = "forfeited"    // ForfeitedData
	EventCancelled    = "cancelled"    // CancelledData
	// and domain.EventGameOver with a domain.GameOver, once, when a match ends
	// with a result.
)

// Why a turn ended (TurnEndedData.Reason); the first four are turnovers
// (ruling 9).
const (
	EndTripped      = "tripped"
	EndPickupFailed = "pickupFailed"
	EndAttackerDown = "attackerDown"
	EndScore        = "score"
	EndEndTurn      = "endTurn"  // the coach ended it
	EndAllActed     = "allActed" // every player of the side acted
	EndTimeout      = "timeout"
)

// Why a player went down (KnockedDownData.Cause, PlayerKilledData.Cause).
const (
	CauseTripped      = "tripped"      // failed to leave a tackle zone
	CauseKnockedDown  = "knockedDown"  // the target of a successful attack
	CauseAttackFailed = "attackFailed" // the attacker, on an attackerDown
	CausePushedOff    = "pushedOff"    // pushed off the pitch: dead, no roll
)

// JoinedData is the data of EventJoined.
type JoinedData struct {
	Side      Side   `json:"side"`
	Coach     string `json:"coach"`
	CoachName string `json:"coachName"`
	TeamID    string `json:"teamId"`
	TeamName  string `json:"teamName"`
}

// CoinFlippedData is the data of EventCoinFlipped: d2, 1 home, 2 away.
type CoinFlippedData struct {
	Die     int  `json:"die"`
	Offense Side `json:"offense"`
}

// SetupStartedData is the data of EventSetupStarted.
type SetupStartedData struct {
	Half     int       `json:"half"`
	Drive    int       `json:"drive"`
	Offense  Side      `json:"offense"`
	Placing  Side      `json:"placing"` // the defense: it places first
	Deadline time.Time `json:"deadline,omitzero"`
}

// Placement is one player's square in a place action and its event.
type Placement struct {
	Player string `json:"player" field:"id"`
	X      int    `json:"x" field:"coord"`
	Y      int    `json:"y" field:"coord"`
}

// PlacedData is the data of EventPlaced.
type PlacedData struct {
	Side      Side        `json:"side"`
	Positions []Placement `json:"positions"`
	Auto      bool        `json:"auto,omitempty"` // the default formation, on a timeout
}

// KickoffData is the data of EventKickoff: a d110 over the offense's half.
type KickoffData struct {
	Offense Side   `json:"offense"`
	Die     int    `json:"die"`
	To      Square `json:"to"`
}

// TurnStartedData is the data of EventTurnStarted.
type TurnStartedData struct {
	Side      Side      `json:"side"`
	Half      int       `json:"half"`
	Turn      int       `json:"turn"`      // the side's turn number in the half
	HalfTurns int       `json:"halfTurns"` // turns started in the half, both sides
	Deadline  time.Time `json:"deadline,omitzero"`
}

// PlayerData names a player.
type PlayerData struct {
	Side   Side   `json:"side"`
	Player string `json:"player"`
	At     Square `json:"at"`
}

// MovedData is the data of EventMoved and EventFollowedUp.
type MovedData struct {
	Side   Side   `json:"side"`
	Player string `json:"player"`
	From   Square `json:"from"`
	To     Square `json:"to"`
}

// DodgeData is the data of EventDodged and EventTripped: the player leaves
// From for To; EnemyAG is the highest AG among the standing enemies adjacent
// to From (Tacklers).
type DodgeData struct {
	Side     Side     `json:"side"`
	Player   string   `json:"player"`
	From     Square   `json:"from"`
	To       Square   `json:"to"`
	AG       int      `json:"ag"`
	EnemyAG  int      `json:"enemyAg"`
	Tacklers []string `json:"tacklers"`
	Chance   int      `json:"chance"`
	Roll     int      `json:"roll"`
}

// BallRollData is the data of a pickup or catch attempt.
type BallRollData struct {
	Side          Side   `json:"side"`
	Player        string `json:"player"`
	At            Square `json:"at"`
	AG            int    `json:"ag"`
	EnemyAdjacent bool   `json:"enemyAdjacent"`
	Chance        int    `json:"chance"`
	Roll          int    `json:"roll"`
}

// BallMoveData is the data of the ball's moves. Die is the die that moved it
// (d8 scatter, d9 drop, d220 out), absent for ballRests.
type BallMoveData struct {
	From Square `json:"from"`
	To   Square `json:"to"`
	Die  int    `json:"die,omitempty"`
}

// PossessionData is the data of EventPossession.
type PossessionData struct {
	Offense Side   `json:"offense"`
	Player  string `json:"player"`
}

// Assist is one ally's help in an attack, in half points (2 = one point).
type Assist struct {
	Player string `json:"player"`
	ST     int    `json:"st"`
	Halves int    `json:"halves"`
}

// AttackedData is the data of EventAttacked.
type AttackedData struct {
	Side       Side       `json:"side"`
	Attacker   string     `json:"attacker"`
	Target     string     `json:"target"`
	From       Square     `json:"from"`
	At         Square     `json:"at"`
	AttackerST int        `json:"attackerSt"`
	TargetST   int        `json:"targetSt"`
	Assists    []Assist   `json:"assists,omitempty"`
	AssistPts  int        `json:"assistPoints"` // floor(sum of halves / 2)
	Odds       AttackOdds `json:"odds"`
	Roll       int        `json:"roll"`
	Result     string     `json:"result"` // knockdown, noEffect, attackerDown
}

// KnockedDownData is the data of EventKnockedDown. By is the player whose ST
// the injury roll uses.
type KnockedDownData struct {
	Side   Side   `json:"side"`
	Player string `json:"player"`
	At     Square `json:"at"`
	Cause  string `json:"cause"`
	By     string `json:"by"`
}

// PushedData is the data of EventPushed and EventPushedOff.
type PushedData struct {
	Side   Side    `json:"side"`
	Player string  `json:"player"`
	From   Square  `json:"from"`
	To     *Square `json:"to,omitempty"` // absent when pushed off the pitch
}

// InjuryRollData is the data of EventInjuryRoll. Armor is true under the
// armor option (Chance = ArmorInjuryChance(ByST, AR)), false for the basic
// rule (Chance = InjuryChance(ByST)).
type InjuryRollData struct {
	Side   Side   `json:"side"`
	Player string `json:"player"`
	By     string `json:"by"`
	ByST   int    `json:"bySt"`
	Armor  bool   `json:"armor,omitempty"`
	AR     int    `json:"ar,omitempty"`
	Chance int    `json:"chance"`
	Roll   int    `json:"roll"`
	Dead   bool   `json:"dead"`
}

// PlayerKilledData is the data of EventPlayerKilled: the player is dead and
// must be removed from his coach's team (RemoveDead(team TeamID, [Player])).
type PlayerKilledData struct {
	Side   Side   `json:"side"`
	Coach  string `json:"coach"`
	TeamID string `json:"teamId"`
	Player string `json:"player"`
	Name   string `json:"name"`
	Cause  string `json:"cause"`
	By     string `json:"by,omitempty"` // the player whose blow or tackle it was
}

// ScoredData is the data of EventScored.
type ScoredData struct {
	Side   Side   `json:"side"`
	Player string `json:"player"`
	At     Square `json:"at"`
	Home   int    `json:"home"` // the score afterwards
	Away   int    `json:"away"`
}

// TurnoverData is the data of EventTurnover.
type TurnoverData struct {
	Side   Side   `json:"side"`
	Reason string `json:"reason"` // tripped, pickupFailed, attackerDown, score
}

// TurnEndedData is the data of EventTurnEnded.
type TurnEndedData struct {
	Side   Side   `json:"side"`
	Half   int    `json:"half"`
	Turn   int    `json:"turn"`
	Reason string `json:"reason"`
}

// HalftimeData is the data of EventHalftime.
type HalftimeData struct {
	Home    int  `json:"home"`
	Away    int  `json:"away"`
	Offense Side `json:"offense"` // receives in the second half
}

// TimedOutData is the data of EventTimedOut.
type TimedOutData struct {
	Side     Side  `json:"side"`
	Phase    Phase `json:"phase"`
	Timeouts int   `json:"timeouts"` // in a row, this one included
}

// ForfeitedData is the data of EventForfeited.
type ForfeitedData struct {
	Side   Side   `json:"side"`
	Reason string `json:"reason"` // ReasonForfeit or ReasonAbandoned
}

// CancelledData is the data of EventCancelled.
type CancelledData struct {
	Reason string `json:"reason"` // "homeLeft" or "noOpponent"
}

// Results: Outcome.Result of each action.

// JoinResult is the result of Join.
type JoinResult struct {
	Side         Side `json:"side"`
	FirstOffense Side `json:"firstOffense"`
}

// PlaceResult is the result of "place".
type PlaceResult struct {
	Phase Phase `json:"phase"` // setup (the offense places next) or play
}

// MoveResult is the result of "move" and "standUp".
type MoveResult struct {
	Steps    int    `json:"steps"`            // steps actually made
	Attack   string `json:"attack,omitempty"` // the attack's result, if any
	Scored   bool   `json:"scored"`
	Turnover string `json:"turnover,omitempty"` // why the turn ended at once, if it did
	GameOver bool   `json:"gameOver"`
}

// EndTurnResult is the result of "endTurn".
type EndTurnResult struct {
	Phase Phase `json:"phase"`
}

// ForfeitResult is the result of "forfeit".
type ForfeitResult struct {
	Winner    string `json:"winner,omitempty"`
	Cancelled bool   `json:"cancelled,omitempty"`
}
