package hexdice

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/rulestest"
)

var threeNeutral = sitesWith(
	Site{ID: "n1", Kind: Outpost, Hex: at(3, 0), Owner: Neutral},
	Site{ID: "n2", Kind: Outpost, Hex: at(-3, 0), Owner: Neutral},
	Site{ID: "n3", Kind: CommandCenter, Hex: at(0, 2), Owner: Neutral})

func TestDominance(t *testing.T) {
	m := testMap(t, nil, threeNeutral...)
	r := rulesFor(m)
	g := started(t, m, Alternating, 0)
	g = setStructure(g, "n1", func(s *Structure) { s.Owner = 0 })
	g = setStructure(g, "n2", func(s *Structure) { s.Owner = 0 })
	// Alice holds 3 of 5: a majority. Her own turns count; bob's do not.
	var out domain.Outcome
	for i := 1; i <= 2; i++ {
		g, out = act(t, r, g, alice, ActionEndTurn, `{}`, t0)
		require.Equal(t, TurnEndedData{Seat: 0, Round: i, Reason: "endTurn", Held: 3, Dominance: i}, out.Events[0].Data)
		g, _ = act(t, r, g, bob, ActionEndTurn, `{}`, t0)
	}
	t.Run("the third own turn wins", func(t *testing.T) {
		got, out := act(t, r, g, alice, ActionEndTurn, `{}`, t0)
		require.Equal(t, PhaseOver, got.Phase)
		require.Equal(t, &Result{Winner: 0, Reason: ReasonDominance, EndedAt: t0, Rounds: 3, Players: []Summary{
			{ID: "alice", StructuresHeld: 3, TurnsPlayed: 3}, {ID: "bob", StructuresHeld: 1, TurnsPlayed: 2}}}, got.Result)
		require.Equal(t, &domain.GameOver{Kind: Kind, Mode: "alternating", Winners: []string{"alice"}, Losers: []string{"bob"},
			Players: []string{"alice", "bob"}, Reason: ReasonDominance}, rulestest.GameOver(t, out.Events))
		actErr(t, r, got, bob, ActionEndTurn, `{}`, domain.ECONFLICT)
		require.Equal(t, domain.Header{Status: domain.StatusOver, Players: []string{"alice", "bob"}}, r.Header(got))
	})
	t.Run("losing the majority resets the count", func(t *testing.T) {
		lost := setStructure(g, "n2", func(s *Structure) { s.Owner = 1 })
		got, out := act(t, r, lost, alice, ActionEndTurn, `{}`, t0)
		require.Equal(t, PhasePlaying, got.Phase)
		require.Equal(t, TurnEndedData{Seat: 0, Round: 3, Reason: "endTurn", Held: 2}, out.Events[0].Data)
		require.Zero(t, got.Players[0].Dominance)
	})
	t.Run("half is not a majority", func(t *testing.T) {
		c := DefaultConfig()
		sites := append(append([]Site{}, threeNeutral...), Site{ID: "n4", Kind: Outpost, Hex: at(-3, 3), Owner: Neutral})
		m := testMap(t, nil, sites...)
		g := started(t, m, Alternating, 0)
		g = setStructure(g, "n1", func(s *Structure) { s.Owner = 0 })
		g = setStructure(g, "n2", func(s *Structure) { s.Owner = 0 })
		g, out := act(t, rulesFor(m), g, alice, ActionEndTurn, `{}`, t0)
		require.Equal(t, TurnEndedData{Seat: 0, Round: 1, Reason: "endTurn", Held: 3}, out.Events[0].Data, "3 of 6")
		require.Equal(t, 3, c.DominanceTurns)
	})
}

func TestSurrender(t *testing.T) {
	m := testMap(t, nil)
	r := rulesFor(m)
	g := started(t, m, Alternating, 0)
	g.Round = 4
	err := actErr(t, r, g, bob, ActionSurrender, `{}`, domain.ECONFLICT)
	require.ErrorContains(t, err, "surrender is allowed from round 5 (this is round 4)")
	actErr(t, r, g, carol, ActionSurrender, `{}`, domain.EFORBIDDEN)
	g.Round = 5
	g, out := act(t, r, g, bob, ActionSurrender, `{}`, t0) // on alice's turn
	require.Equal(t, []string{EventSurrendered, domain.EventGameOver}, rulestest.Types(out.Events))
	require.Equal(t, Seat(0), g.Result.Winner)
	require.Equal(t, ReasonSurrender, g.Result.Reason)
	require.Equal(t, []string{"bob"}, rulestest.GameOver(t, out.Events).Losers)
	actErr(t, r, g, alice, ActionSurrender, `{}`, domain.ECONFLICT)
	actErr(t, r, g, alice, ActionHeartbeat, `{}`, domain.ECONFLICT)
	// GG after the end is fine.
	_, out = act(t, r, g, bob, ActionEmote, `{"emote":"gg"}`, t0)
	require.Equal(t, []string{EventEmote}, rulestest.Types(out.Events))
}

