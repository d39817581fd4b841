package partyboard

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
)

var t0 = time.Date(2026, 5, 1, 20, 0, 0, 0, time.UTC)

func actor(i int) domain.Actor {
	return domain.Actor{ID: fmt.Sprintf("p%d", i), Name: fmt.Sprintf("Player %d", i)}
}

// lobby seats n players on board and starts the game.
func lobby(t testing.TB, r Rules, b *Board, n int, dice domain.Dice) Game {
	t.Helper()
	g, err := NewGame("g1", actor(0), b, t0)
	require.NoError(t, err)
	for i := 1; i < n; i++ {
		g, _, err = r.Apply(g, domain.Action{Type: ActionJoin, Actor: actor(i)}, domain.Env{Now: t0, Dice: dice})
		require.NoError(t, err)
	}
	g, _, err = r.Apply(g, domain.Action{Type: ActionStart, Actor: actor(0)}, domain.Env{Now: t0, Dice: dice})
	require.NoError(t, err)
	return g
}

// legalInput picks a random input the game accepts now.
func legalInput(rng *rand.Rand, g Game) domain.Action {
	w := g.Await
	who := w.Players[rng.IntN(len(w.Players))]
	a := domain.Action{Type: w.Action, Actor: domain.Actor{ID: who}}
	var payload any
	switch w.Action {
	case ActionChoose:
		payload = map[string]any{"choice": rng.IntN(len(w.Choices))}
	case ActionTarget:
		payload = map[string]any{"playerId": w.Targets[rng.IntN(len(w.Targets))]}
	case ActionStarter:
		payload = map[string]any{"starter": w.Starters[rng.IntN(len(w.Starters))]}
	case ActionChallenge:
		i := rng.Perm(len(w.Targets))
		payload = map[string]any{"winner": w.Targets[i[0]], "loser": w.Targets[i[1]]}
	}
	a.Payload, _ = json.Marshal(payload)
	return a
}

func checkInvariants(t *testing.T, b *Board, before, g Game, beforeJSON []byte) {
	t.Helper()
	after, _ := json.Marshal(before)
	require.JSONEq(t, string(beforeJSON), string(after), "Apply mutated its input")
	for _, p := range g.Players {
		require.True(t, p.Tile >= 0 && p.Tile < len(b.Tiles), "position %d off the board", p.Tile)
		require.GreaterOrEqual(t, p.LostTurns, 0)
		require.GreaterOrEqual(t, p.Anchors, 0)
		require.GreaterOrEqual(t, p.SkipMandatory, 0)
	}
	if g.Phase == PhaseOver {
		require.Nil(t, g.Await)
		require.NotEmpty(t, g.Winner)
	} else {
		require.NotNil(t, g.Await, "a game in play waits for exactly one input")
		require.NotEmpty(t, g.Await.Players)
	}
	raw, err := json.Marshal(g)
	require.NoError(t, err)
	var back Game
	require.NoError(t, json.Unmarshal(raw, &back))
	again, _ := json.Marshal(back)
	require.JSONEq(t, string(raw), string(again))
}

// TestRealBoardsPlayToTheEnd plays many seeded games with random legal inputs
// on both real boards.
func TestRealBoardsPlayToTheEnd(t *testing.T) {
	games := 40
	if testing.Short() {
		games = 10
	}
	r := Rules{Boards: BuiltinSource{}}
	for _, id := range BuiltinBoardIDs() {
		b, err := BuiltinBoard(id)
		require.NoError(t, err)
		t.Run(id, func(t *testing.T) {
			for n := 0; n < games; n++ {
				seed := fmt.Sprintf("%s-%d", id, n)
				rng := rand.New(rand.NewPCG(uint64(n), 7))
				players := 2 + n%11
				g := lobby(t, r, b, players, domain.NewSeededDice(seed, 0))
				for step := int64(1); g.Phase != PhaseOver; step++ {
					require.Less(t, step, int64(20000), "game %s did not end", seed)
					a := legalInput(rng, g)
					before, _ := json.Marshal(g)
					next, out, err := r.Apply(g, a, domain.Env{Now: t0, Dice: domain.NewSeededDice(seed, step)})
					require.NoError(t, err, "game %s step %d: %s by %s", seed, step, a.Type, a.Actor.ID)
					checkInvariants(t, b, g, next, before)
					if next.Phase == PhaseOver {
						require.Equal(t, domain.EventGameOver, out.Events[len(out.Events)-1].Type)
					}
					g = next
				}
			}
		})
	}
}

func TestOnlyTheAwaitedPlayerActs(t *testing.T) {
	r := Rules{Boards: BuiltinSource{}}
	b, _ := BuiltinBoard("pokemon-gen1")
	g := lobby(t, r, b, 3, domain.Script())
	require.Equal(t, ActionStarter, g.Await.Action, "gen1 starts with everyone picking a starter")
	require.ElementsMatch(t, []string{"p0", "p1", "p2"}, g.Await.Players)

	tests := []struct {
		name string
		a    domain.Action
		code string
	}{
		{"not seated", domain.Action{Type: ActionStarter, Actor: domain.Actor{ID: "zed"}, Payload: []byte(`{"starter":"x"}`)}, domain.EFORBIDDEN},
		{"wrong action", domain.Action{Type: ActionRoll, Actor: actor(1)}, domain.ECONFLICT},
		{"bad starter", domain.Action{Type: ActionStarter, Actor: actor(1), Payload: []byte(`{"starter":"Mew"}`)}, domain.EINVALID},
		{"malformed", domain.Action{Type: ActionStarter, Actor: actor(1), Payload: []byte(`{"starter":1}`)}, domain.EINVALID},
		{"join after start", domain.Action{Type: ActionJoin, Actor: domain.Actor{ID: "late"}}, domain.ECONFLICT},
		{"unknown", domain.Action{Type: "fly", Actor: actor(1)}, domain.ECONFLICT},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before, _ := json.Marshal(g)
			got, _, err := r.Apply(g, tt.a, domain.Env{Now: t0, Dice: domain.Script()})
			require.Equal(t, tt.code, domain.ErrorCode(err), "%v", err)
			after, _ := json.Marshal(got)
			require.JSONEq(t, string(before), string(after))
		})
	}
	starters := g.Await.Starters
	for i := 0; i < 3; i++ {
		var err error
		g, _, err = r.Apply(g, domain.Action{Type: ActionStarter, Actor: actor(i), Payload: []byte(`{"starter":"` + starters[i%len(starters)] + `"}`)},
			domain.Env{Now: t0, Dice: domain.Script()})
		require.NoError(t, err)
	}
	require.Equal(t, Await{Action: ActionRoll, Players: []string{"p0"}, Purpose: "turnRoll", Dice: 1}, *g.Await)
	_, _, err := r.Apply(g, domain.Action{Type: ActionRoll, Actor: actor(1)}, domain.Env{Now: t0, Dice: domain.Script(3)})
	require.Equal(t, domain.ECONFLICT, domain.ErrorCode(err), "not p1's turn")
	require.True(t, slices.Contains(g.Await.Players, "p0"))
}
