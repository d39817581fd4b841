package functions_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/dashdice"
)

func TestDashDiceQuickMatch(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	alice, bob, carol := s.guest("Alice"), s.guest("Bob"), s.guest("Carol")
	quick := func(p player, actionID, mode string) map[string]any {
		t.Helper()
		code, out := s.post(p.Token, "DashDice", map[string]any{"actionId": actionID, "type": "quickMatch", "mode": mode})
		require.Equal(t, http.StatusOK, code, "%v", out)
		return out["result"].(map[string]any)
	}
	require.Equal(t, "waiting", quick(alice, "q1", "classic")["status"])
	require.Equal(t, "waiting", quick(alice, "q1", "classic")["status"], "polling keeps alice waiting")
	require.Equal(t, "waiting", quick(carol, "q1", "zero-hour")["status"], "queues are per mode")

	got := quick(bob, "q1", "classic")
	require.Equal(t, "matched", got["status"])
	gameID := got["gameId"].(string)
	polled := quick(alice, "q1", "classic")
	require.Equal(t, "matched", polled["status"])
	require.Equal(t, gameID, polled["gameId"], "the waiting player learns the match by polling")

	var m dashdice.Match
	_, err := s.store.GameState(context.Background(), gameID, &m)
	require.NoError(t, err)
	require.Equal(t, dashdice.PhaseTurnDecider, m.Phase)
	require.Equal(t, alice.ID, m.Host.ID, "whoever waited hosts")
	require.Equal(t, bob.ID, m.Opponent.ID)
	require.Equal(t, dashdice.DefaultTurnSeconds, m.TurnSeconds)

	require.Equal(t, "waiting", quick(alice, "q2", "classic")["status"], "a new action id is a new search")
	code, out := s.post(alice.Token, "DashDice", map[string]any{"actionId": "l1", "type": "leaveQueue", "mode": "classic"})
	require.Equal(t, http.StatusOK, code, "%v", out)
	require.Equal(t, "left", out["result"].(map[string]any)["status"])
	require.Equal(t, "waiting", quick(bob, "q2", "classic")["status"], "alice left, so bob waits")

	s.advance(2 * time.Minute)
	require.Equal(t, "waiting", quick(alice, "q3", "classic")["status"], "a player who stopped polling is not matched")
}

func TestDashDiceForfeitAndRematch(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	alice, bob := s.guest("Alice"), s.guest("Bob")
	m := newMatch(s, "last-line", 0, alice, bob)
	m.must(bob, "call", map[string]any{"call": "even"})
	out := m.must(alice, "forfeit", nil)
	events := out["events"].([]any)
	last := events[len(events)-1].(map[string]any)
	require.Equal(t, domain.EventGameOver, last["type"])
	st, _ := m.state()
	require.Equal(t, bob.ID, st.Winner)
	require.Equal(t, dashdice.ReasonForfeit, st.EndReason)

	code, out := m.do(alice, "roll", nil)
	require.Equal(t, http.StatusConflict, code, "no play after the end: %v", out)

	m.must(alice, "rematch", nil)
	out = m.must(bob, "rematch", nil)
	st, _ = m.state()
	require.NotEmpty(t, st.RematchID)
	var next dashdice.Match
	_, err := s.store.GameState(context.Background(), st.RematchID, &next)
	require.NoError(t, err, "the rematch was created with the action that agreed to it")
	require.Equal(t, dashdice.PhaseTurnDecider, next.Phase)
	require.Equal(t, "last-line", next.Mode.ID)
	require.ElementsMatch(t, []string{alice.ID, bob.ID}, []string{next.Host.ID, next.Opponent.ID})

	rematch := &match{s: s, id: st.RematchID, players: m.players}
	rematch.must(m.players[next.Opponent.ID], "call", map[string]any{"call": "odd"})
	doc, err := s.store.GameDoc(context.Background(), st.RematchID)
	require.NoError(t, err)
	require.NotEmpty(t, doc["seedHash"])
	require.Nil(t, doc["seed"])
}

