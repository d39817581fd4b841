package hexdice

import (
	"encoding/json"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/rulestest"
)

var (
	t0    = time.Date(2026, 3, 14, 15, 9, 26, 0, time.UTC)
	alice = domain.Actor{ID: "alice", Name: "Alice", Role: domain.RoleGuest}
	bob   = domain.Actor{ID: "bob", Name: "Bob", Role: domain.RolePlayer}
	carol = domain.Actor{ID: "carol", Name: "Carol", Role: domain.RoleGuest}
)

// fixedMaps is a MapSource serving one map whatever the game asks for.
type fixedMaps struct{ m *Map }

func (f fixedMaps) Map(Size, string, string, Config) (*Map, error) { return f.m, nil }

// testMap builds a radius-6 map of plains with the given terrain and sites:
// by default the HQs at (0,-5) and (0,5) and no neutral structure.
func testMap(t testing.TB, terrain map[Hex]Terrain, sites ...Site) *Map {
	t.Helper()
	g := newGrid(6)
	m := &Map{size: Small, seed: "test", g: g, terrain: make([]int8, g.cells())}
	for i := range m.terrain {
		m.terrain[i] = -1
	}
	for _, h := range g.all() {
		m.terrain[g.index(h)] = plainsCode
	}
	for h, tt := range terrain {
		for c, x := range terrains {
			if x == tt {
				m.terrain[g.index(h)] = int8(c)
			}
		}
	}
	if len(sites) == 0 {
		sites = []Site{{ID: "hq0", Kind: HQ, Hex: Hex{0, -5}, Owner: 0}, {ID: "hq1", Kind: HQ, Hex: Hex{0, 5}, Owner: 1}}
	}
	m.sites = sites
	m.hash = m.contentHash()
	return m
}

// rulesFor returns rules serving m.
func rulesFor(m *Map) Rules { return Rules{Maps: fixedMaps{m}} }

// started returns a game on m in mode where bob has joined and first plays
// first (alternating), with no troops: the state at the start of turn 1.
func started(t testing.TB, m *Map, mode TurnMode, first Seat) Game {
	t.Helper()
	r := rulesFor(m)
	g, err := r.NewGame("g1", alice, Options{Size: Small, Mode: mode, TurnSeconds: 60}, t0)
	require.NoError(t, err)
	var dice []int
	if mode == Alternating {
		dice = []int{int(first) + 1}
	}
	g, _ = act(t, r, g, bob, ActionJoin, `{}`, t0, dice...)
	return g
}

// act applies an action that must succeed, rolling exactly dice, and checks
// the input was not changed and the result keeps the invariants.
func act(t testing.TB, r Rules, g Game, who domain.Actor, typ, body string, now time.Time, dice ...int) (Game, domain.Outcome) {
	t.Helper()
	before := rulestest.JSON(t, g)
	d := domain.Script(dice...)
	got, out, err := r.Apply(g, domain.Action{ID: "a-1", Type: typ, Actor: who, Payload: json.RawMessage(body)}, domain.Env{Now: now, Dice: d})
	require.NoError(t, err, "%s by %s", typ, who.ID)
	require.Zero(t, d.Remaining(), "%s rolled fewer dice than scripted", typ)
	require.Equal(t, before, rulestest.JSON(t, g), "Apply changed its input")
	m, err := r.MapOf(got)
	require.NoError(t, err)
	checkInvariants(t, got, m)
	checkEvents(t, g, got, out)
	return got, out
}

// actErr applies an action that must fail with code, changing nothing.
func actErr(t testing.TB, r Rules, g Game, who domain.Actor, typ, body, code string, dice ...int) error {
	t.Helper()
	before := rulestest.JSON(t, g)
	got, out, err := r.Apply(g, domain.Action{ID: "a-1", Type: typ, Actor: who, Payload: json.RawMessage(body)},
		domain.Env{Now: t0, Dice: domain.Script(dice...)})
	require.Error(t, err, "%s by %s: want error %s", typ, who.ID, code)
	require.Equal(t, code, domain.ErrorCode(err), "%s by %s: got %v", typ, who.ID, err)
	require.NotEmpty(t, domain.ErrorMessage(err))
	require.Equal(t, before, rulestest.JSON(t, g), "Apply changed its input")
	require.Equal(t, before, rulestest.JSON(t, got), "Apply returned a changed state with an error")
	require.Empty(t, out.Events)
	return err
}

// expire runs Expire as of the current deadline (plus late), rolling dice.
func expire(t testing.TB, r Rules, g Game, late time.Duration, dice ...int) (Game, domain.Outcome) {
	t.Helper()
	before := rulestest.JSON(t, g)
	dl := r.Header(g).Deadline
	require.False(t, dl.IsZero(), "no deadline to expire")
	d := domain.Script(dice...)
	got, out, err := r.Expire(g, domain.Env{Now: dl.Add(late), Dice: d})
	require.NoError(t, err)
	require.Zero(t, d.Remaining(), "Expire rolled fewer dice than scripted")
	require.Equal(t, before, rulestest.JSON(t, g), "Expire changed its input")
	m, err := r.MapOf(got)
	require.NoError(t, err)
	checkInvariants(t, got, m)
	checkEvents(t, g, got, out)
	return got, out
}

// withTroops returns g with troops added (ids from NextTroop on, ready).
func withTroops(g Game, troops ...Troop) Game {
	g = g.clone()
	for _, tr := range troops {
		if tr.ID == 0 {
			tr.ID = g.NextTroop
		}
		g.NextTroop = max(g.NextTroop, tr.ID+1)
		if tr.HP == 0 {
			tr.HP = g.Config.Units[tr.Type].HP
		}
		tr.Ready = true
		g.Troops = append(g.Troops, tr)
	}
	slices.SortFunc(g.Troops, func(a, b Troop) int { return a.ID - b.ID })
	return g
}

// troop returns troop id of g, failing when it is gone.
func troop(t testing.TB, g Game, id int) Troop {
	t.Helper()
	i := g.TroopByID(id)
	require.GreaterOrEqual(t, i, 0, "troop %d is gone", id)
	return g.Troops[i]
}

// structure returns structure id of g.
func structure(t testing.TB, g Game, id string) Structure {
	t.Helper()
	for _, s := range g.Structures {
		if s.ID == id {
			return s
		}
	}
	t.Fatalf("no structure %s", id)
	return Structure{}
}

// setStructure changes structure id of g.
func setStructure(g Game, id string, f func(*Structure)) Game {
	g = g.clone()
	for i := range g.Structures {
		if g.Structures[i].ID == id {
			f(&g.Structures[i])
		}
	}
	return g
}

// hexJSON writes the "q" and "r" fields.
func hexJSON(h Hex) string {
	b, _ := json.Marshal(h)
	return string(b[1 : len(b)-1])
}

// randomGames is how many random games a test plays: full, or fewer under
// the race detector (every property is still checked on every game played;
// fewer games only try fewer seeds). MEEPLE_FULL_GAMES=1 plays the full
// count under the race detector too.
func randomGames(full, fewer int) int {
	if raceEnabled && os.Getenv("MEEPLE_FULL_GAMES") == "" {
		return fewer
	}
	return full
}
