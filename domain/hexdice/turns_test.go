package hexdice

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/rulestest"
)

// sitesWith returns the default HQs plus extra neutral sites.
func sitesWith(extra ...Site) []Site {
	return append([]Site{{ID: "hq0", Kind: HQ, Hex: at(0, -5), Owner: 0}, {ID: "hq1", Kind: HQ, Hex: at(0, 5), Owner: 1}}, extra...)
}

// bobsTurn returns rules and a game in which alice plays first and it is
// bob's turn (turn 2 of round 1), with troops: bob's endTurn starts round 2.
func bobsTurn(t testing.TB, terrain map[Hex]Terrain, sites []Site, troops ...Troop) (Rules, Game) {
	t.Helper()
	r, g := duel(t, terrain, sites, troops...)
	g.Turn, g.Round, g.Current = 2, 1, 1
	return r, g
}

func TestStructureTargeting(t *testing.T) {
	op := Site{ID: "n1", Kind: Outpost, Hex: at(3, 0), Owner: Neutral}
	cc := Site{ID: "n1", Kind: CommandCenter, Hex: at(3, 0), Owner: Neutral}
	tests := []struct {
		name   string
		site   Site
		owner  Seat
		troops []Troop
		dice   []int
		want   int // the troop fired at; 0 for none
		data   AttackData
	}{
		{
			name: "lowest HP first", site: op, owner: Neutral,
			troops: []Troop{{ID: 1, Owner: 0, Type: Marine, Hex: at(3, -1), HP: 7}, {ID: 2, Owner: 1, Type: Marine, Hex: at(1, 0), HP: 5}},
			dice:   []int{14, 2}, want: 2,
			data: AttackData{Kind: AttackStructure, Natural: 14, Modifier: 0, Total: 14, Defense: 14, Hit: true, Dice: "1D3", Rolls: []int{2}, Damage: 2, HP: 3},
		},
		{
			name: "equal HP: the nearest", site: op, owner: Neutral,
			troops: []Troop{{ID: 1, Owner: 0, Type: Marine, Hex: at(1, 0), HP: 6}, {ID: 2, Owner: 1, Type: Marine, Hex: at(3, -1), HP: 6}},
			dice:   []int{13}, want: 2,
			data: AttackData{Kind: AttackStructure, Natural: 13, Modifier: 0, Total: 13, Defense: 14, HP: 6},
		},
		{
			name: "equal HP and distance: the lowest id (in the forest: DEF 14+2)", site: op, owner: Neutral,
			troops: []Troop{{ID: 4, Owner: 0, Type: Marine, Hex: at(3, -1)}, {ID: 3, Owner: 1, Type: Marine, Hex: at(2, 0)}},
			dice:   []int{20, 3, 1}, want: 3,
			data: AttackData{Kind: AttackStructure, Natural: 20, Modifier: 0, Total: 20, Defense: 16, Hit: true, Critical: true, Dice: "2D3", Rolls: []int{3, 1}, Damage: 4, HP: 6},
		},
		{
			name: "an owned structure fires at enemies only, at full stats", site: op, owner: 0,
			troops: []Troop{{ID: 1, Owner: 0, Type: Marine, Hex: at(3, -1), HP: 1}, {ID: 2, Owner: 1, Type: Marine, Hex: at(1, 0)}},
			dice:   []int{12, 4}, want: 2,
			data: AttackData{Kind: AttackStructure, Natural: 12, Modifier: 2, Total: 14, Defense: 14, Hit: true, Dice: "1D4", Rolls: []int{4}, Damage: 4, HP: 6},
		},
		{
			name: "a neutral command center: ATK 4−2, 1D6+2 → 1D4+2", site: cc, owner: Neutral,
			troops: []Troop{{ID: 1, Owner: 0, Type: Sniper, Hex: at(0, 0)}},
			dice:   []int{9, 4}, want: 1,
			data: AttackData{Kind: AttackStructure, Natural: 9, Modifier: 2, Total: 11, Defense: 11, Hit: true, Dice: "1D4+2", Rolls: []int{4}, Damage: 6, HP: 0},
		},
		{
			name: "out of range: no roll", site: op, owner: Neutral,
			troops: []Troop{{ID: 1, Owner: 0, Type: Marine, Hex: at(0, 0)}},
		},
		{
			name: "terrain DEF counts for the target", site: op, owner: Neutral,
			troops: []Troop{{ID: 1, Owner: 0, Type: Marine, Hex: at(2, 0)}},
			dice:   []int{15}, want: 1,
			data: AttackData{Kind: AttackStructure, Natural: 15, Modifier: 0, Total: 15, Defense: 16, HP: 10},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := testMap(t, map[Hex]Terrain{at(2, 0): Forest}, sitesWith(tt.site)...)
			g := withTroops(started(t, m, Alternating, 0), tt.troops...)
			g = setStructure(g, "n1", func(s *Structure) { s.Owner = tt.owner })
			d := domain.Script(tt.dice...)
			s := newStep(g.clone(), m, t0, d)
			s.fireStructure(2)
			require.Zero(t, d.Remaining())
			got := rulestest.All[AttackData](t, s.events, EventAttacked)
			if tt.want == 0 {
				require.Empty(t, got)
				return
			}
			require.Len(t, got, 1)
			require.Equal(t, tt.want, got[0].Target.Troop)
			got[0].Attacker, got[0].Target = Unit{}, Unit{}
			require.Equal(t, tt.data, got[0])
			if tt.data.HP <= 0 {
				require.Negative(t, s.g.TroopByID(tt.want))
				killed := rulestest.All[TroopKilledData](t, s.events, EventTroopKilled)
				require.Equal(t, CauseStructure, killed[0].Cause)
				require.Equal(t, tt.owner, killed[0].By)
				return
			}
			require.True(t, troop(t, s.g, tt.want).Engaged, "a troop fired at does not heal")
		})
	}
}

