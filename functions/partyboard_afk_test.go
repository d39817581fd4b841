package functions_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/partyboard"
	"github.com/meeple-games/meeple/store"
)

// pbGame is a Party Board game driven over HTTP.
type pbGame struct {
	s       *stack
	id      string
	players []player
	n       int
}

// newPBGame has the first player create a game on gen1 with a fixed seed and
// the options given, the others join by room code, and the host start it.
func newPBGame(s *stack, seed string, opts map[string]any, names ...string) *pbGame {
	s.t.Helper()
	g := &pbGame{s: s}
	for _, name := range names {
		g.players = append(g.players, s.guest(name))
	}
	body := map[string]any{"actionId": "new", "type": "create", "board": "pokemon-gen1", "seed": seed}
	for k, v := range opts {
		body[k] = v
	}
	code, out := s.post(g.players[0].Token, "PartyBoard", body)
	require.Equal(s.t, http.StatusOK, code, "%v", out)
	res := out["result"].(map[string]any)
	g.id = res["gameId"].(string)
	for _, p := range g.players[1:] {
		code, out = s.post(p.Token, "PartyBoard", map[string]any{"actionId": "join", "type": "join", "roomCode": res["roomCode"]})
		require.Equal(s.t, http.StatusOK, code, "%v", out)
	}
	g.must(g.players[0], "start", nil)
	return g
}

func (g *pbGame) do(p player, typ string, extra map[string]any) (int, map[string]any) {
	g.s.t.Helper()
	g.n++
	body := map[string]any{"gameId": g.id, "actionId": fmt.Sprint("a", g.n), "type": typ}
	for k, v := range extra {
		body[k] = v
	}
	return g.s.post(p.Token, "PartyBoard", body)
}

func (g *pbGame) must(p player, typ string, extra map[string]any) map[string]any {
	g.s.t.Helper()
	code, out := g.do(p, typ, extra)
	require.Equal(g.s.t, http.StatusOK, code, "%s by %s: %v", typ, p.Name, out)
	return out
}

func (g *pbGame) state() partyboard.Game {
	g.s.t.Helper()
	var st partyboard.Game
	_, err := g.s.store.GameState(context.Background(), g.id, &st)
	require.NoError(g.s.t, err)
	return st
}

func (g *pbGame) player(id string) player {
	for _, p := range g.players {
		if p.ID == id {
			return p
		}
	}
	g.s.t.Fatalf("no player %s", id)
	return player{}
}

// TestPartyBoardTurnTimer: a game created with turnSeconds has a deadline
// on its document; once the clock passes it, the tick (store.Advance) or
// the next request applies the expiry as of the deadline; an absent host
// is removed after three in a row and the game goes on.
func TestPartyBoardTurnTimer(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, path := range []string{"tick", "request"} {
		t.Run(path, func(t *testing.T) {
			s := newStack(t)
			g := newPBGame(s, "afk-"+path, map[string]any{"turnSeconds": 30}, "Ash", "Misty", "Brock")
			ash, misty := g.players[0], g.players[1]
			for _, p := range g.players { // everyone but Ash picks a starter
				if p.ID != ash.ID {
					g.must(p, "starter", map[string]any{"starter": "Squirtle"})
				}
			}
			st := g.state()
			doc, err := s.store.GameDoc(ctx, g.id)
			require.NoError(t, err)
			require.Equal(t, st.Deadline, doc["deadlineAt"], "the document's deadline is the awaited input's")
			require.Equal(t, s.clock().Add(30*time.Second), st.Deadline)

			deadline := st.Deadline
			for expiries := 0; ; {
				s.advance(31 * time.Second)
				if path == "tick" {
					n, err := store.Advance(ctx, s.store, partyboard.Kind, g.id)
					require.NoError(t, err)
					require.Equal(t, 1, n, "one deadline passed")
				} else { // anyone's request applies it first: here Misty asks what she may do
					out := g.must(misty, "legal", nil)
					require.NotEmpty(t, out["events"], "the expiry's events come with the reply")
				}
				expiries++
				st = g.state()
				require.Equal(t, deadline.Add(30*time.Second), st.Deadline, "the next input's timer starts at the deadline, not when it was noticed")
				deadline = st.Deadline
				if st.Players[0].Removed {
					require.Equal(t, 3, expiries, "three expiries in a row remove Ash")
					break
				}
				require.Equal(t, expiries, st.Players[0].Strikes)
				require.Equal(t, ash.ID, st.Await.Players[0], "still Ash's input (starter, roll, confirm…)")
			}
			require.Equal(t, misty.ID, st.Host, "the host passes on")
			require.Equal(t, partyboard.PhasePlaying, st.Phase, "the game goes on")
			records, err := s.store.Events(ctx, g.id)
			require.NoError(t, err)
			var timeouts, removed int
			for _, r := range records {
				for _, e := range r.Events {
					switch e.Type {
					case partyboard.EventTimedOut:
						timeouts++
						require.Equal(t, domain.ActionExpire, r.Type)
					case partyboard.EventRemoved:
						removed++
					}
				}
			}
			require.Equal(t, 3, timeouts)
			require.Equal(t, 1, removed)

			// Ash is out: the others play on and Ash's requests are refused.
			who := g.player(st.Await.Players[0])
			g.must(who, st.Await.Action, nil)
			code, out := g.do(ash, "roll", nil)
			require.Equal(t, http.StatusConflict, code, "%v", out)
		})
	}
}

// TestPartyBoardRemovePlayer: the host removes a player mid-game, another
// leaves, and the one player left wins.
func TestPartyBoardRemovePlayer(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	ctx := context.Background()
	g := newPBGame(s, "remove", nil, "Ash", "Misty", "Brock")
	ash, misty, brock := g.players[0], g.players[1], g.players[2]
	code, out := g.do(misty, "removePlayer", map[string]any{"playerId": brock.ID})
	require.Equal(t, http.StatusConflict, code, "only the host removes others: %v", out)
	out = g.must(ash, "removePlayer", map[string]any{"playerId": brock.ID})
	require.Equal(t, partyboard.EventRemoved, out["events"].([]any)[0].(map[string]any)["type"])
	st := g.state()
	require.True(t, st.Players[2].Removed)
	require.NotContains(t, st.Await.Players, brock.ID, "Brock no longer picks a starter")

	g.must(misty, "removePlayer", map[string]any{"playerId": misty.ID})
	st = g.state()
	require.Equal(t, partyboard.PhaseOver, st.Phase)
	require.Equal(t, ash.ID, st.Winner)
	doc, err := s.store.GameDoc(ctx, g.id)
	require.NoError(t, err)
	require.Equal(t, "over", doc["status"])
	require.Equal(t, "remove", doc["seed"], "the seed is revealed at the end")
	records, err := s.store.Events(ctx, g.id)
	require.NoError(t, err)
	last := records[len(records)-1].Events
	over := last[len(last)-1]
	require.Equal(t, domain.EventGameOver, over.Type)
	require.Equal(t, partyboard.ReasonLastPlayer, over.Data.(map[string]any)["reason"])
}
