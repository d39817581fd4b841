package codebowl

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/rulestest"
)

// endTurn ends the turn of whoever is on it.
func endTurn(t testing.TB, m Match) (Match, domain.Outcome) {
	t.Helper()
	return act(t, m, coach(m.Active), ActionEndTurn, `{}`, t0)
}

// placeBoth places the defense then the offense in the line formation,
// kicking the ball off with d110 = kick.
func placeBoth(t testing.TB, m Match, kick int) Match {
	t.Helper()
	require.Equal(t, PhaseSetup, m.Phase)
	def := m.Placing
	m, _ = act(t, m, coach(def), ActionPlace, placeBody(defaultPlacement(m, def)), t0)
	m, _ = act(t, m, coach(def.Other()), ActionPlace, placeBody(defaultPlacement(m, def.Other())), t0, kick)
	return m
}

func TestTurnsAndHalftime(t *testing.T) {
	m := kickedOff(t, Options{TurnsPerHalf: 2}) // home received (coin 1)
	seen := []Side{m.Active}
	var out domain.Outcome
	for i := 0; i < 3; i++ {
		m, out = endTurn(t, m)
		require.Equal(t, TurnEndedData{Side: seen[len(seen)-1], Half: 1, Turn: (i + 2) / 2, Reason: EndEndTurn},
			rulestest.Data[TurnEndedData](t, out.Events, EventTurnEnded))
		seen = append(seen, m.Active)
	}
	require.Equal(t, []Side{Home, Away, Home, Away}, seen)
	require.Equal(t, 2, m.Turn)
	require.Equal(t, 4, m.HalfTurns)

	m, out = endTurn(t, m) // away's second turn: the half is over
	require.Equal(t, []string{EventTurnEnded, EventHalftime, EventSetupStarted}, rulestest.Types(out.Events))
	require.Equal(t, HalftimeData{Home: 0, Away: 0, Offense: Away}, rulestest.Data[HalftimeData](t, out.Events, EventHalftime))
	require.Equal(t, 2, m.Half)
	require.Equal(t, PhaseSetup, m.Phase)
	require.Equal(t, Away, m.Offense, "the side that kicked first receives now")
	require.Equal(t, Home, m.Placing)
	require.Equal(t, 0, m.HalfTurns)
	for _, p := range m.Home.Players {
		require.Equal(t, StateReserve, p.State, "everyone leaves the pitch for the new kick-off")
	}

	m = placeBoth(t, m, 1) // d110 = 1 on away's half: (10,0)
	require.Equal(t, Away, m.Active, "the offense starts the half")
	require.Equal(t, Ball{State: BallLoose, Pos: Square{10, 0}}, m.Ball)
	for i := 0; i < 3; i++ {
		m, _ = endTurn(t, m)
	}
	m, out = endTurn(t, m)
	require.Equal(t, PhaseOver, m.Phase)
	require.True(t, m.Draw)
	require.Equal(t, ReasonPoints, m.EndReason)
	g := rulestest.GameOver(t, out.Events)
	require.Equal(t, domain.GameOver{Kind: Kind, Draw: true, Players: []string{"ann", "ben"}, Reason: ReasonPoints}, *g)
	require.Equal(t, &Summary{Home: SideSummary{Turns: 4}, Away: SideSummary{Turns: 4}, Turns: 8}, m.Summary)
	require.Empty(t, Rules{}.Legal(m, ann))
	actErr(t, m, ann, ActionEndTurn, `{}`, domain.ECONFLICT)
	actErr(t, m, ann, ActionForfeit, `{}`, domain.ECONFLICT)
	_, _, err := Rules{}.Expire(m, domain.Env{Now: t0.Add(time.Hour)})
	require.Equal(t, domain.ECONFLICT, domain.ErrorCode(err))
}

func TestSixTurnHalves(t *testing.T) {
	m := kickedOff(t, Options{TurnsPerHalf: 6})
	for i := 0; i < 11; i++ {
		m, _ = endTurn(t, m)
		require.Equal(t, 1, m.Half)
	}
	m, _ = endTurn(t, m)
	require.Equal(t, 2, m.Half)
	require.Equal(t, 6, m.Home.Turns)
	require.Equal(t, 6, m.Away.Turns)
}

