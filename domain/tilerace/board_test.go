package tilerace

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
)

// Ruling 1: 56 tiles on a serpentine of rows of 4 and 1.
func TestTileLayout(t *testing.T) {
	tests := []struct {
		n    int
		want Layout
	}{
		{1, Layout{0, 0, 1}}, {2, Layout{0, 1, 1}}, {4, Layout{0, 3, 1}},
		{5, Layout{1, 3, 1}},
		{6, Layout{2, 3, 1}}, {7, Layout{2, 2, 1}}, {9, Layout{2, 0, 1}},
		{10, Layout{3, 0, 1}},
		{11, Layout{4, 0, 1}}, {14, Layout{4, 3, 1}}, {15, Layout{5, 3, 1}}, {16, Layout{6, 3, 1}}, {20, Layout{7, 0, 1}},
		{51, Layout{20, 0, 1}}, {54, Layout{20, 3, 1}}, {55, Layout{21, 3, 1}},
		{56, Layout{22, 0, 4}},
		{0, Layout{}}, {57, Layout{}},
	}
	for _, tt := range tests {
		t.Run("tile-"+strconv.Itoa(tt.n), func(t *testing.T) {
			got := TileLayout(tt.n)
			require.Equal(t, tt.want, got, "got %+v, want %+v", got, tt.want)
		})
	}
}

func TestTileLayoutIsASnake(t *testing.T) {
	seen := map[[2]int]int{}
	for n := 1; n <= NumTiles; n++ {
		l := TileLayout(n)
		require.True(t, l.Col >= 0 && l.Col+l.Span <= 4, "tile %d: %+v", n, l)
		for c := l.Col; c < l.Col+l.Span; c++ {
			k := [2]int{l.Row, c}
			require.Zero(t, seen[k], "tiles %d and %d share row %d col %d", seen[k], n, l.Row, c)
			seen[k] = n
		}
		if n > 1 && n < FinalTile { // each tile touches the one before
			p := TileLayout(n - 1)
			d := abs(l.Row-p.Row) + abs(l.Col-p.Col)
			require.Equal(t, 1, d, "tile %d (%+v) is not next to tile %d (%+v)", n, l, n-1, p)
		}
		// rows alternate: rows 4k hold 4 tiles left to right, 4k+1 one at the right, 4k+2 four right to left, 4k+3 one at the left
		switch l.Row % 4 {
		case 1:
			require.Equal(t, 3, l.Col, "tile %d", n)
		case 3:
			require.Equal(t, 0, l.Col, "tile %d", n)
		}
	}
	require.Equal(t, TileLayout(55).Row+1, TileLayout(56).Row)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func TestNewGame(t *testing.T) {
	g, b, p, err := NewGame("g1", Admin{ID: "m1", Name: "  Mia  "}, t0)
	require.NoError(t, err)
	require.Equal(t, StatusSetup, g.Status)
	require.Equal(t, FogEnabled, g.Fog)
	require.Equal(t, 6, g.RevealedUpTo, "tiles 1..6 revealed: tile 1 + 5")
	require.Equal(t, []Admin{{ID: "m1", Name: "Mia", Master: true}}, g.Admins)
	require.Equal(t, DefaultGradient(), g.Settings.Gradient)
	require.Equal(t, DefaultReserve, g.Settings.Reserve)
	require.NoError(t, checkBoard(b))
	for _, tile := range b.Tiles {
		require.Equal(t, TileLayout(tile.N), tile.Layout)
		require.True(t, tile.Empty())
	}
	require.Equal(t, Hard, b.Tiles[FinalTile-1].Difficulty)
	require.Empty(t, p.Easy)
	require.Equal(t, 1, p.NextID)

	for _, bad := range []struct {
		id   string
		a    Admin
		code string
	}{
		{"", Admin{ID: "m", Name: "M"}, domain.EINVALID},
		{"a/b", Admin{ID: "m", Name: "M"}, domain.EINVALID},
		{"g", Admin{ID: "", Name: "M"}, domain.EINVALID},
		{"g", Admin{ID: "m", Name: " "}, domain.EINVALID},
	} {
		_, _, _, err := NewGame(bad.id, bad.a, t0)
		require.Equal(t, bad.code, domain.ErrorCode(err))
	}
}

// Ruling 1: the final tile is always hard.
func TestEditTile(t *testing.T) {
	w := newWorld(t)
	task := Task{Label: "Kill Zulrah", Difficulty: Medium, Min: 1, Max: 2, Points: 150, Instructions: "any account"}
	tests := []struct {
		name    string
		n       int
		task    Task
		reward  string
		code    string
		publish bool
	}{
		{"revealed tile published", 3, task, "skip2", "", true},
		{"hidden tile not published", 30, task, "", "", false},
		{"final tile must stay hard", FinalTile, task, "", domain.EINVALID, false},
		{"final tile hard ok", FinalTile, Task{Label: "Final", Difficulty: Hard, Min: 1, Max: 1}, "", "", false},
		{"unknown reward", 3, task, "teleport", domain.EINVALID, false},
		{"min above max", 3, Task{Label: "x", Difficulty: Easy, Min: 3, Max: 2}, "", domain.EINVALID, false},
		{"no label", 3, Task{Difficulty: Easy, Min: 1, Max: 1}, "", domain.EINVALID, false},
		{"bad image", 3, Task{Label: "x", Difficulty: Easy, Min: 1, Max: 1, Image: "javascript:alert(1)"}, "", domain.EINVALID, false},
		{"bad difficulty", 3, Task{Label: "x", Difficulty: 4, Min: 1, Max: 1}, "", domain.EINVALID, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tile, _ := w.board.Tile(tt.n)
			got, o, err := EditTile(ctx(adminAct), w.g, tile, EditTileRequest{Tile: tt.n, Task: tt.task, Reward: tt.reward})
			if tt.code != "" {
				require.Equal(t, tt.code, domain.ErrorCode(err), "%v", err)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.task.Label, got.Label)
			require.Equal(t, tt.reward, got.Reward)
			require.Equal(t, tt.publish, len(o.Publish) == 1)
			data := o.Events[0].Data.(TileEditedData)
			if tt.publish {
				require.Equal(t, tt.task.Label, data.Label)
			} else {
				require.Empty(t, data.Label, "a hidden tile's label must not reach the public log")
			}
		})
	}
}
