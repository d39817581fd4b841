// Package partyboard is the Party Board rule engine: a board game whose board,
// tiles and rules are a JSON file (seed 001, rulings/partyboard.md). This file
// holds the board schema; loading validates a whole file and reports every
// problem with its location.
package partyboard

import (
	"crypto/sha256"
	"encoding/hex"
)

// Board is a loaded, validated board file (the v2 schema).
type Board struct {
	ID    string `json:"id"`
	Name  string `json:"name,omitempty"`
	Tiles []Tile `json:"tiles"`
	Zones []Zone `json:"zones"`
}

// Tile is one space of the board.
type Tile struct {
	Rule      Rule    `json:"rule"`
	Position  []Point `json:"position"`            // corners on the board image; clients draw with them
	Mandatory bool    `json:"mandatory,omitempty"` // every player must stop here
	Zone      string  `json:"zone,omitempty"`      // the zone this tile belongs to
}

// Point is a corner of a tile on the board image.
type Point struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
}

// Zone is a named group of tiles with a rule: an active zone's rule runs at the
// start of each turn of a player inside it; a passive zone's rule is shown.
type Zone struct {
	Name string `json:"name"`
	Type string `json:"type"` // "active" or "passive"
	Rule Rule   `json:"rule"`
}

// Rule types (ruling 2 accepts a few other spellings; see ruleAliases).
const (
	DisplayRule              = "DisplayRule"
	ExtraTurnRule            = "ExtraTurnRule"
	MoveRule                 = "MoveRule"
	RollUntilRule            = "RollUntilRule"
	AddMandatoryRule         = "AddMandatoryRule"
	DiceRollRule             = "DiceRollRule"
	GameOverRule             = "GameOverRule"
	DrinkDuringLostTurnsRule = "DrinkDuringLostTurnsRule"
	ProxyRule                = "ProxyRule"
	ApplyMoveConditionRule   = "ApplyMoveConditionRule"
	ChoiceRule               = "ChoiceRule"
	ReverseTurnOrderRule     = "ReverseTurnOrderRule"
	ChallengeRule            = "ChallengeRule"
	SkipTurnRule             = "SkipTurnRule"
	SpeedModifierRule        = "SpeedModifierRule"
	SkipNextMandatoryRule    = "SkipNextMandatoryRule"
	RollAugmentationRule     = "RollAugmentationRule"
	StarterSelectionRule     = "StarterSelectionRule"
	UpdateStarterRule        = "UpdateStarterRule"
	AnchorRule               = "AnchorRule"
	GroupRollRule            = "GroupRollRule"
)

// ruleAliases maps the other spellings ruling 2 accepts to the rule type.
var ruleAliases = map[string]string{
	"RollAugmentRule":   RollAugmentationRule,
	"DrinkDuringLostTu": DrinkDuringLostTurnsRule,
	"ApplyMoveConditio": ApplyMoveConditionRule,
}

// Player targets.
const (
	TargetSelf      = "self"
	TargetCustom    = "custom"
	TargetAllOthers = "allOthers"
)

// Dice roll types of a DiceRolls.
const (
	RollsDefault    = "default"    // each roll is checked on its own
	RollsCumulative = "cumulative" // the sum of the rolls is checked
	RollsAllMatch   = "allMatch"   // an outcome applies when every roll meets it
)

// Rule is what happens on a tile, in a zone, or as an outcome or choice of
// another rule. Which fields matter depends on Type.
type Rule struct {
	Type        string `json:"type"`
	DisplayText string `json:"displayText"`

	PlayerTarget string     `json:"playerTarget,omitempty"` // MoveRule, SpeedModifierRule, UpdateStarterRule, ApplyMoveConditionRule
	TileIndex    *int       `json:"tileIndex,omitempty"`    // MoveRule (teleport), AddMandatoryRule
	Direction    string     `json:"direction,omitempty"`    // MoveRule: "forward" or "back"
	NumSpaces    int        `json:"numSpaces,omitempty"`    // MoveRule, SkipNextMandatoryRule
	DiceRolls    *DiceRolls `json:"diceRolls,omitempty"`    // DiceRollRule, MoveRule, DrinkDuringLostTurnsRule, ChoiceRule
	Criteria     []int      `json:"criteria,omitempty"`     // RollUntilRule
	NumTurns     int        `json:"numTurns,omitempty"`     // SkipTurnRule, SpeedModifierRule, AnchorRule, ExtraTurnRule, RollAugmentationRule
	Modifier     *Modifier  `json:"modifier,omitempty"`     // SpeedModifierRule, RollAugmentationRule
	Starters     []string   `json:"starters,omitempty"`     // StarterSelectionRule, UpdateStarterRule
	Choices      []Choice   `json:"choices,omitempty"`      // ChoiceRule
	ProxyRuleID  string     `json:"proxyRuleId,omitempty"`  // ProxyRule
	Condition    *Condition `json:"condition,omitempty"`    // ApplyMoveConditionRule
}

// DiceRolls asks for dice and says what the results do.
type DiceRolls struct {
	NumRequired int       `json:"numRequired"`
	Type        string    `json:"type,omitempty"` // RollsDefault when empty
	Outcomes    []Outcome `json:"outcomes,omitempty"`
}

// Outcome is a rule that runs when the rolls meet its criteria.
type Outcome struct {
	Rule     Rule  `json:"rule"`
	Criteria []int `json:"criteria"`
	IsAny    bool  `json:"isAny,omitempty"` // runs if any one roll meets the criteria
}

// Choice is one option of a ChoiceRule.
type Choice struct {
	Rule Rule `json:"rule"`
}

// Modifier changes a roll: Op is "*", "+", "-" or "=" (ruling 7); Value may
// be a fraction (gen1 halves rolls with ["*", 0.5]). In the file it is the
// array [op, value].
type Modifier struct {
	Op    string
	Value float64
}

// Condition is an ApplyMoveConditionRule's condition (ruling 6): the target
// must roll one of Criteria before moving; Consequence runs on a failed roll.
type Condition struct {
	Criteria             []int      `json:"criteria"`
	Consequence          *Rule      `json:"consequence,omitempty"`
	Description          string     `json:"description,omitempty"`
	NumSuccessesRequired int        `json:"numSuccessesRequired,omitempty"`
	Immediate            bool       `json:"immediate,omitempty"`
	DiceRolls            *DiceRolls `json:"diceRolls,omitempty"`
}

// BoardID is the id of an uploaded board: a hash of the file, so the same file
// is the same board and a stored board never changes.
func BoardID(file []byte) string {
	sum := sha256.Sum256(file)
	return "b-" + hex.EncodeToString(sum[:8])
}
