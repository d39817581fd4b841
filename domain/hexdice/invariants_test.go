package hexdice

import (
	"encoding/json"
	"reflect"
	"slices"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"

	"github.com/meeple-games/meeple/domain/rulestest"
)

// checkInvariants checks what must hold of every reachable state. It uses
// plain conditions, not require, in its loops: it runs after every step of
// every random game.
func checkInvariants(t testing.TB, g Game, m *Map) {
	t.Helper()
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf("invariant: "+format, args...)
	}
	// JSON round trip. The config is immutable and shared by every state of
	// a game: it is round-tripped once per distinct config, the rest always.
	if _, done := checkedConfigs.LoadOrStore(reflect.ValueOf(g.Config.Units).Pointer(), true); !done {
		roundTrip(t, g)
	}
	light := g
	light.Config = Config{}
	roundTrip(t, light)

	h := Rules{}.Header(g)
	if !slices.Equal(g.PlayerIDs(), h.Players) || len(g.Players) > 2 {
		fail("header players %v, game players %v", h.Players, g.PlayerIDs())
	}
	if m.Hash() != g.MapHash || m.Radius() != g.MapRadius {
		fail("map hash %s radius %d, game has %s %d", m.Hash(), m.Radius(), g.MapHash, g.MapRadius)
	}
	for _, p := range g.Players {
		if p.Coins < 0 {
			fail("%s has %d coins: coins are never negative", p.ID, p.Coins)
		}
		if len(p.EmoteTimes) > g.Config.Emotes.Limit {
			fail("%s keeps %d emote times", p.ID, len(p.EmoteTimes))
		}
	}
	if len(g.Emotes) > g.Config.Emotes.Keep {
		fail("%d emotes kept", len(g.Emotes))
	}

	seen := map[Hex]string{}
	passable := func(h Hex) bool { tt, ok := m.Terrain(h); return ok && g.Config.Terrain[tt].Passable }
	for _, s := range g.Structures {
		switch {
		case !passable(s.Hex):
			fail("structure %s on %v: off the map or impassable", s.ID, s.Hex)
		case seen[s.Hex] != "":
			fail("structure %s shares %v with %s", s.ID, s.Hex, seen[s.Hex])
		case s.HP < 1 || s.HP > g.Config.Structures[s.Kind].HP:
			fail("structure %s has %d HP", s.ID, s.HP)
		case s.Kind == HQ && g.Phase == PhasePlaying && s.ID != "hq"+itoa(int(s.Owner)):
			fail("HQ %s held by seat %d while the game runs", s.ID, s.Owner)
		}
		seen[s.Hex] = s.ID
	}
	prev := 0
	for _, tr := range g.Troops {
		switch {
		case tr.ID <= prev || tr.ID >= g.NextTroop:
			fail("troop ids out of order or beyond nextTroop: %d after %d (next %d)", tr.ID, prev, g.NextTroop)
		case !passable(tr.Hex):
			fail("troop %d on %v: off the map or impassable", tr.ID, tr.Hex)
		case seen[tr.Hex] != "":
			fail("troop %d shares %v with %s: one troop per hex", tr.ID, tr.Hex, seen[tr.Hex])
		case tr.HP <= 0 || tr.HP > g.Config.Units[tr.Type].HP:
			fail("troop %d has %d HP", tr.ID, tr.HP)
		case tr.Owner != 0 && tr.Owner != 1:
			fail("troop %d owned by %d", tr.ID, tr.Owner)
		}
		prev = tr.ID
		seen[tr.Hex] = "troop " + itoa(tr.ID)
	}

	switch g.Phase {
	case PhaseWaiting:
		require.Equal(t, domain.StatusWaiting, h.Status)
		require.Len(t, g.Players, 1)
		require.Equal(t, g.JoinDeadline, h.Deadline)
		require.Empty(t, g.Troops)
	case PhasePlaying:
		require.Equal(t, domain.StatusActive, h.Status)
		require.Len(t, g.Players, 2)
		require.False(t, g.TurnDeadline.IsZero())
		require.False(t, h.Deadline.After(g.TurnDeadline), "the header deadline is the earliest")
		require.True(t, g.JoinDeadline.IsZero())
		require.Nil(t, g.Result)
		require.GreaterOrEqual(t, g.Round, 1)
		if g.Mode == Alternating {
			require.Contains(t, []Seat{0, 1}, g.Current)
		} else {
			require.Equal(t, Neutral, g.Current)
		}
		require.Equal(t, max(m.Radius()-g.SuddenDeath*g.Config.SuddenDeath.ShrinkPerRound, 0), g.SafeRadius)
	case PhaseOver:
		require.Equal(t, domain.StatusOver, h.Status)
		require.True(t, h.Deadline.IsZero())
		require.NotNil(t, g.Result)
		require.Equal(t, Neutral, g.Current)
		if g.Result.Reason == ReasonCancelled {
			require.Empty(t, g.Result.Players)
			break
		}
		require.Len(t, g.Result.Players, 2)
		require.Equal(t, g.Result.Draw, g.Result.Winner == Neutral)
		for i, s := range g.Result.Players {
			require.Equal(t, Summary{ID: g.Players[i].ID, TroopsKilled: g.Players[i].Kills, TroopsLost: g.Players[i].Losses,
				StructuresHeld: g.StructuresHeld(Seat(i)), TurnsPlayed: g.Players[i].Turns}, s)
		}
	default:
		t.Fatalf("unknown phase %q", g.Phase)
	}
}

