package tilerace

import (
	"encoding/json"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/rulestest"
)

// Ruling 15: k = 5, 4 from tile 28, 3 from 42, 2 from 52.
func TestVisionRange(t *testing.T) {
	tests := []struct{ furthest, k, upTo int }{
		{1, 5, 6}, {10, 5, 15}, {27, 5, 32}, {28, 4, 32}, {30, 4, 34}, {41, 4, 45},
		{42, 3, 45}, {45, 3, 48}, {51, 3, 54}, {52, 2, 54}, {53, 2, 55}, {54, 2, 56}, {55, 2, 56}, {56, 2, 56},
	}
	for _, tt := range tests {
		t.Run(strconv.Itoa(tt.furthest), func(t *testing.T) {
			require.Equal(t, tt.k, VisionRange(tt.furthest), "k")
			require.Equal(t, tt.upTo, RevealUpTo(tt.furthest), "revealed up to")
		})
	}
	// The frontier never shrinks as the furthest position grows, which lets a
	// team's action keep it from its own position alone.
	for p := 2; p <= NumTiles; p++ {
		require.GreaterOrEqual(t, RevealUpTo(p), RevealUpTo(p-1), "at %d", p)
	}
}

// Ruling 15: three modes.
func TestVisible(t *testing.T) {
	g := Game{RevealedUpTo: 10}
	tests := []struct {
		mode          FogMode
		n             int
		player, admin bool
	}{
		{FogEnabled, 10, true, true}, {FogEnabled, 11, false, false},
		{FogOffForAdmins, 10, true, true}, {FogOffForAdmins, 11, false, true},
		{FogOffForAll, 11, true, true}, {FogOffForAll, 56, true, true},
		{FogEnabled, 0, false, false}, {FogOffForAll, 57, false, false},
	}
	for _, tt := range tests {
		t.Run(string(tt.mode)+"-"+strconv.Itoa(tt.n), func(t *testing.T) {
			g.Fog = tt.mode
			require.Equal(t, tt.player, g.Visible(tt.n, false), "player")
			require.Equal(t, tt.admin, g.Visible(tt.n, true), "admin")
		})
	}
}

// Ruling 16: a hidden tile's projection carries nothing of its content.
func TestPublicTileHidesContent(t *testing.T) {
	tile := Tile{N: 30, Layout: TileLayout(30), Task: Task{Label: "SECRET-LABEL", Difficulty: Hard, Instructions: "SECRET-TEXT",
		Image: "https://x/SECRET.png", Min: 2, Max: 4, Points: 175, Group: true, StartProof: true},
		TaskID: "t-SECRET", Reward: "skip3", Mods: Mods{Doubled: true, DifficultyPoints: true}}
	hidden := PublicTileOf(tile, false)
	b, err := json.Marshal(hidden)
	require.NoError(t, err)
	require.JSONEq(t, `{"n":30,"row":11,"col":0,"span":1,"revealed":false}`, string(b))
	for _, s := range []string{"SECRET", "skip3", "doubled", "difficulty", "hard", "3"} {
		if s == "3" {
			continue // digits of n/row may appear
		}
		require.NotContains(t, string(b), s)
	}
	shown := PublicTileOf(tile, true)
	require.NotNil(t, shown.Content)
	require.Equal(t, "SECRET-LABEL", shown.Content.Label)
	require.Equal(t, 300, shown.Content.PointsPerCompletion, "doubled from single: difficulty points")
	b, _ = json.Marshal(shown)
	require.NotContains(t, string(b), "t-SECRET", "pool task ids stay private")
}

func TestViewBoardAndAdminBoard(t *testing.T) {
	w := race(t, 2)
	for _, mode := range []FogMode{FogEnabled, FogOffForAdmins, FogOffForAll} {
		w.g.Fog = mode
		players, admins := 0, 0
		for _, p := range ViewBoard(w.g, w.board, false) {
			if p.Content != nil {
				players++
			}
		}
		view, err := AdminBoard(ctx(adminAct), w.g, w.board)
		require.NoError(t, err)
		for _, p := range view {
			if p.Content != nil {
				admins++
			}
		}
		switch mode {
		case FogEnabled:
			require.Equal(t, 6, players)
			require.Equal(t, 6, admins)
		case FogOffForAdmins:
			require.Equal(t, 6, players)
			require.Equal(t, 56, admins)
		case FogOffForAll:
			require.Equal(t, 56, players)
			require.Equal(t, 56, admins)
		}
	}
	_, err := AdminBoard(ctx(teamAct("t1")), w.g, w.board)
	require.Equal(t, domain.EFORBIDDEN, domain.ErrorCode(err), "teams cannot see the admin view")
}

