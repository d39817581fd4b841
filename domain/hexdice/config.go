package hexdice

import (
	"fmt"
	"slices"
	"strings"

	"github.com/meeple-games/meeple/domain"
)

// UnitType names a troop type.
type UnitType string

// The troop types (seed §6), in shop order.
const (
	Marine    UnitType = "marine"
	Sniper    UnitType = "sniper"
	Hoverbike UnitType = "hoverbike"
	Mech      UnitType = "mech"
)

// UnitTypes lists the troop types in shop order.
var UnitTypes = []UnitType{Marine, Sniper, Hoverbike, Mech}

// StructureKind names a structure type.
type StructureKind string

// The structure kinds (seed §5).
const (
	Outpost       StructureKind = "outpost"
	CommandCenter StructureKind = "commandCenter"
	HQ            StructureKind = "hq"
)

var structureKinds = []StructureKind{Outpost, CommandCenter, HQ}

// Terrain names a terrain type.
type Terrain string

// The terrain types (seed §4). Their order is the map's internal code.
const (
	Plains    Terrain = "plains"
	Forest    Terrain = "forest"
	Hills     Terrain = "hills"
	Water     Terrain = "water"
	Mountains Terrain = "mountains"
)

// terrains lists the terrain types by internal code.
var terrains = [...]Terrain{Plains, Forest, Hills, Water, Mountains}

const plainsCode = 0

// Size names a map size.
type Size string

// The map sizes (ruling 1).
const (
	Small  Size = "small"
	Medium Size = "medium"
	Large  Size = "large"
)

// Sizes lists the map sizes, smallest first.
var Sizes = []Size{Small, Medium, Large}

// UnitStats is one troop type's line of the seed's table.
type UnitStats struct {
	Cost     int      `json:"cost"`
	HP       int      `json:"hp"`
	ATK      int      `json:"atk"`
	DEF      int      `json:"def"`
	Mobility int      `json:"mobility"`
	Range    int      `json:"range"`
	Damage   DiceSpec `json:"damage"`
	// StructureMultiplier multiplies the damage the troop deals to
	// structures: 2 for the mech (ruling 4), 1 for the others.
	StructureMultiplier int `json:"structureMultiplier"`
}

// Melee reports whether the troop fights at range 1 only.
func (u UnitStats) Melee() bool { return u.Range == 1 }

// StructureStats is one structure kind's line of the seed's table, as owned
// by a player; NeutralRules derive the neutral version.
type StructureStats struct {
	HP     int      `json:"hp"`
	ATK    int      `json:"atk"`
	DEF    int      `json:"def"`
	Range  int      `json:"range"` // 0: the structure never fires
	Damage DiceSpec `json:"damage"`
	Income int      `json:"income"` // coins to the owner at the start of each own turn
	Spawn  bool     `json:"spawn"`  // troops may be bought next to it
}

// TerrainStats is one terrain type's line of the seed's table.
type TerrainStats struct {
	Passable bool `json:"passable"`
	Cost     int  `json:"cost"` // movement points to enter; 0 when impassable
	ATK      int  `json:"atk"`  // added to the hit roll of a unit attacking from here
	DEF      int  `json:"def"`  // added to the DEF of a unit attacked here
}

// SizeRules are the numbers that depend on the map size.
type SizeRules struct {
	Radius         int `json:"radius"`         // hexes from the centre to the edge (ruling 1)
	Outposts       int `json:"outposts"`       // neutral outposts
	CommandCenters int `json:"commandCenters"` // neutral command centers
	// SuddenDeathRound is the first round of sudden death (ruling 11).
	SuddenDeathRound int `json:"suddenDeathRound"`
}

// Neutral returns the number of neutral structures.
func (s SizeRules) Neutral() int { return s.Outposts + s.CommandCenters }

// NeutralRules weaken unowned structures (ruling 5).
type NeutralRules struct {
	ATKPenalty int `json:"atkPenalty"` // subtracted from ATK
	// DieLadder lists die sizes in ascending order; a neutral structure's
	// damage dice are one step lower on it (d3 < d4 < d6 < d8).
	DieLadder []int `json:"dieLadder"`
}

// EconomyRules are the seed's §8.
type EconomyRules struct {
	StartCoins int `json:"startCoins"`
	Income     int `json:"income"` // passive income at the start of each own turn
}

// RecoveryRules are healing and repair.
type RecoveryRules struct {
	Heal  int `json:"heal"`  // troop HP at the start of its owner's turn if it fought nobody since the last one (ruling 7)
	Regen int `json:"regen"` // owned structure HP at the start of its owner's turn (ruling 6)
}

