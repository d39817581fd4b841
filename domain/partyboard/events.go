package partyboard

// Event types. Event.Player is the player it happened to: the joiner, the
// player whose turn it is, or the player who answered a group input.
const (
	EventJoined        = "joined"        // JoinedData
	EventStarted       = "started"       // StartedData
	EventTurnStarted   = "turnStarted"   // TurnStartedData
	EventTurnLost      = "turnLost"      // TurnLostData: the turn is skipped
	EventExtraTurn     = "extraTurn"     // ExtraTurnData: the same player goes again
	EventRolled        = "rolled"        // RolledData
	EventMoved         = "moved"         // MovedData
	EventRule          = "rule"          // RuleData: a rule happened to the player
	EventEffect        = "effect"        // EffectData: a rule changed a player or the game
	EventCondition     = "condition"     // ConditionData: a move condition was rolled for
	EventChose         = "chose"         // ChoseData
	EventTargeted      = "targeted"      // TargetedData
	EventStarterChosen = "starterChosen" // StarterChosenData
	EventGroupRolled   = "groupRolled"   // GroupRolledData
	EventChallenged    = "challenged"    // ChallengedData
	EventRolledUntil   = "rolledUntil"   // RolledUntilData: a RollUntilRule is done
	EventItemChecked   = "itemChecked"   // ItemCheckedData: an ItemRule looked at the player's items
	EventTimedOut      = "timedOut"      // TimedOutData: the timer answered for a player
	EventRemoved       = "removed"       // RemovedData: a player is out of the game
	// and domain.EventGameOver with a domain.GameOver, once, when a player
	// reaches the finish.
)

// JoinedData is the data of EventJoined.
type JoinedData struct {
	Name string `json:"name"`
	Seat int    `json:"seat"` // index in Game.Players
}

// StartedData is the data of EventStarted.
type StartedData struct {
	Board   string   `json:"board"`
	Players []string `json:"players"` // in turn order
}

// TurnStartedData is the data of EventTurnStarted.
type TurnStartedData struct {
	Turn   int  `json:"turn"`
	Tile   int  `json:"tile"`
	Zone   bool `json:"zone,omitempty"`   // the tile is in an active zone, whose rule runs first
	Leader bool `json:"leader,omitempty"` // the player leads and the board's leader zone's rule runs
}

// TurnLostData is the data of EventTurnLost.
type TurnLostData struct {
	Turn      int `json:"turn"`
	Remaining int `json:"remaining"`        // lost turns still to come
	Drinks    int `json:"drinks,omitempty"` // DrinkDuringLostTurnsRule: drinks this turn
}

// ExtraTurnData is the data of EventExtraTurn.
type ExtraTurnData struct {
	Remaining int `json:"remaining"` // extra turns still to come after this one
}

// RolledData is the data of EventRolled.
type RolledData struct {
	Purpose string `json:"purpose"`        // PurposeTurnRoll, PurposeCondition, PurposeRule
	Rule    string `json:"rule,omitempty"` // the rule rolled for
	Rolls   []int  `json:"rolls"`
	// Spaces is what a turn roll moves after speed modifiers and roll
	// augmentation (ruling 7); absent when a move condition stopped it.
	Spaces *int `json:"spaces,omitempty"`
}

// Why a player moved (MovedData.Cause).
const (
	CauseRoll    = "roll"    // a turn roll
	CauseRule    = "rule"    // a MoveRule (or a board extension)
	CauseSwap    = "swap"    // a SwapPlacesRule
	CauseRefight = "refight" // a RefightRule sent the player back to refight a tile
	CauseReturn  = "return"  // back from a refight
)

// Why a move stopped short of its roll (MovedData.Stop).
const (
	StopMandatory = "mandatory" // a mandatory tile (the board's or the player's)
	StopAnchor    = "anchor"    // a player with an anchor
	StopEnd       = "end"       // the last tile
)

// MovedData is the data of EventMoved.
type MovedData struct {
	From   int    `json:"from"`
	To     int    `json:"to"`
	Cause  string `json:"cause"`          // CauseRoll, CauseRule, CauseSwap, CauseRefight, CauseReturn
	Rule   string `json:"rule,omitempty"` // cause "rule": the MoveRule
	Spaces int    `json:"spaces,omitempty"`
	Stop   string `json:"stop,omitempty"`   // StopMandatory, StopAnchor, StopEnd
	Passed []int  `json:"passed,omitempty"` // mandatory tiles passed with SkipNextMandatory charges
}

// RuleData is the data of EventRule.
type RuleData struct {
	Rule string `json:"rule"` // its location, e.g. zones[1].rule
	Type string `json:"type"`
	Text string `json:"text"`
}

