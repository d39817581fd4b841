package tilerace

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
)

const propertySeeds = 2000

var unlimited = [4]int{0, 100, 100, 100}

func counts(ds []Difficulty) [4]int {
	var c [4]int
	for _, d := range ds {
		c[d]++
	}
	return c
}

func TestCheckDifficulties(t *testing.T) {
	valid := make([]Difficulty, NumTiles)
	for i := range valid { // E M H repeating, hard every third tile
		valid[i] = Difficulties[i%3]
	}
	valid[4], valid[55] = Hard, Hard // 5 and 56
	require.NoError(t, CheckDifficulties(valid))
	tests := []struct {
		name   string
		change func([]Difficulty) []Difficulty
		msg    string
	}{
		{"tile 5 not hard", func(d []Difficulty) []Difficulty { d[4] = Easy; return d }, "tile 5 must be hard"},
		{"tile 56 not hard", func(d []Difficulty) []Difficulty { d[55] = Medium; return d }, "tile 56 must be hard"},
		{"four in a row", func(d []Difficulty) []Difficulty {
			d[9], d[10], d[11], d[12] = Medium, Medium, Medium, Medium
			return d
		}, "4 medium tiles in a row"},
		{"too few hard", func(d []Difficulty) []Difficulty {
			for i := 6; i < 50; i++ {
				if d[i] == Hard {
					d[i] = Easy
					if i > 0 && d[i-1] == Easy {
						d[i] = Medium
					}
				}
			}
			return d
		}, "tiles since the last hard"},
		{"short", func(d []Difficulty) []Difficulty { return d[:10] }, "10 difficulties"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := append([]Difficulty(nil), valid...)
			err := CheckDifficulties(tt.change(d))
			require.Error(t, err)
			require.Contains(t, err.Error(), tt.msg)
		})
	}
	// fewer than 17 hard tiles, all else fine: hard every 7th tile
	few := make([]Difficulty, NumTiles)
	for i := range few {
		few[i] = []Difficulty{Easy, Medium}[i%2]
	}
	for _, n := range []int{5, 12, 19, 26, 33, 40, 47, 54, 56} {
		few[n-1] = Hard
	}
	require.ErrorContains(t, CheckDifficulties(few), "9 hard tiles, fewer than 17")
}

func TestTileWeights(t *testing.T) {
	gr := DefaultGradient()
	require.Equal(t, gr.Early, TileWeights(gr, 1))
	require.Equal(t, gr.Early, TileWeights(gr, 16))
	require.Equal(t, gr.Late, TileWeights(gr, 41))
	require.Equal(t, gr.Late, TileWeights(gr, 56))
	prev := TileWeights(gr, 17)
	require.Equal(t, Weights{65*24 + 5, 30*24 + 35, 5*24 + 60}, prev)
	for n := 18; n <= 40; n++ { // linear: easy falls, hard rises
		w := TileWeights(gr, n)
		require.Less(t, w.Easy, prev.Easy)
		require.Greater(t, w.Hard, prev.Hard)
		require.Equal(t, 25*100, w.Easy+w.Medium+w.Hard, "weights keep their sum")
		prev = w
	}
}

// Ruling 17: over many seeds, with random pool sizes and gradients, every
// layout keeps every rule and every cap, the same dice give the same layout,
// and a refusal happens only up front.
func TestRandomDifficultiesProperties(t *testing.T) {
	refused := 0
	for seed := 0; seed < propertySeeds; seed++ {
		r := rand.New(rand.NewPCG(uint64(seed), 17))
		caps := unlimited
		gr := DefaultGradient()
		switch seed % 4 {
		case 1: // pools just about big enough
			caps = [4]int{0, 5 + r.IntN(30), 5 + r.IntN(30), 15 + r.IntN(20)}
		case 2: // any weights, zeros included
			gr = Gradient{Early: Weights{r.IntN(4) * 10, r.IntN(4) * 10, r.IntN(4) * 10}, Late: Weights{r.IntN(4) * 10, r.IntN(4) * 10, r.IntN(4) * 10}}
			if CheckGradient(gr) != nil {
				gr.Early.Medium, gr.Late.Easy = 1, 1
			}
		case 3: // hard-heavy and tight
			caps = [4]int{0, r.IntN(20), r.IntN(20), 17 + r.IntN(40)}
		}
		s := strconv.Itoa(seed)
		ds, err := RandomDifficulties(gr, caps, domain.NewSeededDice(s, 1))
		if err != nil {
			require.Equal(t, domain.ECONFLICT, domain.ErrorCode(err), "seed %d", seed)
			require.True(t, IsRandomiseFailure(err), "seed %d: %v", seed, err)
			require.NotContains(t, err.Error(), "found no choice", "seed %d dead-ended", seed)
			refused++
			continue
		}
		require.NoError(t, CheckDifficulties(ds), "seed %d: %v", seed, ds)
		c := counts(ds)
		for _, d := range Difficulties {
			require.LessOrEqual(t, c[d], caps[d], "seed %d: %s cap", seed, d)
		}
		again, err := RandomDifficulties(gr, caps, domain.NewSeededDice(s, 1))
		require.NoError(t, err)
		require.Equal(t, ds, again, "seed %d is not reproducible", seed)

		// caps equal to a layout's own counts are satisfiable (that layout
		// fits them), so the sampler must find one with exactly those counts
		if seed%8 == 0 {
			exact, err := RandomDifficulties(gr, c, domain.NewSeededDice(s, 2))
			require.NoError(t, err, "seed %d: counts %v", seed, c)
			require.Equal(t, c, counts(exact))
		}
	}
	require.Less(t, refused, propertySeeds*3/10, "most random pools should be usable")
	t.Logf("%d of %d seeds refused (pools too small)", refused, propertySeeds)
}

