package hexdice

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/rulestest"
)

// planning returns rules and a simultaneous game in the planning phase of
// round 2 on a plains test map, with troops.
func planning(t testing.TB, terrain map[Hex]Terrain, sites []Site, troops ...Troop) (Rules, *Map, Game) {
	t.Helper()
	m := testMap(t, terrain, sites...)
	g := started(t, m, Simultaneous, 0)
	g.Round, g.Turn = 2, 2
	return rulesFor(m), m, withTroops(g, troops...)
}

func hp(h Hex) *Hex { return &h }

func mv(id int, to Hex) TroopOrder   { return TroopOrder{Troop: id, Move: hp(to)} }
func hit(id int, aim Hex) TroopOrder { return TroopOrder{Troop: id, Attack: hp(aim)} }
func mvHit(id int, to, aim Hex) TroopOrder {
	return TroopOrder{Troop: id, Move: hp(to), Attack: hp(aim)}
}
func orders(troops ...TroopOrder) Orders { return Orders{Troops: troops} }
func buys(b ...BuyOrder) Orders          { return Orders{Buys: b} }
func buy(u UnitType, h Hex) BuyOrder     { return BuyOrder{Unit: u, Hex: h} }

// phases runs the move and attack phases of a resolution (white box: no
// buys, no round end), rolling exactly dice.
func phases(t testing.TB, m *Map, g Game, a, b Orders, dice ...int) *step {
	t.Helper()
	d := domain.Script(dice...)
	s := newStep(g.clone(), m, t0, d)
	var plans [2]plan
	for seat, o := range []Orders{a, b} {
		p, err := s.checkOrders(Seat(seat), o)
		require.NoError(t, err, "seat %d's orders", seat)
		plans[seat] = p
	}
	aimedAt := map[Hex]int{}
	for _, tr := range s.g.Troops {
		aimedAt[tr.Hex] = tr.ID
	}
	s.resolveMoves(plans)
	s.resolveAttacks(plans, aimedAt)
	require.Zero(t, d.Remaining(), "fewer dice rolled than scripted")
	return s
}

