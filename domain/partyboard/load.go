package partyboard

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"github.com/meeple-games/meeple/domain"
)

// Problem is one thing wrong with a board file, at a JSON location such as
// tiles[12].rule.diceRolls.outcomes[0].criteria.
type Problem struct {
	Path    string `json:"path"`
	Message string `json:"message"`
}

func (p Problem) String() string {
	if p.Path == "" {
		return p.Message
	}
	return p.Path + ": " + p.Message
}

// LoadOptions tune LoadBoard.
type LoadOptions struct {
	// Lenient shows a rule of an unknown type as a DisplayRule (with a warning)
	// instead of refusing the board.
	Lenient bool
	// Proxies are the ProxyRule ids board extensions registered (ruling 8).
	Proxies map[string]bool
}

// Limits that keep a board file a board.
const (
	MaxTiles     = 500
	MaxZones     = 50
	MaxDice      = 10 // dice in one roll
	MaxRuleDepth = 8  // rules inside rules
	MaxTurns     = 20
	MaxSpaces    = 100
)

// LoadBoard parses and validates a board file. It returns every problem it
// finds, each with its location; the board is usable only when the error is
// nil. v1 boards are converted (ruling 3), and warnings report what a lenient
// load or a conversion changed.
//
// Errors: EINVALID (the file is not a valid board; its message lists the
// first problems, problems holds them all).
func LoadBoard(file []byte, o LoadOptions) (b *Board, problems, warnings []Problem, err error) {
	l := &loader{o: o}
	var raw any
	if err := json.Unmarshal(file, &raw); err != nil {
		l.fail("", "not valid JSON: %v", err)
		return nil, l.problems, nil, l.err()
	}
	b = &Board{ID: BoardID(file)}
	root := l.object("", raw)
	if root == nil {
		return nil, l.problems, nil, l.err()
	}
	if name, ok := root["name"].(string); ok {
		b.Name = name
	}
	// Zones first: tiles name them.
	zoneNames := map[string]bool{}
	if zs, present := root["zones"]; present && zs != nil {
		for i, z := range l.array("zones", zs, 0, MaxZones) {
			zone := l.zone(fmt.Sprintf("zones[%d]", i), z)
			if zone.Name != "" && zoneNames[zone.Name] {
				l.fail(fmt.Sprintf("zones[%d].name", i), "zone %q is defined twice", zone.Name)
			}
			zoneNames[zone.Name] = true
			b.Zones = append(b.Zones, zone)
		}
	}
	tiles := root["tiles"]
	tileList := l.array("tiles", tiles, 1, MaxTiles)
	l.tileCount = len(tileList)
	gameOver := false
	for i, t := range tileList {
		path := fmt.Sprintf("tiles[%d]", i)
		m := l.object(path, t)
		if m == nil {
			continue
		}
		tile := Tile{Rule: l.rule(path+".rule", m["rule"], 0)}
		tile.Mandatory = l.boolean(path+".mandatory", m, "mandatory")
		tile.Zone = l.optString(path+".zone", m, "zone")
		if tile.Zone != "" && !zoneNames[tile.Zone] {
			l.fail(path+".zone", "no zone named %q", tile.Zone)
		}
		for j, p := range l.array(path+".position", m["position"], 1, 16) {
			pp := fmt.Sprintf("%s.position[%d]", path, j)
			pm := l.object(pp, p)
			if pm == nil {
				continue
			}
			tile.Position = append(tile.Position, Point{X: l.number(pp+".x", pm, "x"), Y: l.number(pp+".y", pm, "y")})
		}
		if tile.Rule.Type == GameOverRule {
			gameOver = true
		}
		b.Tiles = append(b.Tiles, tile)
	}
	if len(b.Tiles) > 0 && !gameOver {
		l.fail("tiles", "no tile has a GameOverRule, so the game could never end")
	}
	if err := l.err(); err != nil {
		return nil, l.problems, l.warnings, err
	}
	return b, nil, l.warnings, nil
}

