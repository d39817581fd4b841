package hexdice

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"

	"github.com/meeple-games/meeple/domain/rulestest"
)

// duel returns rules and a game on a plains test map with terrain and sites
// (nil: the default HQs), in which it is alice's turn 3 of round 2, with
// troops added (alice is seat 0, bob seat 1).
func duel(t testing.TB, terrain map[Hex]Terrain, sites []Site, troops ...Troop) (Rules, Game) {
	t.Helper()
	m := testMap(t, terrain, sites...)
	g := started(t, m, Alternating, 0)
	g.Turn, g.Round = 3, 2
	return rulesFor(m), withTroops(g, troops...)
}

func TestStrike(t *testing.T) {
	m := testMap(t, nil)
	g := started(t, m, Alternating, 0)
	tests := []struct {
		name     string
		dice     []int
		mod, def int
		spec     DiceSpec
		mult     int
		hit      bool
		damage   int
	}{
		{"total meets DEF", []int{11, 4}, 3, 14, D(1, 6, 1), 1, true, 5},
		{"total below DEF", []int{10}, 3, 14, D(1, 6, 1), 1, false, 0},
		{"natural 1 misses whatever the total", []int{1}, 30, 10, D(1, 6, 1), 1, false, 0},
		{"natural 20 hits whatever the total, dice doubled", []int{20, 2, 5}, -30, 10, D(1, 6, 1), 1, true, 8},
		{"natural 20 doubles every die, not the modifier", []int{20, 1, 2, 3, 4}, 5, 10, D(2, 6, 2), 1, true, 12},
		{"multiplier", []int{15, 3, 4}, 5, 12, D(2, 6, 2), 2, true, 18},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := domain.Script(tt.dice...)
			s := newStep(g, m, t0, d)
			r := s.strike(AttackTroop, tt.mod, 0, tt.def, tt.spec, tt.mult)
			require.Equal(t, tt.hit, r.Hit, "hit")
			require.Equal(t, tt.damage, r.Damage, "damage")
			require.Equal(t, tt.dice[0], r.Natural)
			require.Equal(t, tt.dice[0]+tt.mod, r.Total)
			if tt.hit {
				require.Equal(t, tt.dice[1:], r.Rolls, "every damage die is in the event")
			}
			require.Zero(t, d.Remaining())
		})
	}
}

func at(q, r int) Hex { return Hex{q, r} }