func TestSimultaneousMoves(t *testing.T) {
	tests := []struct {
		name      string
		troops    []Troop
		a, b      Orders
		want      map[int]Hex
		cancelled []MoveCancelledData
	}{
		{
			name:   "the faster troop arrives first, the slower one's move is cancelled",
			troops: []Troop{{ID: 1, Owner: 0, Type: Marine, Hex: at(-2, 0)}, {ID: 2, Owner: 1, Type: Hoverbike, Hex: at(3, 0)}},
			a:      orders(mv(1, at(0, 0))), b: orders(mv(2, at(0, 0))),
			want:      map[int]Hex{1: at(-2, 0), 2: at(0, 0)},
			cancelled: []MoveCancelledData{{Troop: 1, From: at(-2, 0), To: at(0, 0), Reason: CancelSlower}},
		},
		{
			name:   "equal mobility: nobody gets the hex",
			troops: []Troop{{ID: 1, Owner: 0, Type: Marine, Hex: at(-2, 0)}, {ID: 2, Owner: 1, Type: Marine, Hex: at(2, 0)}},
			a:      orders(mv(1, at(0, 0))), b: orders(mv(2, at(0, 0))),
			want: map[int]Hex{1: at(-2, 0), 2: at(2, 0)},
			cancelled: []MoveCancelledData{{Troop: 1, From: at(-2, 0), To: at(0, 0), Reason: CancelTie},
				{Troop: 2, From: at(2, 0), To: at(0, 0), Reason: CancelTie}},
		},
		{
			name:   "a troop moves into the hex a friend leaves",
			troops: []Troop{{ID: 1, Owner: 0, Type: Marine, Hex: at(0, 0)}, {ID: 2, Owner: 0, Type: Mech, Hex: at(-1, 0)}},
			a:      orders(mv(1, at(1, 0)), mv(2, at(0, 0))),
			want:   map[int]Hex{1: at(1, 0), 2: at(0, 0)},
		},
		{
			name: "a cancelled move blocks the troop behind it, and the one behind that",
			troops: []Troop{{ID: 1, Owner: 0, Type: Marine, Hex: at(0, 0)}, {ID: 2, Owner: 0, Type: Marine, Hex: at(-1, 0)},
				{ID: 3, Owner: 0, Type: Mech, Hex: at(-2, 0)}, {ID: 4, Owner: 1, Type: Hoverbike, Hex: at(3, 0)}},
			a: orders(mv(1, at(1, 0)), mv(2, at(0, 0)), mv(3, at(-1, 0))), b: orders(mv(4, at(1, 0))),
			want: map[int]Hex{1: at(0, 0), 2: at(-1, 0), 3: at(-2, 0), 4: at(1, 0)},
			cancelled: []MoveCancelledData{{Troop: 1, From: at(0, 0), To: at(1, 0), Reason: CancelSlower},
				{Troop: 2, From: at(-1, 0), To: at(0, 0), Reason: CancelBlocked}, {Troop: 3, From: at(-2, 0), To: at(-1, 0), Reason: CancelBlocked}},
		},
		{
			name:   "friends swap",
			troops: []Troop{{ID: 1, Owner: 0, Type: Marine, Hex: at(0, 0)}, {ID: 2, Owner: 0, Type: Sniper, Hex: at(1, 0)}},
			a:      orders(mv(1, at(1, 0)), mv(2, at(0, 0))),
			want:   map[int]Hex{1: at(1, 0), 2: at(0, 0)},
		},
		{
			name: "a ring of friends rotates",
			troops: []Troop{{ID: 1, Owner: 1, Type: Marine, Hex: at(0, 0)}, {ID: 2, Owner: 1, Type: Marine, Hex: at(1, 0)},
				{ID: 3, Owner: 1, Type: Marine, Hex: at(0, 1)}},
			b:    orders(mv(1, at(1, 0)), mv(2, at(0, 1)), mv(3, at(0, 0))),
			want: map[int]Hex{1: at(1, 0), 2: at(0, 1), 3: at(0, 0)},
		},
		{
			name:   "moving troops do not block each other's paths",
			troops: []Troop{{ID: 1, Owner: 0, Type: Hoverbike, Hex: at(-3, 0)}, {ID: 2, Owner: 1, Type: Marine, Hex: at(0, 1)}},
			a:      orders(mv(1, at(2, 0))), b: orders(mv(2, at(0, -1))),
			want: map[int]Hex{1: at(2, 0), 2: at(0, -1)},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, m, g := planning(t, nil, nil, tt.troops...)
			s := phases(t, m, g, tt.a, tt.b)
			for id, h := range tt.want {
				require.Equal(t, h, troop(t, s.g, id).Hex, "troop %d", id)
			}
			require.Equal(t, tt.cancelled, rulestest.All[MoveCancelledData](t, s.events, EventMoveCancelled))
			moved := rulestest.All[MovedData](t, s.events, EventMoved)
			for _, e := range moved {
				require.Equal(t, e.To, troop(t, s.g, e.Troop).Hex)
				require.True(t, troop(t, s.g, e.Troop).Moved)
			}
			checkInvariants(t, s.g, m)
		})
	}
}