type loader struct {
	o         LoadOptions
	problems  []Problem
	warnings  []Problem
	tileCount int
}

func (l *loader) fail(path, format string, args ...any) {
	l.problems = append(l.problems, Problem{Path: path, Message: fmt.Sprintf(format, args...)})
}

func (l *loader) warn(path, format string, args ...any) {
	l.warnings = append(l.warnings, Problem{Path: path, Message: fmt.Sprintf(format, args...)})
}

func (l *loader) err() error {
	if len(l.problems) == 0 {
		return nil
	}
	var first []string
	for i, p := range l.problems {
		if i == 5 {
			first = append(first, fmt.Sprintf("and %d more", len(l.problems)-5))
			break
		}
		first = append(first, p.String())
	}
	e := domain.Errorf(domain.EINVALID, "invalid board: %s", strings.Join(first, "; "))
	e.Details = map[string]any{"problems": l.problems}
	return e
}

func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case float64:
		return "a number"
	case bool:
		return "a boolean"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

func (l *loader) object(path string, v any) map[string]any {
	m, ok := v.(map[string]any)
	if !ok {
		l.fail(path, "must be an object, not %s", jsonType(v))
	}
	return m
}

func (l *loader) array(path string, v any, min, max int) []any {
	a, ok := v.([]any)
	switch {
	case v == nil:
		l.fail(path, "is required")
	case !ok:
		l.fail(path, "must be an array, not %s", jsonType(v))
	case len(a) < min:
		l.fail(path, "needs at least %d entries", min)
	case len(a) > max:
		l.fail(path, "has %d entries; at most %d", len(a), max)
		return a[:max]
	}
	return a
}

func (l *loader) optString(path string, m map[string]any, key string) string {
	v, present := m[key]
	if !present || v == nil {
		return ""
	}
	s, ok := v.(string)
	if !ok {
		l.fail(path, "must be a string, not %s", jsonType(v))
	}
	return s
}

func (l *loader) boolean(path string, m map[string]any, key string) bool {
	v, present := m[key]
	if !present || v == nil {
		return false
	}
	b, ok := v.(bool)
	if !ok {
		l.fail(path, "must be a boolean, not %s", jsonType(v))
	}
	return b
}

func (l *loader) number(path string, m map[string]any, key string) float64 {
	v, present := m[key]
	f, ok := v.(float64)
	switch {
	case !present:
		l.fail(path, "is required")
	case !ok:
		l.fail(path, "must be a number, not %s", jsonType(v))
	}
	return f
}

// integer reads an optional whole number in [min, max]; absent is 0.
func (l *loader) integer(path string, m map[string]any, key string, min, max int) int {
	v, present := m[key]
	if !present || v == nil {
		return 0
	}
	f, ok := v.(float64)
	switch {
	case !ok:
		l.fail(path, "must be a number, not %s", jsonType(v))
	case f != math.Trunc(f):
		l.fail(path, "must be a whole number, not %v", f)
	case f < float64(min) || f > float64(max):
		l.fail(path, "must be between %d and %d, not %v", min, max, f)
	default:
		return int(f)
	}
	return 0
}

func (l *loader) required(path string, m map[string]any, key string, min, max int) int {
	if _, present := m[key]; !present {
		l.fail(path, "is required")
		return 0
	}
	return l.integer(path, m, key, min, max)
}

func (l *loader) ints(path string, v any, min, max int) []int {
	var out []int
	for i, x := range l.array(path, v, 1, 64) {
		f, ok := x.(float64)
		if !ok || f != math.Trunc(f) || f < float64(min) || f > float64(max) {
			l.fail(fmt.Sprintf("%s[%d]", path, i), "must be a whole number from %d to %d", min, max)
			continue
		}
		out = append(out, int(f))
	}
	return out
}