func TestWinByPoints(t *testing.T) {
	// Second half, away's last turn: away scores to lead 2–1 and the match ends.
	m := carriedBy(scene(t, h(0, 0), a(1, 5)), "a1")
	m.Options.TurnsPerHalf = 1
	m.Half, m.HalfStarter, m.HalfTurns, m.Turn, m.Active = 2, Home, 2, 1, Away
	m.Home.Score, m.Away.Score = 1, 1
	got, out := move(t, m, "a1", "0,5")
	require.Equal(t, []string{EventMoved, EventScored, EventTurnover, EventTurnEnded, domain.EventGameOver}, rulestest.Types(out.Events))
	require.Equal(t, PhaseOver, got.Phase)
	require.Equal(t, ReasonPoints, got.EndReason)
	require.Equal(t, "ben", got.Winner)
	require.Equal(t, Away, got.WinnerSide)
	require.Equal(t, domain.GameOver{Kind: Kind, Winners: []string{"ben"}, Losers: []string{"ann"}, Players: []string{"ann", "ben"}, Reason: ReasonPoints},
		*rulestest.GameOver(t, out.Events))
	require.Equal(t, "ben", out.Events[len(out.Events)-1].Player, "the gameOver event names the winner")
	require.Equal(t, SideSummary{Score: 2}, got.Summary.Away)
}

func TestScoreOnTheLastTurnOfTheFirstHalf(t *testing.T) {
	m := carriedBy(scene(t, h(18, 5), a(10, 0)), "h1")
	m.Options.TurnsPerHalf = 1
	m.HalfStarter, m.HalfTurns, m.Active = Away, 2, Home // home plays the half's second, last turn
	got, out := move(t, m, "h1", "19,5")
	require.Equal(t, []string{EventMoved, EventScored, EventTurnover, EventTurnEnded, EventHalftime, EventSetupStarted}, rulestest.Types(out.Events))
	require.Equal(t, 2, got.Half)
	require.Equal(t, Away, got.Offense, "halftime decides who receives: the side that did not receive first")
	require.Equal(t, 1, got.Home.Score)
}

func TestEliminationWins(t *testing.T) {
	m := scene(t, h(5, 5), a(6, 5))
	got, out := move(t, m, "h1", "6,5", 1, 1)
	require.Equal(t, []string{EventAttacked, EventPushed, EventFollowedUp, EventKnockedDown, EventInjuryRoll, EventPlayerKilled, domain.EventGameOver}, rulestest.Types(out.Events))
	require.Equal(t, PhaseOver, got.Phase)
	require.Equal(t, ReasonElimination, got.EndReason)
	require.Equal(t, "ann", got.Winner)
	require.Equal(t, SideSummary{Turns: 0, Injuries: 1, Dead: []string{"a1"}}, got.Summary.Away)
	require.Equal(t, MoveResult{Attack: AttackKnockdown, GameOver: true}, out.Result)

	t.Run("the attacker kills himself", func(t *testing.T) {
		got, _ := move(t, m, "h1", "6,5", 76, 1)
		require.Equal(t, "ben", got.Winner)
		require.Equal(t, ReasonElimination, got.EndReason)
	})
	t.Run("tripping the last player", func(t *testing.T) {
		m := scene(t, h(5, 5), a(6, 5))
		got, _ := move(t, m, "h1", "4,5", 61, 1)
		require.Equal(t, "ben", got.Winner)
	})
	t.Run("even while scoring", func(t *testing.T) {
		m := carriedBy(scene(t, h(18, 5), a(19, 5)), "h1")
		got, out := move(t, m, "h1", "19,5", 1)
		require.Equal(t, ReasonElimination, got.EndReason)
		require.Equal(t, 1, got.Home.Score, "the point still counts")
		require.Contains(t, rulestest.Types(out.Events), EventScored)
	})
}

func TestPlayTimeouts(t *testing.T) {
	m := kickedOff(t, Options{})
	m, out := expire(t, m, 3*time.Minute) // a late tick: as of the deadline
	require.Equal(t, []string{EventTimedOut, EventTurnEnded, EventTurnStarted}, rulestest.Types(out.Events))
	require.Equal(t, TurnEndedData{Side: Home, Half: 1, Turn: 1, Reason: EndTimeout}, rulestest.Data[TurnEndedData](t, out.Events, EventTurnEnded))
	require.Equal(t, Away, m.Active)
	require.Equal(t, 1, m.Home.Timeouts)
	require.Equal(t, t0.Add(2*DefaultTurnSeconds*time.Second), m.Deadline)

	m, _ = endTurn(t, m) // away acts: its count stays 0
	m, _ = move(t, m, "reds.1", "7,5 6,5")
	require.Zero(t, m.Home.Timeouts, "any action resets the count")
	m, _ = expire(t, m, 0) // home: 1
	m, _ = expire(t, m, 0) // away: 1
	m, _ = expire(t, m, 0) // home: 2
	m, _ = expire(t, m, 0) // away: 2
	require.Equal(t, 2, m.Home.Timeouts)
	require.Equal(t, 2, m.Away.Timeouts)
	m, out = expire(t, m, 0) // home: the third in a row
	require.Equal(t, PhaseOver, m.Phase)
	require.Equal(t, ReasonAbandoned, m.EndReason)
	require.Equal(t, "ann", m.Loser)
	require.Equal(t, []string{EventTimedOut, EventForfeited, domain.EventGameOver}, rulestest.Types(out.Events))
	require.Equal(t, m.Loser, out.Events[0].Player)

	t.Run("too early", func(t *testing.T) {
		m := kickedOff(t, Options{})
		_, _, err := Rules{}.Expire(m, domain.Env{Now: m.Deadline.Add(-time.Second)})
		require.Equal(t, domain.ECONFLICT, domain.ErrorCode(err))
	})
	t.Run("no timer", func(t *testing.T) {
		m := kickedOff(t, Options{TurnSeconds: NoTimer})
		require.True(t, Rules{}.Header(m).Deadline.IsZero())
		_, _, err := Rules{}.Expire(m, domain.Env{Now: t0.Add(time.Hour)})
		require.Equal(t, domain.ECONFLICT, domain.ErrorCode(err))
	})
}