var checkedConfigs sync.Map

func roundTrip(t testing.TB, g Game) {
	t.Helper()
	b, err := json.Marshal(g)
	require.NoError(t, err)
	var back Game
	require.NoError(t, json.Unmarshal(b, &back))
	if !reflect.DeepEqual(g, back) {
		require.Equal(t, g, back, "JSON round trip")
	}
}

// checkEvents checks the events of one step from prev to next.
func checkEvents(t testing.TB, prev, next Game, out domain.Outcome) {
	t.Helper()
	g := rulestest.GameOver(t, out.Events)
	ended := prev.Phase != PhaseOver && next.Phase == PhaseOver
	require.Equal(t, ended && next.Result.Reason != ReasonCancelled, g != nil, "a gameOver event exactly when a game ends with a result")
	if g != nil {
		var winners, losers []string
		for i, p := range next.Players {
			switch {
			case next.Result.Draw:
			case Seat(i) == next.Result.Winner:
				winners = append(winners, p.ID)
			default:
				losers = append(losers, p.ID)
			}
		}
		require.Equal(t, domain.GameOver{Kind: Kind, Mode: string(next.Mode), Winners: winners, Losers: losers,
			Draw: next.Result.Draw, Players: next.PlayerIDs(), Reason: next.Result.Reason}, *g)
	}
	for _, e := range out.Events {
		if _, err := json.Marshal(e); err != nil {
			t.Fatalf("event %s does not marshal: %v", e.Type, err)
		}
	}
}

// checkMap checks ruling 2's invariants of a generated map.
func checkMap(t testing.TB, m *Map, cfg Config) {
	t.Helper()
	sr := cfg.Sizes[m.Size()]
	require.Equal(t, sr.Radius, m.Radius())
	hexes := m.Hexes()
	require.Len(t, hexes, HexCount(sr.Radius))
	passable := 0
	for _, h := range hexes {
		tt, ok := m.Terrain(h)
		require.True(t, ok)
		ti, ok := m.Terrain(h.Rotate180())
		require.True(t, ok)
		require.Equal(t, tt, ti, "terrain symmetric under 180° at %v", h)
		if cfg.Terrain[tt].Passable {
			passable++
		}
	}
	require.GreaterOrEqual(t, passable*100, cfg.Map.MinPassablePercent*len(hexes), "passable share")

	sites := m.Sites()
	require.Len(t, sites, 2+sr.Neutral())
	at := map[Hex]Site{}
	kinds := map[StructureKind]int{}
	for _, s := range sites {
		require.NotContains(t, at, s.Hex, "two structures on one hex")
		at[s.Hex] = s
		kinds[s.Kind]++
		tt, _ := m.Terrain(s.Hex)
		require.Equal(t, Plains, tt, "structures stand on plains")
	}
	require.Equal(t, map[StructureKind]int{HQ: 2, Outpost: sr.Outposts, CommandCenter: sr.CommandCenters}, kinds)
	for _, s := range sites {
		img, ok := at[s.Hex.Rotate180()]
		require.True(t, ok, "structure %s has an image", s.ID)
		require.Equal(t, s.Kind, img.Kind, "structure %s's image is of its kind", s.ID)
		if s.Kind == HQ {
			require.Equal(t, s.Owner.Other(), img.Owner, "the HQs are each other's images")
		} else {
			require.Equal(t, Neutral, s.Owner)
		}
		for _, o := range sites {
			if o.ID != s.ID {
				require.GreaterOrEqual(t, Distance(s.Hex, o.Hex), cfg.Map.MinSpacing, "%s and %s spaced", s.ID, o.ID)
			}
		}
	}
	// Reachability over passable hexes without structures, from HQ 0.
	reached := map[Hex]bool{}
	var queue []Hex
	for d := 0; d < 6; d++ {
		n := sites[0].Hex.Neighbour(d)
		if tt, ok := m.Terrain(n); ok && cfg.Terrain[tt].Passable {
			if _, isSite := at[n]; !isSite {
				reached[n] = true
				queue = append(queue, n)
			}
		}
	}
	for len(queue) > 0 {
		h := queue[0]
		queue = queue[1:]
		for d := 0; d < 6; d++ {
			n := h.Neighbour(d)
			tt, ok := m.Terrain(n)
			if _, isSite := at[n]; !ok || isSite || reached[n] || !cfg.Terrain[tt].Passable {
				continue
			}
			reached[n] = true
			queue = append(queue, n)
		}
	}
	for _, s := range sites {
		ok := false
		for d := 0; d < 6; d++ {
			ok = ok || reached[s.Hex.Neighbour(d)]
		}
		require.True(t, ok, "structure %s reachable from hq0 (so the HQs are connected)", s.ID)
	}
	// Contested structures near the centre: the command centers are within
	// half the radius, and an odd neutral structure is in the centre.
	for _, s := range sites {
		if s.Kind == CommandCenter {
			require.LessOrEqual(t, s.Hex.Length(), max(2, sr.Radius/2), "command center %s near the centre", s.ID)
		}
	}
	if sr.Neutral()%2 == 1 {
		require.Contains(t, at, Hex{}, "the odd neutral structure is in the centre")
	}
}
