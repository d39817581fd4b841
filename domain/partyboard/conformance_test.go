package partyboard

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/rulestest"
)

// TestConformance runs Party Board through the platform's conformance kit
// on both built-in boards with 2 and 5 players: without a timer (and without
// removePlayer among the moves played, so games run to the finish), and with
// a 10-second timer while the kit's clock moves up to 15 s an action, so
// inputs time out, players collect strikes and are removed, players leave
// and are removed by the host (rarely), and every passed deadline is checked
// to apply as of its time.
func TestConformance(t *testing.T) {
	for _, board := range BuiltinBoardIDs() {
		for _, n := range []int{2, 5} {
			for _, secs := range []int{0, 10} {
				t.Run(fmt.Sprint(board, "-", n, "-timer", secs), func(t *testing.T) {
					pg := NewPlatformGame()
					pg.single = domain.Single(domain.SingleGame[Game]{Rules: rulestest.PureRules[Game](t, Rules{Boards: pg.boards}),
						Create: func(d domain.Docs, a domain.Action, env domain.Env) (Game, bool, error) {
							return Create(pg.boards, a, env)
						}})
					var game domain.Game = pg
					tick := 15 * time.Second
					if secs == 0 {
						game, tick = withoutMove{Game: pg, drop: ActionRemovePlayer}, 5*time.Second
					}
					games := 3
					if raceEnabled {
						games = 2
					}
					rulestest.Run(t, rulestest.Kit{Actions: pg.ActionDocs(), Game: game, Games: games, Steps: 3000, State: Game{}, Tick: tick,
						Rare: []string{ActionRemovePlayer},
						Setup: func(t testing.TB, w *rulestest.World) []domain.Actor {
							var players []domain.Actor
							for i := range n {
								players = append(players, domain.Actor{ID: fmt.Sprint("p", i), Name: fmt.Sprint("P", i), Role: domain.RoleGuest})
							}
							payload, _ := json.Marshal(map[string]any{"board": board, "turnSeconds": secs})
							_, err := w.Do(domain.Action{ID: "new", Type: domain.ActionCreate, Actor: players[0], Payload: payload})
							require.NoError(t, err)
							return players
						}, Bad: []domain.Action{
							{Type: "nope"},
							{Type: ActionChoose, Payload: json.RawMessage(`{"choice":"x"}`)},
							{Type: ActionStart, Payload: json.RawMessage(`[]`)},
							{Type: ActionRemovePlayer, Payload: json.RawMessage(`{"playerId":"nobody"}`)},
						}})
				})
			}
		}
	}
}

// withoutMove is a game whose legal moves leave out one type (which is still
// accepted): the kit then never plays it.
type withoutMove struct {
	domain.Game
	drop string
}

func (w withoutMove) Run(d domain.Docs, a domain.Action, env domain.Env) (domain.Change, error) {
	ch, err := w.Game.Run(d, a, env)
	if err != nil || a.Type != domain.ActionLegal {
		return ch, err
	}
	var kept []domain.Move
	for _, m := range ch.Result.(map[string]any)["moves"].([]domain.Move) {
		if m.Type != w.drop {
			kept = append(kept, m)
		}
	}
	ch.Result = map[string]any{"moves": kept}
	return ch, nil
}
