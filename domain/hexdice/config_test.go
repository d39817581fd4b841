package hexdice

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
)

func TestDefaultConfigIsTheSeedsTables(t *testing.T) {
	c := DefaultConfig()
	require.NoError(t, c.Validate())
	units := map[UnitType]string{ // cost hp atk def mobility range damage
		Marine:    "100 10 3 14 3 1 1D6+1",
		Sniper:    "150 6 4 11 2 3 1D8",
		Hoverbike: "200 8 4 12 5 1 1D8+1",
		Mech:      "350 12 5 10 1 3 2D6+2",
	}
	for u, want := range units {
		s := c.Units[u]
		got := itoa(s.Cost) + " " + itoa(s.HP) + " " + itoa(s.ATK) + " " + itoa(s.DEF) + " " + itoa(s.Mobility) + " " + itoa(s.Range) + " " + s.Damage.String()
		require.Equal(t, want, got, "%s: got %s, want %s", u, got, want)
	}
	require.Equal(t, 2, c.Units[Mech].StructureMultiplier)
	require.Equal(t, 1, c.Units[Marine].StructureMultiplier)
	structures := map[StructureKind]string{ // hp atk def range damage income
		Outpost:       "8 2 12 2 1D4 50",
		CommandCenter: "15 4 15 3 1D6+2 50",
		HQ:            "20 3 16 2 1D6 0",
	}
	for k, want := range structures {
		s := c.Structures[k]
		got := itoa(s.HP) + " " + itoa(s.ATK) + " " + itoa(s.DEF) + " " + itoa(s.Range) + " " + s.Damage.String() + " " + itoa(s.Income)
		require.Equal(t, want, got, "%s", k)
		require.True(t, s.Spawn)
	}
	require.Equal(t, TerrainStats{Passable: true, Cost: 1}, c.Terrain[Plains])
	require.Equal(t, TerrainStats{Passable: true, Cost: 2, DEF: 2}, c.Terrain[Forest])
	require.Equal(t, TerrainStats{Passable: true, Cost: 2, ATK: 1, DEF: 1}, c.Terrain[Hills])
	require.False(t, c.Terrain[Water].Passable)
	require.False(t, c.Terrain[Mountains].Passable)
	for size, want := range map[Size][3]int{Small: {6, 3, 20}, Medium: {9, 5, 30}, Large: {12, 7, 40}} {
		s := c.Sizes[size]
		require.Equal(t, want, [3]int{s.Radius, s.Neutral(), s.SuddenDeathRound}, "%s", size)
	}
	require.Equal(t, HexCount(6), 127)
	require.Equal(t, HexCount(9), 271)
	require.Equal(t, HexCount(12), 469)
	require.Equal(t, EconomyRules{StartCoins: 1000, Income: 100}, c.Economy)
	require.Equal(t, []int{60, 90, 120}, c.Timers.TurnSeconds)
}

