package dashdice

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/rulestest"
)

// TestConformance runs DashDice through the platform's conformance kit in
// every mode, with and without a turn timer.
func TestConformance(t *testing.T) {
	for _, mode := range BuiltinModes() {
		for _, turn := range []int{0, 5} {
			t.Run(mode.ID, func(t *testing.T) {
				g := domain.Single(domain.SingleGame[Match]{Rules: rulestest.PureRules[Match](t, Rules{}), Create: create, CreateReads: createReads,
					MoreSlots: NewGame().Slots()})
				rulestest.Run(t, rulestest.Kit{Actions: NewGame().ActionDocs(), Game: g, Games: 4, Steps: 400, Rare: []string{ActionForfeit}, State: Match{}, Setup: func(t testing.TB, w *rulestest.World) []domain.Actor {
					payload, _ := json.Marshal(map[string]any{"mode": mode.ID, "turnSeconds": turn})
					_, err := w.Do(domain.Action{ID: "new", Type: domain.ActionCreate, Actor: alice, Payload: payload})
					require.NoError(t, err)
					return []domain.Actor{alice, bob}
				}, Bad: []domain.Action{
					{Type: "nope"},
					{Type: ActionCall, Payload: json.RawMessage(`{"call":"maybe"}`)},
					{Type: ActionRoll, Payload: json.RawMessage(`[1]`)},
				}})
			})
		}
	}
}