// TestRoundStart follows bob's endTurn into round 2: the neutral outpost
// fires at the start of the round, then alice's turn starts: income 100 +
// 50 per outpost or command center, repairs, her structures fire, her
// troops heal.
func TestRoundStart(t *testing.T) {
	sites := sitesWith(
		Site{ID: "n1", Kind: Outpost, Hex: at(3, 0), Owner: Neutral},
		Site{ID: "n2", Kind: Outpost, Hex: at(-3, 0), Owner: Neutral},
		Site{ID: "n3", Kind: CommandCenter, Hex: at(0, 2), Owner: Neutral})
	r, g := bobsTurn(t, nil, sites,
		Troop{ID: 1, Owner: 1, Type: Marine, Hex: at(4, -1), HP: 4},    // next to n1: neutral fire
		Troop{ID: 2, Owner: 1, Type: Sniper, Hex: at(-5, 1), HP: 6},    // 2 from n2 (alice's): her fire
		Troop{ID: 3, Owner: 0, Type: Marine, Hex: at(-6, 6), HP: 5},    // heals 2
		Troop{ID: 4, Owner: 0, Type: Marine, Hex: at(-6, 5), HP: 9},    // heals 1, to full
		Troop{ID: 5, Owner: 0, Type: Marine, Hex: at(-6, 4), HP: 5},    // engaged: no heal
		Troop{ID: 6, Owner: 0, Type: Hoverbike, Hex: at(6, -6), HP: 8}, // full
	)
	g.Troops[4].Engaged = true
	g = setStructure(g, "n2", func(s *Structure) { s.Owner, s.HP = 0, 3 })
	g = setStructure(g, "n3", func(s *Structure) { s.Owner, s.HP = 0, 14 })
	g.Players[0].Coins = 10
	g, out := act(t, r, g, bob, ActionEndTurn, `{}`, t0.Add(5*time.Second),
		14, 2, // n1 (neutral, 1D3) hits bob's marine for 2
		3, // n2 (alice's outpost, ATK 2) misses bob's sniper: 5 < 11
	)
	require.Equal(t, []string{EventTurnEnded, EventRoundStarted, EventAttacked, EventTurnStarted, EventRepaired, EventRepaired,
		EventAttacked, EventHealed, EventHealed}, rulestest.Types(out.Events))
	require.Equal(t, 2, g.Round)
	require.Equal(t, Seat(0), g.Current)
	require.Equal(t, 3, g.Turn)
	require.Equal(t, t0.Add(65*time.Second), g.TurnDeadline)
	require.Equal(t, 2, troop(t, g, 1).HP)
	require.Equal(t, 10+200, g.Players[0].Coins, "income 100 + 50 + 50")
	require.Equal(t, TurnStartedData{Seat: 0, Round: 2, Turn: 3, Deadline: t0.Add(65 * time.Second), Income: 200, Coins: 210},
		rulestest.All[TurnStartedData](t, out.Events, EventTurnStarted)[0])
	require.Equal(t, 5, structure(t, g, "n2").HP, "outposts repair 2 HP")
	require.Equal(t, 15, structure(t, g, "n3").HP, "repairs stop at max")
	require.Equal(t, []RepairedData{{"n2", 2, 5}, {"n3", 1, 15}}, rulestest.All[RepairedData](t, out.Events, EventRepaired))
	require.Equal(t, []HealedData{{3, 2, 7}, {4, 1, 10}}, rulestest.All[HealedData](t, out.Events, EventHealed))
	require.Equal(t, 5, troop(t, g, 5).HP)
	for _, tr := range g.Troops {
		if tr.Owner == 0 {
			require.False(t, tr.Engaged || tr.Moved || tr.Attacked, "troop %d reset for the turn", tr.ID)
			require.True(t, tr.Ready)
		}
	}
	require.True(t, troop(t, g, 2).Engaged, "bob's sniper was fired at")
}