func TestCombat(t *testing.T) {
	type side struct {
		unit UnitType
		hex  Hex
		hp   int // 0: full
	}
	tests := []struct {
		name             string
		terrain          map[Hex]Terrain
		att, def         side
		dice             []int
		wantAtt, wantDef int          // HP after; 0: dead
		want             []AttackData // kind, natural, modifier, total, defense, hit, critical, fumble, dice, rolls, damage
	}{
		{
			name: "hit, then the melee defender counters with half dice (1D6+1 → 1D3)",
			att:  side{Marine, at(0, 0), 0}, def: side{Marine, at(1, 0), 0},
			dice:    []int{11, 4, 13, 2},
			wantAtt: 8, wantDef: 5,
			want: []AttackData{
				{Kind: AttackTroop, Natural: 11, Modifier: 3, Total: 14, Defense: 14, Hit: true, Dice: "1D6+1", Rolls: []int{4}, Damage: 5, HP: 5},
				{Kind: AttackCounter, Natural: 13, Modifier: 3, Total: 16, Defense: 14, Hit: true, Dice: "1D3", Rolls: []int{2}, Damage: 2, HP: 8},
			},
		},
		{
			name: "a miss is still countered (melee against melee)",
			att:  side{Marine, at(0, 0), 0}, def: side{Marine, at(1, 0), 0},
			dice:    []int{10, 5},
			wantAtt: 10, wantDef: 10,
			want: []AttackData{
				{Kind: AttackTroop, Natural: 10, Modifier: 3, Total: 13, Defense: 14, HP: 10},
				{Kind: AttackCounter, Natural: 5, Modifier: 3, Total: 8, Defense: 14, HP: 10},
			},
		},
		{
			name: "natural 20 doubles the damage dice and kills: no counter",
			att:  side{Marine, at(0, 0), 0}, def: side{Marine, at(1, 0), 0},
			dice:    []int{20, 3, 6},
			wantAtt: 10, wantDef: 0,
			want: []AttackData{
				{Kind: AttackTroop, Natural: 20, Modifier: 3, Total: 23, Defense: 14, Hit: true, Critical: true, Dice: "2D6+1", Rolls: []int{3, 6}, Damage: 10, HP: 0},
			},
		},
		{
			name: "natural 1 on a ranged defender that can reach: no counter (melee-vs-melee only)",
			att:  side{Marine, at(0, 0), 0}, def: side{Sniper, at(1, 0), 0},
			dice:    []int{1},
			wantAtt: 10, wantDef: 6,
			want: []AttackData{{Kind: AttackTroop, Natural: 1, Modifier: 3, Total: 4, Defense: 11, Fumble: true, HP: 6}},
		},
		{
			name: "melee against ranged: no counter",
			att:  side{Marine, at(0, 0), 0}, def: side{Sniper, at(1, 0), 0},
			dice:    []int{9, 2},
			wantAtt: 10, wantDef: 3,
			want: []AttackData{
				{Kind: AttackTroop, Natural: 9, Modifier: 3, Total: 12, Defense: 11, Hit: true, Dice: "1D6+1", Rolls: []int{2}, Damage: 3, HP: 3},
			},
		},
		{
			name: "a ranged attack draws no counter",
			att:  side{Sniper, at(0, 0), 0}, def: side{Marine, at(2, 0), 0},
			dice:    []int{12, 5},
			wantAtt: 6, wantDef: 5,
			want: []AttackData{
				{Kind: AttackTroop, Natural: 12, Modifier: 4, Total: 16, Defense: 14, Hit: true, Dice: "1D8", Rolls: []int{5}, Damage: 5, HP: 5},
			},
		},
		{
			name: "ranged natural 1 out of the defender's reach: no counter",
			att:  side{Sniper, at(0, 0), 0}, def: side{Marine, at(2, 0), 0},
			dice:    []int{1},
			wantAtt: 6, wantDef: 10,
			want: []AttackData{{Kind: AttackTroop, Natural: 1, Modifier: 4, Total: 5, Defense: 14, Fumble: true, HP: 10}},
		},
		{
			name: "ranged natural 1 within the defender's reach: no counter (a ranged attack)",
			att:  side{Sniper, at(0, 0), 0}, def: side{Marine, at(1, 0), 0},
			dice:    []int{1},
			wantAtt: 6, wantDef: 10,
			want: []AttackData{{Kind: AttackTroop, Natural: 1, Modifier: 4, Total: 5, Defense: 14, Fumble: true, HP: 10}},
		},
		{
			name:    "terrain: hills add ATK and DEF, forest adds DEF",
			terrain: map[Hex]Terrain{at(0, 0): Hills, at(1, 0): Forest},
			att:     side{Marine, at(0, 0), 0}, def: side{Marine, at(1, 0), 0},
			dice:    []int{12, 1, 11},
			wantAtt: 10, wantDef: 8,
			want: []AttackData{
				{Kind: AttackTroop, Natural: 12, Modifier: 4, Total: 16, Defense: 16, Hit: true, Dice: "1D6+1", Rolls: []int{1}, Damage: 2, HP: 8},
				{Kind: AttackCounter, Natural: 11, Modifier: 3, Total: 14, Defense: 15, HP: 10},
			},
		},
		{
			name: "the counter kills the attacker",
			att:  side{Marine, at(0, 0), 1}, def: side{Marine, at(1, 0), 0},
			dice:    []int{5, 15, 1},
			wantAtt: 0, wantDef: 10,
			want: []AttackData{
				{Kind: AttackTroop, Natural: 5, Modifier: 3, Total: 8, Defense: 14, HP: 10},
				{Kind: AttackCounter, Natural: 15, Modifier: 3, Total: 18, Defense: 14, Hit: true, Dice: "1D3", Rolls: []int{1}, Damage: 1, HP: 0},
			},
		},
		{
			name: "hoverbike counter: 1D8+1 → 1D4",
			att:  side{Hoverbike, at(0, 0), 0}, def: side{Hoverbike, at(1, 0), 0},
			dice:    []int{2, 8, 4},
			wantAtt: 4, wantDef: 8,
			want: []AttackData{
				{Kind: AttackTroop, Natural: 2, Modifier: 4, Total: 6, Defense: 12, HP: 8},
				{Kind: AttackCounter, Natural: 8, Modifier: 4, Total: 12, Defense: 12, Hit: true, Dice: "1D4", Rolls: []int{4}, Damage: 4, HP: 4},
			},
		},
		{
			name: "a counter's natural 20 doubles its halved dice",
			att:  side{Marine, at(0, 0), 0}, def: side{Marine, at(1, 0), 0},
			dice:    []int{3, 20, 2, 3},
			wantAtt: 5, wantDef: 10,
			want: []AttackData{
				{Kind: AttackTroop, Natural: 3, Modifier: 3, Total: 6, Defense: 14, HP: 10},
				{Kind: AttackCounter, Natural: 20, Modifier: 3, Total: 23, Defense: 14, Hit: true, Critical: true, Dice: "2D3", Rolls: []int{2, 3}, Damage: 5, HP: 5},
			},
		},
		{
			name: "mech at range 3, 2D6+2",
			att:  side{Mech, at(0, 0), 0}, def: side{Marine, at(3, 0), 0},
			dice:    []int{9, 3, 4},
			wantAtt: 12, wantDef: 1,
			want: []AttackData{
				{Kind: AttackTroop, Natural: 9, Modifier: 5, Total: 14, Defense: 14, Hit: true, Dice: "2D6+2", Rolls: []int{3, 4}, Damage: 9, HP: 1},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, g := duel(t, tt.terrain, nil,
				Troop{ID: 1, Owner: 0, Type: tt.att.unit, Hex: tt.att.hex, HP: tt.att.hp},
				Troop{ID: 2, Owner: 1, Type: tt.def.unit, Hex: tt.def.hex, HP: tt.def.hp})
			g, out := act(t, r, g, alice, ActionAttack, `{"troop":1,`+hexJSON(tt.def.hex)+`}`, t0, tt.dice...)
			got := rulestest.All[AttackData](t, out.Events, EventAttacked)
			require.Len(t, got, len(tt.want))
			for i := range got {
				got[i].Attacker, got[i].Target = Unit{}, Unit{}
			}
			require.Equal(t, tt.want, got)
			for id, want := range map[int]int{1: tt.wantAtt, 2: tt.wantDef} {
				if want == 0 {
					require.Negative(t, g.TroopByID(id), "troop %d is dead", id)
					continue
				}
				require.Equal(t, want, troop(t, g, id).HP, "troop %d HP", id)
			}
			if tt.wantAtt > 0 {
				require.True(t, troop(t, g, 1).Attacked)
			}
			if tt.wantDef == 0 {
				require.Equal(t, 1, g.Players[0].Kills)
				require.Equal(t, 1, g.Players[1].Losses)
				k := rulestest.All[TroopKilledData](t, out.Events, EventTroopKilled)
				require.Equal(t, []TroopKilledData{{Troop: 2, Owner: 1, Type: tt.def.unit, Hex: tt.def.hex, Cause: CauseAttack, By: 0}}, k)
			}
			if tt.wantAtt == 0 {
				require.Equal(t, 1, g.Players[1].Kills)
				require.Equal(t, CauseCounter, rulestest.All[TroopKilledData](t, out.Events, EventTroopKilled)[0].Cause)
			}
		})
	}
}

