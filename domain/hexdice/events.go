package hexdice

import "time"

// Event types. Event.Player is the id of the player who acted, or whose
// troop, structure or clock it is; empty for what belongs to nobody (a round
// starting, a neutral structure firing, the storm).
const (
	EventJoined          = "joined"          // JoinedData
	EventGameStarted     = "gameStarted"     // GameStartedData
	EventRoundStarted    = "roundStarted"    // RoundStartedData
	EventZoneShrunk      = "zoneShrunk"      // ZoneShrunkData: sudden death
	EventHQRelocated     = "hqRelocated"     // HQRelocatedData
	EventStorm           = "stormDamage"     // StormData
	EventTurnStarted     = "turnStarted"     // TurnStartedData
	EventRepaired        = "repaired"        // RepairedData: a structure regenerated
	EventHealed          = "healed"          // HealedData
	EventBought          = "bought"          // BoughtData
	EventMoved           = "moved"           // MovedData
	EventAttacked        = "attacked"        // AttackData: every hit roll, with its dice
	EventAttackVoid      = "attackVoid"      // AttackVoidData: simultaneous, the target left
	EventTroopKilled     = "troopKilled"     // TroopKilledData
	EventCaptured        = "captured"        // CapturedData
	EventTurnEnded       = "turnEnded"       // TurnEndedData
	EventOrdersSubmitted = "ordersSubmitted" // OrdersSubmittedData: who, never what
	EventOrdersRevealed  = "ordersRevealed"  // OrdersRevealedData: at resolution
	EventMoveCancelled   = "moveCancelled"   // MoveCancelledData: simultaneous conflicts
	EventBuyCancelled    = "buyCancelled"    // BuyCancelledData
	EventSurrendered     = "surrendered"     // SeatData
	EventDisconnected    = "disconnected"    // ConnectionData
	EventReconnected     = "reconnected"     // ConnectionData
	EventForfeited       = "forfeited"       // ConnectionData
	EventEmote           = "emote"           // EmoteData
	EventCancelled       = "cancelled"       // CancelledData
	EventRematchAsked    = "rematchAsked"    // SeatData: a player asked for a rematch
	EventRematchCreated  = "rematchCreated"  // RematchCreatedData: both asked
	// and domain.EventGameOver with a domain.GameOver, exactly once, when a
	// game ends with a result (not when a room is cancelled).
)

// JoinedData is the data of EventJoined.
type JoinedData struct {
	Seat Seat   `json:"seat"`
	Name string `json:"name"`
}

// GameStartedData is the data of EventGameStarted. Die is the d2 that chose
// the first player in alternating mode (1: the host, 2: the opponent); 0 in
// simultaneous mode, where nobody goes first.
type GameStartedData struct {
	Mode  TurnMode `json:"mode"`
	First Seat     `json:"first"`
	Die   int      `json:"die,omitempty"`
}

// RoundStartedData is the data of EventRoundStarted.
type RoundStartedData struct {
	Round int `json:"round"`
}

// ZoneShrunkData is the data of EventZoneShrunk: sudden-death round K began,
// the safe zone is now SafeRadius, troops outside take Damage.
type ZoneShrunkData struct {
	K          int `json:"k"`
	SafeRadius int `json:"safeRadius"`
	Damage     int `json:"damage"`
}

// HQRelocatedData is the data of EventHQRelocated.
type HQRelocatedData struct {
	Structure string `json:"structure"`
	From      Hex    `json:"from"`
	To        Hex    `json:"to"`
}

// StormData is the data of EventStorm: one troop outside the safe zone.
type StormData struct {
	Troop  int `json:"troop"`
	Damage int `json:"damage"`
	HP     int `json:"hp"` // after; 0 or less: killed (a troopKilled follows)
}

// TurnStartedData is the data of EventTurnStarted. In simultaneous mode
// there is one per player per round, Deadline being the planning deadline.
type TurnStartedData struct {
	Seat     Seat      `json:"seat"`
	Round    int       `json:"round"`
	Turn     int       `json:"turn"`
	Deadline time.Time `json:"deadline,omitzero"`
	Income   int       `json:"income"`
	Coins    int       `json:"coins"` // after the income
	NoAttack bool      `json:"noAttack,omitempty"`
}

// RepairedData is the data of EventRepaired.
type RepairedData struct {
	Structure string `json:"structure"`
	Amount    int    `json:"amount"`
	HP        int    `json:"hp"`
}

// HealedData is the data of EventHealed.
type HealedData struct {
	Troop  int `json:"troop"`
	Amount int `json:"amount"`
	HP     int `json:"hp"`
}

// BoughtData is the data of EventBought.
type BoughtData struct {
	Troop int      `json:"troop"`
	Type  UnitType `json:"type"`
	Hex   Hex      `json:"hex"`
	Cost  int      `json:"cost"`
	Coins int      `json:"coins"` // after
}

// MovedData is the data of EventMoved. Path runs from the hex after From to
// To (the hexes entered, in order).
type MovedData struct {
	Troop int   `json:"troop"`
	From  Hex   `json:"from"`
	To    Hex   `json:"to"`
	Cost  int   `json:"cost"`
	Path  []Hex `json:"path"`
	// Ambush (fog): the hex of the hidden enemy troop the move ran into; the
	// troop stopped at To, short of where it was sent.
	Ambush *Hex `json:"ambush,omitempty"`
}

// Attack kinds (AttackData.Kind).
const (
	AttackTroop     = "attack"    // a troop's attack
	AttackCounter   = "counter"   // a troop's counterattack
	AttackStructure = "structure" // a structure firing
)

