// Package partyboard is the Party Board rule engine: a board game whose board,
// tiles and rules are a JSON file (seed 001, rulings/partyboard.md). The board
// schema and its loader live in board.go and load.go, the game state in
// game.go, the rule set for the shared pipeline in rules.go, the turn flow in
// turn.go and the rule types in run.go. docs/partyboard.md describes the
// behaviour as implemented.
package partyboard

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Board is a loaded, validated board file (the v2 schema). A Board never
// changes once loaded: games name it by ID and many games share it.
type Board struct {
	ID    string `json:"id"`
	Name  string `json:"name,omitempty"`
	Tiles []Tile `json:"tiles"`
	Zones []Zone `json:"zones"`
	// Items the board's rules hand out, by id (optional: without it any item
	// id goes; with it, every item a rule names must be declared).
	Items map[string]Item `json:"items,omitempty"`
}

// Tile is one space of the board.
type Tile struct {
	Rule     Rule    `json:"rule"`
	Position []Point `json:"position"` // corners on the board image; clients draw with them
	// Mandatory: every player must stop here, every time.
	Mandatory bool `json:"mandatory,omitempty"`
	// MandatoryType MandatoryOnce: a player must stop here until they have
	// stopped here once (a boss is fought once); later passes go by.
	MandatoryType string `json:"mandatoryType,omitempty"`
	Zone          string `json:"zone,omitempty"` // the zone this tile belongs to
	// Kind tags the tile ("boss") for rules that look tiles up by kind
	// (RefightRule).
	Kind string `json:"kind,omitempty"`
}

// Mandatory types of a tile (Tile.MandatoryType). "always" is read as
// Mandatory: true.
const (
	MandatoryAlways = "always"
	MandatoryOnce   = "once"
)

// Item is an item a board declares.
type Item struct {
	Name        string `json:"name,omitempty"`
	Description string `json:"description,omitempty"`
}

// Point is a corner of a tile on the board image.
type Point struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
}

// Zone types.
const (
	ZoneActive  = "active"  // the zone's rule runs at the start of each turn of a player inside it
	ZonePassive = "passive" // the zone's rule is only shown
	// ZoneLeader: the zone's rule runs at the start of each turn of the
	// player in the lead (strictly furthest along); no tile belongs to it.
	ZoneLeader = "leader"
)

// Zone is a named group of tiles with a rule.
type Zone struct {
	Name string `json:"name"`
	Type string `json:"type"` // ZoneActive or ZonePassive
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
	// Beyond the seed (ruling 10, the Zelda board).
	TodoRule       = "TodoRule"       // an unfinished tile: shown like a DisplayRule (a load warning)
	SwapPlacesRule = "SwapPlacesRule" // swap places with a chosen player
	RefightRule    = "RefightRule"    // go back to an earlier tile, play its rule, come back
	ItemRule       = "ItemRule"       // branch on (and maybe use) an item the player holds
)

// RuleTypes lists every rule type the engine runs.
var RuleTypes = []string{
	DisplayRule, ExtraTurnRule, MoveRule, RollUntilRule, AddMandatoryRule, DiceRollRule, GameOverRule,
	DrinkDuringLostTurnsRule, ProxyRule, ApplyMoveConditionRule, ChoiceRule, ReverseTurnOrderRule,
	ChallengeRule, SkipTurnRule, SpeedModifierRule, SkipNextMandatoryRule, RollAugmentationRule,
	StarterSelectionRule, UpdateStarterRule, AnchorRule, GroupRollRule,
	TodoRule, SwapPlacesRule, RefightRule, ItemRule,
}

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

// Directions of a MoveRule.
const (
	Forward = "forward"
	Back    = "back"
)

// Dice roll types of a DiceRolls.
const (
	RollsDefault    = "default"    // every die must meet an outcome's criteria (isAny: one die)
	RollsCumulative = "cumulative" // the sum of the dice must
	RollsAllMatch   = "allMatch"   // every die must
)

// Which outcomes of a DiceRollRule run (DiceRolls.Apply).
const (
	ApplyAll   = "all"   // every outcome the dice meet, in file order (the default)
	ApplyFirst = "first" // one: an isAny outcome met, else the first met in file order
)