func TestIncome(t *testing.T) {
	tests := []struct {
		name  string
		owned []string
		want  int
	}{
		{"passive only", nil, 100},
		{"an outpost", []string{"n1"}, 150},
		{"outpost and command center", []string{"n1", "n3"}, 200},
		{"every structure", []string{"n1", "n2", "n3"}, 250},
	}
	sites := sitesWith(
		Site{ID: "n1", Kind: Outpost, Hex: at(3, 0), Owner: Neutral},
		Site{ID: "n2", Kind: Outpost, Hex: at(-3, 0), Owner: Neutral},
		Site{ID: "n3", Kind: CommandCenter, Hex: at(0, 2), Owner: Neutral})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, g := bobsTurn(t, nil, sites)
			for _, id := range tt.owned {
				g = setStructure(g, id, func(s *Structure) { s.Owner = 0 })
			}
			before := g.Players[0].Coins
			g, _ = act(t, r, g, bob, ActionEndTurn, `{}`, t0)
			require.Equal(t, before+tt.want, g.Players[0].Coins)
			require.Equal(t, tt.want, g.Income(0))
		})
	}
}

func TestBuy(t *testing.T) {
	sites := sitesWith(Site{ID: "n1", Kind: Outpost, Hex: at(3, 0), Owner: Neutral}, Site{ID: "n2", Kind: Outpost, Hex: at(-3, 0), Owner: 0})
	m := testMap(t, map[Hex]Terrain{at(1, -5): Water}, sites...)
	r := rulesFor(m)
	g := started(t, m, Alternating, 0)
	require.Equal(t, 1000+150, g.Players[0].Coins, "start coins plus the first turn's income")
	g = withTroops(g, Troop{ID: 1, Owner: 0, Type: Marine, Hex: at(-1, -4)})

	t.Run("next to the HQ", func(t *testing.T) {
		got, out := act(t, r, g, alice, ActionBuy, `{"unit":"mech","q":0,"r":-4}`, t0)
		require.Equal(t, 800, got.Players[0].Coins)
		tr := troop(t, got, 2)
		require.Equal(t, Troop{ID: 2, Owner: 0, Type: Mech, Hex: at(0, -4), HP: 12}, tr, "not ready until the next turn")
		require.Equal(t, []BoughtData{{Troop: 2, Type: Mech, Hex: at(0, -4), Cost: 350, Coins: 800}}, rulestest.All[BoughtData](t, out.Events, EventBought))
		require.Equal(t, 3, got.NextTroop)
		err := actErr(t, r, got, alice, ActionMove, `{"troop":2,"q":0,"r":-3}`, domain.ECONFLICT)
		require.ErrorContains(t, err, "bought this turn")
		// Ready on alice's next turn.
		got, _ = act(t, r, got, alice, ActionEndTurn, `{}`, t0)
		got, _ = act(t, r, got, bob, ActionEndTurn, `{}`, t0)
		require.True(t, troop(t, got, 2).Ready)
		act(t, r, got, alice, ActionMove, `{"troop":2,"q":0,"r":-3}`, t0)
	})
	t.Run("next to an owned outpost", func(t *testing.T) {
		got, _ := act(t, r, g, alice, ActionBuy, `{"unit":"sniper","q":-2,"r":0}`, t0)
		require.Equal(t, Sniper, troop(t, got, 2).Type)
	})
	t.Run("everything", func(t *testing.T) {
		got := g
		for _, h := range []string{`"q":0,"r":-4`, `"q":-1,"r":-5`, `"q":1,"r":-6`, `"q":0,"r":-6`} {
			got, _ = act(t, r, got, alice, ActionBuy, `{"unit":"marine",`+h+`}`, t0)
		}
		require.Equal(t, 750, got.Players[0].Coins)
	})
	poor := g.clone()
	poor.Players[0].Coins = 349
	tests := []struct {
		name string
		g    Game
		who  domain.Actor
		body string
		code string
		msg  string
	}{
		{"not enough coins", poor, alice, `{"unit":"mech","q":0,"r":-4}`, domain.ECONFLICT, "a mech costs 350 coins, you have 349"},
		{"not your turn", g, bob, `{"unit":"marine","q":0,"r":4}`, domain.ECONFLICT, "not your turn"},
		{"a stranger", g, carol, `{"unit":"marine","q":0,"r":-4}`, domain.EFORBIDDEN, ""},
		{"unknown unit", g, alice, `{"unit":"tank","q":0,"r":-4}`, domain.EINVALID, `unit must be one of marine, sniper, hoverbike, mech, not "tank"`},
		{"no unit", g, alice, `{"q":0,"r":-4}`, domain.EINVALID, "unit must be"},
		{"not next to a spawn", g, alice, `{"unit":"marine","q":0,"r":0}`, domain.EINVALID, "not a free passable hex next to"},
		{"a troop there", g, alice, `{"unit":"marine","q":-1,"r":-4}`, domain.EINVALID, "not a free passable hex"},
		{"water", g, alice, `{"unit":"marine","q":1,"r":-5}`, domain.EINVALID, "not a free passable hex"},
		{"on the HQ", g, alice, `{"unit":"marine","q":0,"r":-5}`, domain.EINVALID, "not a free passable hex"},
		{"next to a neutral outpost", g, alice, `{"unit":"marine","q":2,"r":0}`, domain.EINVALID, "you hold"},
		{"next to the enemy HQ", g, alice, `{"unit":"marine","q":0,"r":4}`, domain.EINVALID, "you hold"},
		{"off the map", g, alice, `{"unit":"marine","q":0,"r":-7}`, domain.EINVALID, "off the map"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := actErr(t, r, tt.g, tt.who, ActionBuy, tt.body, tt.code)
			require.Contains(t, domain.ErrorMessage(err), tt.msg)
		})
	}
}

