package partyboard

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/rulestest"
)

// TestConformance runs Party Board through the platform's conformance kit
// on both built-in boards with 2 to 5 players.
func TestConformance(t *testing.T) {
	for _, board := range BuiltinBoardIDs() {
		for _, n := range []int{2, 5} {
			t.Run(fmt.Sprint(board, "-", n), func(t *testing.T) {
				pg := NewPlatformGame()
				pg.single = domain.Single(domain.SingleGame[Game]{Rules: rulestest.PureRules[Game](t, Rules{Boards: pg.boards}),
					Create: func(d domain.Docs, a domain.Action, env domain.Env) (Game, bool, error) {
						b, err := pg.boards.Board(board)
						if err != nil {
							return Game{}, false, err
						}
						g, err := NewGame(a.GameID, a.Actor, b, env.Now)
						return g, true, err
					}})
				rulestest.Run(t, rulestest.Kit{Game: pg, Games: 3, Steps: 3000, State: Game{}, Setup: func(t testing.TB, w *rulestest.World) []domain.Actor {
					var players []domain.Actor
					for i := range n {
						players = append(players, domain.Actor{ID: fmt.Sprint("p", i), Name: fmt.Sprint("P", i), Role: domain.RoleGuest})
					}
					payload, _ := json.Marshal(map[string]any{"board": board})
					_, err := w.Do(domain.Action{ID: "new", Type: domain.ActionCreate, Actor: players[0], Payload: payload})
					require.NoError(t, err)
					return players
				}, Bad: []domain.Action{
					{Type: "nope"},
					{Type: ActionChoose, Payload: json.RawMessage(`{"choice":"x"}`)},
					{Type: ActionStart, Payload: json.RawMessage(`[]`)},
				}})
			})
		}
	}
}
