package functions_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain/hexdice"
	"github.com/meeple-games/meeple/store"
)

// TestAskedPreviewReads: a Hex & Dice preview sent with the version the
// page shows, as the web client sends it, reads nothing while the instance
// holds the game at that version, and answers what a preview without
// version answers. In a fog game, whose whole state is sealed in the game
// document, the same; in one from before (legacyFog), whose preview reads
// private/state too, also: the instance's copy of private/state is the one
// the commit that made the game document's version wrote, as their update
// times tell (store.answersFromCopy); without version it reads both.
func TestAskedPreviewReads(t *testing.T) {
	s, c := countedStack(t)
	current := s.srv.Store
	legacy := store.New(current.FS, legacyFogRegistry())
	legacy.FixedSeeds, legacy.Now = true, s.clock
	for i, tc := range []struct{ fog, legacy bool }{{false, false}, {true, false}, {true, true}} {
		fog := tc.fog
		t.Run(fmt.Sprintf("fog=%v,legacy=%v", fog, tc.legacy), func(t *testing.T) {
			s.srv.Store, s.store = current, current
			if tc.legacy {
				s.srv.Store, s.store = legacy, legacy
			}
			host, guest := s.guest(fmt.Sprint("Ah", i)), s.guest(fmt.Sprint("Ag", i))
			g := newHexGame(s, host, hexdice.CreateRequest{Size: hexdice.Small, Mode: hexdice.Alternating, Fog: fog}, fmt.Sprint("asked-", i))
			g.join(guest)
			st, _ := g.state()
			g.must(g.player(st, st.Current), "endTurn", nil) // the instance now holds the game as it wrote it
			st, version := g.state()
			p := g.player(st, st.Current)
			// The game's documents read (a guest's session check reads
			// players/{id} besides, which the test stack does not cache).
			preview := func(body map[string]any) (map[string]any, int64) {
				t.Helper()
				before := c.Paths()
				code, out := g.do(p, hexdice.ActionPreview, body)
				require.Equal(t, http.StatusOK, code, "%v", out)
				var reads int64
				for k, n := range c.Paths() {
					if strings.HasPrefix(k, "read games/") || strings.HasPrefix(k, "query games/") {
						reads += n - before[k]
					}
				}
				return out["result"].(map[string]any), reads
			}
			plain, plainReads := preview(nil)
			for range 3 {
				asked, reads := preview(map[string]any{"version": version})
				require.Equal(t, plain, asked, "the same answer")
				require.Zero(t, reads, "asked at the version the instance holds: no read (%d without version)", plainReads)
			}
			code, out := g.do(p, hexdice.ActionPreview, map[string]any{"version": version - 1})
			require.Equal(t, http.StatusConflict, code, "asked at a version the game has left: %v", out)
			require.Equal(t, map[string]any{"version": float64(version)}, out["error"].(map[string]any)["details"],
				"the refusal names the version the game is at (web/src/api.ts ask tells it by that)")
		})
	}
}

// TestHeartbeatCost: a Hex & Dice heartbeat (the web client sends one every
// 20 s while the page is open) writes the game document alone, and once the
// instance holds the game warm reads nothing (docs/hexdice.md, "Rooms,
// quick match, heartbeats").
func TestHeartbeatCost(t *testing.T) {
	s, c := countedStack(t)
	host, guest := s.guest("Hh"), s.guest("Hg")
	g := newHexGame(s, host, hexdice.CreateRequest{Size: hexdice.Small, Mode: hexdice.Alternating}, "heartbeat-cost")
	g.join(guest)
	st, _ := g.state()
	idle := g.player(st, st.Current.Other())
	for i := range 3 {
		s.advance(hexdice.HeartbeatQuiet + time.Second) // past the quiet window: a real heartbeat
		_, v0 := g.state()
		before := c.Paths()
		g.must(idle, hexdice.ActionHeartbeat, nil)
		after := c.Paths()
		_, v1 := g.state()
		require.Equal(t, v0+1, v1, "a heartbeat is a step")
		reads, writes := map[string]int64{}, map[string]int64{}
		addGameDocs(reads, writes, before, after)
		require.Equal(t, map[string]int64{"write games/*": 1}, writes, "heartbeat %d: the game document alone", i)
		if i > 0 {
			require.Empty(t, reads, "heartbeat %d: the game is warm", i)
		}
	}
}

// addGameDocs adds to reads and writes, by path, what a call did to the
// games' documents between two fsemu.Counter.Paths: its own (the tick's
// left out), a player's session check aside.
func addGameDocs(reads, writes, before, after map[string]int64) {
	for k, n := range after {
		if d := n - before[k]; d != 0 && strings.Contains(k, "games/") && !strings.HasPrefix(k, "tick ") {
			if strings.HasPrefix(k, "write ") {
				writes[k] += d
			} else {
				reads[k] += d
			}
		}
	}
}
