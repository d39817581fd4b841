package dashdice

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/rulestest"
)

var (
	t0    = time.Date(2026, 3, 14, 15, 9, 26, 0, time.UTC)
	alice = domain.Actor{ID: "alice", Name: "Alice", Role: domain.RoleGuest}
	bob   = domain.Actor{ID: "bob", Name: "Bob", Role: domain.RolePlayer}
	carol = domain.Actor{ID: "carol", Name: "Carol", Role: domain.RoleGuest}
)

// modeByID returns the built-in mode id.
func modeByID(t testing.TB, id string) Mode {
	t.Helper()
	for _, m := range BuiltinModes() {
		if m.ID == id {
			return m
		}
	}
	t.Fatalf("no built-in mode %q", id)
	return Mode{}
}

// waiting returns a new match of mode id hosted by alice, with the default timer.
func waiting(t testing.TB, id string) Match {
	t.Helper()
	m, err := NewMatch("m1", alice, modeByID(t, id), Options{}, t0)
	require.NoError(t, err)
	return m
}

// joined returns a match of mode id where bob has joined.
func joined(t testing.TB, id string) Match {
	t.Helper()
	m, _ := act(t, waiting(t, id), bob, ActionJoin, `{}`, t0)
	return m
}

// playing returns a match of mode id in gameplay with first to move, turn 1,
// started at t0.
func playing(t testing.TB, id string, first Seat) Match {
	t.Helper()
	die := 4 // bob calls odd: wrong, so alice (host) starts
	if first == SeatOpponent {
		die = 3
	}
	m, _ := act(t, joined(t, id), bob, ActionCall, `{"call":"odd"}`, t0, die)
	require.Equal(t, first, m.CurrentTurn)
	return m
}

// payload builds a whole request body the way clients send it.
func payload(typ, extra string) string {
	body := `{"gameId":"m1","actionId":"a-1","type":"` + typ + `"`
	if extra != "" {
		body += "," + extra
	}
	return body + "}"
}

// act applies an action that must succeed, rolling exactly dice, and checks
// the input was not changed.
func act(t testing.TB, m Match, who domain.Actor, typ, body string, now time.Time, dice ...int) (Match, domain.Outcome) {
	t.Helper()
	before := rulestest.JSON(t, m)
	d := domain.Script(dice...)
	got, out, err := Rules{}.Apply(m, domain.Action{ID: "a-1", Type: typ, Actor: who, Payload: json.RawMessage(body)},
		domain.Env{Now: now, Dice: d})
	require.NoError(t, err, "%s by %s", typ, who.ID)
	require.Zero(t, d.Remaining(), "%s rolled fewer dice than scripted", typ)
	require.Equal(t, before, rulestest.JSON(t, m), "Apply changed its input")
	checkInvariants(t, got)
	return got, out
}

// actErr applies an action that must fail with code and checks nothing changed.
func actErr(t testing.TB, m Match, who domain.Actor, typ, body, code string, dice ...int) error {
	t.Helper()
	before := rulestest.JSON(t, m)
	got, out, err := Rules{}.Apply(m, domain.Action{ID: "a-1", Type: typ, Actor: who, Payload: json.RawMessage(body)},
		domain.Env{Now: t0, Dice: domain.Script(dice...)})
	require.Error(t, err, "%s by %s: want error %s", typ, who.ID, code)
	require.Equal(t, code, domain.ErrorCode(err), "%s by %s: got %v", typ, who.ID, err)
	require.NotEmpty(t, domain.ErrorMessage(err))
	require.Equal(t, before, rulestest.JSON(t, m), "Apply changed its input")
	require.Equal(t, before, rulestest.JSON(t, got), "Apply returned a changed state with an error")
	require.Empty(t, out.Events)
	return err
}

// expire runs Expire as of the current deadline (plus late).
func expire(t testing.TB, m Match, late time.Duration) (Match, domain.Outcome) {
	t.Helper()
	before := rulestest.JSON(t, m)
	d := Rules{}.Header(m).Deadline
	require.False(t, d.IsZero(), "no deadline to expire")
	got, out, err := Rules{}.Expire(m, domain.Env{Now: d.Add(late), Dice: domain.Script()})
	require.NoError(t, err)
	require.Equal(t, before, rulestest.JSON(t, m), "Expire changed its input")
	checkInvariants(t, got)
	return got, out
}