func (l *loader) zone(path string, v any) Zone {
	m := l.object(path, v)
	if m == nil {
		return Zone{}
	}
	z := Zone{Name: l.optString(path+".name", m, "name"), Type: l.optString(path+".type", m, "type")}
	if z.Name == "" {
		l.fail(path+".name", "is required")
	}
	if z.Type != "active" && z.Type != "passive" {
		l.fail(path+".type", "must be \"active\" or \"passive\", not %q", z.Type)
	}
	z.Rule = l.rule(path+".rule", m["rule"], 0)
	return z
}

func (l *loader) tileIndex(path string, m map[string]any, key string) *int {
	if _, present := m[key]; !present {
		return nil
	}
	i := l.integer(path, m, key, 0, MaxTiles)
	if l.tileCount > 0 && i >= l.tileCount {
		l.fail(path, "tile %d does not exist (the board has %d tiles)", i, l.tileCount)
	}
	return &i
}

func (l *loader) target(path string, m map[string]any, required bool, allowed ...string) string {
	t := l.optString(path, m, "playerTarget")
	if t == "" {
		if required {
			l.fail(path, "is required (%s)", strings.Join(allowed, ", "))
		}
		return ""
	}
	for _, a := range allowed {
		if t == a {
			return t
		}
	}
	l.fail(path, "must be one of %s, not %q", strings.Join(allowed, ", "), t)
	return t
}