// TestFumbleCounter covers the fumble's free counterattack (ruling 4, issue
// 20): a natural 1 is countered only when attacker and defender are both
// melee units (unit range 1, so next to each other); a ranged unit's natural
// 1 is a plain miss whatever the distance, and a ranged defender never
// counters. Each case runs in both turn modes.
func TestFumbleCounter(t *testing.T) {
	type side struct {
		unit UnitType
		hex  Hex
	}
	tests := []struct {
		name     string
		att, def side
		dice     []int
		counter  string // the counter's damage dice; "": no counter
		wantAtt  int    // the attacker's HP after
	}{
		{
			name: "sniper at range 3 fumbles on a sniper that can reach it: no counter",
			att:  side{Sniper, at(0, 0)}, def: side{Sniper, at(3, 0)},
			dice: []int{1}, wantAtt: 6,
		},
		{
			name: "mech at range 2 fumbles on a sniper that can reach it: no counter",
			att:  side{Mech, at(0, 0)}, def: side{Sniper, at(2, 0)},
			dice: []int{1}, wantAtt: 12,
		},
		{
			name: "sniper at range 1 fumbles on a marine: no counter (a ranged unit's attack)",
			att:  side{Sniper, at(0, 0)}, def: side{Marine, at(1, 0)},
			dice: []int{1}, wantAtt: 6,
		},
		{
			name: "mech at range 1 fumbles on a mech: no counter",
			att:  side{Mech, at(0, 0)}, def: side{Mech, at(1, 0)},
			dice: []int{1}, wantAtt: 12,
		},
		{
			name: "marine fumbles on an adjacent sniper: no counter (a ranged defender)",
			att:  side{Marine, at(0, 0)}, def: side{Sniper, at(1, 0)},
			dice: []int{1}, wantAtt: 10,
		},
		{
			name: "hoverbike fumbles on an adjacent mech: no counter (a ranged defender)",
			att:  side{Hoverbike, at(0, 0)}, def: side{Mech, at(1, 0)},
			dice: []int{1}, wantAtt: 8,
		},
		{
			name: "marine fumbles on a marine: the melee defender counters (1D3)",
			att:  side{Marine, at(0, 0)}, def: side{Marine, at(1, 0)},
			dice: []int{1, 14, 3}, counter: "1D3", wantAtt: 7,
		},
		{
			name: "hoverbike fumbles on a marine: the melee defender counters (1D3)",
			att:  side{Hoverbike, at(0, 0)}, def: side{Marine, at(1, 0)},
			dice: []int{1, 12, 2}, counter: "1D3", wantAtt: 6,
		},
		{
			name: "marine fumbles on a hoverbike: the melee defender counters (1D4)",
			att:  side{Marine, at(0, 0)}, def: side{Hoverbike, at(1, 0)},
			dice: []int{1, 10, 4}, counter: "1D4", wantAtt: 6,
		},
	}
	check := func(t *testing.T, events []domain.Event, wantCounter string) {
		t.Helper()
		got := rulestest.All[AttackData](t, events, EventAttacked)
		require.NotEmpty(t, got)
		require.True(t, got[0].Fumble, "the attack is a fumble")
		require.False(t, got[0].Hit, "a fumble misses")
		if wantCounter == "" {
			require.Len(t, got, 1, "got a counter, want none")
			return
		}
		require.Len(t, got, 2, "got no counter, want one")
		require.Equal(t, AttackCounter, got[1].Kind)
		require.Equal(t, wantCounter, got[1].Dice, "counter dice")
	}
	for _, tt := range tests {
		troops := []Troop{{ID: 1, Owner: 0, Type: tt.att.unit, Hex: tt.att.hex}, {ID: 2, Owner: 1, Type: tt.def.unit, Hex: tt.def.hex}}
		t.Run("alternating/"+tt.name, func(t *testing.T) {
			r, g := duel(t, nil, nil, troops...)
			g, out := act(t, r, g, alice, ActionAttack, `{"troop":1,`+hexJSON(tt.def.hex)+`}`, t0, tt.dice...)
			check(t, out.Events, tt.counter)
			res, ok := out.Result.(AttackResult)
			require.True(t, ok, "result is %T", out.Result)
			require.Equal(t, tt.counter != "", res.Counter, "result.counter")
			require.Equal(t, tt.wantAtt, troop(t, g, 1).HP, "attacker HP")
		})
		t.Run("simultaneous/"+tt.name, func(t *testing.T) {
			_, m, g := planning(t, nil, nil, troops...)
			s := phases(t, m, g, orders(hit(1, tt.def.hex)), orders(), tt.dice...)
			check(t, s.events, tt.counter)
			require.Equal(t, tt.wantAtt, troop(t, s.g, 1).HP, "attacker HP")
		})
	}
}

