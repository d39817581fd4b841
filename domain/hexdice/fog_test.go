package hexdice

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
)

// fogStarted is started() with fog on.
func fogStarted(t testing.TB, m *Map, mode TurnMode, first Seat) Game {
	t.Helper()
	r := rulesFor(m)
	g, err := r.NewGame("g1", alice, Options{Size: Small, Mode: mode, TurnSeconds: 60, Fog: true}, t0)
	require.NoError(t, err)
	var dice []int
	if mode == Alternating {
		dice = []int{int(first) + 1}
	}
	g, _ = act(t, r, g, bob, ActionJoin, `{}`, t0, dice...)
	return g
}

func mustJSON(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return b
}

// TestFogRandomGames plays random fog games in both modes and checks, after
// every step, that nothing a player or a spectator gets (their view, the
// masked state legal and preview answer from, the public game document,
// the step's events as they saw them) names an enemy troop, its hex or HP,
// or a structure's HP, outside their vision; and that a view never holds a
// unit outside the player's vision (the property). Six games per mode,
// three under the race detector (MEEPLE_FULL_GAMES=1: six).
func TestFogRandomGames(t *testing.T) {
	for _, mode := range []TurnMode{Alternating, Simultaneous} {
		for i := range randomGames(6, 3) {
			seed := fmt.Sprintf("fog-%s-%d", mode, i)
			t.Run(seed, func(t *testing.T) {
				owners := map[int]Seat{}
				steps, hidden := 0, 0
				randomGameWith(t, Small, mode, seed, i < 2, 0, true, func(before, after Game, m *Map, out domain.Outcome) {
					steps++
					for _, seat := range []Seat{0, 1, Neutral} {
						scan := &FogScan{Seat: seat, Before: before, After: after, Map: m, Owners: owners}
						docs := map[string]any{
							"public": Public(after),
							"events": SeenEvents(before, after, m, out.Events, seat),
						}
						if seat >= 0 {
							v := ViewOf(after, m, seat)
							docs["view"], docs["mask"] = v, Mask(after, m, seat)
							vis := Visible(after, m, seat)
							for _, tr := range v.Troops {
								if tr.Owner != seat && !vis[tr.Hex] {
									t.Fatalf("view of seat %d holds enemy troop %d outside its vision", seat, tr.ID)
								}
							}
							hidden += len(after.Troops) - len(v.Troops)
						}
						for name, d := range docs {
							if leaks := scan.Leaks(mustJSON(t, d)); len(leaks) > 0 {
								t.Fatalf("seat %d, %s after %v: %v", seat, name, out.Events, leaks)
							}
						}
					}
				})
				t.Logf("%d steps, %d troop-views hidden", steps, hidden)
				require.Positive(t, hidden, "the fog hid nothing: the test proves nothing")
			})
		}
	}
}

// TestFogScanFails runs the scanner on what fog must not show (the whole
// state, the events as they happened) and requires it to find leaks: the
// scanner can fail.
func TestFogScanFails(t *testing.T) {
	m := testMap(t, nil)
	g := fogStarted(t, m, Alternating, 0)
	g = withTroops(g, Troop{Owner: 0, Type: Marine, Hex: Hex{0, -4}}, Troop{Owner: 1, Type: Sniper, Hex: Hex{0, 4}})
	scan := &FogScan{Seat: 0, Before: g, After: g, Map: m, Owners: map[int]Seat{}}
	require.NotEmpty(t, scan.Leaks(mustJSON(t, g)), "the whole state names bob's sniper")
	require.Empty(t, scan.Leaks(mustJSON(t, ViewOf(g, m, 0))), "alice's view")
	require.Empty(t, scan.Leaks(mustJSON(t, Mask(g, m, 0))), "alice's mask")
	leaky := []domain.Event{{Type: EventHealed, Player: "bob", Data: HealedData{Troop: 2, Amount: 1, HP: 5}}}
	require.NotEmpty(t, scan.Leaks(mustJSON(t, leaky)))
	require.Empty(t, scan.Leaks(mustJSON(t, SeenEvents(g, g, m, leaky, 0))))
	spect := &FogScan{Seat: Neutral, Before: g, After: g, Map: m, Owners: map[int]Seat{}}
	require.NotEmpty(t, spect.Leaks(mustJSON(t, ViewOf(g, m, 0))), "a spectator reading a player's view")
	require.Empty(t, spect.Leaks(mustJSON(t, Public(g))))
}