func TestDashDiceListenerSeesEveryChange(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	alice, bob := s.guest("Alice"), s.guest("Bob")
	m := newMatch(s, "classic", 0, alice, bob)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	it := s.store.FS.Collection("games").Doc(m.id).Snapshots(ctx)
	defer it.Stop()
	snap, err := it.Next()
	require.NoError(t, err)
	require.Equal(t, int64(1), snap.Data()["version"])

	m.must(bob, "call", map[string]any{"call": "odd"})
	for v := int64(2); v <= 6; v++ {
		if v > 2 {
			st, _ := m.state()
			m.must(m.players[st.CurrentPlayerID], "roll", nil)
		}
		snap, err := it.Next()
		require.NoError(t, err)
		require.Equal(t, v, snap.Data()["version"], "the listener sees each version in order")
	}
}

// TestQuickMatchCrowd: many players calling quickMatch of one queue at the
// same instant, then polling with the same action id, are paired exactly
// once: nobody in two games, nobody with themselves, each game seats the
// two players whose tickets name it, and a player who left is never paired.
// Every call is answered (never a 5xx for a queue).
func TestQuickMatchCrowd(t *testing.T) {
	s := newStack(t)
	const n, leavers = 24, 3
	ps := make([]player, n)
	for i := range ps {
		ps[i] = s.guest(fmt.Sprint("P", i))
	}
	post := func(p player, body map[string]any) (int, map[string]any, error) {
		raw, _ := json.Marshal(body)
		req, _ := http.NewRequest(http.MethodPost, s.url+"/DashDice", bytes.NewReader(raw))
		req.Header.Set("Authorization", "Bearer "+p.Token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return 0, nil, err
		}
		defer resp.Body.Close()
		var out map[string]any
		err = json.NewDecoder(resp.Body).Decode(&out)
		return resp.StatusCode, out, err
	}
	type got struct {
		game string
		left bool
		err  error
	}
	results := make([]got, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i, p := range ps {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			deadline := time.Now().Add(30 * time.Second)
			for first := true; time.Now().Before(deadline); first = false {
				code, out, err := post(p, map[string]any{"actionId": "crowd", "type": "quickMatch", "mode": "classic"})
				if err != nil || code != http.StatusOK {
					results[i] = got{err: fmt.Errorf("quickMatch: %d %v %v", code, out, err)}
					return
				}
				res := out["result"].(map[string]any)
				if res["status"] == "matched" {
					results[i] = got{game: res["gameId"].(string)}
					return
				}
				if first && i < leavers {
					code, out, err := post(p, map[string]any{"actionId": "crowd-leave", "type": "leaveQueue", "mode": "classic"})
					if err != nil || code != http.StatusOK {
						results[i] = got{err: fmt.Errorf("leaveQueue: %d %v %v", code, out, err)}
						return
					}
					res := out["result"].(map[string]any)
					results[i] = got{left: res["status"] == "left", game: fmt.Sprint(res["gameId"])}
					return
				}
				time.Sleep(100 * time.Millisecond)
			}
			results[i] = got{err: fmt.Errorf("%s still waiting", p.Name)}
		}()
	}
	close(start)
	wg.Wait()

	ctx := context.Background()
	seated := map[string][]string{} // game → players whose ticket names it
	waiting := 0
	for i, r := range results {
		switch {
		case r.err != nil && strings.HasSuffix(r.err.Error(), "still waiting"):
			waiting++
		case r.err != nil:
			t.Errorf("%s: %v", ps[i].Name, r.err)
		case r.left:
			// A leaver's ticket says left, and no game seats them.
		default:
			seated[r.game] = append(seated[r.game], ps[i].ID)
		}
	}
	require.LessOrEqual(t, waiting, 1, "everyone but an odd one out is paired")
	inGame := map[string]string{}
	for id, players := range seated {
		require.Len(t, players, 2, "game %s: two tickets name it", id)
		var m dashdice.Match
		_, err := s.store.GameState(ctx, id, &m)
		require.NoError(t, err)
		require.ElementsMatch(t, players, []string{m.Host.ID, m.Opponent.ID}, "game %s seats its two tickets", id)
		require.NotEqual(t, m.Host.ID, m.Opponent.ID, "nobody plays themselves")
		for _, p := range players {
			require.Empty(t, inGame[p], "%s is in two games", p)
			inGame[p] = id
		}
	}
	for i := 0; i < leavers; i++ {
		if results[i].left {
			require.Empty(t, inGame[ps[i].ID], "a player who left is never paired")
		}
	}
	// No game other than those: count DashDice games in the store.
	all, err := s.store.FS.Collection("games").Where("kind", "==", "dashdice").Documents(ctx).GetAll()
	require.NoError(t, err)
	require.Len(t, all, len(seated), "no game was made that the tickets do not name")
}
