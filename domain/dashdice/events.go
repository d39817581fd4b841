package dashdice

import "time"

// Roll classes (Match.RollClass, RolledData.Class). The class names the dice,
// whatever the rule set then makes of them: in Zero Hour, Last Line and True
// Grit a double six scores like any other double.
const (
	ClassSingleOne = "singleOne" // exactly one die shows 1
	ClassSnakeEyes = "snakeEyes" // double 1
	ClassDoubleSix = "doubleSix" // double 6
	ClassDouble    = "double"    // any other double
	ClassNormal    = "normal"    // no 1, not a double
)

// Classify returns the class of a roll of two dice.
func Classify(a, b int) string {
	switch {
	case a == 1 && b == 1:
		return ClassSnakeEyes
	case a == 1 || b == 1:
		return ClassSingleOne
	case a == 6 && b == 6:
		return ClassDoubleSix
	case a == b:
		return ClassDouble
	}
	return ClassNormal
}

// Event types. Event.Player is the acting player (for a timeout, the player
// whose time ran out).
const (
	EventJoined           = "joined"           // JoinedData
	EventCalled           = "called"           // CalledData
	EventTurnStarted      = "turnStarted"      // TurnStartedData
	EventRolled           = "rolled"           // RolledData
	EventBanked           = "banked"           // BankedData
	EventBust             = "bust"             // BustData
	EventTurnEnded        = "turnEnded"        // TurnEndedData
	EventTimedOut         = "timedOut"         // TimedOutData
	EventForfeited        = "forfeited"        // ForfeitedData
	EventCancelled        = "cancelled"        // CancelledData
	EventRematchRequested = "rematchRequested" // RematchRequestedData
	EventRematchCreated   = "rematchCreated"   // RematchCreatedData
	// and domain.EventGameOver with a domain.GameOver, once, when a match ends
	// with a result.
)

// Why a turn ended (TurnEndedData.Reason).
const (
	EndBank      = "bank"      // the player banked
	EndBust      = "bust"      // Zero Hour: banking would have gone below 0
	EndSingleOne = "singleOne" // a single 1 was rolled
	EndDoubleSix = "doubleSix" // Classic: double 6 reset the banked score
	EndTimeout   = "timeout"   // the turn timer ran out
)

// JoinedData is the data of EventJoined.
type JoinedData struct {
	Seat Seat   `json:"seat"`
	Name string `json:"name"`
}

// CalledData is the data of EventCalled: the turn decider's outcome. Call is
// empty when the opponent did not call in time and the host starts.
type CalledData struct {
	Call      string `json:"call,omitempty"`
	Die       int    `json:"die,omitempty"`
	Correct   bool   `json:"correct"`
	FirstTurn Seat   `json:"firstTurn"`
}

// TurnStartedData is the data of EventTurnStarted.
type TurnStartedData struct {
	Turn     int       `json:"turn"`
	Seat     Seat      `json:"seat"`
	Deadline time.Time `json:"deadline,omitzero"`
}

// RolledData is the data of EventRolled.
type RolledData struct {
	Dice  [2]int `json:"dice"`
	Class string `json:"class"`
	// Points is what the roll added to the turn score.
	Points int `json:"points"`
	// TurnScore is the turn score after the roll (0 when the roll lost it; the
	// amount about to be banked when a single 1 banks it).
	TurnScore  int `json:"turnScore"`
	Multiplier int `json:"multiplier"` // after the roll
	// OpponentPoints is what the roll added to the opponent's banked score
	// (Zero Hour doubles).
	OpponentPoints int  `json:"opponentPoints,omitempty"`
	ScoreReset     bool `json:"scoreReset,omitempty"` // Classic double six: banked score back to 0
	TurnOver       bool `json:"turnOver"`
}

// BankedData is the data of EventBanked. Amount is the turn score banked;
// in Last Line, Taken is what actually moved from the opponent (at most their
// score).
type BankedData struct {
	Amount        int    `json:"amount"`
	Taken         int    `json:"taken,omitempty"`
	Score         int    `json:"score"`
	OpponentScore int    `json:"opponentScore"`
	Cause         string `json:"cause"` // "bank", "singleOne" or "timeout"
}

// BustData is the data of EventBust (Zero Hour).
type BustData struct {
	Amount int `json:"amount"` // the turn score that would have gone below 0
	Score  int `json:"score"`  // unchanged
}

// TurnEndedData is the data of EventTurnEnded.
type TurnEndedData struct {
	Turn   int    `json:"turn"`
	Seat   Seat   `json:"seat"`
	Reason string `json:"reason"` // EndBank, EndBust, EndSingleOne, EndDoubleSix, EndTimeout
}

// TimedOutData is the data of EventTimedOut.
type TimedOutData struct {
	Phase    Phase `json:"phase"`
	Seat     Seat  `json:"seat"`
	Timeouts int   `json:"timeouts"` // the player's timeouts in a row, this one included
}

// ForfeitedData is the data of EventForfeited.
type ForfeitedData struct {
	Seat   Seat   `json:"seat"`
	Reason string `json:"reason"` // ReasonForfeit or ReasonAbandoned
}

// CancelledData is the data of EventCancelled.
type CancelledData struct {
	Reason string `json:"reason"` // "hostLeft" or "noOpponent"
}

// RematchRequestedData is the data of EventRematchRequested.
type RematchRequestedData struct {
	Seat Seat `json:"seat"`
}

// RematchCreatedData is the data of EventRematchCreated.
type RematchCreatedData struct {
	RematchID string `json:"rematchId"`
}

// Results: Outcome.Result of each action type.

// JoinResult is the result of "join".
type JoinResult struct {
	Seat  Seat  `json:"seat"`
	Phase Phase `json:"phase"`
}

// CallResult is the result of "call".
type CallResult struct {
	Die       int  `json:"die"`
	Correct   bool `json:"correct"`
	FirstTurn Seat `json:"firstTurn"`
}

// RollResult is the result of "roll".
type RollResult struct {
	Dice       [2]int `json:"dice"`
	Class      string `json:"class"`
	Points     int    `json:"points"`
	TurnScore  int    `json:"turnScore"`
	Multiplier int    `json:"multiplier"`
	TurnOver   bool   `json:"turnOver"`
	Score      int    `json:"score"` // the roller's banked score afterwards
	GameOver   bool   `json:"gameOver"`
}

// BankResult is the result of "bank".
type BankResult struct {
	Banked        int  `json:"banked"` // the turn score banked (0 on a bust)
	Bust          bool `json:"bust"`
	Score         int  `json:"score"`
	OpponentScore int  `json:"opponentScore"`
	GameOver      bool `json:"gameOver"`
}

// ForfeitResult is the result of "forfeit".
type ForfeitResult struct {
	Winner    string `json:"winner,omitempty"`
	Cancelled bool   `json:"cancelled,omitempty"`
}

// RematchResult is the result of "rematch": RematchID is set once both
// players asked.
type RematchResult struct {
	RematchID string `json:"rematchId,omitempty"`
	Waiting   bool   `json:"waiting"` // still waiting for the other player
}