func TestSimultaneousAttacks(t *testing.T) {
	tests := []struct {
		name   string
		troops []Troop
		a, b   Orders
		dice   []int
		want   []AttackData // attacker/target troop ids and the roll
		void   []AttackVoidData
		hp     map[int]int // 0: dead
	}{
		{
			name:   "the target stayed: a plain attack",
			troops: []Troop{{ID: 1, Owner: 0, Type: Sniper, Hex: at(0, 0)}, {ID: 2, Owner: 1, Type: Marine, Hex: at(2, 0)}},
			a:      orders(hit(1, at(2, 0))),
			dice:   []int{12, 5},
			want:   []AttackData{{Kind: AttackTroop, Natural: 12, Modifier: 4, Total: 16, Defense: 14, Hit: true, Dice: "1D8", Rolls: []int{5}, Damage: 5, HP: 5}},
			hp:     map[int]int{1: 6, 2: 5},
		},
		{
			name:   "the target moved next to the aimed hex: ATK −2",
			troops: []Troop{{ID: 1, Owner: 0, Type: Sniper, Hex: at(0, 0)}, {ID: 2, Owner: 1, Type: Marine, Hex: at(2, 0)}},
			a:      orders(hit(1, at(2, 0))), b: orders(mv(2, at(3, 0))),
			dice: []int{12, 5},
			want: []AttackData{{Kind: AttackTroop, Natural: 12, Modifier: 2, Penalty: 2, Total: 14, Defense: 14, Hit: true, Dice: "1D8", Rolls: []int{5}, Damage: 5, HP: 5}},
			hp:   map[int]int{2: 5},
		},
		{
			name:   "the target moved farther: the attack is void, no dice",
			troops: []Troop{{ID: 1, Owner: 0, Type: Sniper, Hex: at(0, 0)}, {ID: 2, Owner: 1, Type: Marine, Hex: at(2, 0)}},
			a:      orders(hit(1, at(2, 0))), b: orders(mv(2, at(2, 2))),
			void: []AttackVoidData{{Troop: 1, Aim: at(2, 0), Reason: "targetMoved"}},
			hp:   map[int]int{2: 10},
		},
		{
			name:   "the target moved next to the aimed hex but out of range: void",
			troops: []Troop{{ID: 1, Owner: 0, Type: Sniper, Hex: at(0, 0)}, {ID: 2, Owner: 1, Type: Marine, Hex: at(3, 0)}},
			a:      orders(hit(1, at(3, 0))), b: orders(mv(2, at(4, -1))),
			void: []AttackVoidData{{Troop: 1, Aim: at(3, 0), Reason: "outOfRange"}},
		},
		{
			name: "another enemy stepped onto the aimed hex: it is hit, no penalty",
			troops: []Troop{{ID: 1, Owner: 0, Type: Sniper, Hex: at(0, 0)}, {ID: 2, Owner: 1, Type: Marine, Hex: at(2, 0)},
				{ID: 3, Owner: 1, Type: Hoverbike, Hex: at(2, 2)}},
			a: orders(hit(1, at(2, 0))), b: orders(mv(2, at(2, 1)), mv(3, at(2, 0))),
			dice: []int{8, 3},
			want: []AttackData{{Kind: AttackTroop, Natural: 8, Modifier: 4, Total: 12, Defense: 12, Hit: true, Dice: "1D8", Rolls: []int{3}, Damage: 3, HP: 5}},
			hp:   map[int]int{2: 10, 3: 5},
		},
		{
			name: "the attacker's move was cancelled: it attacks from where it stands, if in range",
			troops: []Troop{{ID: 1, Owner: 0, Type: Marine, Hex: at(-2, 0)}, {ID: 2, Owner: 1, Type: Marine, Hex: at(1, 0)},
				{ID: 3, Owner: 1, Type: Hoverbike, Hex: at(0, 3)}},
			a: orders(mvHit(1, at(0, 0), at(1, 0))), b: orders(mv(3, at(0, 0))),
			void: []AttackVoidData{{Troop: 1, Aim: at(1, 0), Reason: "outOfRange"}},
		},
		{
			name:   "melee troops that strike each other both die: attacks are simultaneous",
			troops: []Troop{{ID: 1, Owner: 0, Type: Marine, Hex: at(0, 0), HP: 3}, {ID: 2, Owner: 1, Type: Marine, Hex: at(1, 0), HP: 3}},
			a:      orders(hit(1, at(1, 0))), b: orders(hit(2, at(0, 0))),
			dice: []int{15, 3, 16, 2},
			want: []AttackData{
				{Kind: AttackTroop, Natural: 15, Modifier: 3, Total: 18, Defense: 14, Hit: true, Dice: "1D6+1", Rolls: []int{3}, Damage: 4, HP: -1},
				{Kind: AttackTroop, Natural: 16, Modifier: 3, Total: 19, Defense: 14, Hit: true, Dice: "1D6+1", Rolls: []int{2}, Damage: 3, HP: 0},
			},
			hp: map[int]int{1: 0, 2: 0},
		},
		{
			name:   "a defender this attack leaves alive counters, from its HP at the start of the phase",
			troops: []Troop{{ID: 1, Owner: 0, Type: Marine, Hex: at(0, 0)}, {ID: 2, Owner: 1, Type: Marine, Hex: at(1, 0), HP: 5}},
			a:      orders(hit(1, at(1, 0))), b: orders(hit(2, at(0, 0))),
			dice: []int{15, 1, 10, 15, 3, 12, 2},
			want: []AttackData{
				{Kind: AttackTroop, Natural: 15, Modifier: 3, Total: 18, Defense: 14, Hit: true, Dice: "1D6+1", Rolls: []int{1}, Damage: 2, HP: 3},
				{Kind: AttackCounter, Natural: 10, Modifier: 3, Total: 13, Defense: 14, HP: 10},
				{Kind: AttackTroop, Natural: 15, Modifier: 3, Total: 18, Defense: 14, Hit: true, Dice: "1D6+1", Rolls: []int{3}, Damage: 4, HP: 6},
				{Kind: AttackCounter, Natural: 12, Modifier: 3, Total: 15, Defense: 14, Hit: true, Dice: "1D3", Rolls: []int{2}, Damage: 2, HP: 1},
			},
			hp: map[int]int{1: 6, 2: 1},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, m, g := planning(t, nil, nil, tt.troops...)
			s := phases(t, m, g, tt.a, tt.b, tt.dice...)
			got := rulestest.All[AttackData](t, s.events, EventAttacked)
			for i := range got {
				got[i].Attacker, got[i].Target = Unit{}, Unit{}
			}
			if tt.want == nil {
				require.Empty(t, got)
			} else {
				require.Equal(t, tt.want, got)
			}
			require.Equal(t, tt.void, rulestest.All[AttackVoidData](t, s.events, EventAttackVoid))
			for id, want := range tt.hp {
				if want == 0 {
					require.Negative(t, s.g.TroopByID(id), "troop %d dead", id)
					continue
				}
				require.Equal(t, want, troop(t, s.g, id).HP, "troop %d", id)
			}
			checkInvariants(t, s.g, m)
		})
	}
}