// rule reads and checks one rule. depth bounds rules nested in rules.
func (l *loader) rule(path string, v any, depth int) Rule {
	if depth > MaxRuleDepth {
		l.fail(path, "rules are nested more than %d deep", MaxRuleDepth)
		return Rule{}
	}
	if v == nil {
		l.fail(path, "is required")
		return Rule{}
	}
	m := l.object(path, v)
	if m == nil {
		return Rule{}
	}
	r := Rule{Type: l.optString(path+".type", m, "type"), DisplayText: l.optString(path+".displayText", m, "displayText")}
	if alias, ok := ruleAliases[r.Type]; ok {
		r.Type = alias
	}
	if r.Type == "TeleportRule" { // v1 (ruling 3): a MoveRule with a tileIndex
		l.warn(path+".type", "v1 TeleportRule converted to a MoveRule with tileIndex")
		r.Type = MoveRule
		if _, ok := m["playerTarget"]; !ok {
			m["playerTarget"] = TargetSelf
		}
	}
	switch r.Type {
	case "":
		l.fail(path+".type", "is required")
	case DisplayRule, GameOverRule, ChallengeRule, GroupRollRule, ReverseTurnOrderRule:
	case ExtraTurnRule:
		r.NumTurns = l.integer(path+".numTurns", m, "numTurns", 1, MaxTurns)
	case SkipTurnRule, AnchorRule:
		r.NumTurns = l.required(path+".numTurns", m, "numTurns", 1, MaxTurns)
	case MoveRule:
		r.PlayerTarget = l.target(path+".playerTarget", m, false, TargetSelf, TargetCustom, TargetAllOthers)
		if r.PlayerTarget == "" {
			r.PlayerTarget = TargetSelf
		}
		r.TileIndex = l.tileIndex(path+".tileIndex", m, "tileIndex")
		if r.TileIndex != nil {
			break // the seed: a tileIndex makes the rule ignore everything else
		}
		r.Direction = l.optString(path+".direction", m, "direction")
		if r.Direction != "forward" && r.Direction != "back" {
			l.fail(path+".direction", "must be \"forward\" or \"back\" (or give a tileIndex), not %q", r.Direction)
		}
		// A negative count also means back: the real gen1 board writes
		// "direction": "back", "numSpaces": -10 for ten spaces back.
		r.NumSpaces = l.integer(path+".numSpaces", m, "numSpaces", -MaxSpaces, MaxSpaces)
		if r.NumSpaces < 0 {
			r.NumSpaces, r.Direction = -r.NumSpaces, "back"
		}
		if dr, ok := m["diceRolls"]; ok {
			r.DiceRolls = l.diceRolls(path+".diceRolls", dr, depth)
		}
		if (r.NumSpaces == 0) == (r.DiceRolls == nil) {
			l.fail(path, "a MoveRule needs exactly one of tileIndex, numSpaces or diceRolls")
		}
	case RollUntilRule:
		r.Criteria = l.ints(path+".criteria", m["criteria"], 1, 6)
	case AddMandatoryRule:
		r.TileIndex = l.tileIndex(path+".tileIndex", m, "tileIndex")
		if r.TileIndex == nil {
			l.fail(path+".tileIndex", "is required")
		}
	case DiceRollRule:
		r.DiceRolls = l.diceRolls(path+".diceRolls", m["diceRolls"], depth)
	case DrinkDuringLostTurnsRule:
		r.DiceRolls = l.diceRolls(path+".diceRolls", m["diceRolls"], depth)
		if r.DiceRolls != nil && r.DiceRolls.NumRequired != 2 {
			l.fail(path+".diceRolls.numRequired", "must be 2 (turns lost, drinks each turn)")
		}
	case ProxyRule:
		r.ProxyRuleID = l.optString(path+".proxyRuleId", m, "proxyRuleId")
		if !l.o.Proxies[r.ProxyRuleID] {
			l.fail(path+".proxyRuleId", "no board extension provides %q", r.ProxyRuleID)
		}
	case ApplyMoveConditionRule:
		r.PlayerTarget = l.target(path+".playerTarget", m, false, TargetSelf, TargetCustom, TargetAllOthers)
		r.Condition = l.condition(path+".condition", m["condition"], depth)
	case ChoiceRule:
		for i, c := range l.array(path+".choices", m["choices"], 1, 20) {
			cp := fmt.Sprintf("%s.choices[%d]", path, i)
			cm := l.object(cp, c)
			if cm == nil {
				continue
			}
			if _, wrapped := cm["rule"]; !wrapped && cm["type"] != nil { // v1 (ruling 3): the rule itself
				l.warn(cp, "v1 bare rule in choices wrapped as {\"rule\": ...}")
				cm = map[string]any{"rule": cm}
			}
			r.Choices = append(r.Choices, Choice{Rule: l.rule(cp+".rule", cm["rule"], depth+1)})
		}
		if dr, ok := m["diceRolls"]; ok && dr != nil {
			r.DiceRolls = l.diceRolls(path+".diceRolls", dr, depth)
		}
	case SpeedModifierRule, RollAugmentationRule:
		r.PlayerTarget = l.target(path+".playerTarget", m, r.Type == SpeedModifierRule, TargetSelf, TargetCustom, TargetAllOthers)
		if r.PlayerTarget == "" {
			r.PlayerTarget = TargetSelf
		}
		if r.Type == SpeedModifierRule {
			r.NumTurns = l.required(path+".numTurns", m, "numTurns", 1, MaxTurns)
		} else {
			r.NumTurns = l.integer(path+".numTurns", m, "numTurns", 1, MaxTurns)
		}
		r.Modifier = l.modifier(path+".modifier", m["modifier"])
	case SkipNextMandatoryRule:
		r.NumSpaces = l.required(path+".numSpaces", m, "numSpaces", 1, MaxSpaces)
	case StarterSelectionRule:
		r.Starters = l.strings(path+".starters", m["starters"])
	case UpdateStarterRule:
		if s, ok := m["starters"]; ok {
			r.Starters = l.strings(path+".starters", s)
		}
		r.PlayerTarget = l.target(path+".playerTarget", m, false, TargetCustom)
		if len(r.Starters) == 0 && r.PlayerTarget == "" {
			l.fail(path, "an UpdateStarterRule needs starters or playerTarget \"custom\"")
		}
	default:
		if l.o.Lenient {
			l.warn(path+".type", "unknown rule type %q shown as a DisplayRule", r.Type)
			return Rule{Type: DisplayRule, DisplayText: r.DisplayText}
		}
		l.fail(path+".type", "unknown rule type %q", r.Type)
	}
	return r
}