func TestConfigValidate(t *testing.T) {
	tests := []struct {
		name   string
		change func(*Config)
		msg    string // "" for valid
	}{
		{"default", func(*Config) {}, ""},
		{"cheaper marine", func(c *Config) { u := c.Units[Marine]; u.Cost = 80; c.Units[Marine] = u }, ""},
		{"missing unit", func(c *Config) { delete(c.Units, Sniper) }, "units.sniper is missing"},
		{"unknown unit", func(c *Config) { c.Units["tank"] = c.Units[Mech] }, `unknown unit type "tank"`},
		{"zero mobility", func(c *Config) { u := c.Units[Mech]; u.Mobility = 0; c.Units[Mech] = u }, "units.mech.mobility must be 1 to 20, not 0"},
		{"negative cost", func(c *Config) { u := c.Units[Marine]; u.Cost = -5; c.Units[Marine] = u }, "units.marine.cost"},
		{"zero hp", func(c *Config) { u := c.Units[Sniper]; u.HP = 0; c.Units[Sniper] = u }, "units.sniper.hp"},
		{"no range", func(c *Config) { u := c.Units[Sniper]; u.Range = 0; c.Units[Sniper] = u }, "units.sniper.range"},
		{"zero multiplier", func(c *Config) { u := c.Units[Mech]; u.StructureMultiplier = 0; c.Units[Mech] = u }, "structureMultiplier"},
		{"no dice", func(c *Config) { u := c.Units[Marine]; u.Damage = D(0, 6, 1); c.Units[Marine] = u }, "units.marine.damage 0D6+1: 1 to 10 dice"},
		{"one-sided die", func(c *Config) { u := c.Units[Marine]; u.Damage = D(1, 1, 0); c.Units[Marine] = u }, "2 to 100 sides"},
		{"missing structure", func(c *Config) { delete(c.Structures, Outpost) }, "structures.outpost is missing"},
		{"unknown structure", func(c *Config) { c.Structures["tower"] = c.Structures[HQ] }, `unknown structure kind "tower"`},
		{"zero hp hq", func(c *Config) { s := c.Structures[HQ]; s.HP = 0; c.Structures[HQ] = s }, "structures.hq.hp"},
		{"hq no spawn", func(c *Config) { s := c.Structures[HQ]; s.Spawn = false; c.Structures[HQ] = s }, "structures.hq.spawn must be true"},
		{"missing terrain", func(c *Config) { delete(c.Terrain, Hills) }, "terrain.hills is missing"},
		{"unknown terrain", func(c *Config) { c.Terrain["swamp"] = c.Terrain[Forest] }, `unknown terrain "swamp"`},
		{"passable cost 0", func(c *Config) { c.Terrain[Forest] = TerrainStats{Passable: true} }, "terrain.forest.cost must be 1 to 10, not 0"},
		{"impassable with cost", func(c *Config) { c.Terrain[Water] = TerrainStats{Cost: 3} }, "terrain.water.cost must be 0"},
		{"plains impassable", func(c *Config) { c.Terrain[Plains] = TerrainStats{} }, "terrain.plains.passable must be true"},
		{"missing size", func(c *Config) { delete(c.Sizes, Large) }, "sizes.large is missing"},
		{"tiny radius", func(c *Config) { s := c.Sizes[Small]; s.Radius = 2; c.Sizes[Small] = s }, "sizes.small.radius"},
		{"both odd", func(c *Config) { s := c.Sizes[Medium]; s.Outposts = 3; c.Sizes[Medium] = s }, "cannot both be odd"},
		{"too many structures", func(c *Config) { s := c.Sizes[Small]; s.Outposts = 20; c.Sizes[Small] = s }, "do not fit"},
		{"sudden death at 0", func(c *Config) { s := c.Sizes[Small]; s.SuddenDeathRound = 0; c.Sizes[Small] = s }, "suddenDeathRound"},
		{"empty ladder", func(c *Config) { c.Neutral.DieLadder = nil }, "neutral.dieLadder must list"},
		{"unsorted ladder", func(c *Config) { c.Neutral.DieLadder = []int{4, 3} }, "ascending"},
		{"no timers", func(c *Config) { c.Timers.TurnSeconds = nil }, "timers.turnSeconds must list"},
		{"timer twice", func(c *Config) { c.Timers.TurnSeconds = []int{60, 60} }, "lists 60 twice"},
		{"short timer", func(c *Config) { c.Timers.TurnSeconds = []int{5}; c.Timers.DefaultTurnSeconds = 5 }, "timers.turnSeconds must be 10 to 3600"},
		{"default not offered", func(c *Config) { c.Timers.DefaultTurnSeconds = 45 }, "defaultTurnSeconds 45 is not one of"},
		{"negative start coins", func(c *Config) { c.Economy.StartCoins = -1 }, "economy.startCoins"},
		{"no storm", func(c *Config) { c.SuddenDeath.FirstDamage = 0 }, "suddenDeath.firstDamage"},
		{"no shrink", func(c *Config) { c.SuddenDeath.ShrinkPerRound = 0 }, "suddenDeath.shrinkPerRound"},
		{"no dominance", func(c *Config) { c.DominanceTurns = 0 }, "dominanceTurns"},
		{"disconnect 1 s", func(c *Config) { c.Timers.DisconnectSeconds = 1 }, "timers.disconnectSeconds"},
		{"no emotes", func(c *Config) { c.Emotes.Limit = 0 }, "emotes.limit"},
		{"all passable", func(c *Config) { c.Map.MinPassablePercent = 95 }, "map.minPassablePercent"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := DefaultConfig()
			tt.change(&c)
			err := c.Validate()
			if tt.msg == "" {
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			require.Equal(t, domain.EINVALID, domain.ErrorCode(err))
			require.Contains(t, domain.ErrorMessage(err), tt.msg)
			require.Contains(t, domain.ErrorMessage(err), "config: ")
		})
	}
}

