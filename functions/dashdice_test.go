package functions_test

import (
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
	"github.com/meeple-games/meeple/store"
)

// match drives one DashDice match through the HTTP functions and keeps the
// actions it sent, so the test can replay them through the pure rules.
type match struct {
	s       *stack
	id      string
	code    string
	seed    string
	players map[string]player
	sent    []sentAction
	n       int
}

// actorOf is the guest actor p acts as.
func actorOf(p player) domain.Actor {
	return domain.Actor{ID: p.ID, Name: p.Name, Role: domain.RoleGuest}
}

type sentAction struct {
	actor domain.Actor
	typ   string
	body  map[string]any
	at    time.Time
}

func (m *match) do(p player, typ string, extra map[string]any) (int, map[string]any) {
	m.s.t.Helper()
	m.n++
	body := map[string]any{"gameId": m.id, "actionId": fmt.Sprintf("a%d", m.n), "type": typ}
	for k, v := range extra {
		body[k] = v
	}
	at := m.s.clock()
	code, out := m.s.post(p.Token, "DashDice", body)
	if code == http.StatusOK {
		m.sent = append(m.sent, sentAction{actor: actorOf(p), typ: typ, body: body, at: at})
	}
	return code, out
}

func (m *match) must(p player, typ string, extra map[string]any) map[string]any {
	m.s.t.Helper()
	code, out := m.do(p, typ, extra)
	require.Equal(m.s.t, http.StatusOK, code, "%s by %s: %v", typ, p.Name, out)
	return out
}

func (m *match) state() (dashdice.Match, int64) {
	m.s.t.Helper()
	var st dashdice.Match
	v, err := m.s.store.GameState(context.Background(), m.id, &st)
	require.NoError(m.s.t, err)
	return st, v
}

// newMatch has alice create a match in mode (private, so it has a room code)
// with a fixed seed, and bob join it by that code.
func newMatch(s *stack, mode string, turnSeconds int, alice, bob player) *match {
	s.t.Helper()
	return newSeededMatch(s, mode, turnSeconds, "seed-"+mode+"-"+s.t.Name(), alice, bob)
}

func newSeededMatch(s *stack, mode string, turnSeconds int, seed string, alice, bob player) *match {
	s.t.Helper()
	code, out := s.post(alice.Token, "DashDice", map[string]any{
		"actionId": "create-1", "type": "create", "mode": mode, "private": true, "turnSeconds": turnSeconds, "seed": seed})
	require.Equal(s.t, http.StatusOK, code, "create: %v", out)
	res := out["result"].(map[string]any)
	m := &match{s: s, id: res["gameId"].(string), code: res["roomCode"].(string), seed: seed,
		players: map[string]player{alice.ID: alice, bob.ID: bob}}
	require.Equal(s.t, domain.SeedHash(seed), res["seedHash"])
	code, out = s.post(bob.Token, "DashDice", map[string]any{"actionId": "join-1", "type": "join", "roomCode": strings.ToLower(m.code)})
	require.Equal(s.t, http.StatusOK, code, "join by room code: %v", out)
	m.sent = append(m.sent, sentAction{actor: actorOf(bob), typ: "join",
		body: map[string]any{"type": "join"}, at: s.clock()})
	return m
}

// strategy picks a legal, sensible move for the player whose turn it is.
func strategy(st dashdice.Match) string {
	me := st.Host
	if st.CurrentTurn == dashdice.SeatOpponent {
		me = *st.Opponent
	}
	switch st.Mode.RuleSet {
	case dashdice.RuleSetTrueGrit:
		return "roll"
	case dashdice.RuleSetZeroHour:
		if st.TurnScore > 0 && (st.TurnScore >= me.Score || st.TurnScore >= 18) {
			return "bank"
		}
	default:
		if st.TurnScore >= 18 {
			return "bank"
		}
	}
	return "roll"
}