func TestSimultaneousStructures(t *testing.T) {
	sites := sitesWith(Site{ID: "n1", Kind: Outpost, Hex: at(0, 0), Owner: Neutral})
	t.Run("the side that dealt more damage captures", func(t *testing.T) {
		_, m, g := planning(t, nil, sites, Troop{ID: 1, Owner: 0, Type: Mech, Hex: at(-3, 0)}, Troop{ID: 2, Owner: 1, Type: Marine, Hex: at(1, 0)})
		s := phases(t, m, g, orders(hit(1, at(0, 0))), orders(hit(2, at(0, 0))), 10, 1, 1, 15, 6)
		// Alice's mech: (1+1+2)×2 = 8; bob's marine: 7. 15 damage on 8 HP: alice's.
		n1 := structure(t, s.g, "n1")
		require.Equal(t, Seat(0), n1.Owner)
		require.Equal(t, 1, n1.HP)
		require.Equal(t, []CapturedData{{Structure: "n1", Kind: Outpost, From: Neutral, To: 0, HP: 1}}, rulestest.All[CapturedData](t, s.events, EventCaptured))
	})
	t.Run("equal damage: nobody captures, the structure holds at 1 HP", func(t *testing.T) {
		_, m, g := planning(t, nil, sites, Troop{ID: 1, Owner: 0, Type: Marine, Hex: at(-1, 0)}, Troop{ID: 2, Owner: 1, Type: Marine, Hex: at(1, 0)})
		s := phases(t, m, g, orders(hit(1, at(0, 0))), orders(hit(2, at(0, 0))), 15, 3, 15, 3)
		n1 := structure(t, s.g, "n1")
		require.Equal(t, Neutral, n1.Owner)
		require.Equal(t, 1, n1.HP)
	})
	t.Run("both HQs fall: a draw", func(t *testing.T) {
		_, m, g := planning(t, nil, nil, Troop{ID: 1, Owner: 0, Type: Marine, Hex: at(0, 4)}, Troop{ID: 2, Owner: 1, Type: Marine, Hex: at(0, -4)})
		g = setStructure(g, "hq0", func(s *Structure) { s.HP = 2 })
		g = setStructure(g, "hq1", func(s *Structure) { s.HP = 2 })
		s := phases(t, m, g, orders(hit(1, at(0, 5))), orders(hit(2, at(0, -5))), 16, 1, 16, 1)
		require.Equal(t, PhaseOver, s.g.Phase)
		require.True(t, s.g.Result.Draw)
		require.Equal(t, ReasonHQ, s.g.Result.Reason)
		require.True(t, rulestest.GameOver(t, s.events).Draw)
	})
	t.Run("one HQ falls", func(t *testing.T) {
		_, m, g := planning(t, nil, nil, Troop{ID: 1, Owner: 0, Type: Marine, Hex: at(0, 4)})
		g = setStructure(g, "hq1", func(s *Structure) { s.HP = 2 })
		s := phases(t, m, g, orders(hit(1, at(0, 5))), Orders{}, 16, 1)
		require.Equal(t, Seat(0), s.g.Result.Winner)
	})
}

