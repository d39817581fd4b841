package dashdice

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/rulestest"
)

// maxSteps bounds one random game; every game must end well within it.
const maxSteps = 5000

// randomGame plays one match of mode with random legal actions, each action's
// dice drawn from domain.NewSeededDice(seed, seq), checking the invariants after
// every step. It returns the final state and the number of steps.
func randomGame(t testing.TB, mode Mode, seed string, check bool) (Match, int) {
	t.Helper()
	r := rand.New(rand.NewPCG(uint64(len(seed)), hash(seed)))
	opts := Options{TurnSeconds: []int{0, NoTimer, 5, 600}[r.IntN(4)]}
	m, err := NewMatch("g-"+seed, alice, mode, opts, t0)
	require.NoError(t, err)
	now := t0
	gameOvers := 0
	seq := int64(0)
	for step := 0; step < maxSteps; step++ {
		if m.Phase == PhaseGameOver {
			if check {
				require.Equal(t, !m.Cancelled(), gameOvers == 1, "one gameOver event per match with a result")
			}
			return m, step
		}
		seq++
		now = now.Add(time.Duration(r.IntN(4000)) * time.Millisecond)
		env := domain.Env{Now: now, Dice: domain.NewSeededDice(seed, seq)}
		h := Rules{}.Header(m)
		var (
			next Match
			out  domain.Outcome
		)
		odds := 10 // of letting a deadline pass early: 1 in odds
		if m.Phase == PhaseWaiting {
			odds = 40
		}
		if !h.Deadline.IsZero() && (r.IntN(odds) == 0 || !now.Before(h.Deadline)) {
			// The pipeline expires overdue deadlines before any action, as of the deadline.
			env.Now = h.Deadline
			if now.Before(h.Deadline) {
				now = h.Deadline
			}
			next, out, err = Rules{}.Expire(m, env)
		} else {
			a := randomAction(r, m)
			next, out, err = Rules{}.Apply(m, a, env)
		}
		require.NoError(t, err, "step %d in phase %s", step, m.Phase)
		for _, e := range out.Events {
			if e.Type == domain.EventGameOver {
				gameOvers++
			}
		}
		if check {
			checkInvariants(t, next)
			checkStep(t, m, next, out)
		}
		m = next
	}
	t.Fatalf("%s game %s did not end in %d steps", mode.ID, seed, maxSteps)
	return m, maxSteps
}

func hash(s string) uint64 {
	var h uint64 = 14695981039346656037
	for i := 0; i < len(s); i++ {
		h = (h ^ uint64(s[i])) * 1099511628211
	}
	return h
}

// randomAction picks a legal action for the state.
func randomAction(r *rand.Rand, m Match) domain.Action {
	a := func(who domain.Actor, typ, body string) domain.Action {
		return domain.Action{ID: "x", Type: typ, Actor: who, Payload: json.RawMessage(body)}
	}
	switch m.Phase {
	case PhaseWaiting:
		if r.IntN(50) == 0 {
			return a(alice, ActionForfeit, `{}`)
		}
		return a(bob, ActionJoin, `{}`)
	case PhaseTurnDecider:
		if r.IntN(100) == 0 {
			return a([]domain.Actor{alice, bob}[r.IntN(2)], ActionForfeit, `{}`)
		}
		return a(bob, ActionCall, `{"call":"`+[]string{"odd", "even"}[r.IntN(2)]+`"}`)
	}
	me := alice
	if m.CurrentTurn == SeatOpponent {
		me = bob
	}
	if r.IntN(300) == 0 {
		return a([]domain.Actor{alice, bob}[r.IntN(2)], ActionForfeit, `{}`)
	}
	if m.Mode.RuleSet == RuleSetTrueGrit || m.TurnScore == 0 || r.IntN(3) != 0 {
		return a(me, ActionRoll, `{}`)
	}
	return a(me, ActionBank, `{}`)
}

