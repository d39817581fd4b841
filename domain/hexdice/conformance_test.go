package hexdice

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/rulestest"
)

// pureGame is the platform game with every rules call checked for purity.
func pureGame(t testing.TB) PlatformGame {
	return PlatformGame{Wrap: func(r domain.Rules[Game]) domain.Rules[Game] { return rulestest.PureRules[Game](t, r) }}
}

// TestConformance runs the platform game through the conformance kit in both
// turn modes on every map size: random legal games (moves, attacks, buys,
// orders drafts and submissions, surrenders, the timers when nobody acts)
// through an in-memory World that stores the map and orders documents as
// the platform does. Quick play is two games per size and mode, one under
// the race detector (MEEPLE_FULL_GAMES=1: two).
func TestConformance(t *testing.T) {
	if testing.Short() {
		t.Skip("plays random games")
	}
	bad := []domain.Action{
		{Type: "nope"},
		{Type: ActionMove, Payload: json.RawMessage(`{"troop":1,"q":0,"r":0,"speed":9}`)},
		{Type: ActionBuy, Payload: json.RawMessage(`{"unit":"tank","q":0,"r":0}`)},
		{Type: ActionOrders, Payload: json.RawMessage(`{"orders":{"troops":[{"troop":"x"}]}}`)},
		{Type: ActionEmote, Payload: json.RawMessage(`{"emote":"rude"}`)},
		{Type: ActionPreview, Payload: json.RawMessage(`{"troop":999999}`)},
		{Type: ActionPreview, Payload: json.RawMessage(`{"q":1}`)},
		{Type: domain.ActionCreate, Payload: json.RawMessage(`{"size":"huge"}`)},
	}
	for _, size := range []Size{Small, Medium, Large} {
		for _, mode := range []TurnMode{Alternating, Simultaneous} {
			setup := func(t testing.TB, w *rulestest.World) []domain.Actor {
				payload, _ := json.Marshal(map[string]any{"size": size, "mode": mode, "turnSeconds": 60, "private": true})
				_, err := w.Do(domain.Action{ID: "new", Type: domain.ActionCreate, Actor: alice, Payload: payload})
				require.NoError(t, err)
				return []domain.Actor{alice, bob}
			}
			probe := []domain.Action{{Type: ActionHeartbeat, Actor: alice}, {Type: ActionEmote, Actor: bob, Payload: json.RawMessage(`{"emote":"` + Emotes[0].ID + `"}`)}}
			// Quick play: turns end by endTurn or orders, rarely by the clock.
			t.Run(fmt.Sprintf("%s/%s/play", size, mode), func(t *testing.T) {
				rulestest.Run(t, rulestest.Kit{Game: pureGame(t), State: Game{}, Setup: setup, Bad: bad, Probe: probe,
					Games: randomGames(2, 1), Steps: 500, Tick: 300 * time.Millisecond, Rare: []string{ActionSurrender}})
			})
			// Slow play: turn timers, disconnections and forfeits.
			t.Run(fmt.Sprintf("%s/%s/clock", size, mode), func(t *testing.T) {
				rulestest.Run(t, rulestest.Kit{Game: pureGame(t), State: Game{}, Setup: setup, Bad: bad,
					Games: 1, Steps: 300, Tick: 5 * time.Second, Rare: []string{ActionSurrender}})
			})
		}
	}
}
