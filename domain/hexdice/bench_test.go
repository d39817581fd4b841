package hexdice

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
)

func BenchmarkGenerateMap(b *testing.B) {
	cfg := DefaultConfig()
	for _, size := range Sizes {
		b.Run(string(size), func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if _, err := GenerateMap(size, fmt.Sprint("bench-", i), cfg); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}

// cycleDice rolls a fixed sequence over and over, fitting each value to the die.
type cycleDice struct {
	values []int
	i      int
}

func (d *cycleDice) Roll(sides int) int {
	v := d.values[d.i%len(d.values)]
	d.i++
	return (v-1)%sides + 1
}

// midGame returns a state in round 15 of a random game, with the player to
// act and the moves they may make.
func midGame(b *testing.B, size Size, mode TurnMode) (Game, domain.Actor, []domain.Move) {
	b.Helper()
	for i := 0; ; i++ {
		g, _ := randomGameUntil(b, size, mode, fmt.Sprint("mid-", i), false, 15)
		if g.Phase != PhasePlaying {
			continue
		}
		who := alice
		if g.Mode == Alternating && g.Current == 1 {
			who = bob
		}
		if g.Mode == Simultaneous && g.Players[0].Submitted {
			who = bob
		}
		if moves := (Rules{}).Legal(g, who); len(moves) > 5 {
			return g, who, moves
		}
	}
}

// BenchmarkApply measures one action through Apply on a Large map in
// round 15 (clone, map lookup in the cache, the rule, the events), cycling
// through every legal move of the player to act, each applied to the same
// state.
func BenchmarkApply(b *testing.B) {
	for _, mode := range []TurnMode{Alternating, Simultaneous} {
		b.Run(string(mode), func(b *testing.B) {
			g, who, moves := midGame(b, Large, mode)
			actions := make([]domain.Action, len(moves))
			for i, mv := range moves {
				body, _ := json.Marshal(mv.Payload)
				if mv.Payload == nil {
					body = []byte(`{}`)
				}
				actions[i] = domain.Action{ID: "x", Type: mv.Type, Actor: who, Payload: body}
			}
			env := domain.Env{Now: g.TurnDeadline.Add(-30e9), Dice: &cycleDice{values: []int{11, 4, 20, 3, 6, 1, 15, 2}}}
			r := Rules{}
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if _, _, err := r.Apply(g, actions[i%len(actions)], env); err != nil {
					b.Fatal(err)
				}
				i++
			}
			b.ReportMetric(float64(len(g.Troops)), "troops")
		})
	}
}

// BenchmarkGame plays whole random games (no invariant checks).
func BenchmarkGame(b *testing.B) {
	for _, mode := range []TurnMode{Alternating, Simultaneous} {
		for _, size := range Sizes {
			b.Run(string(mode)+"/"+string(size), func(b *testing.B) {
				b.ReportAllocs()
				steps, i := 0, 0
				for b.Loop() {
					_, n := randomGame(b, size, mode, fmt.Sprint("bench-", i), false)
					steps += n
					i++
				}
				b.ReportMetric(float64(steps)/float64(i), "steps/game")
			})
		}
	}
}

// TestStateSize logs the size of the game document on a Large map at round
// 40 (the start of sudden death) of random games, and bounds it.
func TestStateSize(t *testing.T) {
	if testing.Short() {
		t.Skip("plays long games")
	}
	cfgJSON, err := json.Marshal(DefaultConfig())
	require.NoError(t, err)
	for _, mode := range []TurnMode{Alternating, Simultaneous} {
		biggest, troops := 0, 0
		games := randomGames(3, 1)
		for i := 0; i < games; i++ {
			g, _ := randomGameUntil(t, Large, mode, fmt.Sprint("size-", i), false, 40)
			if g.Round < 40 {
				continue
			}
			b, err := json.Marshal(g)
			require.NoError(t, err)
			if len(b) > biggest {
				biggest, troops = len(b), len(g.Troops)
			}
		}
		t.Logf("%s: largest Large-map state at round 40: %d bytes with %d troops (the config is %d of them)", mode, biggest, troops, len(cfgJSON))
		require.Less(t, biggest, 64<<10, "the game document stays small")
	}
}

// BenchmarkOrdersView reads what Run needs of a Large mid-game document
// before the rules run: split (readOrdersView) against the whole decode
// it replaced.
func BenchmarkOrdersView(b *testing.B) {
	for _, mode := range []TurnMode{Alternating, Simultaneous} {
		g, _, _ := midGame(b, Large, mode)
		raw, err := json.Marshal(domain.GameDoc[Game]{Kind: Kind, Status: domain.StatusActive, Version: 40, State: g})
		if err != nil {
			b.Fatal(err)
		}
		d := domain.NewDocs()
		d.Put(domain.GameDocID, raw)
		b.Run(string(mode)+"/split", func(b *testing.B) {
			for b.Loop() {
				if _, err := readOrdersView(d); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(string(mode)+"/decode", func(b *testing.B) {
			for b.Loop() {
				if _, err := domain.ReadGame[ordersView](d, Kind); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