func TestForfeit(t *testing.T) {
	for _, who := range []domain.Actor{ann, ben} {
		t.Run(who.ID, func(t *testing.T) {
			for name, m := range map[string]Match{"setup": joined(t, Options{}, 1), "play": kickedOff(t, Options{})} {
				got, out := act(t, m, who, ActionForfeit, `{}`, t0)
				require.Equal(t, PhaseOver, got.Phase, name)
				require.Equal(t, ReasonForfeit, got.EndReason)
				require.Equal(t, who.ID, got.Loser)
				require.Equal(t, []string{EventForfeited, domain.EventGameOver}, rulestest.Types(out.Events))
				require.Equal(t, ForfeitResult{Winner: got.Winner}, out.Result)
			}
		})
	}
	actErr(t, kickedOff(t, Options{}), eve, ActionForfeit, `{}`, domain.EFORBIDDEN)
	actErr(t, kickedOff(t, Options{}), ann, ActionForfeit, `[]`, domain.EINVALID)
}

func TestEndTurnRefusals(t *testing.T) {
	m := kickedOff(t, Options{})
	actErr(t, m, ben, ActionEndTurn, `{}`, domain.ECONFLICT)
	actErr(t, m, eve, ActionEndTurn, `{}`, domain.EFORBIDDEN)
	actErr(t, m, ann, ActionEndTurn, `"x"`, domain.EINVALID)
	actErr(t, m, ann, "join", `{}`, domain.EINVALID)
	actErr(t, m, ann, ActionPlace, placeBody(defaultPlacement(m, Home)), domain.ECONFLICT)
	got, out := endTurn(t, m)
	require.Equal(t, EndTurnResult{Phase: PhasePlay}, out.Result)
	require.Equal(t, Away, got.Active)
}

func TestLegalInPlay(t *testing.T) {
	m := withBall(scene(t, h(5, 5).stats(4, 4, 2), h(2, 2).fallen().stats(3, 3, 6), h(0, 10).stats(5, 6, 1), a(7, 5), a(15, 5)), 4, 4)
	m.Home.Players[2].Acted = true
	moves := Rules{}.Legal(m, ann)
	require.Empty(t, Rules{}.Legal(m, ben), "not away's turn")
	byPlayer := map[string][]domain.Move{}
	for _, mv := range moves {
		id, _ := mv.Payload["player"].(string)
		byPlayer[id] = append(byPlayer[id], mv)
	}
	require.Equal(t, []domain.Move{{Type: ActionEndTurn}}, byPlayer[""])
	require.Empty(t, byPlayer["h3"], "h3 acted")
	// h1, MV 2: every square within 2 king's moves but a1's (7,5): 24 − 1,
	// plus one attack on a1, from a square next to him.
	var attacks int
	for _, mv := range byPlayer["h1"] {
		ps := mv.Payload["path"].([]Square)
		require.LessOrEqual(t, len(ps), 2)
		if ps[len(ps)-1] == (Square{7, 5}) {
			attacks++
			require.Len(t, ps, 2)
		}
	}
	require.Equal(t, 1, attacks)
	require.Len(t, byPlayer["h1"], 23+1)
	// h2 is down: a standUp, then MV 6 − 3 = 3 steps; no attack. Within 3 of
	// (2,2) the pitch holds 6 × 6 squares: less his own and h1's (5,5).
	require.Equal(t, domain.Move{Type: ActionStandUp, Payload: map[string]any{"player": "h2"}}, byPlayer["h2"][0])
	require.Len(t, byPlayer["h2"], 1+(6*6-2))
	for _, mv := range moves {
		b, err := json.Marshal(mv.Payload)
		require.NoError(t, err)
		if mv.Payload == nil {
			b = []byte(`{}`)
		}
		_, _, err = Rules{}.Apply(m, domain.Action{Type: mv.Type, Actor: ann, Payload: b}, domain.Env{Now: t0, Dice: domain.NewSeededDice("legal", 1)})
		require.NoError(t, err, "%s %s", mv.Type, b)
	}
}
