package hexdice

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
)

// seedsPerSize is how many seeds the map property tests try per size.
const seedsPerSize = 200

// TestMapInvariants checks every invariant of ruling 2 on many seeds per size,
// and that the same seed gives the same map.
func TestMapInvariants(t *testing.T) {
	cfg := DefaultConfig()
	for _, size := range Sizes {
		t.Run(string(size), func(t *testing.T) {
			t.Parallel()
			same, passable, clustered := 0, 0.0, 0.0
			prevHash := ""
			for i := 0; i < seedsPerSize; i++ {
				seed := fmt.Sprintf("seed-%d", i)
				m, err := GenerateMap(size, seed, cfg)
				require.NoError(t, err, "seed %s", seed)
				checkMap(t, &m, cfg)
				again, err := GenerateMap(size, seed, cfg)
				require.NoError(t, err)
				require.Equal(t, m, again, "seed %s: generation is deterministic", seed)
				if m.Hash() == prevHash {
					same++
				}
				prevHash = m.Hash()
				p, c := mapStats(&m, cfg)
				passable += p
				clustered += c
			}
			require.Zero(t, same, "consecutive seeds give different maps")
			passable /= seedsPerSize
			clustered /= seedsPerSize
			t.Logf("mean passable %.0f %%, mean same-terrain neighbours %.0f %%", 100*passable, 100*clustered)
			// Terrain is clustered: with the generator's mix, independent
			// hexes would share a neighbour's terrain about 28 % of the time.
			require.Greater(t, clustered, 0.55, "terrain comes in clusters")
		})
	}
}

// mapStats returns the passable share and the share of neighbour pairs with
// the same terrain.
func mapStats(m *Map, cfg Config) (passable, same float64) {
	pairs, alike, pass := 0, 0, 0
	for _, h := range m.Hexes() {
		t, _ := m.Terrain(h)
		if cfg.Terrain[t].Passable {
			pass++
		}
		for d := 0; d < 3; d++ {
			if u, ok := m.Terrain(h.Neighbour(d)); ok {
				pairs++
				if u == t {
					alike++
				}
			}
		}
	}
	return float64(pass) / float64(len(m.Hexes())), float64(alike) / float64(pairs)
}

// TestMapGolden pins one map per size: a change to the generator changes
// the maps of games in progress (their hash check then fails), so it must
// be deliberate: bump the hash prefix in contentHash and update these.
func TestMapGolden(t *testing.T) {
	want := map[Size]string{
		Small:  "91b7715c783d834c42f54ce4be65c6af",
		Medium: "3e9deb7bc0169f8e322b9247fc9c0b2c",
		Large:  "96fa8ae887972214dad43d0c9666e4da",
	}
	for _, size := range Sizes {
		m, err := GenerateMap(size, "golden", DefaultConfig())
		require.NoError(t, err)
		require.Equal(t, want[size], m.Hash(), "%s", size)
	}
}

func TestGenerateMapErrors(t *testing.T) {
	_, err := GenerateMap("huge", "x", DefaultConfig())
	require.Equal(t, domain.EINVALID, domain.ErrorCode(err))
	require.ErrorContains(t, err, `unknown map size "huge"`)

	bad := DefaultConfig()
	bad.DominanceTurns = 0
	_, err = GenerateMap(Small, "x", bad)
	require.Equal(t, domain.EINVALID, domain.ErrorCode(err))

	// Asking for structures that cannot be spaced on the map fails cleanly.
	strict := DefaultConfig()
	strict.Map.MinSpacing = 6
	strict.Sizes[Small] = SizeRules{Radius: 6, Outposts: 6, CommandCenters: 1, SuddenDeathRound: 20}
	_, err = GenerateMap(Small, "x", strict)
	require.Equal(t, domain.EINTERNAL, domain.ErrorCode(err))
}

func TestMapConfigChangesTheMap(t *testing.T) {
	cfg := DefaultConfig()
	more := DefaultConfig()
	s := more.Sizes[Medium]
	s.Outposts = 6
	more.Sizes[Medium] = s
	a, err := GenerateMap(Medium, "x", cfg)
	require.NoError(t, err)
	b, err := GenerateMap(Medium, "x", more)
	require.NoError(t, err)
	require.Len(t, b.Sites(), 2+7)
	require.NotEqual(t, a.Hash(), b.Hash())
	checkMap(t, &b, more)
}

func TestMapJSON(t *testing.T) {
	m, err := GenerateMap(Small, "json", DefaultConfig())
	require.NoError(t, err)
	b, err := json.Marshal(&m)
	require.NoError(t, err)
	var j MapJSON
	require.NoError(t, json.Unmarshal(b, &j))
	require.Len(t, j.Hexes, 127)
	require.Equal(t, Tile{Hex: Hex{0, -6}, Terrain: j.Hexes[0].Terrain}, j.Hexes[0], "hexes in (r, q) order")
	require.Equal(t, "hq0", j.Structures[0].ID)
	require.Contains(t, string(b), `"structures":[{"id":"hq0","kind":"hq","q":`)
	back, err := MapFromJSON(j)
	require.NoError(t, err)
	require.Equal(t, m.Hash(), back.Hash())
	require.Equal(t, m.JSON(), back.JSON())

	j.Hexes[5].Terrain = Water
	if m.JSON().Hexes[5].Terrain == Water {
		j.Hexes[5].Terrain = Plains
	}
	_, err = MapFromJSON(j)
	require.ErrorContains(t, err, "map hash")
	j.Hexes = j.Hexes[1:]
	_, err = MapFromJSON(j)
	require.ErrorContains(t, err, "126 listed")
}

func TestMapCache(t *testing.T) {
	c := NewMapCache(2)
	cfg := DefaultConfig()
	a, err := c.Map(Small, "a", "", cfg)
	require.NoError(t, err)
	again, err := c.Map(Small, "a", a.Hash(), cfg)
	require.NoError(t, err)
	require.Same(t, a, again, "cached by hash")
	_, err = c.Map(Small, "a", "0000", cfg)
	require.Equal(t, domain.EINTERNAL, domain.ErrorCode(err), "a hash that does not match is an error")
	_, err = c.Map(Small, "b", "", cfg)
	require.NoError(t, err)
	_, err = c.Map(Small, "c", "", cfg)
	require.NoError(t, err)
	require.Equal(t, 2, c.Len(), "the oldest map is evicted")
	regen, err := c.Map(Small, "a", a.Hash(), cfg)
	require.NoError(t, err)
	require.NotSame(t, a, regen)
	require.Equal(t, *a, *regen, "an evicted map regenerates identically")
}
