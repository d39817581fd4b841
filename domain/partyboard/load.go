package partyboard

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/meeple-games/meeple/domain"
)

// Problem is one thing wrong with a board file (or, as a warning, one thing a
// load changed), at a JSON location such as tiles[12].rule.diceRolls.outcomes[0].criteria.
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
	// Lenient shows a rule of an unknown type as a DisplayRule with its text
	// (and a warning) instead of refusing the board (ruling 2).
	Lenient bool
}

// Limits that keep a board file a board.
const (
	MaxFileSize  = 1 << 20 // bytes
	MaxTiles     = 500
	MaxZones     = 50
	MaxDice      = 10 // dice in one roll
	MaxRuleDepth = 8  // rules inside rules
	MaxTurns     = 20 // numTurns, numSuccessesRequired
	MaxSpaces    = 100
	MaxChoices   = 20
	MaxOutcomes  = 64
	MaxStarters  = 32
	MaxRolls     = 50 // a RollUntilRule's maxRolls
)

// LoadBoard parses and validates a whole board file. It reports every problem
// it finds, each with its JSON location, and never panics; the board is
// usable only when err is nil. v1 boards are converted (ruling 3) and the
// seed's other spellings accepted (ruling 2); warnings say what a conversion
// or a lenient load changed. The board's ID is BoardID(file).
//
// Errors: EINVALID (the file is not a valid board; the message lists the
// first problems, the error's details and problems hold them all).
func LoadBoard(file []byte, o LoadOptions) (b *Board, problems, warnings []Problem, err error) {
	l := &loader{o: o}
	if len(file) > MaxFileSize {
		l.fail("", "the file is %d bytes; at most %d", len(file), MaxFileSize)
		return nil, l.problems, nil, l.err()
	}
	var raw any
	dec := json.NewDecoder(bytes.NewReader(file))
	if err := dec.Decode(&raw); err != nil {
		l.fail("", "not valid JSON: %v", err)
		return nil, l.problems, nil, l.err()
	}
	if dec.More() {
		l.fail("", "not valid JSON: more than one value")
		return nil, l.problems, nil, l.err()
	}
	root := l.object("", raw)
	if root == nil {
		return nil, l.problems, nil, l.err()
	}
	b = &Board{ID: BoardID(file), Zones: []Zone{}}
	if name, ok := root["name"].(string); ok {
		b.Name = name
	}
	b.Items = l.items(root["items"])
	tileList := l.array("tiles", root["tiles"], true, 1, MaxTiles)
	l.tiles = len(tileList)

	// Zones first: tiles name them.
	zoneType := map[string]string{}
	leaders := 0
	for i, z := range l.array("zones", root["zones"], false, 0, MaxZones) {
		zone := l.zone(fmt.Sprintf("zones[%d]", i), z)
		if _, dup := zoneType[zone.Name]; dup && zone.Name != "" {
			l.fail(fmt.Sprintf("zones[%d].name", i), "zone %q is defined twice", zone.Name)
		}
		if zone.Type == ZoneLeader {
			if leaders++; leaders > 1 {
				l.fail(fmt.Sprintf("zones[%d].type", i), "a board has at most one %q zone", ZoneLeader)
			}
		}
		zoneType[zone.Name] = zone.Type
		b.Zones = append(b.Zones, zone)
	}
	l.zones = zoneType
	for i, t := range tileList {
		path := fmt.Sprintf("tiles[%d]", i)
		m := l.object(path, t)
		if m == nil {
			continue
		}
		tile := Tile{Rule: l.rule(path+".rule", m, "rule", 0)}
		tile.Mandatory = l.boolean(path+".mandatory", m, "mandatory")
		mt, mtPath := l.optString(path+".mandatoryType", m, "mandatoryType"), path+".mandatoryType"
		if rm, ok := m["rule"].(map[string]any); ok && rm["mandatoryType"] != nil {
			// The Zelda board writes it inside the rule once or twice.
			if mt == "" {
				mt, mtPath = l.optString(path+".rule.mandatoryType", rm, "mandatoryType"), path+".rule.mandatoryType"
				l.warn(mtPath, "mandatoryType belongs on the tile, not its rule; applied to %s", path)
			}
		}
		switch mt {
		case "":
		case MandatoryAlways:
			tile.Mandatory = true
		case MandatoryOnce:
			if tile.Mandatory {
				l.fail(mtPath, "a tile with \"mandatory\": true is mandatory every time; mandatoryType %q contradicts it", mt)
			}
			tile.MandatoryType = MandatoryOnce
		default:
			l.fail(mtPath, "must be %q or %q, not %q", MandatoryAlways, MandatoryOnce, mt)
		}
		tile.Zone = l.optString(path+".zone", m, "zone")
		if typ, ok := zoneType[tile.Zone]; tile.Zone != "" && !ok {
			l.fail(path+".zone", "no zone named %q", tile.Zone)
		} else if typ == ZoneLeader {
			l.fail(path+".zone", "zone %q is a leader zone: it follows the leading player, no tile belongs to it", tile.Zone)
		}
		tile.Kind = l.optString(path+".kind", m, "kind")
		if len(tile.Kind) > 40 {
			l.fail(path+".kind", "must be at most 40 bytes")
		}
		for j, p := range l.array(path+".position", m["position"], true, 1, 16) {
			pp := fmt.Sprintf("%s.position[%d]", path, j)
			if pm := l.object(pp, p); pm != nil {
				tile.Position = append(tile.Position, Point{X: l.number(pp+".x", pm, "x"), Y: l.number(pp+".y", pm, "y")})
			}
		}
		b.Tiles = append(b.Tiles, tile)
	}
	if n := len(b.Tiles); n > 0 && n == len(tileList) {
		finish := slices.ContainsFunc(b.Tiles, func(t Tile) bool { return t.Rule.Type == GameOverRule })
		switch {
		case !finish:
			// A board in progress (the Zelda board has no finish yet).
			l.warn("tiles", "no tile has a GameOverRule: the first player to reach the last tile (tiles[%d]) wins", n-1)
		case b.Tiles[n-1].Rule.Type != GameOverRule:
			// The seed: GameOverRule is "meant for the last tile on the
			// board". Players who reach a last tile that is not the finish
			// could never move again.
			l.fail(fmt.Sprintf("tiles[%d].rule.type", n-1), "the last tile must have a GameOverRule (the finish), not %q", b.Tiles[n-1].Rule.Type)
		}
		for _, check := range l.later {
			check(b)
		}
	}
	if err := l.err(); err != nil {
		return nil, l.problems, l.warnings, err
	}
	return b, nil, l.warnings, nil
}

