package store

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"
)

// rankKey orders totals as ranksBefore orders their entries (wins, then
// losses), so a query ordered by it finds the board's pool.
func TestRankKeyOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 10000 {
		a := Totals{Wins: r.Int64N(1 << 20), Losses: r.Int64N(1 << 30)}
		b := Totals{Wins: r.Int64N(1 << 20), Losses: r.Int64N(1 << 30)}
		if r.IntN(4) == 0 {
			b.Wins = a.Wins
		}
		ea, eb := LeaderEntry{PlayerID: "x", Wins: a.Wins, Losses: a.Losses}, LeaderEntry{PlayerID: "x", Wins: b.Wins, Losses: b.Losses}
		require.Equal(t, ea.ranksBefore(eb), rankKey(a) > rankKey(b), "%v vs %v", a, b)
		require.Equal(t, a.Wins == b.Wins && a.Losses == b.Losses, rankKey(a) == rankKey(b))
	}
}