// What a RollUntilRule rolls until (Rule.Until).
const (
	UntilCriteria = "criteria" // a die shows a number in criteria (the default)
	UntilRepeat   = "repeat"   // a die shows the same number as the roll before it
	UntilMatch    = "match"    // a die shows a number rolled before in this run
)

// How a RefightRule picks its tile (Rule.Pick).
const (
	PickChoose  = "choose"  // the player chooses among the earlier tiles of the kind (the default)
	PickNearest = "nearest" // the nearest earlier tile of the kind
)

// AllItems as a rule's loseItem: every item the player holds.
const AllItems = "*"

// Rule is what happens on a tile, in a zone, or as an outcome, choice or
// consequence of another rule. Which fields matter depends on Type.
type Rule struct {
	Type        string `json:"type"`
	DisplayText string `json:"displayText"`

	PlayerTarget string     `json:"playerTarget,omitempty"` // MoveRule, SpeedModifierRule, RollAugmentationRule, UpdateStarterRule, ApplyMoveConditionRule
	TileIndex    *int       `json:"tileIndex,omitempty"`    // MoveRule (straight there), AddMandatoryRule
	Direction    string     `json:"direction,omitempty"`    // MoveRule: Forward or Back
	NumSpaces    int        `json:"numSpaces,omitempty"`    // MoveRule, SkipNextMandatoryRule
	DiceRolls    *DiceRolls `json:"diceRolls,omitempty"`    // DiceRollRule, MoveRule, DrinkDuringLostTurnsRule, ChoiceRule
	Criteria     []int      `json:"criteria,omitempty"`     // RollUntilRule
	NumTurns     int        `json:"numTurns,omitempty"`     // SkipTurnRule, SpeedModifierRule, AnchorRule, ExtraTurnRule, RollAugmentationRule
	Modifier     *Modifier  `json:"modifier,omitempty"`     // SpeedModifierRule, RollAugmentationRule
	Starters     []string   `json:"starters,omitempty"`     // StarterSelectionRule, UpdateStarterRule
	Choices      []Choice   `json:"choices,omitempty"`      // ChoiceRule
	ProxyRuleID  string     `json:"proxyRuleId,omitempty"`  // ProxyRule
	Condition    *Condition `json:"condition,omitempty"`    // ApplyMoveConditionRule

	// RollUntilRule: Until (UntilCriteria when empty), MaxRolls (0: no
	// limit) and Consequence, which runs when MaxRolls pass unmet.
	Until       string `json:"until,omitempty"`
	MaxRolls    int    `json:"maxRolls,omitempty"`
	Consequence *Rule  `json:"consequence,omitempty"`
	// SwapPlacesRule: only players on tiles of this zone may be picked.
	Zone string `json:"zone,omitempty"`
	// RefightRule: the kind of tile to go back to (or TileIndex), and how it
	// is picked (PickChoose when empty).
	TileKind string `json:"tileKind,omitempty"`
	Pick     string `json:"pick,omitempty"`
	// ItemRule: the item; Use spends it when held; IfHas runs when the
	// player holds it, IfNot when not.
	Item  string `json:"item,omitempty"`
	Use   bool   `json:"use,omitempty"`
	IfHas *Rule  `json:"ifHas,omitempty"`
	IfNot *Rule  `json:"ifNot,omitempty"`
	// Any rule: the player gains AcquireItem, and loses LoseItem (AllItems:
	// everything), when the rule runs.
	AcquireItem string `json:"acquireItem,omitempty"`
	LoseItem    string `json:"loseItem,omitempty"`
}

// DiceRolls asks for dice and says what the results do.
type DiceRolls struct {
	NumRequired int       `json:"numRequired"`
	Type        string    `json:"type,omitempty"` // RollsDefault when empty
	Outcomes    []Outcome `json:"outcomes,omitempty"`
	// Apply says which outcomes the dice meet run: ApplyAll (when empty) or
	// ApplyFirst.
	Apply string `json:"apply,omitempty"`
}