// replay applies the sent actions to the pure rules with the documented dice
// derivation and returns the final state: it must equal what the server stored.
func (m *match) replay(t *testing.T, mode dashdice.Mode, opts dashdice.Options, created time.Time, host domain.Actor) dashdice.Match {
	t.Helper()
	st, err := dashdice.NewMatch(m.id, host, mode, opts, created)
	require.NoError(t, err)
	rules := dashdice.Rules{}
	for i, a := range m.sent {
		payload, _ := json.Marshal(a.body)
		var out domain.Outcome
		st, out, err = rules.Apply(st, domain.Action{ID: fmt.Sprint(i), Type: a.typ, Actor: a.actor, Payload: payload},
			domain.Env{Now: a.at, Dice: domain.NewSeededDice(m.seed, int64(i+1))})
		require.NoError(t, err, "replaying action %d (%s)", i+1, a.typ)
		_ = out
	}
	return st
}

func TestDashDiceWholeMatchInEveryMode(t *testing.T) {
	t.Parallel()
	for _, mode := range dashdice.BuiltinModes() {
		t.Run(mode.ID, func(t *testing.T) {
			s := newStack(t)
			alice, bob := s.guest("Alice"), s.guest("Bob")
			created := s.clock()
			m := newMatch(s, mode.ID, 0, alice, bob)
			m.must(bob, "call", map[string]any{"call": "odd"})
			for i := 0; ; i++ {
				require.Less(t, i, 2000, "the match did not end")
				st, v := m.state()
				if st.Phase == dashdice.PhaseGameOver {
					break
				}
				require.Equal(t, dashdice.PhaseGameplay, st.Phase)
				m.must(m.players[st.CurrentPlayerID], strategy(st), map[string]any{"version": v})
			}
			final, _ := m.state()
			require.True(t, final.Draw || final.Winner != "", "a finished match has a result: %+v", final)

			// Every roll can be checked: the seed is revealed and matches the hash
			// published at creation, and replaying gives the same match.
			doc, err := s.store.GameDoc(context.Background(), m.id)
			require.NoError(t, err)
			require.Equal(t, m.seed, doc["seed"])
			require.Equal(t, domain.SeedHash(m.seed), doc["seedHash"])
			require.Equal(t, "over", doc["status"])
			want := m.replay(t, mode, dashdice.Options{TurnSeconds: dashdice.NoTimer, Private: true}, created,
				domain.Actor{ID: alice.ID, Name: alice.Name})
			gotJSON, _ := json.Marshal(final)
			wantJSON, _ := json.Marshal(want)
			require.JSONEq(t, string(wantJSON), string(gotJSON), "server state differs from a replay of the same actions")

			events, err := s.store.Events(context.Background(), m.id)
			require.NoError(t, err)
			require.Len(t, events, len(m.sent), "one event record per action")
			last := events[len(events)-1]
			require.False(t, last.Pending, "the game-over record: its stats were written with it")
			require.Equal(t, domain.EventGameOver, last.Events[len(last.Events)-1].Type)

			// Each player's ledger holds the match once, with their result.
			for _, p := range []string{alice.ID, bob.ID} {
				got, err := s.store.PlayerResults(context.Background(), p, 10)
				require.NoError(t, err)
				require.Len(t, got, 1, "the ledger of %s", p)
				require.Equal(t, store.Result{GameID: m.id, Event: last.ID, Kind: dashdice.Kind, Mode: mode.ID, Result: resultOf(final.Draw, final.Winner, p),
					Reason: got[0].Reason, At: got[0].At}, got[0], "the ledger entry of %s", p)
			}
		})
	}
}

func TestDashDiceRetriedActionReturnsFirstReply(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	alice, bob := s.guest("Alice"), s.guest("Bob")
	m := newMatch(s, "classic", 0, alice, bob)
	m.must(bob, "call", map[string]any{"call": "even"})
	st, _ := m.state()
	p := m.players[st.CurrentPlayerID]
	body := map[string]any{"gameId": m.id, "actionId": "roll-once", "type": "roll"}
	code, first := s.post(p.Token, "DashDice", body)
	require.Equal(t, http.StatusOK, code, "%v", first)
	before, v := m.state()
	code, again := s.post(p.Token, "DashDice", map[string]any{"type": "roll", "actionId": "roll-once", "gameId": m.id})
	require.Equal(t, http.StatusOK, code)
	require.Equal(t, first, again)
	after, v2 := m.state()
	require.Equal(t, before, after)
	require.Equal(t, v, v2)
}