// The gradient shows: early tiles mostly easy, late tiles mostly hard.
func TestRandomDifficultiesFollowTheGradient(t *testing.T) {
	var early, late [4]int
	for seed := 0; seed < 500; seed++ {
		ds, err := RandomDifficulties(DefaultGradient(), unlimited, domain.NewSeededDice("g"+strconv.Itoa(seed), 0))
		require.NoError(t, err)
		for i, d := range ds {
			switch n := i + 1; {
			case n <= 16 && n != FixedHardTile:
				early[d]++
			case n >= 41 && n != FinalTile:
				late[d]++
			}
		}
	}
	require.Greater(t, early[Easy], early[Medium])
	require.Greater(t, early[Medium], early[Hard])
	require.Greater(t, late[Hard], late[Easy]*3)
	require.Greater(t, late[Medium], late[Easy])
	t.Logf("early E/M/H %v, late E/M/H %v", early[1:], late[1:])
}

func TestRandomDifficultiesRefusals(t *testing.T) {
	tests := []struct {
		name string
		caps [4]int
		msg  string
	}{
		{"hard pool too small", [4]int{0, 40, 40, 16}, "at least 17 hard tiles"},
		{"pools too small", [4]int{0, 10, 10, 30}, "the board has 56"},
		{"only hard tasks", [4]int{0, 0, 0, 56}, "in a row"},
		{"too few easy and medium to break hard runs", [4]int{0, 5, 5, 100}, "in a row"},
		{"negative caps", [4]int{0, -3, -3, -3}, "at least 17 hard"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := RandomDifficulties(DefaultGradient(), tt.caps, domain.Script())
			require.Equal(t, domain.ECONFLICT, domain.ErrorCode(err))
			require.Contains(t, domain.ErrorMessage(err), tt.msg)
			require.True(t, IsRandomiseFailure(err))
		})
	}
	_, err := RandomDifficulties(Gradient{}, unlimited, domain.Script())
	require.Equal(t, domain.EINVALID, domain.ErrorCode(err))
	// feasible edge: no easy tasks at all (medium and hard alternate)
	ds, err := RandomDifficulties(DefaultGradient(), [4]int{0, 0, 100, 100}, domain.NewSeededDice("m", 0))
	require.NoError(t, err)
	require.Zero(t, counts(ds)[Easy])
}

// Ruling 17: Randomise Tiles fills from the pools and keeps the reserve;
// both randomisers through the actions, over many seeds.
func TestRandomiseBoardProperties(t *testing.T) {
	for seed := 0; seed < 500; seed++ {
		r := rand.New(rand.NewPCG(uint64(seed), 99))
		w := newWorld(t)
		reserve := r.IntN(6)
		w.g.Settings.Reserve = reserve
		p, _, err := ImportTasks(ctx(adminAct), w.g, w.pools, ImportRequest{Data: taskFile(10+r.IntN(30), 10+r.IntN(30), 17+r.IntN(30))})
		require.NoError(t, err)
		w.pools = p
		s := fmt.Sprint(seed)
		g, b, p, o, err := RandomiseDifficulties(ctx(adminAct), w.g, w.board, w.pools, RandomiseRequest{Fill: true}, domain.NewSeededDice(s, 1))
		if err != nil {
			require.True(t, IsRandomiseFailure(err), "seed %d: %v", seed, err)
			continue
		}
		ds := make([]Difficulty, NumTiles)
		placed := map[string]bool{}
		for i, tile := range b.Tiles {
			ds[i] = tile.Difficulty
			require.False(t, tile.Empty(), "seed %d: tile %d empty", seed, tile.N)
			require.False(t, placed[tile.TaskID], "seed %d: task %s placed twice", seed, tile.TaskID)
			placed[tile.TaskID] = true
			pool, k := p.find(tile.TaskID)
			require.NotNil(t, pool)
			require.Equal(t, tile.Difficulty, (*pool)[k].Difficulty, "seed %d: tile %d from the wrong pool", seed, tile.N)
			require.Equal(t, (*pool)[k].Label, tile.Label)
			require.Equal(t, TileLayout(tile.N), tile.Layout)
		}
		require.NoError(t, CheckDifficulties(ds), "seed %d", seed)
		for _, d := range Difficulties {
			require.GreaterOrEqual(t, p.Unused(d), reserve, "seed %d: %s reserve", seed, d)
			for _, task := range *p.Pool(d) {
				require.Equal(t, placed[task.ID], task.Used, "seed %d: used flag of %s", seed, task.ID)
			}
		}
		require.Len(t, o.Publish, 6, "the revealed tiles are republished")
		require.Equal(t, g, w.g)

		// Randomise Tiles again: same difficulties, new draw, reserve kept
		b2, p2, _, err := RandomiseTiles(ctx(adminAct), w.g, b, p, domain.NewSeededDice(s, 2))
		require.NoError(t, err)
		for i := range b2.Tiles {
			require.Equal(t, b.Tiles[i].Difficulty, b2.Tiles[i].Difficulty)
		}
		for _, d := range Difficulties {
			require.GreaterOrEqual(t, p2.Unused(d), reserve)
		}
		b3, _, _, _ := RandomiseTiles(ctx(adminAct), w.g, b, p, domain.NewSeededDice(s, 2))
		require.Equal(t, b2, b3, "seed %d: not reproducible", seed)
	}
}

