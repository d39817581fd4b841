package partyboard

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/meeple-games/meeple/domain"
)

// playOne plays a whole seeded game with random legal inputs and returns the
// number of actions and the largest state seen, in JSON bytes.
func playOne(tb testing.TB, r Rules, b *Board, players int, seed string, measure bool) (actions, maxState int) {
	rng := rand.New(rand.NewPCG(uint64(len(seed)), uint64(players)))
	g := lobby(tb, r, b, players, domain.NewSeededDice(seed, 0))
	for step := int64(1); g.Phase != PhaseOver && step < 20000; step++ {
		var err error
		g, _, err = r.Apply(g, legalInput(rng, g), domain.Env{Now: t0, Dice: domain.NewSeededDice(seed, step)})
		if err != nil {
			tb.Fatal(err)
		}
		actions++
		if !measure {
			continue
		}
		if raw, _ := json.Marshal(g); len(raw) > maxState {
			maxState = len(raw)
		}
	}
	return actions, maxState
}

// BenchmarkGame simulates whole 4-player games per board: ns/op is one game.
func BenchmarkGame(b *testing.B) {
	r := Rules{Boards: BuiltinSource{}}
	for _, id := range BuiltinBoardIDs() {
		board, _ := BuiltinBoard(id)
		b.Run(id, func(b *testing.B) {
			total := 0
			for i := 0; i < b.N; i++ {
				n, _ := playOne(b, r, board, 4, fmt.Sprint(id, i), false)
				total += n
			}
			b.ReportMetric(float64(total)/float64(b.N), "actions/game")
		})
	}
}

func TestTwelvePlayerStateSize(t *testing.T) {
	r := Rules{Boards: BuiltinSource{}}
	for _, id := range BuiltinBoardIDs() {
		board, _ := BuiltinBoard(id)
		_, size := playOne(t, r, board, 12, "size-"+id, true)
		t.Logf("%s: largest 12-player game state %d bytes of JSON", id, size)
		if size > 16<<10 {
			t.Fatalf("%s: a 12-player state reached %d bytes; keep it under 16 KiB", id, size)
		}
	}
}