func TestMove(t *testing.T) {
	// A corridor along r = 0 (forest at q = 2) with a mountain at (0,1).
	terrain := map[Hex]Terrain{at(2, 0): Forest, at(0, 1): Mountains, at(-1, 1): Water, at(1, -1): Water, at(0, -1): Water,
		at(2, -1): Water, at(-1, 0): Hills}
	sites := sitesWith(Site{ID: "n1", Kind: Outpost, Hex: at(-3, 3), Owner: Neutral})
	base := []Troop{{ID: 1, Owner: 0, Type: Marine, Hex: at(0, 0)}}
	tests := []struct {
		name  string
		extra []Troop
		troop int
		to    Hex
		cost  int
		path  []Hex
		code  string // "" for success
		msg   string
	}{
		{name: "plains", troop: 1, to: at(1, 0), cost: 1, path: []Hex{at(1, 0)}},
		{name: "into the forest costs 2", troop: 1, to: at(2, 0), cost: 3, path: []Hex{at(1, 0), at(2, 0)}},
		{name: "hills cost 2", troop: 1, to: at(-1, 0), cost: 2, path: []Hex{at(-1, 0)}},
		{name: "beyond the mobility", troop: 1, to: at(3, 0), code: domain.EINVALID, msg: "cannot reach and stop on (3,0) (mobility 3)"},
		{name: "through a friend", extra: []Troop{{ID: 2, Owner: 0, Type: Marine, Hex: at(1, 0)}}, troop: 1, to: at(2, 0), cost: 3, path: []Hex{at(1, 0), at(2, 0)}},
		{name: "not onto a friend", extra: []Troop{{ID: 2, Owner: 0, Type: Marine, Hex: at(1, 0)}}, troop: 1, to: at(1, 0), code: domain.EINVALID, msg: "cannot reach and stop"},
		{name: "an enemy blocks", extra: []Troop{{ID: 2, Owner: 1, Type: Marine, Hex: at(1, 0)}}, troop: 1, to: at(2, 0), code: domain.EINVALID, msg: "cannot reach"},
		{name: "around an enemy", extra: []Troop{{ID: 2, Owner: 1, Type: Marine, Hex: at(-1, 0)}}, troop: 1, to: at(-2, 1), cost: 3, path: []Hex{at(0, 1), at(-1, 1), at(-2, 1)}, code: domain.EINVALID},
		{name: "water is impassable", troop: 1, to: at(0, -1), code: domain.EINVALID, msg: "cannot reach"},
		{name: "mountains are impassable", troop: 1, to: at(0, 1), code: domain.EINVALID, msg: "cannot reach"},
		{name: "a hoverbike goes far", extra: []Troop{{ID: 2, Owner: 0, Type: Hoverbike, Hex: at(0, 2)}}, troop: 2, to: at(-3, 4), cost: 3, path: []Hex{at(-1, 2), at(-2, 3), at(-3, 4)}},
		{name: "structures block", extra: []Troop{{ID: 2, Owner: 0, Type: Hoverbike, Hex: at(-2, 3)}}, troop: 2, to: at(-4, 3), cost: 3, path: []Hex{at(-2, 2), at(-3, 2), at(-4, 3)}},
		{name: "not onto a structure", extra: []Troop{{ID: 2, Owner: 0, Type: Hoverbike, Hex: at(-2, 3)}}, troop: 2, to: at(-3, 3), code: domain.EINVALID},
		{name: "a mech moves 1", extra: []Troop{{ID: 2, Owner: 0, Type: Mech, Hex: at(3, 3)}}, troop: 2, to: at(5, 1), code: domain.EINVALID, msg: "mobility 1"},
		{name: "a mech on plains", extra: []Troop{{ID: 2, Owner: 0, Type: Mech, Hex: at(3, 3)}}, troop: 2, to: at(3, 2), cost: 1, path: []Hex{at(3, 2)}},
		{name: "its own hex", troop: 1, to: at(0, 0), code: domain.EINVALID},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.name == "around an enemy" {
				tt.code = "" // the mountain and water leave no way around (0,1) and (-1,1): reaching (-2,1) is impossible
				tt.to, tt.cost, tt.path = at(1, 0), 1, []Hex{at(1, 0)}
			}
			r, g := duel(t, terrain, sites, append(append([]Troop{}, base...), tt.extra...)...)
			body := `{"troop":` + itoa(tt.troop) + `,` + hexJSON(tt.to) + `}`
			if tt.code != "" {
				err := actErr(t, r, g, alice, ActionMove, body, tt.code)
				require.Contains(t, domain.ErrorMessage(err), tt.msg)
				return
			}
			from := troop(t, g, tt.troop).Hex
			got, out := act(t, r, g, alice, ActionMove, body, t0)
			require.Equal(t, []MovedData{{Troop: tt.troop, From: from, To: tt.to, Cost: tt.cost, Path: tt.path}}, rulestest.All[MovedData](t, out.Events, EventMoved))
			require.Equal(t, tt.to, troop(t, got, tt.troop).Hex)
			require.True(t, troop(t, got, tt.troop).Moved)
			require.Contains(t, Reachable(g, rulesMap(t, r, g), tt.troop), Reach{Hex: tt.to, Cost: tt.cost}, "the preview agrees")
			err := actErr(t, r, got, alice, ActionMove, `{"troop":`+itoa(tt.troop)+`,`+hexJSON(from)+`}`, domain.ECONFLICT)
			require.ErrorContains(t, err, "already moved")
		})
	}
}