func TestRandomiseTilesRefusals(t *testing.T) {
	w := newWorld(t)
	p, _, err := ImportTasks(ctx(adminAct), w.g, w.pools, ImportRequest{Data: taskFile(56, 5, 3)})
	require.NoError(t, err)
	// the empty board is 55 easy tiles and the hard final tile
	_, _, _, err = RandomiseTiles(ctx(adminAct), w.g, w.board, p, domain.NewSeededDice("x", 1))
	require.Equal(t, domain.ECONFLICT, domain.ErrorCode(err))
	require.Contains(t, domain.ErrorMessage(err), "55 easy tiles need 55 easy tasks plus 3 in reserve, and the pool has 56")
	require.True(t, IsRandomiseFailure(err))
	require.Equal(t, RandomiseFailure{Randomise: "tiles", Usable: map[string]int{"easy": 53, "medium": 2, "hard": 0},
		Needed: map[string]int{"easy": 55, "medium": 0, "hard": 1}}, domain.ErrorDetails(err))
	require.Contains(t, domain.ErrorMessage(err), "1 hard tiles need 1 hard tasks plus 3 in reserve, and the pool has 3")

	_, _, _, _, err = RandomiseDifficulties(ctx(adminAct), w.g, w.board, p, RandomiseRequest{}, domain.NewSeededDice("x", 1))
	require.True(t, IsRandomiseFailure(err))
	_, _, _, _, err = RandomiseDifficulties(ctx(adminAct), w.g, w.board, p, RandomiseRequest{Gradient: &Gradient{}}, domain.NewSeededDice("x", 1))
	require.Equal(t, domain.EINVALID, domain.ErrorCode(err))
	require.False(t, IsRandomiseFailure(err), "bad weights do not turn the fog off")

	r := race(t, 1)
	_, _, _, err = RandomiseTiles(ctx(adminAct), r.g, r.board, r.pools, domain.NewSeededDice("x", 1))
	require.Equal(t, domain.ECONFLICT, domain.ErrorCode(err), "not during the race")
	require.False(t, IsRandomiseFailure(err))
}

// A gradient given with the request is stored; rewards stay on their tiles.
func TestRandomiseDifficultiesKeepsRewardsAndStoresGradient(t *testing.T) {
	w := newWorld(t)
	w.addTeams(1)
	w.prepare("a")
	gr := Gradient{Early: Weights{1, 1, 1}, Late: Weights{0, 1, 5}}
	g, b, _, o, err := RandomiseDifficulties(ctx(adminAct), w.g, w.board, w.pools, RandomiseRequest{Gradient: &gr}, domain.NewSeededDice("b", 1))
	require.NoError(t, err)
	require.Equal(t, gr, g.Settings.Gradient)
	require.True(t, o.Wrote(DocGame))
	require.Equal(t, PowerupSkip1, b.Tiles[9].Reward)
	require.True(t, b.Tiles[9].Empty(), "tasks cleared until the tiles are filled")
	require.Equal(t, BoardChangedData{What: "difficulties", By: "Ada"}, o.Events[0].Data)
	require.NotContains(t, jsonOf(t, o.Events), "hard", "the layout is not in the public log")
}

func BenchmarkRandomDifficulties(b *testing.B) {
	RandomDifficulties(DefaultGradient(), unlimited, domain.NewSeededDice("warm", 0)) // the table is built once
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, err := RandomDifficulties(DefaultGradient(), [4]int{0, 30, 30, 30}, domain.NewSeededDice("bench", int64(i))); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRandomiseBoard(b *testing.B) {
	w := newWorld(b)
	p, _, err := ImportTasks(ctx(adminAct), w.g, w.pools, ImportRequest{Data: taskFile(60, 60, 60)})
	require.NoError(b, err)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if _, _, _, _, err := RandomiseDifficulties(ctx(adminAct), w.g, w.board, p, RandomiseRequest{Fill: true}, domain.NewSeededDice("bench", int64(i))); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkBuildTable(b *testing.B) {
	for b.Loop() {
		buildReach()
	}
}