// Unit names one side of an attack: a troop (Troop > 0) or a structure.
type Unit struct {
	Troop     int    `json:"troop,omitempty"`
	Structure string `json:"structure,omitempty"`
	Owner     Seat   `json:"owner"`
	Hex       Hex    `json:"hex"`
}

// AttackData is the data of EventAttacked: one hit roll and its damage
// dice, so a client can animate them. Natural is the d20; the attack hits
// when Natural is 20, or it is not 1 and Natural+Modifier ≥ Defense.
type AttackData struct {
	Kind     string `json:"kind"`
	Attacker Unit   `json:"attacker"`
	Target   Unit   `json:"target"`
	Natural  int    `json:"natural"`
	Modifier int    `json:"modifier"` // ATK + terrain ATK - penalty
	Penalty  int    `json:"penalty,omitempty"`
	Total    int    `json:"total"`
	Defense  int    `json:"defense"` // DEF + terrain DEF
	Hit      bool   `json:"hit"`
	Critical bool   `json:"critical,omitempty"` // natural 20: damage dice doubled
	Fumble   bool   `json:"fumble,omitempty"`   // natural 1
	// Dice is the damage roll made on a hit (e.g. "2D3+1"), Rolls its dice.
	Dice       string `json:"dice,omitempty"`
	Rolls      []int  `json:"rolls,omitempty"`
	Multiplier int    `json:"multiplier,omitempty"` // ×2: a mech against a structure
	Damage     int    `json:"damage"`
	HP         int    `json:"hp"` // the target's HP after (simultaneous: after every hit so far this round)
	Captured   bool   `json:"captured,omitempty"`
}

// AttackVoidData is the data of EventAttackVoid: a simultaneous-mode attack
// whose target moved away (Reason "targetMoved") or out of the attacker's
// reach (Reason "outOfRange"). No dice are rolled.
type AttackVoidData struct {
	Troop  int    `json:"troop"`
	Aim    Hex    `json:"aim"`
	Reason string `json:"reason"`
}

// Kill causes (TroopKilledData.Cause).
const (
	CauseAttack    = "attack"
	CauseCounter   = "counter"
	CauseStructure = "structure"
	CauseStorm     = "storm"
)

// TroopKilledData is the data of EventTroopKilled.
type TroopKilledData struct {
	Troop int      `json:"troop"`
	Owner Seat     `json:"owner"`
	Type  UnitType `json:"type"`
	Hex   Hex      `json:"hex"`
	Cause string   `json:"cause"`
	By    Seat     `json:"by"` // the killer's seat; Neutral for neutral fire and the storm
}

// CapturedData is the data of EventCaptured.
type CapturedData struct {
	Structure string        `json:"structure"`
	Kind      StructureKind `json:"kind"`
	From      Seat          `json:"from"`
	To        Seat          `json:"to"`
	HP        int           `json:"hp"`
}

// TurnEndedData is the data of EventTurnEnded. Held is the structures the
// player holds at the end of the turn, Dominance the count towards ruling 10.
type TurnEndedData struct {
	Seat      Seat   `json:"seat"`
	Round     int    `json:"round"`
	Reason    string `json:"reason"` // "endTurn", "timeout" or "resolved"
	Held      int    `json:"held"`
	Dominance int    `json:"dominance"`
}

// OrdersSubmittedData is the data of EventOrdersSubmitted. Auto: the timer
// submitted the player's saved orders (or none).
type OrdersSubmittedData struct {
	Seat Seat `json:"seat"`
	Auto bool `json:"auto,omitempty"`
}

// OrdersRevealedData is the data of EventOrdersRevealed: at resolution both
// players' orders become history.
type OrdersRevealedData struct {
	Seat   Seat   `json:"seat"`
	Orders Orders `json:"orders"`
}

// Move cancellation reasons (MoveCancelledData.Reason); see docs/hexdice.md.
const (
	CancelSlower  = "slower"  // a faster troop claimed the same hex
	CancelTie     = "tie"     // troops of equal mobility claimed the same hex
	CancelBlocked = "blocked" // the hex is held by a troop that does not leave
)

// MoveCancelledData is the data of EventMoveCancelled.
type MoveCancelledData struct {
	Troop  int    `json:"troop"`
	From   Hex    `json:"from"`
	To     Hex    `json:"to"`
	Reason string `json:"reason"`
}

// BuyCancelledData is the data of EventBuyCancelled (simultaneous mode).
// Reason: "contested" (both players bought on the hex), "occupied", "spawnLost"
// (the structure next to it changed hands), "coins".
type BuyCancelledData struct {
	Type   UnitType `json:"type"`
	Hex    Hex      `json:"hex"`
	Reason string   `json:"reason"`
}

// SeatData is the data of EventSurrendered.
type SeatData struct {
	Seat Seat `json:"seat"`
}

// ConnectionData is the data of EventDisconnected, EventReconnected and
// EventForfeited.
type ConnectionData struct {
	Seat Seat      `json:"seat"`
	At   time.Time `json:"at"`
}

// EmoteData is the data of EventEmote.
type EmoteData struct {
	Seat  Seat   `json:"seat"`
	Emote string `json:"emote"`
	Text  string `json:"text"`
}

// CancelledData is the data of EventCancelled.
type CancelledData struct {
	Reason string `json:"reason"` // "noOpponent" or "hostLeft"
}

// Results: Outcome.Result of each action type.

// JoinResult is the result of "join".
type JoinResult struct {
	Seat  Seat `json:"seat"`
	First Seat `json:"first"`
}

// AttackResult is the result of "attack".
type AttackResult struct {
	Hit     bool `json:"hit"`
	Damage  int  `json:"damage"`
	Killed  bool `json:"killed"`
	Counter bool `json:"counter"`
	Over    bool `json:"gameOver"`
}