func rulesMap(t testing.TB, r Rules, g Game) *Map {
	t.Helper()
	m, err := r.MapOf(g)
	require.NoError(t, err)
	return m
}

func TestMoveThenAttack(t *testing.T) {
	r, g := duel(t, nil, nil, Troop{ID: 1, Owner: 0, Type: Marine, Hex: at(0, 0)}, Troop{ID: 2, Owner: 1, Type: Sniper, Hex: at(3, 0)})
	g, _ = act(t, r, g, alice, ActionMove, `{"troop":1,"q":2,"r":0}`, t0)
	g, out := act(t, r, g, alice, ActionAttack, `{"troop":1,"q":3,"r":0}`, t0, 8, 3) // 11 ≥ 11: a hit for 1D6+1
	require.Equal(t, AttackResult{Hit: true, Damage: 4}, out.Result)
	require.Equal(t, 2, troop(t, g, 2).HP)
}

func TestNewGame(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Timers.TurnSeconds = []int{30}
	cfg.Timers.DefaultTurnSeconds = 30
	badCfg := DefaultConfig()
	badCfg.DominanceTurns = -1
	tests := []struct {
		name string
		id   string
		host domain.Actor
		opts Options
		msg  string // "" for success
		want func(*testing.T, Game)
	}{
		{name: "defaults", id: "g1", host: alice, want: func(t *testing.T, g Game) {
			require.Equal(t, Medium, g.Size)
			require.Equal(t, Alternating, g.Mode)
			require.Equal(t, 90, g.TurnSeconds)
			require.Equal(t, "g1", g.MapSeed)
			require.Equal(t, 9, g.MapRadius)
			require.Equal(t, 9, g.SafeRadius)
			require.Len(t, g.Structures, 7)
			require.Equal(t, []Player{{ID: "alice", Name: "Alice", Coins: 1000, LastSeen: t0}}, g.Players)
			require.Equal(t, t0.Add(30*time.Minute), g.JoinDeadline)
			require.Equal(t, domain.Header{Status: domain.StatusWaiting, Players: []string{"alice"}, Deadline: t0.Add(30 * time.Minute)}, Rules{}.Header(g))
		}},
		{name: "large simultaneous", id: "g1", host: alice, opts: Options{Size: Large, Mode: Simultaneous, TurnSeconds: 120, MapSeed: "s"}, want: func(t *testing.T, g Game) {
			require.Equal(t, 12, g.MapRadius)
			require.Len(t, g.Structures, 9)
			require.Equal(t, Simultaneous, g.Mode)
			require.Equal(t, 120, g.TurnSeconds)
			m, err := GenerateMap(Large, "s", DefaultConfig())
			require.NoError(t, err)
			require.Equal(t, m.Hash(), g.MapHash)
		}},
		{name: "an operator's config", id: "g1", host: alice, opts: Options{Config: &cfg}, want: func(t *testing.T, g Game) {
			require.Equal(t, 30, g.TurnSeconds)
			require.Equal(t, cfg, g.Config)
		}},
		{name: "no id", id: "", host: alice, msg: "game id is required"},
		{name: "no host", id: "g1", host: domain.Actor{}, msg: "host id is required"},
		{name: "unknown size", id: "g1", host: alice, opts: Options{Size: "huge"}, msg: `size must be small, medium or large, not "huge"`},
		{name: "unknown mode", id: "g1", host: alice, opts: Options{Mode: "realtime"}, msg: "mode must be alternating or simultaneous"},
		{name: "a timer not offered", id: "g1", host: alice, opts: Options{TurnSeconds: 75}, msg: "turnSeconds must be one of [60 90 120], not 75"},
		{name: "a bad config", id: "g1", host: alice, opts: Options{Config: &badCfg}, msg: "config: dominanceTurns"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g, err := NewGame(tt.id, tt.host, tt.opts, t0.In(time.FixedZone("X", 3600)))
			if tt.msg != "" {
				require.Equal(t, domain.EINVALID, domain.ErrorCode(err))
				require.ErrorContains(t, err, tt.msg)
				return
			}
			require.NoError(t, err)
			require.Equal(t, PhaseWaiting, g.Phase)
			m, err := Rules{}.MapOf(g)
			require.NoError(t, err)
			checkInvariants(t, g, m)
			tt.want(t, g)
		})
	}
}