// checkInvariants checks what must hold of every reachable state.
func checkInvariants(t testing.TB, m Match) {
	t.Helper()
	rulestest.RoundTrip(t, m)

	h := Rules{}.Header(m)
	require.Equal(t, m.Host.ID, h.Players[0])
	if m.Opponent != nil {
		require.Len(t, h.Players, 2)
		require.NotEqual(t, m.Host.ID, m.Opponent.ID)
	} else {
		require.Len(t, h.Players, 1)
	}
	require.GreaterOrEqual(t, m.TurnScore, 0)
	require.GreaterOrEqual(t, m.Multiplier, 1)
	maxMult := 2
	if m.Mode.RuleSet == RuleSetTrueGrit {
		maxMult = 7
	}
	require.LessOrEqual(t, m.Multiplier, maxMult)

	switch m.Phase {
	case PhaseWaiting:
		require.Equal(t, domain.StatusWaiting, h.Status)
		require.Nil(t, m.Opponent)
		require.False(t, m.JoinDeadline.IsZero())
		require.Equal(t, m.JoinDeadline, h.Deadline)
	case PhaseTurnDecider, PhaseGameplay:
		require.Equal(t, domain.StatusActive, h.Status)
		require.NotNil(t, m.Opponent)
		require.Equal(t, m.TurnSeconds > 0, !m.TurnDeadline.IsZero(), "a deadline exactly when there is a timer")
		require.Equal(t, m.TurnDeadline, h.Deadline)
		require.True(t, m.JoinDeadline.IsZero())
		require.Empty(t, m.Winner)
	case PhaseGameOver:
		require.Equal(t, domain.StatusOver, h.Status)
		require.True(t, h.Deadline.IsZero())
		require.True(t, m.TurnDeadline.IsZero())
		require.NotEmpty(t, m.EndReason)
		require.False(t, m.EndedAt.IsZero())
		switch {
		case m.EndReason == ReasonCancelled:
			require.Empty(t, m.Winner)
			require.False(t, m.Draw)
		case m.Draw:
			require.Empty(t, m.Winner)
			require.Equal(t, RuleSetTrueGrit, m.Mode.RuleSet)
		default:
			require.NotEmpty(t, m.Winner)
			require.NotEqual(t, m.Winner, m.Loser)
			require.NotEmpty(t, m.SeatOf(m.Winner))
			require.NotEmpty(t, m.SeatOf(m.Loser))
		}
	default:
		t.Fatalf("unknown phase %q", m.Phase)
	}
	if m.Phase == PhaseGameplay {
		require.Contains(t, []Seat{SeatHost, SeatOpponent}, m.CurrentTurn, "exactly one current player")
		require.Equal(t, m.player(m.CurrentTurn).ID, m.CurrentPlayerID)
		require.GreaterOrEqual(t, m.Turn, 1)
	} else {
		require.Empty(t, m.CurrentTurn)
		require.Empty(t, m.CurrentPlayerID)
	}

	scores := []int{m.Host.Score}
	if m.Opponent != nil {
		scores = append(scores, m.Opponent.Score)
	}
	for _, s := range scores {
		require.GreaterOrEqual(t, s, 0, "scores are never negative")
	}
	over := m.Phase == PhaseGameOver
	switch m.Mode.RuleSet {
	case RuleSetClassic:
		if !over {
			for _, s := range scores {
				require.Less(t, s, m.Mode.TargetScore, "nobody is at the target while the match runs")
			}
		}
	case RuleSetZeroHour:
		if !over {
			for _, s := range scores {
				require.Positive(t, s, "nobody is at 0 while the match runs")
			}
		}
	case RuleSetLastLine:
		if m.Opponent != nil {
			require.Equal(t, 2*m.Mode.StartingScore, m.Host.Score+m.Opponent.Score, "last line scores keep their sum")
		}
		if !over {
			for _, s := range scores {
				require.Positive(t, s)
			}
		}
	case RuleSetTrueGrit:
		require.LessOrEqual(t, m.Turn, 2, "true grit has one turn each")
	}
}