// TestSuddenDeath plays end turns from round 19 of a small map (sudden death
// from round 20, radius 6) to the zone closing after round 25.
func TestSuddenDeath(t *testing.T) {
	require.Equal(t, []int{1, 2, 3, 6}, []int{DefaultConfig().StormDamage(1), DefaultConfig().StormDamage(2),
		DefaultConfig().StormDamage(3), DefaultConfig().StormDamage(6)})
	r, g := bobsTurn(t, nil, nil,
		Troop{ID: 1, Owner: 0, Type: Marine, Hex: at(6, -6)}, // the edge: in the storm from round 20
		Troop{ID: 2, Owner: 1, Type: Mech, Hex: at(-6, 6)},   // the edge
		Troop{ID: 4, Owner: 0, Type: Sniper, Hex: at(3, 0)},  // safe until the radius drops below 3
	)
	g.Round = 19
	type round struct {
		safe   int
		damage int
		hq0    Hex
		hq1    Hex
		hp     map[int]int // HP after the round's storm and the turn starts; 0 dead
	}
	want := []round{
		{5, 1, at(0, -5), at(0, 5), map[int]int{1: 9, 2: 11, 4: 6}},
		{4, 2, at(0, -4), at(0, 4), map[int]int{1: 7, 2: 9, 4: 6}},
		{3, 3, at(0, -3), at(0, 3), map[int]int{1: 4, 2: 6, 4: 6}},
		{2, 4, at(0, -2), at(0, 2), map[int]int{1: 0, 2: 2, 4: 2}},
		{1, 5, at(0, -1), at(0, 1), map[int]int{1: 0, 2: 0, 4: 0}},
	}
	for i, w := range want {
		var out domain.Outcome
		g, out = act(t, r, g, bob, ActionEndTurn, `{}`, t0)
		require.Equal(t, 20+i, g.Round)
		require.Equal(t, ZoneShrunkData{K: i + 1, SafeRadius: w.safe, Damage: w.damage}, rulestest.All[ZoneShrunkData](t, out.Events, EventZoneShrunk)[0])
		require.Equal(t, w.safe, g.SafeRadius)
		require.Equal(t, w.hq0, structure(t, g, "hq0").Hex, "round %d", g.Round)
		require.Equal(t, w.hq1, structure(t, g, "hq1").Hex, "round %d", g.Round)
		for id, hp := range w.hp {
			if hp == 0 {
				require.Negative(t, g.TroopByID(id), "round %d: troop %d dead", g.Round, id)
				continue
			}
			require.Equal(t, hp, troop(t, g, id).HP, "round %d: troop %d", g.Round, id)
		}
		for _, s := range rulestest.All[StormData](t, out.Events, EventStorm) {
			require.Equal(t, w.damage, s.Damage)
		}
		g, _ = act(t, r, g, alice, ActionEndTurn, `{}`, t0)
	}
	require.Equal(t, 0, g.Players[0].Kills, "the storm kills for nobody")
	require.Equal(t, 2, g.Players[0].Losses)
	// Round 25: radius 0. HQ 0 takes the centre, HQ 1 has nowhere to go.
	g, out := act(t, r, g, bob, ActionEndTurn, `{}`, t0)
	require.Equal(t, 0, g.SafeRadius)
	require.Equal(t, at(0, 0), structure(t, g, "hq0").Hex)
	require.Equal(t, at(0, 1), structure(t, g, "hq1").Hex)
	require.Len(t, rulestest.All[HQRelocatedData](t, out.Events, EventHQRelocated), 1)
	g, _ = act(t, r, g, alice, ActionEndTurn, `{}`, t0)
	require.Equal(t, PhasePlaying, g.Phase)
	g, out = act(t, r, g, bob, ActionEndTurn, `{}`, t0)
	require.Equal(t, PhaseOver, g.Phase, "the round in which the zone closed is complete")
	require.Equal(t, 25, g.Result.Rounds)
	require.True(t, g.Result.Draw, "one structure each, no troops: a draw")
	require.Equal(t, &domain.GameOver{Kind: Kind, Mode: "alternating", Draw: true, Players: []string{"alice", "bob"}, Reason: ReasonSuddenDeath},
		rulestest.GameOver(t, out.Events))
}

