package hexdice

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/bot"
)

// TestBotsPlayFromTheView: simultaneous fog games between two bots of each
// level, played round by round through the rules. Every round, each seat's
// game rebuilt from its public document and its view (FromView) holds
// exactly what Mask gives that seat (troops, structures and owners, the
// memory of the map), and the bots' orders, planned from it and sent as
// the platform sends them (MoveView), are accepted.
func TestBotsPlayFromTheView(t *testing.T) {
	for _, level := range domain.BotLevels {
		t.Run(level, func(t *testing.T) {
			r := Rules{}
			g, err := r.NewGame("g1", alice, Options{Size: Small, Mode: Simultaneous, TurnSeconds: 60, Fog: true, MapSeed: "bots-" + level}, t0)
			require.NoError(t, err)
			g, _, err = r.Apply(g, domain.Action{Type: ActionJoin, Actor: bob, Payload: json.RawMessage(`{}`)}, domain.Env{Now: t0, Dice: domain.NewSeededDice("s", 1)})
			require.NoError(t, err)
			m, err := r.MapOf(g)
			require.NoError(t, err)
			bots := NewBots(BotSpec())
			vb := bots.(domain.ViewBots)
			orders := 0
			stored := map[string]Orders{}
			for round := 0; round < 40 && g.Phase == PhasePlaying; round++ {
				for seat, who := range []domain.Actor{alice, bob} {
					view := ViewOf(g, m, Seat(seat))
					got := FromView(Public(g), view)
					want := Mask(g, m, Seat(seat))
					require.Equal(t, want.Troops, got.Troops, "round %d seat %d: troops", round, seat)
					require.Equal(t, len(want.Structures), len(got.Structures))
					for i, st := range got.Structures {
						w := want.Structures[i]
						require.Equal(t, [3]any{w.ID, w.Owner, w.Hex}, [3]any{st.ID, st.Owner, st.Hex}, "round %d seat %d: structure %d", round, seat, i)
						if w.HP > 0 {
							require.Equal(t, w.HP, st.HP, "a structure in sight keeps its HP")
						}
					}
					require.Equal(t, want.Memory[seat].Seen, got.Memory[seat].Seen, "the seat's memory of the map")

					pub, err := json.Marshal(Public(g))
					require.NoError(t, err)
					doc, err := json.Marshal(domain.ViewDoc{Version: int64(round), View: view, Events: []domain.SeenStep{}})
					require.NoError(t, err)
					mv, ok, err := vb.MoveView(pub, doc, who, level, uint64(round*2+seat), t0)
					require.NoError(t, err)
					require.True(t, ok, "a bot planning a round has orders")
					require.Equal(t, ActionOrders, mv.Type)
					require.Equal(t, true, mv.Payload["submit"], "a bot submits, it saves no drafts")
					body, err := bot.Payload(mv)
					require.NoError(t, err)
					var o Orders
					require.NoError(t, json.Unmarshal(mustJSON(t, mv.Payload["orders"]), &o))
					orders += len(o.Troops) + len(o.Buys)
					var out domain.Outcome
					g, out, err = r.WithOrders(stored).Apply(g, domain.Action{ID: fmt.Sprint(round), Type: ActionOrders, Actor: who, Payload: body},
						domain.Env{Now: t0, Dice: domain.NewSeededDice("s", int64(2+round*2+seat))})
					require.NoError(t, err, "round %d: seat %d's orders %s", round, seat, body)
					if id, o, ok := PrivateOrders(out); ok {
						stored[id] = o // the platform's orders document
					}
					if g.Phase != PhasePlaying {
						break
					}
				}
			}
			require.Positive(t, orders, "the bots gave no orders")
			t.Logf("%s bots: %d orders; phase %s at round %d", level, orders, g.Phase, g.Round)
		})
	}
}

// TestFogBotRefusesTheBareDocument: a fog game's bot handed only the game
// document (no view) refuses to play blind.
func TestFogBotRefusesTheBareDocument(t *testing.T) {
	r := Rules{}
	g, err := r.NewGame("g1", alice, Options{Size: Small, Mode: Alternating, TurnSeconds: 60, Fog: true, MapSeed: "bare"}, t0)
	require.NoError(t, err)
	g, _, err = r.Apply(g, domain.Action{Type: ActionJoin, Actor: bob, Payload: json.RawMessage(`{}`)}, domain.Env{Now: t0, Dice: domain.NewSeededDice("s", 1)})
	require.NoError(t, err)
	_, _, err = NewBots(BotSpec()).Move(mustJSON(t, Public(g)), alice, domain.BotStrong, 1, t0)
	if got, want := domain.ErrorCode(err), domain.EINTERNAL; got != want {
		t.Fatalf("got %q (%v), want %q", got, err, want)
	}
}