type loader struct {
	o        LoadOptions
	problems []Problem
	warnings []Problem
	tiles    int               // tiles in the file, for tileIndex checks
	zones    map[string]string // zone name → type
	declared map[string]Item   // declared items; nil: any item goes
	// later are checks that need every tile (tile kinds, the rules of tiles
	// a rule sends players to).
	later []func(b *Board)
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

// array reads an array of min to max entries. Absent (or null) is a problem
// when required, otherwise an empty array.
func (l *loader) array(path string, v any, required bool, min, max int) []any {
	if v == nil {
		if required {
			l.fail(path, "is required")
		}
		return nil
	}
	a, ok := v.([]any)
	switch {
	case !ok:
		l.fail(path, "must be an array, not %s", jsonType(v))
	case len(a) < min:
		l.fail(path, "needs at least %d %s", min, plural(min, "entry", "entries"))
	case len(a) > max:
		l.fail(path, "has %d entries; at most %d", len(a), max)
		return a[:max]
	}
	return a
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
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
	if v, present := m[key]; !present || v == nil {
		l.fail(path, "is required")
		return 0
	}
	return l.integer(path, m, key, min, max)
}

func (l *loader) ints(path string, v any, min, max int) []int {
	var out []int
	for i, x := range l.array(path, v, true, 1, 64) {
		f, ok := x.(float64)
		if !ok || f != math.Trunc(f) || f < float64(min) || f > float64(max) {
			l.fail(fmt.Sprintf("%s[%d]", path, i), "must be a whole number from %d to %d", min, max)
			continue
		}
		out = append(out, int(f))
	}
	return out
}

func (l *loader) strings(path string, v any) []string {
	var out []string
	for i, x := range l.array(path, v, true, 1, MaxStarters) {
		s, ok := x.(string)
		if !ok || strings.TrimSpace(s) == "" || len(s) > 100 {
			l.fail(fmt.Sprintf("%s[%d]", path, i), "must be a non-empty string of at most 100 bytes")
			continue
		}
		out = append(out, s)
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
	if z.Type != ZoneActive && z.Type != ZonePassive && z.Type != ZoneLeader {
		l.fail(path+".type", "must be %q, %q or %q, not %q", ZoneActive, ZonePassive, ZoneLeader, z.Type)
	}
	z.Rule = l.rule(path+".rule", m, "rule", 0)
	if (z.Type == ZoneActive || z.Type == ZoneLeader) && (z.Rule.Type == SkipTurnRule || z.Rule.Type == DrinkDuringLostTurnsRule) {
		// It would run before every turn of its players, who would never
		// roll again: no way out, and a game of such players never ends.
		article := "an"
		if z.Type == ZoneLeader {
			article = "a"
		}
		l.fail(path+".rule.type", "%s %s zone's rule cannot be a %s: its players would lose every turn and never move on", article, z.Type, z.Rule.Type)
	}
	return z
}

// items reads the board's item declarations: {"BOMB": {"name": "Bomb",
// "description": "…"}, …}. Keys starting with "_" are comments (the Zelda
// board has "_desc").
func (l *loader) items(v any) map[string]Item {
	if v == nil {
		return nil
	}
	m := l.object("items", v)
	if m == nil {
		return nil
	}
	out := map[string]Item{}
	for _, id := range slices.Sorted(maps.Keys(m)) {
		if strings.HasPrefix(id, "_") {
			continue
		}
		path := "items." + id
		if !validItemID(id) {
			l.fail(path, "an item id is 1 to 64 bytes, and not %q", AllItems)
			continue
		}
		im := l.object(path, m[id])
		if im == nil {
			continue
		}
		out[id] = Item{Name: l.optString(path+".name", im, "name"), Description: l.optString(path+".description", im, "description")}
	}
	l.declared = out
	return out
}

func validItemID(id string) bool { return id != "" && len(id) <= 64 && id != AllItems }

// item reads an item id at m[key]: declared, when the board declares items.
func (l *loader) item(path string, m map[string]any, key string, required, all bool) string {
	id := l.optString(path, m, key)
	switch {
	case id == "":
		if required {
			l.fail(path, "is required")
		}
	case all && id == AllItems:
	case !validItemID(id):
		l.fail(path, "an item id is 1 to 64 bytes, and not %q", AllItems)
	case l.declared != nil:
		if _, ok := l.declared[id]; !ok {
			l.fail(path, "no item %q in the board's items (%s)", id, strings.Join(slices.Sorted(maps.Keys(l.declared)), ", "))
		}
	}
	return id
}

func (l *loader) tileIndex(path string, m map[string]any, key string) *int {
	if v, present := m[key]; !present || v == nil {
		return nil
	}
	i := l.integer(path, m, key, 0, MaxTiles-1)
	if l.tiles > 0 && i >= l.tiles {
		l.fail(path, "tile %d does not exist (the board has %d tiles)", i, l.tiles)
	}
	return &i
}

func (l *loader) target(path string, m map[string]any, allowed ...string) string {
	t := l.optString(path, m, "playerTarget")
	if t == "" {
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

// rule reads and checks the rule at m[key]. depth bounds rules nested in rules.
func (l *loader) rule(path string, parent map[string]any, key string, depth int) Rule {
	v, present := parent[key]
	if !present || v == nil {
		l.fail(path, "is required")
		return Rule{}
	}
	if depth > MaxRuleDepth {
		l.fail(path, "rules are nested more than %d deep", MaxRuleDepth)
		return Rule{}
	}
	m := l.object(path, v)
	if m == nil {
		return Rule{}
	}
	r := Rule{Type: l.optString(path+".type", m, "type")}
	if t, ok := m["displayText"]; !ok || t == nil {
		l.fail(path+".displayText", "is required")
	} else {
		r.DisplayText = l.optString(path+".displayText", m, "displayText")
	}
	if alias, ok := ruleAliases[r.Type]; ok {
		r.Type = alias
	}
	r.AcquireItem = l.item(path+".acquireItem", m, "acquireItem", false, false)
	r.LoseItem = l.item(path+".loseItem", m, "loseItem", false, true)
	if r.Type == "TeleportRule" { // v1 (ruling 3): a MoveRule with a tileIndex
		l.warn(path+".type", "v1 TeleportRule converted to a MoveRule with tileIndex")
		r.Type = MoveRule
	}
	all := []string{TargetSelf, TargetCustom, TargetAllOthers}
	switch r.Type {
	case "":
		if s, isString := m["type"].(string); m["type"] == nil || (isString && s == "") {
			l.fail(path+".type", "is required")
		}
	case DisplayRule, GameOverRule, ChallengeRule, GroupRollRule, ReverseTurnOrderRule:
	case TodoRule:
		// Real board files in progress mark unfinished tiles this way: it
		// plays as a DisplayRule of its text, so the board can be tried.
		l.warn(path+".type", "unfinished rule (TodoRule) plays as a DisplayRule of its text")
	case ExtraTurnRule:
		r.NumTurns = l.integer(path+".numTurns", m, "numTurns", 1, MaxTurns)
	case SkipTurnRule, AnchorRule:
		r.NumTurns = l.required(path+".numTurns", m, "numTurns", 1, MaxTurns)
	case MoveRule:
		r.PlayerTarget = l.target(path+".playerTarget", m, all...)
		if r.PlayerTarget == "" {
			r.PlayerTarget = TargetSelf
		}
		r.TileIndex = l.tileIndex(path+".tileIndex", m, "tileIndex")
		if r.TileIndex != nil {
			break // the seed: a tileIndex makes the rule ignore everything else
		}
		r.Direction = l.optString(path+".direction", m, "direction")
		if r.Direction != Forward && r.Direction != Back {
			l.fail(path+".direction", "must be %q or %q (or give a tileIndex), not %q", Forward, Back, r.Direction)
		}
		// A negative count also means back: the real gen1 board writes
		// "direction": "back", "numSpaces": -10 for ten spaces back.
		r.NumSpaces = l.integer(path+".numSpaces", m, "numSpaces", -MaxSpaces, MaxSpaces)
		if r.NumSpaces < 0 {
			r.NumSpaces, r.Direction = -r.NumSpaces, Back
		}
		if dr, ok := m["diceRolls"]; ok && dr != nil {
			r.DiceRolls = l.diceRolls(path+".diceRolls", dr, depth, false)
		}
		if (r.NumSpaces == 0) == (r.DiceRolls == nil) {
			l.fail(path, "a MoveRule needs exactly one of tileIndex, numSpaces (not 0) or diceRolls")
		}
	case RollUntilRule:
		r.Until = l.optString(path+".until", m, "until")
		switch r.Until {
		case "", UntilCriteria:
			r.Until = ""
			if m["criteria"] == nil {
				l.fail(path+".criteria", "is required (or set until to %q or %q)", UntilRepeat, UntilMatch)
			} else {
				r.Criteria = l.ints(path+".criteria", m["criteria"], 1, 6)
			}
		case UntilRepeat, UntilMatch:
			if m["criteria"] != nil {
				l.fail(path+".criteria", "only with until %q: until %q stops on a number rolled before", UntilCriteria, r.Until)
			}
		default:
			l.fail(path+".until", "must be %q, %q or %q, not %q", UntilCriteria, UntilRepeat, UntilMatch, r.Until)
		}
		r.MaxRolls = l.integer(path+".maxRolls", m, "maxRolls", 1, MaxRolls)
		if c, ok := m["consequence"]; ok && c != nil {
			if r.MaxRolls == 0 {
				l.fail(path+".consequence", "runs when maxRolls pass unmet: give maxRolls")
			}
			cr := l.rule(path+".consequence", m, "consequence", depth+1)
			r.Consequence = &cr
		}
	case SwapPlacesRule:
		r.PlayerTarget = l.target(path+".playerTarget", m, TargetCustom)
		if r.PlayerTarget == "" {
			r.PlayerTarget = TargetCustom
		}
		r.Zone = l.optString(path+".zone", m, "zone")
		if r.Zone != "" {
			if typ, ok := l.zones[r.Zone]; !ok && l.zones != nil {
				l.fail(path+".zone", "no zone named %q", r.Zone)
			} else if typ == ZoneLeader {
				l.fail(path+".zone", "zone %q is a leader zone: no player stands in it", r.Zone)
			}
			if l.zones == nil { // a zone's own rule: zones are still being read
				zone := r.Zone
				l.later = append(l.later, func(b *Board) {
					if !slices.ContainsFunc(b.Zones, func(z Zone) bool { return z.Name == zone && z.Type != ZoneLeader }) {
						l.fail(path+".zone", "no zone named %q with tiles", zone)
					}
				})
			}
		}
	case RefightRule:
		r.TileIndex = l.tileIndex(path+".tileIndex", m, "tileIndex")
		r.TileKind = l.optString(path+".tileKind", m, "tileKind")
		if (r.TileIndex == nil) == (r.TileKind == "") {
			l.fail(path, "a RefightRule needs exactly one of tileIndex or tileKind")
		}
		r.Pick = l.optString(path+".pick", m, "pick")
		switch r.Pick {
		case "", PickChoose, PickNearest:
			if r.TileIndex != nil && r.Pick != "" {
				l.fail(path+".pick", "only with tileKind")
			}
			if r.Pick == PickChoose {
				r.Pick = ""
			}
		default:
			l.fail(path+".pick", "must be %q or %q, not %q", PickChoose, PickNearest, r.Pick)
		}
		ti, kind := r.TileIndex, r.TileKind
		l.later = append(l.later, func(b *Board) {
			// A refight runs the rule of the tile it sends the player to; a
			// RefightRule there could send them round for ever. And it comes
			// back: the finish is no tile to refight.
			for i, t := range b.Tiles {
				if (ti != nil && i == *ti) || (kind != "" && t.Kind == kind) {
					switch {
					case t.Rule.Type == RefightRule:
						l.fail(path, "it may send the player to tiles[%d], whose rule is a RefightRule too", i)
					case i == len(b.Tiles)-1:
						l.fail(path, "a refight comes back: it cannot go to tiles[%d], the last tile", i)
					}
				}
			}
			if kind != "" && !slices.ContainsFunc(b.Tiles, func(t Tile) bool { return t.Kind == kind }) {
				l.fail(path+".tileKind", "no tile has kind %q", kind)
			}
		})
	case ItemRule:
		r.Item = l.item(path+".item", m, "item", true, false)
		r.Use = l.boolean(path+".use", m, "use")
		for _, k := range []string{"ifHas", "ifNot"} {
			if v, ok := m[k]; ok && v != nil {
				br := l.rule(path+"."+k, m, k, depth+1)
				if k == "ifHas" {
					r.IfHas = &br
				} else {
					r.IfNot = &br
				}
			}
		}
		if r.IfHas == nil && r.IfNot == nil && !r.Use {
			l.fail(path, "an ItemRule needs ifHas, ifNot or use")
		}
	case AddMandatoryRule:
		r.TileIndex = l.tileIndex(path+".tileIndex", m, "tileIndex")
		if r.TileIndex == nil {
			l.fail(path+".tileIndex", "is required")
		}
	case DiceRollRule:
		r.DiceRolls = l.diceRolls(path+".diceRolls", m["diceRolls"], depth, true)
	case DrinkDuringLostTurnsRule:
		r.DiceRolls = l.diceRolls(path+".diceRolls", m["diceRolls"], depth, false)
		if r.DiceRolls != nil && r.DiceRolls.NumRequired != 2 {
			l.fail(path+".diceRolls.numRequired", "must be 2 (the turns lost, then the drinks in each)")
		}
	case ProxyRule:
		r.ProxyRuleID = l.optString(path+".proxyRuleId", m, "proxyRuleId")
		_, ok := proxyRule(r.ProxyRuleID)
		if !ok && r.ProxyRuleID == "StealStarterRule" {
			// v1 (ruling 3): gen2's extension swapped starters with a chosen
			// player, which v2 writes as an UpdateStarterRule.
			l.warn(path+".proxyRuleId", "v1 StealStarterRule converted to an UpdateStarterRule with playerTarget %q", TargetCustom)
			return Rule{Type: UpdateStarterRule, DisplayText: r.DisplayText, PlayerTarget: TargetCustom}
		}
		if !ok {
			l.fail(path+".proxyRuleId", "no board extension provides %q (registered: %s)", r.ProxyRuleID, strings.Join(ProxyRuleIDs(), ", "))
		}
	case ApplyMoveConditionRule:
		r.PlayerTarget = l.target(path+".playerTarget", m, all...)
		if r.PlayerTarget == "" {
			r.PlayerTarget = TargetSelf
		}
		r.Condition = l.condition(path+".condition", m, depth)
		if r.Condition != nil && r.Condition.Immediate && r.PlayerTarget != TargetSelf {
			l.fail(path+".condition.immediate", "an immediate condition is rolled by the player it applies to: playerTarget must be %q", TargetSelf)
		}
	case ChoiceRule:
		for i, c := range l.array(path+".choices", m["choices"], true, 1, MaxChoices) {
			cp := fmt.Sprintf("%s.choices[%d]", path, i)
			cm := l.object(cp, c)
			if cm == nil {
				continue
			}
			if _, wrapped := cm["rule"]; !wrapped && cm["type"] != nil { // v1 (ruling 3): the rule itself
				l.warn(cp, "v1 bare rule in choices wrapped as {\"rule\": …}")
				cm = map[string]any{"rule": cm}
			}
			r.Choices = append(r.Choices, Choice{Rule: l.rule(cp+".rule", cm, "rule", depth+1)})
		}
		if dr, ok := m["diceRolls"]; ok && dr != nil {
			r.DiceRolls = l.diceRolls(path+".diceRolls", dr, depth, false)
		}
	case SpeedModifierRule, RollAugmentationRule:
		r.PlayerTarget = l.target(path+".playerTarget", m, all...)
		if r.PlayerTarget == "" {
			if r.Type == SpeedModifierRule { // v2 requires it; v1 boards had none (ruling 3)
				l.warn(path+".playerTarget", "v1 SpeedModifierRule without playerTarget applies to %q", TargetSelf)
			}
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
		if s, ok := m["starters"]; ok && s != nil {
			r.Starters = l.strings(path+".starters", s)
		}
		r.PlayerTarget = l.target(path+".playerTarget", m, TargetCustom)
		if len(r.Starters) == 0 && r.PlayerTarget == "" {
			l.fail(path, "an UpdateStarterRule needs starters or playerTarget %q", TargetCustom)
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

// diceRolls reads dice; outcomes only where they do something (DiceRollRule).
func (l *loader) diceRolls(path string, v any, depth int, outcomes bool) *DiceRolls {
	if v == nil {
		l.fail(path, "is required")
		return nil
	}
	m := l.object(path, v)
	if m == nil {
		return nil
	}
	d := &DiceRolls{NumRequired: l.required(path+".numRequired", m, "numRequired", 1, MaxDice)}
	d.Type = l.optString(path+".type", m, "type")
	switch d.Type {
	case "", RollsDefault, RollsCumulative, RollsAllMatch:
	default:
		l.fail(path+".type", "must be %s, %s or %s, not %q", RollsDefault, RollsCumulative, RollsAllMatch, d.Type)
	}
	d.Apply = l.optString(path+".apply", m, "apply")
	if d.Apply != "" && !outcomes {
		l.fail(path+".apply", "only a DiceRollRule's dice have outcomes to apply")
	}
	switch d.Apply {
	case "", ApplyAll:
		d.Apply = ""
	case ApplyFirst:
	default:
		l.fail(path+".apply", "must be %q or %q, not %q", ApplyAll, ApplyFirst, d.Apply)
	}
	lo, hi := 1, 6
	if d.Type == RollsCumulative && d.NumRequired > 0 {
		lo, hi = d.NumRequired, 6*d.NumRequired
	}
	anyOut := m["any"]
	os := m["outcomes"]
	if list, isList := os.([]any); !outcomes && (anyOut != nil || (os != nil && (!isList || len(list) > 0))) {
		l.fail(path+".outcomes", "only a DiceRollRule's dice have outcomes")
		return d
	}
	if anyOut != nil { // v1 (ruling 3): "any" is an outcome of its own
		l.warn(path+".any", "v1 \"any\" outcome converted to an outcome with isAny")
		if am := l.object(path+".any", anyOut); am != nil {
			o := Outcome{IsAny: true}
			if _, wrapped := am["rule"]; wrapped { // {"rule": …, "criteria": […]}
				o.Rule = l.rule(path+".any.rule", am, "rule", depth+1)
				if c, ok := am["criteria"]; ok && c != nil {
					o.Criteria = l.ints(path+".any.criteria", c, 1, hi)
				}
			} else { // a bare rule
				o.Rule = l.rule(path+".any", m, "any", depth+1)
			}
			if o.Criteria == nil {
				for i := lo; i <= hi; i++ {
					o.Criteria = append(o.Criteria, i)
				}
			}
			d.Outcomes = append(d.Outcomes, o)
		}
	}
	for i, o := range l.array(path+".outcomes", os, false, 0, MaxOutcomes) {
		op := fmt.Sprintf("%s.outcomes[%d]", path, i)
		om := l.object(op, o)
		if om == nil {
			continue
		}
		d.Outcomes = append(d.Outcomes, Outcome{
			Rule:     l.rule(op+".rule", om, "rule", depth+1),
			Criteria: l.ints(op+".criteria", om["criteria"], 1, hi),
			IsAny:    l.boolean(op+".isAny", om, "isAny"),
		})
	}
	return d
}

func (l *loader) condition(path string, parent map[string]any, depth int) *Condition {
	v, ok := parent["condition"]
	if !ok || v == nil {
		l.fail(path, "is required")
		return nil
	}
	m := l.object(path, v)
	if m == nil {
		return nil
	}
	c := &Condition{
		Description:          l.optString(path+".description", m, "description"),
		NumSuccessesRequired: l.integer(path+".numSuccessesRequired", m, "numSuccessesRequired", 1, MaxTurns),
		Immediate:            l.boolean(path+".immediate", m, "immediate"),
	}
	if dr, ok := m["diceRolls"]; ok && dr != nil {
		c.DiceRolls = l.diceRolls(path+".diceRolls", dr, depth, false)
	}
	hi := 6
	if c.DiceRolls != nil && c.DiceRolls.Type == RollsCumulative {
		hi = 6 * max(1, c.DiceRolls.NumRequired)
	}
	c.Criteria = l.ints(path+".criteria", m["criteria"], 1, hi)
	if cons, ok := m["consequence"]; ok && cons != nil {
		r := l.rule(path+".consequence", m, "consequence", depth+1)
		c.Consequence = &r
	}
	return c
}