func TestRelocateHQ(t *testing.T) {
	tests := []struct {
		name   string
		safe   int
		troops []Troop
		want0  Hex
		want1  Hex
	}{
		{"the nearest safe hex", 4, nil, at(0, -4), at(0, 4)},
		{"ties: nearer the centre, then the side's own (r, q) order", 3, nil, at(0, -3), at(0, 3)},
		{"a troop holds the nearest: the next nearest, nearer the centre", 4, []Troop{{Owner: 1, Type: Marine, Hex: at(0, -4)}, {Owner: 0, Type: Marine, Hex: at(0, 4)}},
			at(0, -3), at(0, 3)},
		{"then the side's own (r, q) order", 4, []Troop{{Owner: 1, Type: Marine, Hex: at(0, -4)}, {Owner: 0, Type: Marine, Hex: at(0, 4)},
			{Owner: 1, Type: Marine, Hex: at(0, -3)}, {Owner: 0, Type: Marine, Hex: at(0, 3)}}, at(1, -4), at(-1, 4)},
		{"inside the zone: no move", 5, nil, at(0, -5), at(0, 5)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := testMap(t, nil)
			g := withTroops(started(t, m, Alternating, 0), tt.troops...)
			s := newStep(g.clone(), m, t0, domain.Script())
			s.g.SafeRadius = tt.safe
			for i, st := range s.g.Structures {
				if st.Hex.Length() > tt.safe {
					s.relocate(i)
				}
			}
			require.Equal(t, tt.want0, structure(t, s.g, "hq0").Hex)
			require.Equal(t, tt.want1, structure(t, s.g, "hq1").Hex)
			require.Equal(t, tt.want0.Rotate180(), tt.want1, "symmetric")
		})
	}
}

func TestSuddenDeathTieBreaks(t *testing.T) {
	tests := []struct {
		name   string
		n1     Seat
		troops []Troop
		winner Seat
	}{
		{"more structures", 1, []Troop{{Owner: 0, Type: Mech, Hex: at(0, 0)}}, 1},
		{"equal structures: more troop HP", Neutral, []Troop{{Owner: 0, Type: Marine, Hex: at(0, 0), HP: 9}, {Owner: 1, Type: Sniper, Hex: at(1, 0)}}, 0},
		{"equal HP summed over troops", Neutral, []Troop{{Owner: 0, Type: Marine, Hex: at(0, 0), HP: 4}, {Owner: 0, Type: Marine, Hex: at(-1, 0), HP: 4},
			{Owner: 1, Type: Sniper, Hex: at(1, 0), HP: 9 - 3}, {Owner: 1, Type: Marine, Hex: at(2, 0), HP: 3}}, 1},
		{"all equal: a draw", Neutral, []Troop{{Owner: 0, Type: Marine, Hex: at(0, 0), HP: 6}, {Owner: 1, Type: Sniper, Hex: at(1, 0)}}, Neutral},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, g := bobsTurn(t, nil, sitesWith(Site{ID: "n1", Kind: Outpost, Hex: at(-4, 0), Owner: Neutral}), tt.troops...)
			g = setStructure(g, "n1", func(s *Structure) { s.Owner = tt.n1 })
			g.Round, g.SuddenDeath, g.SafeRadius = 25, 6, 0
			g, out := act(t, r, g, bob, ActionEndTurn, `{}`, t0)
			require.Equal(t, PhaseOver, g.Phase)
			require.Equal(t, ReasonSuddenDeath, g.Result.Reason)
			require.Equal(t, tt.winner, g.Result.Winner)
			require.Equal(t, tt.winner == Neutral, rulestest.GameOver(t, out.Events).Draw)
		})
	}
}

func TestSuddenDeathSimultaneous(t *testing.T) {
	m := testMap(t, nil)
	r := rulesFor(m)
	g := withTroops(started(t, m, Simultaneous, 0), Troop{ID: 1, Owner: 0, Type: Marine, Hex: at(6, -6)})
	g.Round = 19
	g = keepAlive(g, r)
	g, out := expire(t, r, g, 0)
	require.Equal(t, 20, g.Round)
	require.Equal(t, 5, g.SafeRadius)
	require.Equal(t, []StormData{{Troop: 1, Damage: 1, HP: 9}}, rulestest.All[StormData](t, out.Events, EventStorm))
	require.Empty(t, rulestest.All[HealedData](t, out.Events, EventHealed), "a troop the storm hit does not heal it off")
	g.Round, g.SuddenDeath, g.SafeRadius = 25, 6, 0
	g, _ = expire(t, r, keepAlive(g, r), 0)
	require.Equal(t, PhaseOver, g.Phase)
	require.Equal(t, ReasonSuddenDeath, g.Result.Reason)
	require.Equal(t, Seat(0), g.Result.Winner, "equal structures, alice has the troop HP")
}

// keepAlive gives both players a heartbeat at the turn deadline, so that only
// the turn timer is due there.
func keepAlive(g Game, r Rules) Game {
	g = g.clone()
	for i := range g.Players {
		g.Players[i].LastSeen = g.TurnDeadline
	}
	return g
}