// checkStep checks how a state may change in one step.
func checkStep(t testing.TB, prev, next Match, out domain.Outcome) {
	t.Helper()
	g := rulestest.GameOver(t, out.Events)
	ended := prev.Phase != PhaseGameOver && next.Phase == PhaseGameOver
	require.Equal(t, ended && !next.Cancelled(), g != nil, "a gameOver event exactly when a match ends with a result")
	if g != nil {
		require.Equal(t, domain.GameOver{Kind: Kind, Mode: next.Mode.ID, Winners: nonEmpty(next.Winner), Losers: nonEmpty(next.Loser),
			Draw: next.Draw, Reason: next.EndReason, Players: Rules{}.Header(next).Players}, *g)
	}
	require.Equal(t, prev.ID, next.ID)
	require.Equal(t, prev.Mode, next.Mode)
	require.Equal(t, prev.Host.ID, next.Host.ID)
	require.GreaterOrEqual(t, next.Turn, prev.Turn)
	if next.Phase == PhaseGameplay && next.Turn != prev.Turn && next.TurnSeconds > 0 {
		require.Equal(t, next.TurnDeadline, rulestest.Data[TurnStartedData](t, out.Events, EventTurnStarted).Deadline)
	}
	for _, e := range out.Events {
		if e.Type != domain.EventGameOver || !next.Draw {
			require.NotEmpty(t, e.Player, "event %s names its player", e.Type)
		}
		_, err := json.Marshal(e)
		require.NoError(t, err)
	}
}

func nonEmpty(id string) []string {
	if id == "" {
		return nil
	}
	return []string{id}
}

func TestRandomMatchesEveryMode(t *testing.T) {
	games := 150
	if testing.Short() {
		games = 30
	}
	for _, mode := range append(BuiltinModes(),
		Mode{ID: "short-zero", Name: "Short Zero", RuleSet: RuleSetZeroHour, StartingScore: 20},
		Mode{ID: "tight-line", Name: "Tight Line", RuleSet: RuleSetLastLine, StartingScore: 5},
		Mode{ID: "grit-start", Name: "Grit Start", RuleSet: RuleSetTrueGrit, StartingScore: 10},
	) {
		t.Run(mode.ID, func(t *testing.T) {
			reasons := map[string]int{}
			steps := 0
			for i := 0; i < games; i++ {
				m, n := randomGame(t, mode, fmt.Sprintf("%s-%d", mode.ID, i), true)
				reasons[m.EndReason]++
				steps += n
			}
			t.Logf("%d games, %.1f steps each, endings %v", games, float64(steps)/float64(games), reasons)
			if mode.RuleSet == RuleSetTrueGrit {
				require.Positive(t, reasons[ReasonScore], "some true grit games end by score")
			} else {
				require.Positive(t, reasons[ReasonTarget], "some games end by reaching the goal")
			}
		})
	}
}

// TestRandomRematches plays a game, its rematch, and so on.
func TestRandomRematches(t *testing.T) {
	m, _ := randomGame(t, modeByID(t, "last-line"), "rematch-0", true)
	for i := 0; i < 5 && !m.Cancelled(); i++ {
		m, _ = act(t, m, bob, ActionRematch, `{}`, m.EndedAt)
		var out domain.Outcome
		m, out = act(t, m, alice, ActionRematch, `{}`, m.EndedAt)
		require.Len(t, out.Spawn, 1)
		next := out.Spawn[0].State.(Match)
		require.Equal(t, m.RematchID, next.ID)
		require.Equal(t, m.ID, next.RematchOf)
		checkInvariants(t, next)
		m = next
		seq := int64(0)
		for m.Phase != PhaseGameOver {
			seq++
			a := randomAction(rand.New(rand.NewPCG(uint64(i), uint64(seq))), m)
			var err error
			m, _, err = Rules{}.Apply(m, a, domain.Env{Now: m.CreatedAt, Dice: domain.NewSeededDice(m.ID, seq)})
			require.NoError(t, err)
			checkInvariants(t, m)
		}
	}
}

// cycleDice rolls a fixed sequence over and over, without allocating.
type cycleDice struct {
	values []int
	i      int
}

func (d *cycleDice) Roll(int) int {
	v := d.values[d.i%len(d.values)]
	d.i++
	return v
}

func BenchmarkRoll(b *testing.B) {
	roll := oneRoll(b) // TestRollAllocations holds its allocations
	b.ReportAllocs()
	for b.Loop() {
		if err := roll(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkGame(b *testing.B) {
	for _, id := range []string{"classic", "zero-hour", "last-line", "true-grit"} {
		b.Run(id, func(b *testing.B) {
			mode := modeByID(b, id)
			b.ReportAllocs()
			steps, i := 0, 0
			for b.Loop() {
				_, n := randomGame(b, mode, fmt.Sprintf("bench-%d", i), false)
				steps += n
				i++
			}
			b.ReportMetric(float64(steps)/float64(i), "steps/game")
		})
	}
}