// Outcome is a rule that runs when the dice meet its criteria.
type Outcome struct {
	Rule     Rule  `json:"rule"`
	Criteria []int `json:"criteria"`
	IsAny    bool  `json:"isAny,omitempty"` // runs if any one die meets the criteria
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
// must roll Criteria before moving; Consequence runs on a failed roll.
type Condition struct {
	Criteria             []int      `json:"criteria"`
	Consequence          *Rule      `json:"consequence,omitempty"`
	Description          string     `json:"description,omitempty"`
	NumSuccessesRequired int        `json:"numSuccessesRequired,omitempty"`
	Immediate            bool       `json:"immediate,omitempty"`
	DiceRolls            *DiceRolls `json:"diceRolls,omitempty"`
}

// dice is how many dice one roll of the condition takes.
func (c *Condition) dice() int {
	if c.DiceRolls != nil && c.DiceRolls.NumRequired > 1 {
		return c.DiceRolls.NumRequired
	}
	return 1
}

// met says whether rolls meet the condition: the sum for cumulative dice,
// otherwise every die (ruling 6: "with diceRolls and allMatch if given").
func (c *Condition) met(rolls []int) bool {
	if c.DiceRolls != nil && c.DiceRolls.Type == RollsCumulative {
		return contains(c.Criteria, sum(rolls))
	}
	for _, v := range rolls {
		if !contains(c.Criteria, v) {
			return false
		}
	}
	return len(rolls) > 0
}

// MarshalJSON writes a modifier as the file does: [op, value].
func (m Modifier) MarshalJSON() ([]byte, error) { return json.Marshal([]any{m.Op, m.Value}) }

// UnmarshalJSON reads [op, value].
func (m *Modifier) UnmarshalJSON(b []byte) error {
	var a []json.RawMessage
	if err := json.Unmarshal(b, &a); err != nil || len(a) != 2 {
		return fmt.Errorf("modifier must be [op, value]")
	}
	if err := json.Unmarshal(a[0], &m.Op); err != nil {
		return err
	}
	return json.Unmarshal(a[1], &m.Value)
}

// BoardID is the id of an uploaded board: "b-" and the first 16 hex digits of
// the file's SHA-256, so the same file is the same board and a stored board
// never changes.
func BoardID(file []byte) string {
	sum := sha256.Sum256(file)
	return "b-" + hex.EncodeToString(sum[:8])
}

// Rule locations: a rule is named by its JSON location in the board file, as
// LoadBoard reports problems and Await names the rule waiting for input.
//
//	tiles[12].rule  zones[1].rule
//	….choices[0].rule  ….diceRolls.outcomes[2].rule  ….condition.consequence
//	….consequence (RollUntilRule)  ….ifHas  ….ifNot (ItemRule)

// RuleAt finds the rule at a location.
func (b *Board) RuleAt(path string) (*Rule, bool) {
	var r *Rule
	rest := path
	switch {
	case strings.HasPrefix(rest, "tiles["):
		i, tail, ok := index(rest[len("tiles["):])
		if !ok || i >= len(b.Tiles) || !strings.HasPrefix(tail, ".rule") {
			return nil, false
		}
		r, rest = &b.Tiles[i].Rule, tail[len(".rule"):]
	case strings.HasPrefix(rest, "zones["):
		i, tail, ok := index(rest[len("zones["):])
		if !ok || i >= len(b.Zones) || !strings.HasPrefix(tail, ".rule") {
			return nil, false
		}
		r, rest = &b.Zones[i].Rule, tail[len(".rule"):]
	default:
		return nil, false
	}
	for rest != "" {
		switch {
		case strings.HasPrefix(rest, ".choices["):
			i, tail, ok := index(rest[len(".choices["):])
			if !ok || i >= len(r.Choices) || !strings.HasPrefix(tail, ".rule") {
				return nil, false
			}
			r, rest = &r.Choices[i].Rule, tail[len(".rule"):]
		case strings.HasPrefix(rest, ".diceRolls.outcomes["):
			i, tail, ok := index(rest[len(".diceRolls.outcomes["):])
			if !ok || r.DiceRolls == nil || i >= len(r.DiceRolls.Outcomes) || !strings.HasPrefix(tail, ".rule") {
				return nil, false
			}
			r, rest = &r.DiceRolls.Outcomes[i].Rule, tail[len(".rule"):]
		case strings.HasPrefix(rest, ".condition.consequence"):
			if r.Condition == nil || r.Condition.Consequence == nil {
				return nil, false
			}
			r, rest = r.Condition.Consequence, rest[len(".condition.consequence"):]
		case strings.HasPrefix(rest, ".consequence"):
			if r.Consequence == nil {
				return nil, false
			}
			r, rest = r.Consequence, rest[len(".consequence"):]
		case strings.HasPrefix(rest, ".ifHas"):
			if r.IfHas == nil {
				return nil, false
			}
			r, rest = r.IfHas, rest[len(".ifHas"):]
		case strings.HasPrefix(rest, ".ifNot"):
			if r.IfNot == nil {
				return nil, false
			}
			r, rest = r.IfNot, rest[len(".ifNot"):]
		default:
			return nil, false
		}
	}
	return r, true
}

// index reads "12]" and returns 12 and what follows the bracket.
func index(s string) (int, string, bool) {
	end := strings.IndexByte(s, ']')
	if end <= 0 || end > 6 {
		return 0, "", false
	}
	i, err := strconv.Atoi(s[:end])
	if err != nil || i < 0 {
		return 0, "", false
	}
	return i, s[end+1:], true
}

// zoneOf returns the index of the zone a tile belongs to, -1 for none.
func (b *Board) zoneOf(tile int) int {
	if tile < 0 || tile >= len(b.Tiles) || b.Tiles[tile].Zone == "" {
		return -1
	}
	for i, z := range b.Zones {
		if z.Name == b.Tiles[tile].Zone {
			return i
		}
	}
	return -1
}

func (b *Board) last() int { return len(b.Tiles) - 1 }

// leaderZone returns the index of the board's leader zone, -1 for none.
func (b *Board) leaderZone() int {
	for i, z := range b.Zones {
		if z.Type == ZoneLeader {
			return i
		}
	}
	return -1
}

// NoFinish reports whether the board has no GameOverRule: then the first
// player to reach the last tile wins. (LoadBoard makes sure that a board with
// a GameOverRule has one on its last tile.)
func (b *Board) NoFinish() bool { return b.Tiles[b.last()].Rule.Type != GameOverRule }

// finishes reports whether reaching tile wins the game.
func (b *Board) finishes(tile int) bool {
	return b.Tiles[tile].Rule.Type == GameOverRule || (tile == b.last() && b.NoFinish())
}

// Walk calls f for every rule of the board, nested ones included, with its
// location (tiles[3].rule.choices[1].rule), tiles first, then zones.
func (b *Board) Walk(f func(path string, r *Rule)) {
	var walk func(path string, r *Rule)
	walk = func(path string, r *Rule) {
		f(path, r)
		for i := range r.Choices {
			walk(fmt.Sprintf("%s.choices[%d].rule", path, i), &r.Choices[i].Rule)
		}
		if r.DiceRolls != nil {
			for i := range r.DiceRolls.Outcomes {
				walk(fmt.Sprintf("%s.diceRolls.outcomes[%d].rule", path, i), &r.DiceRolls.Outcomes[i].Rule)
			}
		}
		if r.Condition != nil && r.Condition.Consequence != nil {
			walk(path+".condition.consequence", r.Condition.Consequence)
		}
		if r.Consequence != nil {
			walk(path+".consequence", r.Consequence)
		}
		if r.IfHas != nil {
			walk(path+".ifHas", r.IfHas)
		}
		if r.IfNot != nil {
			walk(path+".ifNot", r.IfNot)
		}
	}
	for i := range b.Tiles {
		walk(fmt.Sprintf("tiles[%d].rule", i), &b.Tiles[i].Rule)
	}
	for i := range b.Zones {
		walk(fmt.Sprintf("zones[%d].rule", i), &b.Zones[i].Rule)
	}
}

func contains(list []int, v int) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

func sum(list []int) int {
	t := 0
	for _, v := range list {
		t += v
	}
	return t
}