func TestSimultaneousBuys(t *testing.T) {
	sites := sitesWith(Site{ID: "n1", Kind: Outpost, Hex: at(1, 0), Owner: 0}, Site{ID: "n2", Kind: Outpost, Hex: at(-1, 0), Owner: 1})
	tests := []struct {
		name   string
		troops []Troop
		a, b   Orders
		dice   []int
		bought []BoughtData
		cancel []BuyCancelledData
	}{
		{
			name: "both buy on one hex: neither gets it",
			a:    buys(buy(Marine, at(0, 0))), b: buys(buy(Sniper, at(0, 0))),
			cancel: []BuyCancelledData{{Type: Marine, Hex: at(0, 0), Reason: "contested"}, {Type: Sniper, Hex: at(0, 0), Reason: "contested"}},
		},
		{
			name:   "bought after the moves: an enemy moved onto the hex",
			troops: []Troop{{ID: 1, Owner: 1, Type: Marine, Hex: at(2, -3)}},
			a:      buys(buy(Marine, at(2, -1))), b: orders(mv(1, at(2, -1))),
			cancel: []BuyCancelledData{{Type: Marine, Hex: at(2, -1), Reason: "occupied"}},
		},
		{
			name:   "the spawn structure was lost in the attacks",
			troops: []Troop{{ID: 1, Owner: 1, Type: Mech, Hex: at(4, 0)}},
			a:      buys(buy(Marine, at(2, 0))), b: orders(hit(1, at(1, 0))),
			dice:   []int{10, 1, 1}, // (1+1+2)×2 = 8: n1 falls to bob
			cancel: []BuyCancelledData{{Type: Marine, Hex: at(2, 0), Reason: "spawnLost"}},
		},
		{
			name:   "bought",
			a:      buys(buy(Marine, at(2, -1)), buy(Mech, at(2, 0))),
			bought: []BoughtData{{Troop: 1, Type: Marine, Hex: at(2, -1), Cost: 100, Coins: 1000}, {Troop: 2, Type: Mech, Hex: at(2, 0), Cost: 350, Coins: 650}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, m, g := planning(t, nil, sites, tt.troops...)
			g.Players[0].Coins, g.Players[1].Coins = 1100, 1100
			s := phases(t, m, g, tt.a, tt.b, tt.dice...)
			plans := [2]plan{}
			for seat, o := range []Orders{tt.a, tt.b} {
				p, err := newStep(g, m, t0, nil).checkOrders(Seat(seat), o)
				require.NoError(t, err)
				plans[seat] = p
			}
			s.resolveBuys(plans)
			require.Equal(t, tt.bought, rulestest.All[BoughtData](t, s.events, EventBought))
			require.Equal(t, tt.cancel, rulestest.All[BuyCancelledData](t, s.events, EventBuyCancelled))
			if tt.bought == nil {
				require.Equal(t, 1100, s.g.Players[0].Coins, "a cancelled buy costs nothing")
			}
			for _, b := range tt.bought {
				require.False(t, troop(t, s.g, b.Troop).Ready, "acts from the next round")
			}
		})
	}
}

