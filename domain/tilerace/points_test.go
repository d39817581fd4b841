package tilerace

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// Ruling 6.
func TestPointsPerCompletion(t *testing.T) {
	tests := []struct {
		name string
		tile Tile
		want int
	}{
		{"easy single", Tile{Task: Task{Difficulty: Easy, Max: 1, Points: 500}}, 100},
		{"medium single", Tile{Task: Task{Difficulty: Medium, Max: 1}}, 200},
		{"hard single", Tile{Task: Task{Difficulty: Hard, Max: 1}}, 300},
		{"multi uses tile points", Tile{Task: Task{Difficulty: Hard, Max: 3, Points: 125}}, 125},
		{"multi default 1", Tile{Task: Task{Difficulty: Hard, Max: 3}}, 100},
		{"doubled single keeps difficulty points", Tile{Task: Task{Difficulty: Medium, Max: 2, Points: 50}, Mods: Mods{Doubled: true, DifficultyPoints: true}}, 200},
		{"doubled multi uses tile points", Tile{Task: Task{Difficulty: Medium, Max: 6, Points: 50}, Mods: Mods{Doubled: true}}, 50},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.want, PointsPerCompletion(tt.tile))
		})
	}
}

// Ruling 3: hundredths, two decimals.
func TestFormatPoints(t *testing.T) {
	for h, want := range map[int]string{0: "0.00", 1: "0.01", 10: "0.10", 100: "1.00", 250: "2.50", 12345: "123.45", -150: "-1.50"} {
		require.Equal(t, want, FormatPoints(h), "%d", h)
	}
}

func TestParsePoints(t *testing.T) {
	tests := []struct {
		in   string
		want int // 0: error
	}{
		{"1", 100}, {"2.5", 250}, {"0.25", 25}, {"0,5", 50}, {" 3 ", 300}, {".5", 50}, {"1000", 100000},
		{"0", 0}, {"-1", 0}, {"1.234", 0}, {"1.", 0}, {"abc", 0}, {"", 0}, {"1e3", 0}, {"1000.01", 0}, {"99999999999", 0},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParsePoints(tt.in)
			if tt.want == 0 {
				require.Error(t, err)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.want, got)
		})
	}
}

// Ruling 3: top 10, players by name across teams.
func TestLeaderboard(t *testing.T) {
	totals := map[string]int{"ann": 500, "bob": 700, "cat": 500, "dan": 0, "eve": 150}
	for i := 0; i < 10; i++ {
		totals[string(rune('p'+i))+"x"] = 10 + i
	}
	got := Leaderboard(totals, 0)
	require.Len(t, got, LeaderboardSize)
	require.Equal(t, Standing{Rank: 1, Player: "bob", Points: 700, Display: "7.00"}, got[0])
	require.Equal(t, Standing{Rank: 2, Player: "ann", Points: 500, Display: "5.00"}, got[1])
	require.Equal(t, Standing{Rank: 2, Player: "cat", Points: 500, Display: "5.00"}, got[2], "ties share a rank")
	require.Equal(t, Standing{Rank: 4, Player: "eve", Points: 150, Display: "1.50"}, got[3])
	require.Equal(t, "0.19", got[4].Display)
	for _, s := range got {
		require.NotEqual(t, "dan", s.Player, "no points, no row")
	}
	require.Len(t, Leaderboard(totals, 3), 3)
	require.Empty(t, Leaderboard(nil, 0))
}