func TestJoin(t *testing.T) {
	m := testMap(t, nil)
	r := rulesFor(m)
	waiting, err := r.NewGame("g1", alice, Options{Size: Small, TurnSeconds: 60}, t0)
	require.NoError(t, err)
	for _, tt := range []struct {
		die   int
		first Seat
	}{{1, 0}, {2, 1}} {
		t.Run("die "+itoa(tt.die), func(t *testing.T) {
			now := t0.Add(time.Minute)
			g, out := act(t, r, waiting, bob, ActionJoin, `{}`, now, tt.die)
			require.Equal(t, JoinResult{Seat: 1, First: tt.first}, out.Result)
			require.Equal(t, PhasePlaying, g.Phase)
			require.Equal(t, tt.first, g.First)
			require.Equal(t, tt.first, g.Current)
			require.Equal(t, 1, g.Round)
			require.Equal(t, 1, g.Turn)
			require.Equal(t, now.Add(time.Minute), g.TurnDeadline)
			require.Equal(t, []string{EventJoined, EventGameStarted, EventRoundStarted, EventTurnStarted}, rulestest.Types(out.Events))
			require.Equal(t, GameStartedData{Mode: Alternating, First: tt.first, Die: tt.die}, out.Events[1].Data)
			require.Equal(t, TurnStartedData{Seat: tt.first, Round: 1, Turn: 1, Deadline: now.Add(time.Minute), Income: 100, Coins: 1100, NoAttack: true},
				out.Events[3].Data)
			require.Equal(t, 1100, g.Players[tt.first].Coins)
			require.Equal(t, 1000, g.Players[tt.first.Other()].Coins)
			for _, p := range g.Players {
				require.Equal(t, now, p.LastSeen, "the connection clocks start with play")
			}
			require.Equal(t, domain.Header{Status: domain.StatusActive, Players: []string{"alice", "bob"}, Deadline: now.Add(time.Minute)}, r.Header(g))
			actErr(t, r, g, carol, ActionJoin, `{}`, domain.ECONFLICT)
			actErr(t, r, g, bob, ActionJoin, `{}`, domain.ECONFLICT)
		})
	}
	t.Run("simultaneous rolls no die", func(t *testing.T) {
		w, err := r.NewGame("g1", alice, Options{Size: Small, Mode: Simultaneous, TurnSeconds: 60}, t0)
		require.NoError(t, err)
		g, out := act(t, r, w, bob, ActionJoin, `{}`, t0)
		require.Equal(t, Neutral, g.Current)
		require.Equal(t, 1, g.Round)
		require.Equal(t, []string{EventJoined, EventGameStarted, EventRoundStarted, EventTurnStarted, EventTurnStarted}, rulestest.Types(out.Events))
		require.Equal(t, 1100, g.Players[0].Coins)
		require.Equal(t, 1100, g.Players[1].Coins)
	})
	t.Run("refused", func(t *testing.T) {
		actErr(t, r, waiting, alice, ActionJoin, `{}`, domain.ECONFLICT)
		actErr(t, r, waiting, domain.Actor{Name: "x"}, ActionJoin, `{}`, domain.EINVALID)
		actErr(t, r, waiting, alice, ActionMove, `{"troop":1,"q":0,"r":0}`, domain.ECONFLICT)
		actErr(t, r, waiting, alice, ActionEndTurn, `{}`, domain.ECONFLICT)
		actErr(t, r, waiting, alice, "fly", `{}`, domain.EINVALID)
	})
	t.Run("nobody joins", func(t *testing.T) {
		g, out := expire(t, r, waiting, time.Hour)
		require.Equal(t, PhaseOver, g.Phase)
		require.Equal(t, ReasonCancelled, g.Result.Reason)
		require.Equal(t, t0.Add(30*time.Minute), g.Result.EndedAt, "as of the deadline")
		require.Equal(t, []string{EventCancelled}, rulestest.Types(out.Events))
		actErr(t, r, g, bob, ActionJoin, `{}`, domain.ECONFLICT)
	})
	t.Run("the host leaves", func(t *testing.T) {
		g, out := act(t, r, waiting, alice, ActionSurrender, `{}`, t0)
		require.Equal(t, ReasonCancelled, g.Result.Reason)
		require.Equal(t, CancelledData{Reason: "hostLeft"}, out.Events[0].Data)
		require.Nil(t, rulestest.GameOver(t, out.Events))
	})
}