// TestFogRules: attacks need vision, a move runs into a hidden enemy
// (ambush), the game document shows no troop, memory keeps what was seen.
func TestFogRules(t *testing.T) {
	m := testMap(t, nil)
	r := rulesFor(m)
	g := fogStarted(t, m, Alternating, 0)
	require.Equal(t, DefaultVision(), g.Config.Vision)
	// alice's marine at (0,-3); bob's sniper hides at (0,1): distance 4,
	// beyond the marine's vision 3 and the HQ's 3 from (0,-5).
	g = withTroops(g, Troop{Owner: 0, Type: Marine, Hex: Hex{0, -3}}, Troop{Owner: 1, Type: Sniper, Hex: Hex{0, 1}},
		Troop{Owner: 0, Type: Sniper, Hex: Hex{3, -5}})
	require.False(t, Visible(g, m, 0)[Hex{0, 1}])

	t.Run("attack on an unseen hex is refused alike", func(t *testing.T) {
		// A mech in forest sees 2 hexes but shoots 3: bob's sniper at
		// distance 3 is out of its vision, and so is an empty hex; both
		// refusals read the same.
		mf := testMap(t, map[Hex]Terrain{{0, -2}: Forest})
		rf := rulesFor(mf)
		gf := fogStarted(t, mf, Alternating, 0)
		gf = withTroops(gf, Troop{Owner: 0, Type: Mech, Hex: Hex{0, -2}}, Troop{Owner: 1, Type: Sniper, Hex: Hex{0, 1}})
		gf.Turn = 3 // past the first turn's no-attack
		require.False(t, Visible(gf, mf, 0)[Hex{0, 1}])
		e1 := actErr(t, rf, gf, alice, ActionAttack, `{"troop":1,"q":0,"r":1}`, domain.EINVALID)
		e2 := actErr(t, rf, gf, alice, ActionAttack, `{"troop":1,"q":1,"r":0}`, domain.EINVALID)
		require.Contains(t, e1.Error(), "not in your vision")
		require.Contains(t, e2.Error(), "not in your vision")
	})
	t.Run("ambush", func(t *testing.T) {
		// alice's marine (mobility 3) goes (0,-3) -> (0,0); bob's sniper
		// sits hidden at (0,-1)? it is seen there; put it at (0,0)'s path
		// end instead: hidden at distance 4 from (0,-3) is (0,1); send a
		// hoverbike (mobility 5) to (0,2) straight through it.
		// A hoverbike (mobility 5, vision 4) sent 5 hexes to where bob's
		// sniper hides runs into it and stops one hex short.
		g2 := fogStarted(t, m, Alternating, 0)
		g2 = withTroops(g2, Troop{Owner: 0, Type: Hoverbike, Hex: Hex{0, -3}}, Troop{Owner: 1, Type: Sniper, Hex: Hex{0, 2}})
		require.False(t, Visible(g2, m, 0)[Hex{0, 2}])
		got, out := act(t, r, g2, alice, ActionMove, `{"troop":1,"q":0,"r":2}`, t0)
		mv := out.Events[0].Data.(MovedData)
		require.NotNil(t, mv.Ambush, "the hidden sniper stops the move")
		require.Equal(t, Hex{0, 2}, *mv.Ambush)
		require.Equal(t, Hex{0, 1}, mv.To)
		require.True(t, troop(t, got, 1).Moved)
		require.True(t, Visible(got, m, 0)[Hex{0, 2}], "the ambusher is seen now")
		// bob saw the hoverbike come (it ends next to his sniper).
		seen := SeenEvents(g2, got, m, out.Events, 1)
		require.Len(t, seen, 1)
	})
	t.Run("public and memory", func(t *testing.T) {
		p := Public(g)
		require.Empty(t, p.Troops)
		require.Empty(t, p.Structures)
		require.Nil(t, p.Memory)
		v := ViewOf(g, m, 0)
		require.Len(t, v.Fog, HexCount(6))
		require.Contains(t, v.Fog, "2")
		require.Contains(t, v.Fog, "0")
		for _, tr := range v.Troops {
			require.NotEqual(t, 2, tr.ID, "bob's sniper is hidden")
		}
		// the HQ of bob was never seen: remembered as the map places it.
		for _, s := range v.Structures {
			if s.ID == "hq1" {
				require.False(t, s.Seen)
				require.Zero(t, s.HP)
			}
		}
	})
	t.Run("legal lists no attack on what it cannot see", func(t *testing.T) {
		for _, mv := range r.Legal(Mask(g, m, 0), alice) {
			if mv.Type == ActionAttack {
				require.True(t, Visible(g, m, 0)[Hex{mv.Payload["q"].(int), mv.Payload["r"].(int)}])
			}
		}
	})
}