func TestValidateOrders(t *testing.T) {
	sites := sitesWith(Site{ID: "n1", Kind: Outpost, Hex: at(3, 0), Owner: 0})
	_, m, g := planning(t, map[Hex]Terrain{at(0, 2): Water}, sites,
		Troop{ID: 1, Owner: 0, Type: Marine, Hex: at(0, 0)}, Troop{ID: 2, Owner: 0, Type: Sniper, Hex: at(1, 0)},
		Troop{ID: 3, Owner: 1, Type: Marine, Hex: at(-1, 0)}, Troop{ID: 4, Owner: 1, Type: Mech, Hex: at(-3, 0)})
	g.Players[0].Coins = 300
	tests := []struct {
		name string
		o    Orders
		code string
		msg  string
	}{
		{"none", Orders{}, "", ""},
		{"a move and an attack from the destination", orders(mvHit(1, at(0, 1), at(-1, 1)), hit(2, at(-1, 0))), domain.EINVALID, "orders.troops[0].attack: there is no enemy"},
		{"a move and an attack", orders(mvHit(1, at(-1, 1), at(-1, 0))), "", ""},
		{"into a leaving friend's hex", orders(mv(1, at(1, 0)), mv(2, at(2, 0))), "", ""},
		{"buys", buys(buy(Marine, at(4, 0)), buy(Marine, at(2, 0))), "", ""},
		{"this round", Orders{Round: 2}, "", ""},
		{"another round", Orders{Round: 1}, domain.ECONFLICT, "orders.round: these orders are for round 1, this is round 2"},
		{"not yours", orders(hit(3, at(0, 0))), domain.EINVALID, "orders.troops[0].troop: you have no troop 3"},
		{"twice", orders(hit(1, at(-1, 0)), mv(1, at(0, 1))), domain.EINVALID, "orders.troops[1].troop: troop 1 has two orders"},
		{"nothing", orders(TroopOrder{Troop: 1}), domain.EINVALID, "orders.troops[0]: give a move, an attack or both"},
		{"out of reach", orders(mv(1, at(0, 4))), domain.EINVALID, "orders.troops[0].move: troop 1 cannot reach"},
		{"onto water", orders(mv(1, at(0, 2))), domain.EINVALID, "cannot reach"},
		{"onto an enemy", orders(mv(1, at(-1, 0))), domain.EINVALID, "cannot reach"},
		{"onto a friend that stays", orders(mv(1, at(1, 0))), domain.EINVALID, "cannot reach and stop on (1,0)"},
		{"two to one hex", orders(mv(1, at(1, 1)), mv(2, at(1, 1))), domain.EINVALID, "orders.troops[1].move: troop 1 also moves to (1,1)"},
		{"off the map", orders(mv(1, at(9, 0))), domain.EINVALID, "off the map"},
		{"attack out of range of the destination", orders(mvHit(1, at(1, 1), at(-1, 0))), domain.EINVALID, "orders.troops[0].attack: (-1,0) is out of troop 1's range 1"},
		{"attack own structure", orders(hit(2, at(3, 0))), domain.EINVALID, "the structure on (3,0) is yours"},
		{"unknown unit", buys(buy("tank", at(4, 0))), domain.EINVALID, "orders.buys[0].unit must be"},
		{"not a spawn hex", buys(buy(Marine, at(0, 3))), domain.EINVALID, "orders.buys[0]: (0,3) is not a free passable hex"},
		{"two buys on a hex", buys(buy(Marine, at(4, 0)), buy(Marine, at(4, 0))), domain.EINVALID, "orders.buys[1]: two buys on (4,0)"},
		{"a buy where a troop moves", Orders{Troops: []TroopOrder{mv(2, at(2, 0))}, Buys: []BuyOrder{buy(Marine, at(2, 0))}}, domain.EINVALID, "orders.buys[0]: troop 2 moves to (2,0)"},
		{"more than the coins", buys(buy(Marine, at(4, 0)), buy(Sniper, at(2, 0)), buy(Marine, at(3, 1))), domain.EINVALID, "orders.buys[2]: the buys cost 350 coins, you have 300"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := ValidateOrders(g, m, 0, tt.o)
			if tt.code == "" {
				require.NoError(t, err)
				return
			}
			require.Equal(t, tt.code, domain.ErrorCode(err), "%v", err)
			require.Contains(t, domain.ErrorMessage(err), tt.msg)
		})
	}
	alt := started(t, m, Alternating, 0)
	require.Equal(t, domain.ECONFLICT, domain.ErrorCode(ValidateOrders(alt, m, 0, Orders{})))
}

