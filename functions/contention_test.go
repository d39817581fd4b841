package functions_test

import (
	"fmt"
	"net/http"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain/dashdice"
)

// TestContentionAnswersNo500: many actions on one match at once each get a
// reply a client can act on — applied, refused for the moment (409), or busy
// (503 with Retry-After) — and never a 500; a retry of an action id while the
// first is in flight gets the same reply.
func TestContentionAnswersNo500(t *testing.T) {
	s := newStack(t)
	alice, bob := s.guest("Alice"), s.guest("Bob")
	m := newMatch(s, "classic", 0, alice, bob)
	m.must(bob, "call", map[string]any{"call": "odd"})
	st, _ := m.state()
	cur := alice
	if st.CurrentTurn == dashdice.SeatOpponent {
		cur = bob
	}
	const n = 30
	codes := make([]int, n)
	replies := make([]map[string]any, n)
	lat := make([]time.Duration, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			id := fmt.Sprint("roll-", i)
			if i%5 == 4 {
				id = fmt.Sprint("roll-", i-1) // the same request again, at once
			}
			t0 := time.Now()
			codes[i], replies[i] = s.post(cur.Token, "DashDice", map[string]any{"gameId": m.id, "actionId": id, "type": "roll"})
			lat[i] = time.Since(t0)
		}()
	}
	wg.Wait()
	count := map[int]int{}
	for i, c := range codes {
		count[c]++
		require.Contains(t, []int{http.StatusOK, http.StatusConflict, http.StatusServiceUnavailable}, c, "reply %d: %v", i, replies[i])
		if i%5 == 4 && c == http.StatusOK && codes[i-1] == http.StatusOK {
			require.Equal(t, replies[i-1], replies[i], "the same action id gets the same reply")
		}
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	t.Logf("%d concurrent rolls: %v; p50 %s, max %s", n, count, lat[n/2], lat[n-1])
	require.Positive(t, count[http.StatusOK])
}

// TestTileRaceFinishUnderContention: every team completes the final tile at
// once while an admin changes the fog. The first completion to commit wins;
// the others are told the race is over (409); the admin's write goes through.
func TestTileRaceFinishUnderContention(t *testing.T) {
	s := newStack(t)
	r := newRace(t, s, 8, true)
	for i, tm := range r.teams {
		r.mustAct(r.admin, fmt.Sprint("to-end-", i), map[string]any{"type": "moveTeam", "team": tm.id, "to": 56})
	}
	out := r.mustAct(r.admin, "view", map[string]any{"type": "viewBoard"})
	final := out["result"].(map[string]any)["tiles"].([]any)[55].(map[string]any)["content"].(map[string]any)
	min := int(final["min"].(float64))
	type reply struct {
		code int
		out  map[string]any
		took time.Duration
	}
	replies := make([]reply, len(r.teams)+1)
	var wg sync.WaitGroup
	for i, tm := range r.teams {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t0 := time.Now()
			code, out := r.act(tm.token, "finish", map[string]any{"type": "complete", "tile": 56, "recorded": 0, "players": tm.members[:min], "complete": true})
			replies[i] = reply{code, out, time.Since(t0)}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		t0 := time.Now()
		code, out := r.act(r.admin, "fog", map[string]any{"type": "setFog", "mode": "all"})
		replies[len(r.teams)] = reply{code, out, time.Since(t0)}
	}()
	wg.Wait()
	won := 0
	for i, rep := range replies[:len(r.teams)] {
		switch rep.code {
		case http.StatusOK:
			require.Equal(t, true, rep.out["result"].(map[string]any)["won"], "team %d: %v", i, rep.out)
			won++
		case http.StatusConflict:
			require.Contains(t, rep.out["error"].(map[string]any)["message"], "the race is over", "team %d", i)
		default:
			t.Fatalf("team %d: %d %v", i, rep.code, rep.out)
		}
		t.Logf("team %d: %d in %s", i, rep.code, rep.took)
	}
	require.Equal(t, 1, won, "exactly one winner")
	fog := replies[len(r.teams)]
	require.Equal(t, http.StatusOK, fog.code, "the admin's write goes through: %v", fog.out)
	t.Logf("setFog: %d in %s", fog.code, fog.took)
	g := r.game()
	require.Equal(t, "all", string(g.Fog))
	require.NotEmpty(t, g.Winner)
}