func TestEndTurn(t *testing.T) {
	m := testMap(t, nil)
	r := rulesFor(m)
	g := started(t, m, Alternating, 1)
	require.Equal(t, Seat(1), g.Current)
	actErr(t, r, g, alice, ActionEndTurn, `{}`, domain.ECONFLICT)
	now := t0.Add(10 * time.Second)
	g, out := act(t, r, g, bob, ActionEndTurn, `{}`, now)
	require.Equal(t, []string{EventTurnEnded, EventTurnStarted}, rulestest.Types(out.Events))
	require.Equal(t, TurnEndedData{Seat: 1, Round: 1, Reason: "endTurn", Held: 1}, out.Events[0].Data)
	require.Equal(t, Seat(0), g.Current)
	require.Equal(t, 1, g.Round, "the second player's turn is in the same round")
	require.Equal(t, 2, g.Turn)
	require.Equal(t, now.Add(time.Minute), g.TurnDeadline)
	require.Equal(t, 1, g.Players[1].Turns)
	g, out = act(t, r, g, alice, ActionEndTurn, `{}`, now)
	require.Equal(t, 2, g.Round, "a round is both players' turns")
	require.Equal(t, []string{EventTurnEnded, EventRoundStarted, EventTurnStarted}, rulestest.Types(out.Events))
}