func TestRematch(t *testing.T) {
	for _, mode := range []TurnMode{Alternating, Simultaneous} {
		t.Run(string(mode), func(t *testing.T) {
			m := testMap(t, nil)
			r := rulesFor(m)
			g := fogStarted(t, m, mode, 1)
			g.Round = 6
			g, _ = act(t, r, g, alice, ActionSurrender, `{}`, t0)
			require.Equal(t, PhaseOver, g.Phase)
			actErr(t, r, g, carol, ActionRematch, `{}`, domain.EFORBIDDEN)
			g, out := act(t, r, g, bob, ActionRematch, `{}`, t0)
			require.Equal(t, RematchResult{Waiting: true}, out.Result)
			actErr(t, r, g, bob, ActionRematch, `{}`, domain.ECONFLICT)
			g, out = act(t, r, g, alice, ActionRematch, `{}`, t0)
			require.Len(t, out.Spawn, 1)
			next := out.Spawn[0].State.(Game)
			require.Equal(t, RematchID("g1"), next.ID)
			require.Equal(t, next.ID, g.RematchID)
			require.Equal(t, "g1", next.RematchOf)
			require.Equal(t, PhasePlaying, next.Phase)
			require.Equal(t, []string{"alice", "bob"}, next.PlayerIDs())
			require.True(t, next.Fog)
			require.Len(t, next.Memory, 2)
			require.Equal(t, g.Mode, next.Mode)
			require.Equal(t, g.MapSeed, next.MapSeed)
			if mode == Alternating {
				require.Equal(t, Seat(0), next.First, "the other player first")
				require.Equal(t, Seat(0), next.Current)
			}
			actErr(t, r, g, bob, ActionRematch, `{}`, domain.ECONFLICT)
		})
	}
}

// TestFogDocumentSizes logs the size of a view document's view, the whole
// state (private/state) and the public game state mid-game, per map size
// (docs/hexdice.md quotes them: go test -v -run FogDocumentSizes).
func TestFogDocumentSizes(t *testing.T) {
	for _, size := range Sizes {
		for _, mode := range []TurnMode{Alternating, Simultaneous} {
			var view, full, public, troops int
			var m *Map
			g, _ := randomGameWith(t, size, mode, "sizes-"+string(size), false, 10, true, func(_, after Game, mm *Map, _ domain.Outcome) { m = mm })
			if g.Phase != PhasePlaying {
				t.Logf("%s %s: over before round 10", size, mode)
				continue
			}
			for seat := Seat(0); seat < 2; seat++ {
				view = max(view, len(mustJSON(t, ViewOf(g, m, seat))))
			}
			full, public, troops = len(mustJSON(t, g)), len(mustJSON(t, Public(g))), len(g.Troops)
			t.Logf("%-6s %-12s round %d, %2d troops: view %5d B, whole state %5d B, public state %5d B", size, mode, g.Round, troops, view, full, public)
			require.Less(t, view, 16000)
		}
	}
}