func (l *loader) strings(path string, v any) []string {
	var out []string
	for i, x := range l.array(path, v, 1, 64) {
		s, ok := x.(string)
		if !ok || s == "" {
			l.fail(fmt.Sprintf("%s[%d]", path, i), "must be a non-empty string")
			continue
		}
		out = append(out, s)
	}
	return out
}

func (l *loader) modifier(path string, v any) *Modifier {
	a, ok := v.([]any)
	if !ok || len(a) != 2 {
		l.fail(path, "must be [operator, number], e.g. [\"+\", 3]")
		return nil
	}
	op, _ := a[0].(string)
	n, isNum := a[1].(float64)
	switch {
	case op != "*" && op != "+" && op != "-" && op != "=":
		l.fail(path+"[0]", "must be one of \"*\", \"+\", \"-\", \"=\", not %v", a[0])
	case !isNum || n < 0 || n > 100:
		l.fail(path+"[1]", "must be a number from 0 to 100")
	default:
		return &Modifier{Op: op, Value: n}
	}
	return nil
}

func (l *loader) diceRolls(path string, v any, depth int) *DiceRolls {
	m := l.object(path, v)
	if m == nil {
		return nil
	}
	d := &DiceRolls{NumRequired: l.required(path+".numRequired", m, "numRequired", 1, MaxDice)}
	d.Type = l.optString(path+".type", m, "type")
	switch d.Type {
	case "", RollsDefault, RollsCumulative, RollsAllMatch:
	default:
		l.fail(path+".type", "must be default, cumulative or allMatch, not %q", d.Type)
	}
	max := 6
	if d.Type == RollsCumulative && d.NumRequired > 0 {
		max = 6 * d.NumRequired
	}
	if anyRule, ok := m["any"]; ok && anyRule != nil { // v1 (ruling 3): "any" becomes an outcome for every result
		l.warn(path+".any", "v1 \"any\" outcome converted to an outcome matching every roll")
		all := []int{}
		for i := 1; i <= max; i++ {
			all = append(all, i)
		}
		d.Outcomes = append(d.Outcomes, Outcome{Rule: l.rule(path+".any", anyRule, depth+1), Criteria: all})
	}
	if os, ok := m["outcomes"]; ok && os != nil {
		for i, o := range l.array(path+".outcomes", os, 0, 64) {
			op := fmt.Sprintf("%s.outcomes[%d]", path, i)
			om := l.object(op, o)
			if om == nil {
				continue
			}
			d.Outcomes = append(d.Outcomes, Outcome{
				Rule:     l.rule(op+".rule", om["rule"], depth+1),
				Criteria: l.ints(op+".criteria", om["criteria"], 1, max),
				IsAny:    l.boolean(op+".isAny", om, "isAny"),
			})
		}
	}
	return d
}

func (l *loader) condition(path string, v any, depth int) *Condition {
	m := l.object(path, v)
	if m == nil {
		return nil
	}
	c := &Condition{
		Criteria:             l.ints(path+".criteria", m["criteria"], 1, 6*MaxDice),
		Description:          l.optString(path+".description", m, "description"),
		NumSuccessesRequired: l.integer(path+".numSuccessesRequired", m, "numSuccessesRequired", 1, MaxTurns),
		Immediate:            l.boolean(path+".immediate", m, "immediate"),
	}
	if cons, ok := m["consequence"]; ok && cons != nil {
		r := l.rule(path+".consequence", cons, depth+1)
		c.Consequence = &r
	}
	if dr, ok := m["diceRolls"]; ok && dr != nil {
		c.DiceRolls = l.diceRolls(path+".diceRolls", dr, depth)
	}
	return c
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