// Effects (EffectData.Effect).
const (
	EffectExtraTurns       = "extraTurns"
	EffectLostTurns        = "lostTurns"
	EffectMandatorySkips   = "mandatorySkips"
	EffectMandatoryTile    = "mandatoryTile"
	EffectAnchors          = "anchors"
	EffectTurnOrder        = "turnOrder"
	EffectSpeedModifier    = "speedModifier"
	EffectRollAugmentation = "rollAugmentation"
	EffectMoveCondition    = "moveCondition"
	EffectStarter          = "starter"
	EffectItemGained       = "itemGained"
	EffectItemLost         = "itemLost"
	EffectItemUsed         = "itemUsed"
)

// EffectData is the data of EventEffect: Target now has Value of Effect (the
// total after the change), or the modifier, tile or starter named.
type EffectData struct {
	Rule     string `json:"rule"`
	Target   string `json:"target,omitempty"` // the player changed; empty for the game (turn order)
	Effect   string `json:"effect"`
	Value    int    `json:"value,omitempty"`
	Modifier *Mod   `json:"modifier,omitempty"`
	Tile     *int   `json:"tile,omitempty"`
	Starter  string `json:"starter,omitempty"`
	Reversed *bool  `json:"reversed,omitempty"`
	Item     string `json:"item,omitempty"`
}

// ConditionData is the data of EventCondition.
type ConditionData struct {
	Rule      string `json:"rule"`
	Rolls     []int  `json:"rolls"`
	Met       bool   `json:"met"`
	Successes int    `json:"successes"`
	Required  int    `json:"required,omitempty"`
	CanMove   bool   `json:"canMove"` // the condition is over and the roll moves
	Cleared   bool   `json:"cleared"` // the condition is off the player
}

// ChoseData is the data of EventChose.
type ChoseData struct {
	Rule   string `json:"rule"`
	Choice int    `json:"choice"`
	Text   string `json:"text"`
	Tile   *int   `json:"tile,omitempty"` // a RefightRule's choice: the tile
}

// TargetedData is the data of EventTargeted.
type TargetedData struct {
	Rule   string `json:"rule"`
	Target string `json:"target"`
}

// StarterChosenData is the data of EventStarterChosen.
type StarterChosenData struct {
	Starter string `json:"starter"`
}

// GroupRolledData is the data of EventGroupRolled.
type GroupRolledData struct {
	Rule string `json:"rule"`
	Roll int    `json:"roll"`
}

// ChallengedData is the data of EventChallenged.
type ChallengedData struct {
	Rule   string `json:"rule"`
	Winner string `json:"winner"` // gains an extra turn
	Loser  string `json:"loser"`  // loses a turn
}

// RolledUntilData is the data of EventRolledUntil: every roll of the run,
// how many there were, and whether the last one met the rule (false: its
// maxRolls ran out).
type RolledUntilData struct {
	Rule  string `json:"rule"`
	Rolls []int  `json:"rolls"`
	Count int    `json:"count"`
	Met   bool   `json:"met"`
}

// ItemCheckedData is the data of EventItemChecked.
type ItemCheckedData struct {
	Rule string `json:"rule"`
	Item string `json:"item"`
	Has  bool   `json:"has"`
	Used bool   `json:"used,omitempty"` // the item was spent
}

// TimedOutData is the data of EventTimedOut: the player's awaited input was
// taken with its default (docs/partyboard.md) as of the deadline.
type TimedOutData struct {
	Action  string `json:"action"`
	Purpose string `json:"purpose"`
	Rule    string `json:"rule,omitempty"`
	Strikes int    `json:"strikes"` // timed-out inputs in a row; MaxStrikes removes the player
}

// Why a player was removed (RemovedData.By).
const (
	ByHost    = "host"    // the host removed them
	BySelf    = "self"    // they left
	ByTimeout = "timeout" // MaxStrikes timed-out inputs in a row
)

// RemovedData is the data of EventRemoved.
type RemovedData struct {
	By        string `json:"by"`
	Host      string `json:"host,omitempty"` // the new host, when the host was removed
	Remaining int    `json:"remaining"`      // players still in the game
}

// GameOver reasons of Party Board.
const (
	ReasonFinish     = "finish"     // a player reached the finish
	ReasonLastPlayer = "lastPlayer" // everyone else was removed
)

// Results: Outcome.Result of the actions that have one.

// JoinResult is the result of "join".
type JoinResult struct {
	Seat    int `json:"seat"`
	Players int `json:"players"`
}

// RollResult is the result of "roll" and "groupRoll".
type RollResult struct {
	Purpose string `json:"purpose"`
	Rolls   []int  `json:"rolls"`
	Tile    int    `json:"tile"` // the roller's tile afterwards
}