// SuddenDeathRules are ruling 11's numbers.
type SuddenDeathRules struct {
	ShrinkPerRound int `json:"shrinkPerRound"` // safe radius lost each sudden-death round
	FirstDamage    int `json:"firstDamage"`    // storm damage the first sudden-death round
	DamageStep     int `json:"damageStep"`     // added each following round
}

// TimerRules are the clocks (rulings 9, 12).
type TimerRules struct {
	TurnSeconds        []int `json:"turnSeconds"`        // the timers a host may choose
	DefaultTurnSeconds int   `json:"defaultTurnSeconds"` // used when the host chooses none
	DisconnectSeconds  int   `json:"disconnectSeconds"`  // without a heartbeat: disconnected
	ForfeitSeconds     int   `json:"forfeitSeconds"`     // disconnected this long: forfeit
	JoinSeconds        int   `json:"joinSeconds"`        // a room nobody joins is cancelled
}

// EmoteRules rate-limit emotes (ruling 13).
type EmoteRules struct {
	Limit         int `json:"limit"`         // emotes a player may send per window
	WindowSeconds int `json:"windowSeconds"` // the sliding window
	Keep          int `json:"keep"`          // emotes kept in the state, newest last
}

// MapRules constrain the generator (ruling 2).
type MapRules struct {
	MinPassablePercent int `json:"minPassablePercent"`
	// MinSpacing is the least distance between two structures.
	MinSpacing int `json:"minSpacing"`
}

// Config is the whole balance of Hex & Dice as data (ruling 3). A game
// copies the config it was created with, so changing the operator's config
// document never changes a game in progress. Rules never modify it.
type Config struct {
	Units          map[UnitType]UnitStats           `json:"units"`
	Structures     map[StructureKind]StructureStats `json:"structures"`
	Terrain        map[Terrain]TerrainStats         `json:"terrain"`
	Sizes          map[Size]SizeRules               `json:"sizes"`
	Neutral        NeutralRules                     `json:"neutral"`
	Economy        EconomyRules                     `json:"economy"`
	Recovery       RecoveryRules                    `json:"recovery"`
	SuddenDeath    SuddenDeathRules                 `json:"suddenDeath"`
	DominanceTurns int                              `json:"dominanceTurns"` // ruling 10
	SurrenderRound int                              `json:"surrenderRound"` // ruling 12
	Timers         TimerRules                       `json:"timers"`
	Emotes         EmoteRules                       `json:"emotes"`
	Map            MapRules                         `json:"map"`
	// Vision is fog of war's (fog games only; empty otherwise, and a fog
	// game created without it gets DefaultVision).
	Vision VisionRules `json:"vision,omitzero"`
}

// DefaultConfig returns the seed's tables and the rulings' numbers.
func DefaultConfig() Config {
	return Config{
		Units: map[UnitType]UnitStats{
			Marine:    {Cost: 100, HP: 10, ATK: 3, DEF: 14, Mobility: 3, Range: 1, Damage: D(1, 6, 1), StructureMultiplier: 1},
			Sniper:    {Cost: 150, HP: 6, ATK: 4, DEF: 11, Mobility: 2, Range: 3, Damage: D(1, 8, 0), StructureMultiplier: 1},
			Hoverbike: {Cost: 200, HP: 8, ATK: 4, DEF: 12, Mobility: 5, Range: 1, Damage: D(1, 8, 1), StructureMultiplier: 1},
			Mech:      {Cost: 350, HP: 12, ATK: 5, DEF: 10, Mobility: 1, Range: 3, Damage: D(2, 6, 2), StructureMultiplier: 2},
		},
		Structures: map[StructureKind]StructureStats{
			Outpost:       {HP: 8, ATK: 2, DEF: 12, Range: 2, Damage: D(1, 4, 0), Income: 50, Spawn: true},
			CommandCenter: {HP: 15, ATK: 4, DEF: 15, Range: 3, Damage: D(1, 6, 2), Income: 50, Spawn: true},
			HQ:            {HP: 20, ATK: 3, DEF: 16, Range: 2, Damage: D(1, 6, 0), Income: 0, Spawn: true},
		},
		Terrain: map[Terrain]TerrainStats{
			Plains:    {Passable: true, Cost: 1},
			Forest:    {Passable: true, Cost: 2, DEF: 2},
			Hills:     {Passable: true, Cost: 2, ATK: 1, DEF: 1},
			Water:     {},
			Mountains: {},
		},
		Sizes: map[Size]SizeRules{
			Small:  {Radius: 6, Outposts: 2, CommandCenters: 1, SuddenDeathRound: 20},
			Medium: {Radius: 9, Outposts: 4, CommandCenters: 1, SuddenDeathRound: 30},
			Large:  {Radius: 12, Outposts: 4, CommandCenters: 3, SuddenDeathRound: 40},
		},
		Neutral:        NeutralRules{ATKPenalty: 2, DieLadder: []int{2, 3, 4, 6, 8, 10, 12, 20}},
		Economy:        EconomyRules{StartCoins: 1000, Income: 100},
		Recovery:       RecoveryRules{Heal: 2, Regen: 2},
		SuddenDeath:    SuddenDeathRules{ShrinkPerRound: 1, FirstDamage: 1, DamageStep: 1},
		DominanceTurns: 3,
		SurrenderRound: 5,
		Timers: TimerRules{TurnSeconds: []int{60, 90, 120}, DefaultTurnSeconds: 90,
			DisconnectSeconds: 60, ForfeitSeconds: 60, JoinSeconds: 1800},
		Emotes: EmoteRules{Limit: 3, WindowSeconds: 10, Keep: 5},
		Map:    MapRules{MinPassablePercent: 60, MinSpacing: 3},
	}
}