func TestAttackStructures(t *testing.T) {
	outpost := []Site{{ID: "hq0", Kind: HQ, Hex: at(0, -5), Owner: 0}, {ID: "hq1", Kind: HQ, Hex: at(0, 5), Owner: 1},
		{ID: "n1", Kind: Outpost, Hex: at(2, 0), Owner: Neutral}}
	tests := []struct {
		name      string
		unit      UnitType
		from      Hex
		target    string
		targetHP  int // 0: full
		dice      []int
		wantHP    int
		wantOwner Seat
		want      AttackData
		over      bool
	}{
		{
			name: "a marine damages a neutral outpost",
			unit: Marine, from: at(1, 0), target: "n1", dice: []int{15, 4},
			wantHP: 3, wantOwner: Neutral,
			want: AttackData{Kind: AttackTroop, Natural: 15, Modifier: 3, Total: 18, Defense: 12, Hit: true, Dice: "1D6+1", Rolls: []int{4}, Damage: 5, HP: 3},
		},
		{
			name: "a mech deals double damage to a structure and captures it at 1 HP",
			unit: Mech, from: at(0, 0), target: "n1", dice: []int{10, 3, 4},
			wantHP: 1, wantOwner: 0,
			want: AttackData{Kind: AttackTroop, Natural: 10, Modifier: 5, Total: 15, Defense: 12, Hit: true, Dice: "2D6+2", Rolls: []int{3, 4}, Multiplier: 2, Damage: 18, HP: 1, Captured: true},
		},
		{
			name: "exactly 0 HP captures",
			unit: Marine, from: at(1, 0), target: "n1", targetHP: 5, dice: []int{12, 4},
			wantHP: 1, wantOwner: 0,
			want: AttackData{Kind: AttackTroop, Natural: 12, Modifier: 3, Total: 15, Defense: 12, Hit: true, Dice: "1D6+1", Rolls: []int{4}, Damage: 5, HP: 1, Captured: true},
		},
		{
			name: "a natural 1 on a structure: a miss, structures never counter",
			unit: Marine, from: at(1, 0), target: "n1", dice: []int{1},
			wantHP: 8, wantOwner: Neutral,
			want: AttackData{Kind: AttackTroop, Natural: 1, Modifier: 3, Total: 4, Defense: 12, Fumble: true, HP: 8},
		},
		{
			name: "capturing the enemy HQ ends the game",
			unit: Marine, from: at(0, 4), target: "hq1", targetHP: 3, dice: []int{15, 2},
			wantHP: 1, wantOwner: 0, over: true,
			want: AttackData{Kind: AttackTroop, Natural: 15, Modifier: 3, Total: 18, Defense: 16, Hit: true, Dice: "1D6+1", Rolls: []int{2}, Damage: 3, HP: 1, Captured: true},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, g := duel(t, nil, outpost, Troop{ID: 1, Owner: 0, Type: tt.unit, Hex: tt.from})
			if tt.targetHP > 0 {
				g = setStructure(g, tt.target, func(s *Structure) { s.HP = tt.targetHP })
			}
			st := structure(t, g, tt.target)
			g, out := act(t, r, g, alice, ActionAttack, `{"troop":1,`+hexJSON(st.Hex)+`}`, t0, tt.dice...)
			got := rulestest.All[AttackData](t, out.Events, EventAttacked)
			require.Len(t, got, 1)
			tt.want.Attacker = Unit{Troop: 1, Owner: 0, Hex: tt.from}
			tt.want.Target = Unit{Structure: tt.target, Owner: st.Owner, Hex: st.Hex}
			require.Equal(t, tt.want, got[0])
			after := structure(t, g, tt.target)
			require.Equal(t, tt.wantHP, after.HP)
			require.Equal(t, tt.wantOwner, after.Owner)
			if tt.wantOwner != st.Owner {
				require.Equal(t, []CapturedData{{Structure: tt.target, Kind: st.Kind, From: st.Owner, To: 0, HP: 1}},
					rulestest.All[CapturedData](t, out.Events, EventCaptured))
			}
			require.Equal(t, tt.over, g.Phase == PhaseOver)
			if tt.over {
				over := rulestest.GameOver(t, out.Events)
				require.Equal(t, &domain.GameOver{Kind: Kind, Mode: "alternating", Winners: []string{"alice"}, Losers: []string{"bob"},
					Players: []string{"alice", "bob"}, Reason: ReasonHQ}, over)
				require.Equal(t, Seat(0), g.Result.Winner)
			}
		})
	}
}

