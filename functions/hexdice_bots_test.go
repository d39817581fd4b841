package functions_test

import (
	"context"
	"encoding/json"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/hexdice"
	"github.com/meeple-games/meeple/games"
	"github.com/meeple-games/meeple/store"
	"github.com/meeple-games/meeple/store/storetest"
)

// recordingBots is a game's bots that keep what the platform handed them:
// the test's look at what a bot reads.
type recordingBots struct {
	domain.ViewBots
	mu    sync.Mutex
	moves []json.RawMessage // Move's states
	views []viewCall        // MoveView's documents
}

type viewCall struct{ public, view json.RawMessage }

func (r *recordingBots) Move(state json.RawMessage, bot domain.Actor, level string, seed uint64, now time.Time) (domain.Move, bool, error) {
	r.mu.Lock()
	r.moves = append(r.moves, state)
	r.mu.Unlock()
	return r.ViewBots.Move(state, bot, level, seed, now)
}

func (r *recordingBots) MoveView(public, view json.RawMessage, bot domain.Actor, level string, seed uint64, now time.Time) (domain.Move, bool, error) {
	r.mu.Lock()
	r.views = append(r.views, viewCall{public, view})
	r.mu.Unlock()
	return r.ViewBots.MoveView(public, view, bot, level, seed, now)
}

// recordingStore is a store over s's emulator project whose registry's
// Hex & Dice bots record what they are handed: the test moves the bots with
// store.PlayBots on it, as the trigger does.
func recordingStore(t *testing.T, s *stack) (*store.Store, *recordingBots) {
	t.Helper()
	var reg domain.Registry
	var rec *recordingBots
	for _, e := range games.All() {
		if e.Kind() == hexdice.Kind {
			vb, ok := e.Bots.(domain.ViewBots)
			require.True(t, ok, "Hex & Dice's bots play from a view")
			rec = &recordingBots{ViewBots: vb}
			e.Bots = rec
		}
		reg = append(reg, e)
	}
	st := store.New(storetest.ClientFor(t, projectOf(s)), reg)
	st.FixedSeeds = true
	st.Now = s.clock
	return st, rec
}

// TestHexDiceBotPlaysToTheEnd: a person hosts a Hex & Dice room (small
// map), adds a strong bot and plays it to the end through the HTTP function;
// the bot moves through store.PlayBots. Under fog the bot is handed the game
// document and its own view (sealed for it in the game document) — what a
// person in its seat reads — and never the sealed whole state. In simultaneous mode it submits one set
// of real orders a round (moves, attacks or buys), no drafts.
func TestHexDiceBotPlaysToTheEnd(t *testing.T) {
	for _, c := range []struct {
		name string
		mode hexdice.TurnMode
		fog  bool
	}{
		{"fog, alternating", hexdice.Alternating, true},
		{"simultaneous", hexdice.Simultaneous, false},
		{"fog, simultaneous", hexdice.Simultaneous, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := newStack(t)
			botStore, rec := recordingStore(t, s)
			ctx := context.Background()
			alice := s.guest("Alice")
			g := newHexGame(s, alice, hexdice.CreateRequest{Size: hexdice.Small, TurnSeconds: 120, Mode: c.mode, Fog: c.fog}, "bot-seed-"+c.name)
			out := g.must(alice, domain.ActionAddBot, map[string]any{"level": domain.BotStrong})
			require.Equal(t, float64(1), out["result"].(map[string]any)["seat"], "%v", out)
			botID := domain.BotActor(domain.BotStrong, 1).ID

			var st hexdice.Game
			botMoves, orderRounds, troopOrders, buys := 0, 0, 0, 0
			for step := 0; step < 3000; step++ {
				st, _ = g.state()
				if st.Phase != hexdice.PhasePlaying {
					break
				}
				botSeat := st.SeatOf(botID)
				botTurn := c.mode == hexdice.Alternating && st.Current == botSeat ||
					c.mode == hexdice.Simultaneous && !st.Players[botSeat].Submitted
				if !botTurn {
					// The person holds: ends the turn, or submits no orders.
					if c.mode == hexdice.Alternating {
						g.must(alice, hexdice.ActionEndTurn, nil)
					} else {
						g.must(alice, hexdice.ActionOrders, map[string]any{"orders": map[string]any{}, "submit": true})
					}
					continue
				}
				var public hexdice.Game
				var view domain.ViewDoc
				if c.fog {
					_, err := s.store.GameState(ctx, g.id, &public)
					require.NoError(t, err)
					var ok bool
					view, ok = g.viewOf(botID)
					require.True(t, ok, "the bot's view, sealed for it in the game document")
				}
				before := len(rec.views)
				n, err := store.PlayBots(ctx, botStore, g.id)
				require.NoError(t, err)
				if got, want := n, 1; got != want {
					t.Fatalf("step %d (round %d): got %d bot moves on its turn, want %d", step, st.Round, got, want)
				}
				botMoves++
				if c.fog {
					// What the bot was handed is what its seat reads.
					require.Len(t, rec.views, before+1)
					call := rec.views[before]
					var gotPublic hexdice.Game
					require.NoError(t, json.Unmarshal(call.public, &gotPublic))
					if got := len(gotPublic.Troops) + len(gotPublic.Structures); got != 0 {
						t.Fatalf("got %d troops and structures in the public state handed to the bot, want 0", got)
					}
					require.Equal(t, public.Round, gotPublic.Round)
					var gotView struct {
						View hexdice.View `json:"view"`
					}
					require.NoError(t, json.Unmarshal(call.view, &gotView))
					want, err := json.Marshal(view.View)
					require.NoError(t, err)
					var wantView hexdice.View
					require.NoError(t, json.Unmarshal(want, &wantView))
					require.Equal(t, wantView, gotView.View, "the bot's view is the one sealed for it")
					require.Equal(t, botSeat, gotView.View.Seat)
				}
				if c.mode == hexdice.Simultaneous {
					after, _ := g.state()
					if o, ok := g.sealedOrders(after, botID); ok && o.Round == st.Round {
						require.True(t, o.Submitted, "a bot saves no drafts")
						orderRounds++
						troopOrders += len(o.Troops)
						buys += len(o.Buys)
					}
				}
			}
			require.Equal(t, hexdice.PhaseOver, st.Phase, "the game did not end")
			require.NotNil(t, st.Result)
			if c.fog {
				require.Empty(t, rec.moves, "a fog game's bot was handed a state, not its view")
			}
			t.Logf("%s: over at round %d (%s), winner seat %v (the bot sits in %d); %d bot moves; simultaneous: %d rounds of orders, %d troop orders, %d buys",
				c.name, st.Round, st.Result.Reason, st.Result.Winner, st.SeatOf(botID), botMoves, orderRounds, troopOrders, buys)
			if c.mode == hexdice.Simultaneous {
				require.Positive(t, troopOrders, "the bot never moved or attacked")
				require.Positive(t, buys, "the bot never bought")
			}
		})
	}
}

var _ = http.StatusOK