// Validate checks every number is one the rules can play with.
//
// Errors: EINVALID, naming the first field at fault (e.g. "config:
// units.mech.mobility must be 1 to 20, not 0").
func (c Config) Validate() error {
	if err := c.validate(); err != nil {
		return domain.Errorf(domain.EINVALID, "config: %v", err)
	}
	return nil
}

func between(field string, v, lo, hi int) error {
	if v < lo || v > hi {
		return fmt.Errorf("%s must be %d to %d, not %d", field, lo, hi, v)
	}
	return nil
}

// check returns the first error of errs.
func check(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// sameKeys checks that m has exactly the keys want: a key it does not know
// is "unknown", one it lacks is "{path}.{key} is missing".
func sameKeys[K ~string, V any](path, noun string, m map[K]V, want []K) error {
	for k := range m {
		if !slices.Contains(want, k) {
			names := make([]string, len(want))
			for i, w := range want {
				names[i] = string(w)
			}
			return fmt.Errorf("unknown %s %q (want %s)", noun, k, strings.Join(names, ", "))
		}
	}
	for _, k := range want {
		if _, ok := m[k]; !ok {
			return fmt.Errorf("%s.%s is missing", path, k)
		}
	}
	return nil
}

func (c Config) validate() error {
	if err := sameKeys("units", "unit type", c.Units, UnitTypes); err != nil {
		return err
	}
	for _, k := range UnitTypes {
		u := c.Units[k]
		f := "units." + string(k) + "."
		if err := check(
			between(f+"cost", u.Cost, 1, 100000),
			between(f+"hp", u.HP, 1, 1000),
			between(f+"atk", u.ATK, -20, 50),
			between(f+"def", u.DEF, 0, 60),
			between(f+"mobility", u.Mobility, 1, 20),
			between(f+"range", u.Range, 1, 20),
			between(f+"structureMultiplier", u.StructureMultiplier, 1, 10),
		); err != nil {
			return err
		}
		if err := u.Damage.validate(); err != nil {
			return fmt.Errorf("%sdamage %v", f, err)
		}
	}
	if err := sameKeys("structures", "structure kind", c.Structures, structureKinds); err != nil {
		return err
	}
	for _, k := range structureKinds {
		s := c.Structures[k]
		f := "structures." + string(k) + "."
		if err := check(
			between(f+"hp", s.HP, 1, 1000),
			between(f+"atk", s.ATK, -20, 50),
			between(f+"def", s.DEF, 0, 60),
			between(f+"range", s.Range, 0, 20),
			between(f+"income", s.Income, 0, 10000),
		); err != nil {
			return err
		}
		if err := s.Damage.validate(); err != nil {
			return fmt.Errorf("%sdamage %v", f, err)
		}
	}
	if !c.Vision.empty() {
		if err := c.Vision.validate(); err != nil {
			return err
		}
	}
	if !c.Structures[HQ].Spawn {
		return fmt.Errorf("structures.hq.spawn must be true: the HQ is where a player's first troops appear")
	}
	if err := sameKeys("terrain", "terrain", c.Terrain, terrains[:]); err != nil {
		return err
	}
	for _, k := range terrains {
		t := c.Terrain[k]
		f := "terrain." + string(k) + "."
		if t.Passable {
			if err := between(f+"cost", t.Cost, 1, 10); err != nil {
				return err
			}
		} else if t.Cost != 0 {
			return fmt.Errorf("%scost must be 0 for impassable terrain, not %d", f, t.Cost)
		}
		if err := check(between(f+"atk", t.ATK, -10, 10), between(f+"def", t.DEF, -10, 10)); err != nil {
			return err
		}
	}
	if !c.Terrain[Plains].Passable {
		return fmt.Errorf("terrain.plains.passable must be true: structures and carved paths stand on plains")
	}
	if err := sameKeys("sizes", "map size", c.Sizes, Sizes); err != nil {
		return err
	}
	for _, k := range Sizes {
		s := c.Sizes[k]
		f := "sizes." + string(k) + "."
		if err := check(
			between(f+"radius", s.Radius, 3, 30),
			between(f+"outposts", s.Outposts, 0, 50),
			between(f+"commandCenters", s.CommandCenters, 0, 50),
			between(f+"suddenDeathRound", s.SuddenDeathRound, 1, 1000),
		); err != nil {
			return err
		}
		if s.Outposts%2 == 1 && s.CommandCenters%2 == 1 {
			return fmt.Errorf("%s: outposts and commandCenters cannot both be odd: the map is symmetric, so all but one neutral structure come in pairs and only one can stand in the centre", k)
		}
		if room := HexCount(s.Radius) / 16; s.Neutral() > room {
			return fmt.Errorf("%s: %d neutral structures do not fit a radius-%d map (at most %d)", k, s.Neutral(), s.Radius, room)
		}
	}
	if len(c.Neutral.DieLadder) == 0 {
		return fmt.Errorf("neutral.dieLadder must list die sizes, e.g. [2,3,4,6,8,10,12,20]")
	}
	for i, v := range c.Neutral.DieLadder {
		if v < 1 || v > 100 || (i > 0 && v <= c.Neutral.DieLadder[i-1]) {
			return fmt.Errorf("neutral.dieLadder must be ascending die sizes of 1 to 100, not %v", c.Neutral.DieLadder)
		}
	}
	t := c.Timers
	if len(t.TurnSeconds) == 0 {
		return fmt.Errorf("timers.turnSeconds must list at least one timer")
	}
	for i, v := range t.TurnSeconds {
		if err := between("timers.turnSeconds", v, 10, 3600); err != nil {
			return err
		}
		if slices.Contains(t.TurnSeconds[:i], v) {
			return fmt.Errorf("timers.turnSeconds lists %d twice", v)
		}
	}
	if !slices.Contains(t.TurnSeconds, t.DefaultTurnSeconds) {
		return fmt.Errorf("timers.defaultTurnSeconds %d is not one of timers.turnSeconds %v", t.DefaultTurnSeconds, t.TurnSeconds)
	}
	maxRadius := 0
	for _, s := range c.Sizes {
		maxRadius = max(maxRadius, s.Radius)
	}
	return check(
		between("neutral.atkPenalty", c.Neutral.ATKPenalty, 0, 20),
		between("economy.startCoins", c.Economy.StartCoins, 0, 1000000),
		between("economy.income", c.Economy.Income, 0, 100000),
		between("recovery.heal", c.Recovery.Heal, 0, 100),
		between("recovery.regen", c.Recovery.Regen, 0, 100),
		between("suddenDeath.shrinkPerRound", c.SuddenDeath.ShrinkPerRound, 1, maxRadius),
		between("suddenDeath.firstDamage", c.SuddenDeath.FirstDamage, 1, 100),
		between("suddenDeath.damageStep", c.SuddenDeath.DamageStep, 0, 100),
		between("dominanceTurns", c.DominanceTurns, 1, 100),
		between("surrenderRound", c.SurrenderRound, 1, 1000),
		between("timers.disconnectSeconds", t.DisconnectSeconds, 5, 3600),
		between("timers.forfeitSeconds", t.ForfeitSeconds, 0, 3600),
		between("timers.joinSeconds", t.JoinSeconds, 60, 7*24*3600),
		between("emotes.limit", c.Emotes.Limit, 1, 100),
		between("emotes.windowSeconds", c.Emotes.WindowSeconds, 1, 3600),
		between("emotes.keep", c.Emotes.Keep, 1, 50),
		between("map.minPassablePercent", c.Map.MinPassablePercent, 0, 90),
		between("map.minSpacing", c.Map.MinSpacing, 1, 6),
	)
}
