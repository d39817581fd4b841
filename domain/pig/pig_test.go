package pig

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/rulestest"
)

var (
	ann = domain.Actor{ID: "ann", Name: "Ann", Role: domain.RoleGuest}
	bob = domain.Actor{ID: "bob", Name: "Bob", Role: domain.RoleGuest}
	t0  = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
)

func started(t *testing.T, o Options) Game {
	t.Helper()
	g, err := NewGame("g", ann, o)
	require.NoError(t, err)
	g, _, err = Rules{}.Apply(g, domain.Action{Type: "join", Actor: bob}, domain.Env{Now: t0})
	require.NoError(t, err)
	return g
}

func TestRolls(t *testing.T) {
	tests := []struct {
		name      string
		rolls     []int
		turnTotal int
		current   int
	}{
		{"a roll adds to the turn", []int{4}, 4, 0},
		{"rolls add up", []int{4, 6}, 10, 0},
		{"a 1 loses the turn's total and passes the turn", []int{4, 1}, 0, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := started(t, Options{})
			for _, r := range tt.rolls {
				var err error
				g, _, err = Rules{}.Apply(g, domain.Action{Type: "roll", Actor: g.actor()}, domain.Env{Now: t0, Dice: domain.Script(r)})
				require.NoError(t, err)
			}
			if got, want := g.TurnTotal, tt.turnTotal; got != want {
				t.Errorf("turn total = %d, want %d", got, want)
			}
			if got, want := g.Current, tt.current; got != want {
				t.Errorf("current = %d, want %d", got, want)
			}
		})
	}
}

func (g Game) actor() domain.Actor {
	if g.Current == 0 {
		return ann
	}
	return bob
}

func TestHoldWinsAtTheTarget(t *testing.T) {
	g := started(t, Options{Target: 5})
	g, _, err := Rules{}.Apply(g, domain.Action{Type: "roll", Actor: ann}, domain.Env{Now: t0, Dice: domain.Script(6)})
	require.NoError(t, err)
	g, out, err := Rules{}.Apply(g, domain.Action{Type: "hold", Actor: ann}, domain.Env{Now: t0})
	require.NoError(t, err)
	require.True(t, g.Over)
	require.Equal(t, "ann", g.Winner)
	require.Equal(t, domain.EventGameOver, out.Events[len(out.Events)-1].Type)
	require.Equal(t, domain.StatusOver, Rules{}.Header(g).Status)
}

func TestTimerHoldsAsOfTheDeadline(t *testing.T) {
	g := started(t, Options{TurnSeconds: 30})
	require.Equal(t, t0.Add(30*time.Second), g.Deadline)
	g, _, err := Rules{}.Apply(g, domain.Action{Type: "roll", Actor: ann}, domain.Env{Now: t0, Dice: domain.Script(5)})
	require.NoError(t, err)
	g, out, err := Rules{}.Expire(g, domain.Env{Now: t0.Add(30 * time.Second)})
	require.NoError(t, err)
	require.Equal(t, []int{5, 0}, g.Scores, "the timeout banks the turn")
	require.Equal(t, EventTimeout, out.Events[0].Type)
	require.Equal(t, t0.Add(60*time.Second), g.Deadline, "Bob's turn runs from the deadline")
}

func TestRefusals(t *testing.T) {
	g := started(t, Options{})
	for _, tc := range []struct {
		name string
		a    domain.Action
		code string
	}{
		{"not your turn", domain.Action{Type: "roll", Actor: bob}, domain.ECONFLICT},
		{"not a player", domain.Action{Type: "roll", Actor: domain.Actor{ID: "cy"}}, domain.EFORBIDDEN},
		{"join a started game", domain.Action{Type: "join", Actor: domain.Actor{ID: "cy"}}, domain.ECONFLICT},
		{"unknown", domain.Action{Type: "pass", Actor: ann}, domain.EINVALID},
		{"not an object", domain.Action{Type: "roll", Actor: ann, Payload: json.RawMessage(`[]`)}, domain.EINVALID},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, _, err := Rules{}.Apply(g, tc.a, domain.Env{Now: t0, Dice: domain.Script(3)})
			require.Equal(t, tc.code, domain.ErrorCode(err))
			require.Equal(t, g, got)
		})
	}
}

// TestConformance runs Pig through the platform's conformance kit, with and
// without a turn timer.
func TestConformance(t *testing.T) {
	for _, turn := range []int{0, 10} {
		g := domain.Single(domain.SingleGame[Game]{Rules: rulestest.PureRules[Game](t, Rules{}), Create: create})
		rulestest.Run(t, rulestest.Kit{Actions: NewPlatformGame().(domain.ActionDocer).ActionDocs(), Game: g, Games: 10, Steps: 500, State: Game{}, Setup: func(t testing.TB, w *rulestest.World) []domain.Actor {
			body, _ := json.Marshal(map[string]any{"turnSeconds": turn})
			_, err := w.Do(domain.Action{ID: "new", Type: domain.ActionCreate, Actor: ann, Payload: body})
			require.NoError(t, err)
			return []domain.Actor{ann, bob}
		}, Bad: []domain.Action{{Type: "pass"}, {Type: "roll", Payload: json.RawMessage(`"x"`)}}})
	}
}