func TestConfigJSON(t *testing.T) {
	b, err := json.Marshal(DefaultConfig())
	require.NoError(t, err)
	require.Contains(t, string(b), `"damage":"2D6+2"`)
	require.Contains(t, string(b), `"marine":{"cost":100`)
	var back Config
	require.NoError(t, json.Unmarshal(b, &back))
	require.Equal(t, DefaultConfig(), back)

	err = json.Unmarshal([]byte(`{"units":{"marine":{"damage":"lots"}}}`), &back)
	require.ErrorContains(t, err, `dice "lots"`)
}

func TestDiceSpec(t *testing.T) {
	tests := []struct {
		in                  string
		want                DiceSpec
		half, down, doubled string
		err                 bool
	}{
		{in: "1D6+1", want: D(1, 6, 1), half: "1D3", down: "1D4+1", doubled: "2D6+1"},
		{in: "1D8+1", want: D(1, 8, 1), half: "1D4", down: "1D6+1", doubled: "2D8+1"},
		{in: "2D6+2", want: D(2, 6, 2), half: "2D3+1", down: "2D4+2", doubled: "4D6+2"},
		{in: "1D8", want: D(1, 8, 0), half: "1D4", down: "1D6", doubled: "2D8"},
		{in: "1D4", want: D(1, 4, 0), half: "1D2", down: "1D3", doubled: "2D4"},
		{in: "1d6-1", want: D(1, 6, -1), half: "1D3", down: "1D4-1", doubled: "2D6-1"},
		{in: "1D3", want: D(1, 3, 0), half: "1D1", down: "1D2", doubled: "2D3"},
		{in: "1D5", want: D(1, 5, 0), half: "1D2", down: "1D4", doubled: "2D5"},
		{in: "1D2", want: D(1, 2, 0), half: "1D1", down: "1D2", doubled: "2D2"},
		{in: "D6", err: true},
		{in: "1D", err: true},
		{in: "1D6+", err: true},
		{in: "xD6", err: true},
		{in: "", err: true},
	}
	ladder := DefaultConfig().Neutral.DieLadder
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseDice(tt.in)
			if tt.err {
				require.Error(t, err)
				require.Equal(t, domain.EINVALID, domain.ErrorCode(err))
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.want, got)
			require.Equal(t, tt.half, got.Half().String(), "half")
			require.Equal(t, tt.down, got.StepDown(ladder).String(), "step down")
			require.Equal(t, tt.doubled, got.Doubled().String(), "doubled")
		})
	}
}

func TestDiceSpecRoll(t *testing.T) {
	rolls, total := D(2, 6, 2).Roll(domain.Script(3, 5))
	require.Equal(t, []int{3, 5}, rolls)
	require.Equal(t, 10, total)
	rolls, total = D(1, 1, 0).Roll(domain.Script()) // a one-sided die rolls nothing
	require.Equal(t, []int{1}, rolls)
	require.Equal(t, 1, total)
	_, total = D(1, 4, -3).Roll(domain.Script(1))
	require.Equal(t, 0, total, "never below 0")
}

func TestHexGeometry(t *testing.T) {
	require.Equal(t, 0, Distance(Hex{2, -1}, Hex{2, -1}))
	require.Equal(t, 1, Distance(Hex{0, 0}, Hex{1, -1}))
	require.Equal(t, 3, Distance(Hex{0, 0}, Hex{3, -3}))
	require.Equal(t, 4, Distance(Hex{-2, 0}, Hex{1, 1}))
	for d := 0; d < 6; d++ {
		n := Hex{2, -3}.Neighbour(d)
		require.Equal(t, 1, Distance(Hex{2, -3}, n))
		require.Equal(t, Hex{2, -3}, n.Neighbour((d+3)%6), "opposite directions cancel")
	}
	require.Equal(t, Hex{-2, 3}, Hex{2, -3}.Rotate180())
	g := newGrid(4)
	all := g.all()
	require.Len(t, all, HexCount(4))
	for _, h := range all {
		require.Equal(t, h, g.hex(g.index(h)))
		require.True(t, g.contains(h.Rotate180()))
	}
	require.False(t, g.contains(Hex{5, 0}))
	require.False(t, g.contains(Hex{3, 2}))
}
