package hexdice

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
)

// countTypes counts moves by type.
func countTypes(moves []domain.Move) map[string]int {
	out := map[string]int{}
	for _, m := range moves {
		out[m.Type]++
	}
	return out
}

// applyAll checks Apply accepts every move in moves for who.
func applyAll(t testing.TB, r Rules, g Game, who domain.Actor, moves []domain.Move) {
	t.Helper()
	for _, mv := range moves {
		body, err := json.Marshal(mv.Payload)
		require.NoError(t, err)
		if mv.Payload == nil {
			body = []byte(`{}`)
		}
		_, _, err = r.Apply(g, domain.Action{Type: mv.Type, Actor: who, Payload: body}, domain.Env{Now: t0, Dice: domain.NewSeededDice("legal", 1)})
		require.NoError(t, err, "listed move %s %s refused", mv.Type, body)
	}
}

func TestLegal(t *testing.T) {
	sites := sitesWith(Site{ID: "n1", Kind: Outpost, Hex: at(3, 0), Owner: 0})
	m := testMap(t, nil, sites...)
	r := rulesFor(m)
	w, err := r.NewGame("g1", alice, Options{Size: Small, TurnSeconds: 60}, t0)
	require.NoError(t, err)
	require.Equal(t, []domain.Move{{Type: ActionJoin}}, r.Legal(w, bob))
	require.Equal(t, []domain.Move{{Type: ActionSurrender}}, r.Legal(w, alice))
	require.Nil(t, r.Legal(w, domain.Actor{}))

	g := started(t, m, Alternating, 0)
	g = withTroops(g, Troop{ID: 1, Owner: 0, Type: Marine, Hex: at(0, 0)}, Troop{ID: 2, Owner: 1, Type: Marine, Hex: at(1, 0)},
		Troop{ID: 3, Owner: 0, Type: Sniper, Hex: at(-2, 0)})
	g.Troops[2].Ready = false // bought this turn
	t.Run("the first turn: no attacks", func(t *testing.T) {
		moves := r.Legal(g, alice)
		c := countTypes(moves)
		require.Zero(t, c[ActionAttack])
		require.Equal(t, 1, c[ActionEndTurn])
		require.Equal(t, len(Reachable(g, m, 1)), c[ActionMove], "troop 3 is not ready")
		require.Positive(t, c[ActionBuy])
		require.Zero(t, c[ActionSurrender], "round 1")
		applyAll(t, r, g, alice, moves)
		require.Nil(t, r.Legal(g, bob), "not bob's turn, too early to surrender")
		require.Nil(t, r.Legal(g, carol))
	})
	g.Turn, g.Round = 3, 5
	t.Run("later", func(t *testing.T) {
		moves := r.Legal(g, alice)
		c := countTypes(moves)
		require.Equal(t, 1, c[ActionAttack], "troop 1 on troop 2")
		require.Equal(t, 1, c[ActionSurrender])
		applyAll(t, r, g, alice, moves)
		require.Equal(t, []domain.Move{{Type: ActionSurrender}}, r.Legal(g, bob))
	})
	t.Run("buys: every spawn hex times every affordable unit", func(t *testing.T) {
		poor := g.clone()
		poor.Players[0].Coins = 150
		opts := BuyOptions(poor, m, 0)
		require.Len(t, opts, 6+6, "around the HQ and the outpost")
		require.Equal(t, []UnitType{Marine, Sniper}, opts[0].Units)
		require.Equal(t, 2*12, countTypes(r.Legal(poor, alice))[ActionBuy])
		broke := g.clone()
		broke.Players[0].Coins = 0
		require.Zero(t, countTypes(r.Legal(broke, alice))[ActionBuy])
	})
	t.Run("targets", func(t *testing.T) {
		require.Equal(t, []Hex{at(1, 0)}, Targets(g, m, 1, at(0, 0)))
		require.Equal(t, []Hex{at(3, 0)}, Targets(g, m, 2, at(2, 0)), "bob's marine, moved next to alice's outpost")
		require.Equal(t, []Hex{at(0, 0)}, Targets(g, m, 2, at(1, 0)))
		require.Nil(t, Targets(g, m, 99, at(0, 0)))
		require.Nil(t, Reachable(g, m, 99))
	})
	t.Run("simultaneous", func(t *testing.T) {
		_, m, sg := planning(t, nil, sites, Troop{ID: 1, Owner: 0, Type: Marine, Hex: at(0, 0)}, Troop{ID: 2, Owner: 1, Type: Marine, Hex: at(1, 0)})
		r := rulesFor(m)
		moves := r.Legal(sg, alice)
		c := countTypes(moves)
		require.Equal(t, len(Reachable(sg, m, 1))+1+len(BuyOptions(sg, m, 0))*4+1, c[ActionOrders])
		applyAll(t, r, sg, alice, moves)
		sub, _ := act(t, r, sg, alice, ActionOrders, `{"submit":true}`, t0)
		require.Empty(t, r.Legal(sub, alice), "submitted: nothing left to do")
		applyAll(t, r.WithOrders(map[string]Orders{"alice": {Round: 2, Submitted: true}}), sub, bob, r.Legal(sub, bob))
	})
	over := g.clone()
	over.Phase = PhaseOver
	require.Equal(t, []domain.Move{{Type: ActionRematch}}, r.Legal(over, alice), "over: a rematch")
	over.RematchAsked = []bool{true, false}
	require.Nil(t, r.Legal(over, alice), "asked already")
}