func TestDashDiceConcurrentRollsOnOneTurnApplyOnce(t *testing.T) {
	s := newStack(t)
	alice, bob := s.guest("Alice"), s.guest("Bob")
	m := newMatch(s, "classic", 0, alice, bob)
	m.must(bob, "call", map[string]any{"call": "odd"})
	st, v := m.state()
	p := m.players[st.CurrentPlayerID]
	var wg sync.WaitGroup
	codes := make([]int, 2)
	for i := range codes {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			codes[i], _ = s.post(p.Token, "DashDice", map[string]any{"gameId": m.id, "actionId": fmt.Sprintf("c%d", i), "type": "roll", "version": v})
		}(i)
	}
	wg.Wait()
	ok := 0
	for _, c := range codes {
		if c == http.StatusOK {
			ok++
		} else {
			require.Equal(t, http.StatusConflict, c)
		}
	}
	require.Equal(t, 1, ok, "exactly one of two concurrent rolls applies: %v", codes)
	_, v2 := m.state()
	require.Equal(t, v+1, v2)
}

func TestDashDiceBadRequestsChangeNothing(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	alice, bob, carol := s.guest("Alice"), s.guest("Bob"), s.guest("Carol")
	m := newMatch(s, "true-grit", 0, alice, bob)
	m.must(bob, "call", map[string]any{"call": "even"})
	st, v := m.state()
	cur, other := m.players[st.CurrentPlayerID], alice
	if cur.ID == alice.ID {
		other = bob
	}
	g := m.id
	tests := []struct {
		name   string
		token  string
		body   any
		status int
		code   string
	}{
		{"no token", "", map[string]any{"gameId": g, "actionId": "x", "type": "roll"}, 401, domain.EUNAUTHORIZED},
		{"bad token", "not.a.token", map[string]any{"gameId": g, "actionId": "x", "type": "roll"}, 401, domain.EUNAUTHORIZED},
		{"malformed json", cur.Token, `{"gameId":"` + g + `","type":"roll"`, 400, domain.EINVALID},
		{"not an object", cur.Token, `["roll"]`, 400, domain.EINVALID},
		{"two objects", cur.Token, `{"type":"roll"}{"type":"roll"}`, 400, domain.EINVALID},
		{"empty body", cur.Token, ``, 400, domain.EINVALID},
		{"no type", cur.Token, map[string]any{"gameId": g, "actionId": "x"}, 400, domain.EINVALID},
		{"unknown type", cur.Token, map[string]any{"gameId": g, "actionId": "x", "type": "cheat"}, 400, domain.EINVALID},
		{"gameId not a string", cur.Token, `{"gameId":42,"actionId":"x","type":"roll"}`, 400, domain.EINVALID},
		{"version not a number", cur.Token, map[string]any{"gameId": g, "actionId": "x", "type": "roll", "version": "7"}, 400, domain.EINVALID},
		{"no actionId", cur.Token, map[string]any{"gameId": g, "type": "roll"}, 400, domain.EINVALID},
		{"no gameId", cur.Token, map[string]any{"actionId": "x", "type": "roll"}, 400, domain.EINVALID},
		{"slash in gameId", cur.Token, map[string]any{"gameId": g + "/private/server", "actionId": "x", "type": "roll"}, 400, domain.EINVALID},
		{"unknown game", cur.Token, map[string]any{"gameId": "nosuchgame", "actionId": "x", "type": "roll"}, 404, domain.ENOTFOUND},
		{"out of turn", other.Token, map[string]any{"gameId": g, "actionId": "x", "type": "roll"}, 409, domain.ECONFLICT},
		{"not seated", carol.Token, map[string]any{"gameId": g, "actionId": "x", "type": "roll"}, 403, domain.EFORBIDDEN},
		{"bank in true grit", cur.Token, map[string]any{"gameId": g, "actionId": "x", "type": "bank"}, 400, domain.EINVALID},
		{"call again", bob.Token, map[string]any{"gameId": g, "actionId": "x", "type": "call", "call": "odd"}, 409, domain.ECONFLICT},
		{"join a full match", carol.Token, map[string]any{"actionId": "x", "type": "join", "roomCode": m.code}, 409, domain.ECONFLICT},
		{"unknown room", carol.Token, map[string]any{"actionId": "x", "type": "join", "roomCode": "ZZZZZZ"}, 404, domain.ENOTFOUND},
		{"stale version", cur.Token, map[string]any{"gameId": g, "actionId": "x", "type": "roll", "version": v - 1}, 409, domain.ECONFLICT},
		{"rematch while playing", cur.Token, map[string]any{"gameId": g, "actionId": "x", "type": "rematch"}, 409, domain.ECONFLICT},
		{"unknown mode", cur.Token, map[string]any{"actionId": "x", "type": "create", "mode": "chess"}, 400, domain.EINVALID},
		{"bad timer", cur.Token, map[string]any{"actionId": "x", "type": "create", "mode": "classic", "turnSeconds": 3}, 400, domain.EINVALID},
		{"oversized", cur.Token, `{"gameId":"` + g + `","actionId":"x","type":"roll","pad":"` + strings.Repeat("x", 70<<10) + `"}`, 413, domain.ETOOLARGE},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out := s.post(tt.token, "DashDice", tt.body)
			if code != tt.status || errCode(out) != tt.code {
				t.Fatalf("got %d %q (%v), want %d %q", code, errCode(out), out, tt.status, tt.code)
			}
			msg, _ := out["error"].(map[string]any)["message"].(string)
			require.NotEmpty(t, msg, "an error explains itself")
			after, v2 := m.state()
			require.Equal(t, st, after, "state unchanged")
			require.Equal(t, v, v2, "version unchanged")
		})
	}

	t.Run("GET is refused", func(t *testing.T) {
		resp, err := http.Get(s.url + "/DashDice")
		require.NoError(t, err)
		resp.Body.Close()
		require.Equal(t, http.StatusBadRequest, resp.StatusCode)
	})
}