// Ruling 15: revealed tiles stay revealed, also when the furthest team is
// sent back.
func TestRevealedTilesStayRevealed(t *testing.T) {
	w := race(t, 2)
	for i := 0; i < 12; i++ {
		w.finishTile("t1")
	}
	require.Equal(t, 13, w.teams["t1"].Position)
	require.Equal(t, 18, w.g.RevealedUpTo)
	w.checkWorld()
	g, team, o, err := MoveTeam(ctx(adminAct), w.g, w.teams["t1"], MoveRequest{Team: "t1", To: 2})
	require.NoError(t, err)
	require.False(t, o.Wrote(DocGame), "moving back changes nothing global")
	require.Equal(t, 18, g.RevealedUpTo)
	w.g, w.teams["t1"] = g, team
	w.apply(o)
	w.checkWorld()
}

func TestSetFog(t *testing.T) {
	w := race(t, 1)
	tests := []struct {
		mode    FogMode
		code    string
		publish int // tiles republished
	}{
		{FogOffForAdmins, "", 0},
		{FogOffForAdmins, domain.ECONFLICT, 0},
		{FogOffForAll, "", 50}, // 7..56 appear
		{FogEnabled, "", 50},   // and disappear again
		{"none", domain.EINVALID, 0},
	}
	for _, tt := range tests {
		t.Run(string(tt.mode), func(t *testing.T) {
			g, o, err := SetFog(ctx(adminAct), w.g, FogRequest{Mode: tt.mode})
			if tt.code != "" {
				require.Equal(t, tt.code, domain.ErrorCode(err))
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.mode, g.Fog)
			require.Len(t, o.Publish, tt.publish)
			w.g = g
			w.apply(o)
			w.checkWorld()
		})
	}
	// fog off for all: a completion moving the frontier publishes nothing new
	w.g, _ = w.must(SetFog(ctx(adminAct), w.g, FogRequest{Mode: FogOffForAll}))
	o := w.finishTile("t1")
	require.Empty(t, o.Publish)
	require.True(t, o.Wrote(DocPublicBoard), "the frontier (kept with the public board) still moves")
	require.Equal(t, 7, w.g.RevealedUpTo)
	w.checkWorld()
}

// Ruling 17 (seed "Auto-Disable").
func TestAutoDisableFog(t *testing.T) {
	w := newWorld(t)
	g, o, ok := AutoDisableFog(w.g, "Ada")
	require.True(t, ok)
	require.Equal(t, FogOffForAll, g.Fog)
	require.Equal(t, FogData{Mode: FogOffForAll, Auto: true, By: "Ada"}, o.Events[0].Data)
	require.Len(t, o.Publish, 50)
	_, _, ok = AutoDisableFog(g, "Ada")
	require.False(t, ok)
}

// RaiseFrontier runs after completions, in any order and possibly twice: the
// frontier it leaves is the maximum over the positions, whatever the order.
func TestRaiseFrontier(t *testing.T) {
	w := race(t, 1)
	for _, tc := range []struct {
		name      string
		positions []int
		want      int
	}{
		{"none", nil, 6},
		{"in order", []int{2, 3, 4}, 9},
		{"out of order", []int{4, 2, 3}, 9},
		{"twice", []int{12, 12}, 17},
		{"region boundary", []int{27, 28}, 32},
		{"late region", []int{41, 42, 51, 52, 55}, 56},
		{"out of range", []int{0, 57, -3}, 6},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := w.g
			for _, p := range tc.positions {
				var ng Game
				var o Outcome
				var moved bool
				rulestest.Pure(t, g, func(g Game) { ng, o, moved = RaiseFrontier(g, p) })
				require.Equal(t, moved, ng.RevealedUpTo > g.RevealedUpTo)
				if moved {
					require.Equal(t, []Doc{DocPublicBoard}, o.Writes)
					require.Equal(t, EventTilesRevealed, o.Events[0].Type)
				} else {
					require.Empty(t, o.Writes)
				}
				g = ng
			}
			require.Equal(t, tc.want, g.RevealedUpTo)
		})
	}
	t.Run("not while the race is not on", func(t *testing.T) {
		g := w.g
		for _, st := range []Status{StatusSetup, StatusFinished} {
			g.Status = st
			_, _, moved := RaiseFrontier(g, 30)
			require.False(t, moved, st)
		}
	})
}