// TestOrdersHook drives a round through Apply the way the platform does:
// each "orders" result is stored privately, and passed back in Rules.Orders.
func TestOrdersHook(t *testing.T) {
	r, m, g := planning(t, nil, nil, Troop{ID: 1, Owner: 0, Type: Marine, Hex: at(0, 0)}, Troop{ID: 2, Owner: 1, Type: Sniper, Hex: at(3, -1)})
	private := map[string]Orders{}
	store := func(out domain.Outcome) {
		id, o, ok := PrivateOrders(out)
		require.True(t, ok)
		private[id] = o
	}
	now := t0.Add(10 * time.Second)

	// Alice saves a draft: the public state only records that she was seen.
	draft, out := act(t, r, g, alice, ActionOrders, `{"orders":{"troops":[{"troop":1,"move":{"q":1,"r":0}}]}}`, now)
	require.Empty(t, out.Events)
	require.Equal(t, OrdersResult{Seat: 0, PlayerID: "alice", Orders: Orders{Round: 2, Troops: []TroopOrder{mv(1, at(1, 0))}}}, out.Result)
	require.False(t, draft.Players[0].Submitted)
	store(out)

	// She submits other orders: they replace the draft.
	body := `{"orders":{"round":2,"troops":[{"troop":1,"move":{"q":1,"r":-1}}]},"submit":true}`
	g, out = act(t, r, draft, alice, ActionOrders, body, now)
	require.Equal(t, []domain.Event{{Type: EventOrdersSubmitted, Player: "alice", Data: OrdersSubmittedData{Seat: 0}}}, out.Events)
	require.True(t, g.Players[0].Submitted)
	store(out)
	require.Equal(t, Orders{Round: 2, Submitted: true, Troops: []TroopOrder{mv(1, at(1, -1))}}, private["alice"])
	state, err := json.Marshal(g)
	require.NoError(t, err)
	require.NotContains(t, string(state), `"move"`, "the public state never holds orders")
	for _, e := range out.Events {
		b, _ := json.Marshal(e)
		require.NotContains(t, string(b), `"move"`, "nor do the events before the round resolves")
	}
	err = actErr(t, r, g, alice, ActionOrders, body, domain.ECONFLICT)
	require.ErrorContains(t, err, "locked in")

	// Bob submits; without alice's orders passed in, the rules refuse.
	bobBody := `{"orders":{"troops":[{"troop":2,"attack":{"q":0,"r":0}}]},"submit":true}`
	err = actErr(t, r, g, bob, ActionOrders, bobBody, domain.EINTERNAL)
	require.ErrorContains(t, err, "Rules.Orders")
	stale := map[string]Orders{"alice": {Round: 1, Submitted: true}}
	actErr(t, r.WithOrders(stale), g, bob, ActionOrders, bobBody, domain.EINTERNAL)

	// With them, the round resolves at once: the sniper aimed at (0,0), the
	// marine moved next to it: ATK −2.
	g, out = act(t, r.WithOrders(private), g, bob, ActionOrders, bobBody, now, 14, 6)
	res := out.Result.(OrdersResult)
	require.True(t, res.Resolved)
	require.Equal(t, 3, g.Round)
	require.False(t, g.Players[0].Submitted || g.Players[1].Submitted)
	revealed := rulestest.All[OrdersRevealedData](t, out.Events, EventOrdersRevealed)
	require.Equal(t, []OrdersRevealedData{
		{Seat: 0, Orders: Orders{Round: 2, Submitted: true, Troops: []TroopOrder{mv(1, at(1, -1))}}},
		{Seat: 1, Orders: Orders{Round: 2, Submitted: true, Troops: []TroopOrder{hit(2, at(0, 0))}}},
	}, revealed)
	a := rulestest.All[AttackData](t, out.Events, EventAttacked)
	require.Len(t, a, 1)
	require.Equal(t, 2, a[0].Penalty)
	require.Equal(t, at(1, -1), troop(t, g, 1).Hex)
	require.Equal(t, 4, troop(t, g, 1).HP)
	require.Equal(t, now.Add(time.Minute), g.TurnDeadline, "the next planning phase")
	require.True(t, strings.HasPrefix(rulestest.Types(out.Events)[0], "orders"))
	require.NoError(t, ValidateOrders(g, m, 0, Orders{}), "the next round plans")
}