func TestDashDiceTimeoutSameWhetherTickOrRequestComesFirst(t *testing.T) {
	t.Parallel()
	final := map[string]dashdice.Match{}
	for _, path := range []string{"tick", "request"} {
		t.Run(path, func(t *testing.T) {
			s := newStack(t)
			alice, bob := s.guest("Alice"), s.guest("Bob")
			m := newSeededMatch(s, "classic", 10, "timeout-seed", alice, bob)
			m.must(bob, "call", map[string]any{"call": "odd"})
			st, _ := m.state()
			first := m.players[st.CurrentPlayerID]
			m.must(first, "roll", nil)
			st, _ = m.state()
			require.Equal(t, first.ID, st.CurrentPlayerID, "with this seed the first roll keeps the turn")
			require.Positive(t, st.TurnScore)
			banked := st.TurnScore
			deadline := st.TurnDeadline
			s.advance(15 * time.Second) // the 10 s turn ran out 5 s ago
			if path == "tick" {
				n, err := store.Advance(context.Background(), s.store, dashdice.Kind, m.id)
				require.NoError(t, err)
				require.Equal(t, 1, n)
			}
			st, _ = m.state()
			next := bob
			if first.ID == bob.ID {
				next = alice
			}
			m.must(next, "roll", nil)
			st, _ = m.state()
			require.Equal(t, deadline.Add(10*time.Second), st.TurnDeadline, "the next turn started at the deadline, not when the timeout was noticed")
			require.Equal(t, 1, st.Turn-1, "the timed-out turn ended once")
			firstSeat := st.Host
			if first.ID == st.Opponent.ID {
				firstSeat = *st.Opponent
			}
			require.Equal(t, banked, firstSeat.Score, "a timed-out turn banks")
			st.ID, st.Host.ID, st.Opponent.ID, st.CurrentPlayerID, st.CreatedAt = "", "", "", "", time.Time{}
			final[path] = st
		})
	}
	if len(final) == 2 {
		require.Equal(t, final["tick"].Host.Score, final["request"].Host.Score)
		require.Equal(t, final["tick"].Opponent.Score, final["request"].Opponent.Score)
		require.Equal(t, final["tick"].TurnDeadline, final["request"].TurnDeadline)
	}
}