func TestAttackRefused(t *testing.T) {
	r, g := duel(t, nil, nil,
		Troop{ID: 1, Owner: 0, Type: Marine, Hex: at(0, 0)},
		Troop{ID: 2, Owner: 1, Type: Marine, Hex: at(1, 0)},
		Troop{ID: 3, Owner: 0, Type: Sniper, Hex: at(-1, 0)},
		Troop{ID: 4, Owner: 1, Type: Marine, Hex: at(3, 0)})
	bought := g.clone()
	bought.Troops[0].Ready = false
	first := g.clone()
	first.Turn = 1
	attacked, _ := act(t, r, g, alice, ActionAttack, `{"troop":1,"q":1,"r":0}`, t0, 10, 10)
	tests := []struct {
		name string
		g    Game
		who  domain.Actor
		body string
		code string
		msg  string
	}{
		{"a stranger", g, carol, `{"troop":1,"q":1,"r":0}`, domain.EFORBIDDEN, "not a player"},
		{"not your turn", g, bob, `{"troop":2,"q":0,"r":0}`, domain.ECONFLICT, "not your turn"},
		{"the first player's first turn", first, alice, `{"troop":1,"q":1,"r":0}`, domain.ECONFLICT, "first turn"},
		{"bought this turn", bought, alice, `{"troop":1,"q":1,"r":0}`, domain.ECONFLICT, "bought this turn"},
		{"already attacked", attacked, alice, `{"troop":1,"q":1,"r":0}`, domain.ECONFLICT, "already attacked"},
		{"attack then move", attacked, alice, `{"troop":1,"q":0,"r":1}`, domain.ECONFLICT, ""},
		{"out of range", g, alice, `{"troop":1,"q":3,"r":0}`, domain.EINVALID, "out of troop 1's range 1"},
		{"nobody there", g, alice, `{"troop":1,"q":0,"r":1}`, domain.EINVALID, "no enemy troop or structure"},
		{"a friend", g, alice, `{"troop":3,"q":0,"r":0}`, domain.EINVALID, "no enemy troop"},
		{"own HQ", g, alice, `{"troop":1,"q":0,"r":-5}`, domain.EINVALID, "out of troop 1's range"},
		{"no troop field", g, alice, `{"q":1,"r":0}`, domain.EINVALID, "troop is required"},
		{"the enemy's troop", g, alice, `{"troop":2,"q":0,"r":0}`, domain.EINVALID, "you have no troop 2"},
		{"no hex", g, alice, `{"troop":1}`, domain.EINVALID, "q and r are required"},
		{"off the map", g, alice, `{"troop":1,"q":9,"r":0}`, domain.EINVALID, "off the map"},
		{"q is a string", g, alice, `{"troop":1,"q":"1","r":0}`, domain.EINVALID, `"q"`},
		{"not an object", g, alice, `[1]`, domain.EINVALID, "JSON object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			typ := ActionAttack
			if tt.name == "attack then move" {
				typ = ActionMove
			}
			err := actErr(t, r, tt.g, tt.who, typ, tt.body, tt.code)
			require.Contains(t, domain.ErrorMessage(err), tt.msg)
		})
	}
}