func TestOrdersRefused(t *testing.T) {
	r, _, g := planning(t, nil, nil, Troop{ID: 1, Owner: 0, Type: Marine, Hex: at(0, 0)})
	actErr(t, r, g, carol, ActionOrders, `{}`, domain.EFORBIDDEN)
	actErr(t, r, g, alice, ActionOrders, `{"orders":{"troops":[{"troop":1}]}}`, domain.EINVALID)
	actErr(t, r, g, alice, ActionOrders, `{"orders":[1]}`, domain.EINVALID)
	actErr(t, r, g, alice, ActionMove, `{"troop":1,"q":1,"r":0}`, domain.ECONFLICT)
	actErr(t, r, g, alice, ActionEndTurn, `{}`, domain.ECONFLICT)
	actErr(t, r, g, alice, ActionBuy, `{"unit":"marine","q":0,"r":-4}`, domain.ECONFLICT)
	m := testMap(t, nil)
	alt := started(t, m, Alternating, 0)
	err := actErr(t, rulesFor(m), alt, alice, ActionOrders, `{}`, domain.ECONFLICT)
	require.ErrorContains(t, err, "simultaneous mode")
}

// TestPlanningTimeout: the timer submits saved orders as they are, and no
// orders for a player who saved none.
func TestPlanningTimeout(t *testing.T) {
	r, _, g := planning(t, nil, nil, Troop{ID: 1, Owner: 0, Type: Marine, Hex: at(0, 0)}, Troop{ID: 2, Owner: 1, Type: Marine, Hex: at(3, 0)})
	g = keepAlive(g, r)
	private := map[string]Orders{
		"alice": {Round: 2, Troops: []TroopOrder{mv(1, at(1, 0))}},   // a draft
		"bob":   {Round: 1, Submitted: true, Troops: []TroopOrder{}}, // stale: last round's
	}
	deadline := g.TurnDeadline
	got, out := expire(t, r.WithOrders(private), g, 5*time.Second)
	require.Equal(t, []OrdersSubmittedData{{Seat: 0, Auto: true}, {Seat: 1, Auto: true}}, rulestest.All[OrdersSubmittedData](t, out.Events, EventOrdersSubmitted))
	require.Equal(t, at(1, 0), troop(t, got, 1).Hex)
	require.Equal(t, 3, got.Round)
	require.Equal(t, deadline.Add(time.Minute), got.TurnDeadline, "as of the deadline, not the late call")

	// A submitted player's orders must be passed in.
	sub := g.clone()
	sub.Players[1].Submitted = true
	_, _, err := r.WithOrders(private).Expire(sub, domain.Env{Now: deadline, Dice: domain.Script()})
	require.Equal(t, domain.EINTERNAL, domain.ErrorCode(err))
	// A saved draft that no longer validates counts as none.
	bad := map[string]Orders{"alice": {Round: 2, Troops: []TroopOrder{mv(1, at(5, 0))}}}
	got, _ = expire(t, r.WithOrders(bad), g, 0)
	require.Equal(t, at(0, 0), troop(t, got, 1).Hex)
}

func TestResolve(t *testing.T) {
	_, m, g := planning(t, nil, nil, Troop{ID: 1, Owner: 0, Type: Marine, Hex: at(0, 0)})
	before := rulestest.JSON(t, g)
	got, evs, err := Resolve(g, m, orders(mv(1, at(1, 0))), Orders{}, domain.Env{Now: t0, Dice: domain.Script()})
	require.NoError(t, err)
	require.Equal(t, before, rulestest.JSON(t, g), "Resolve changed its input")
	require.Equal(t, at(1, 0), troop(t, got, 1).Hex)
	require.Equal(t, 3, got.Round)
	require.NotEmpty(t, evs)
	_, _, err = Resolve(g, m, orders(mv(1, at(6, 0))), Orders{}, domain.Env{Now: t0, Dice: domain.Script()})
	require.Equal(t, domain.EINVALID, domain.ErrorCode(err))
}
