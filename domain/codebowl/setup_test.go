package codebowl

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/rulestest"
)

func TestNewMatch(t *testing.T) {
	m := waiting(t, Options{})
	require.Equal(t, PhaseWaiting, m.Phase)
	require.Equal(t, Options{TurnSeconds: DefaultTurnSeconds, TurnsPerHalf: DefaultTurnsPerHalf}, m.Options)
	require.Equal(t, t0.Add(JoinWindow), m.JoinDeadline)
	require.Len(t, m.Home.Players, TeamSize)
	require.Equal(t, "reds", m.Home.TeamID)
	require.Equal(t, domain.Header{Status: domain.StatusWaiting, Players: []string{"ann"}, Deadline: t0.Add(JoinWindow)}, Rules{}.Header(m))

	short := waiting(t, Options{TurnSeconds: NoTimer, TurnsPerHalf: 6, Armor: true})
	require.Equal(t, Options{TurnSeconds: 0, TurnsPerHalf: 6, Armor: true}, short.Options)

	reds := team(t, "reds", ann)
	for _, c := range []struct {
		name, id string
		coach    domain.Actor
		team     func() Team
		opts     Options
		code     string
	}{
		{"no id", "", ann, func() Team { return reds }, Options{}, domain.EINVALID},
		{"timer too short", "m1", ann, func() Team { return reds }, Options{TurnSeconds: 5}, domain.EINVALID},
		{"timer too long", "m1", ann, func() Team { return reds }, Options{TurnSeconds: 601}, domain.EINVALID},
		{"17 turns", "m1", ann, func() Team { return reds }, Options{TurnsPerHalf: 17}, domain.EINVALID},
		{"negative turns", "m1", ann, func() Team { return reds }, Options{TurnsPerHalf: -1}, domain.EINVALID},
		{"someone else's team", "m1", ben, func() Team { return reds }, Options{}, domain.EFORBIDDEN},
		{"invalid team", "m1", ann, func() Team { r := reds; r.Players[0].ST = 9; return r }, Options{}, domain.EINVALID},
		{"team in another match", "m1", ann, func() Team { r, _ := LockTeam(reds, "m0"); return r }, Options{}, domain.ECONFLICT},
		{"all dead", "m1", ann, func() Team {
			r := reds
			for i := range r.Players {
				r.Players[i].Dead = true
			}
			return r
		}, Options{}, domain.ECONFLICT},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := NewMatch(c.id, c.coach, c.team(), c.opts, t0)
			require.Equal(t, c.code, domain.ErrorCode(err), "got %v", err)
		})
	}
	locked, _ := LockTeam(reds, "m1")
	_, err := NewMatch("m1", ann, locked, Options{}, t0)
	require.NoError(t, err, "a team locked for this very match may enter it")
}

func TestNewMatchSkipsDeadPlayers(t *testing.T) {
	reds, _ := RemoveDead(team(t, "reds", ann), []string{"reds.2", "reds.6"})
	m, err := NewMatch("m1", ann, reds, Options{}, t0)
	require.NoError(t, err)
	require.Len(t, m.Home.Players, 5)
	for _, p := range m.Home.Players {
		require.NotContains(t, []string{"reds.2", "reds.6"}, p.ID)
		require.Equal(t, StateReserve, p.State)
	}
}

func TestJoin(t *testing.T) {
	for _, c := range []struct {
		coin    int
		offense Side
	}{{1, Home}, {2, Away}} {
		t.Run(string(c.offense), func(t *testing.T) {
			m := waiting(t, Options{})
			got, out, err := Join(m, ben, team(t, "blues", ben), domain.Env{Now: t0.Add(time.Minute), Dice: domain.Script(c.coin)})
			require.NoError(t, err)
			checkInvariants(t, got)
			require.Equal(t, PhaseWaiting, m.Phase, "the input is unchanged")
			require.Equal(t, PhaseSetup, got.Phase)
			require.Equal(t, c.offense, got.FirstOffense)
			require.Equal(t, c.offense, got.Offense)
			require.Equal(t, c.offense.Other(), got.Placing, "the defense places first")
			require.Equal(t, 1, got.Half)
			require.Equal(t, 1, got.Drive)
			require.Equal(t, t0.Add(time.Minute+DefaultTurnSeconds*time.Second), got.Deadline)
			require.True(t, got.JoinDeadline.IsZero())
			require.Equal(t, []string{EventJoined, EventCoinFlipped, EventSetupStarted}, rulestest.Types(out.Events))
			require.Equal(t, CoinFlippedData{Die: c.coin, Offense: c.offense}, rulestest.Data[CoinFlippedData](t, out.Events, EventCoinFlipped))
			require.Equal(t, JoinResult{Side: Away, FirstOffense: c.offense}, out.Result)
			require.Equal(t, []string{"ann", "ben"}, Rules{}.Header(got).Players)
		})
	}
	m := waiting(t, Options{})
	blues := team(t, "blues", ben)
	for _, c := range []struct {
		name  string
		m     Match
		coach domain.Actor
		team  Team
		code  string
	}{
		{"own match", m, ann, team(t, "greens", ann), domain.ECONFLICT},
		{"full", joined(t, Options{}, 1), eve, team(t, "greens", eve), domain.ECONFLICT},
		{"someone else's team", m, eve, blues, domain.EFORBIDDEN},
		{"same player ids", m, ben, func() Team { b, _ := NewTeam("reds", "ben", spec("Copy")); return b }(), domain.EINVALID},
		{"team busy", m, ben, func() Team { b, _ := LockTeam(blues, "m9"); return b }(), domain.ECONFLICT},
		{"no coach id", m, domain.Actor{}, blues, domain.EINVALID},
	} {
		t.Run(c.name, func(t *testing.T) {
			before := rulestest.JSON(t, c.m)
			got, out, err := Join(c.m, c.coach, c.team, domain.Env{Now: t0, Dice: domain.Script()})
			require.Equal(t, c.code, domain.ErrorCode(err), "got %v", err)
			require.Equal(t, before, rulestest.JSON(t, got))
			require.Empty(t, out.Events)
		})
	}
	over, _ := act(t, m, ann, ActionForfeit, `{}`, t0)
	_, _, err := Join(over, ben, blues, domain.Env{Now: t0, Dice: domain.Script()})
	require.Equal(t, domain.ECONFLICT, domain.ErrorCode(err))
}

func TestWaitingEnds(t *testing.T) {
	t.Run("nobody joins", func(t *testing.T) {
		m, out := expire(t, waiting(t, Options{}), time.Hour)
		require.Equal(t, PhaseOver, m.Phase)
		require.True(t, m.Cancelled())
		require.Equal(t, t0.Add(JoinWindow), m.EndedAt, "as of the deadline")
		require.Equal(t, []string{EventCancelled}, rulestest.Types(out.Events))
		require.Nil(t, rulestest.GameOver(t, out.Events), "no result")
	})
	t.Run("the home coach leaves", func(t *testing.T) {
		m, out := act(t, waiting(t, Options{}), ann, ActionForfeit, `{}`, t0)
		require.True(t, m.Cancelled())
		require.Equal(t, CancelledData{Reason: "homeLeft"}, rulestest.Data[CancelledData](t, out.Events, EventCancelled))
		require.Equal(t, ForfeitResult{Cancelled: true}, out.Result)
	})
	t.Run("too early", func(t *testing.T) {
		m := waiting(t, Options{})
		_, _, err := Rules{}.Expire(m, domain.Env{Now: t0.Add(time.Minute), Dice: domain.Script()})
		require.Equal(t, domain.ECONFLICT, domain.ErrorCode(err))
	})
	t.Run("actions while waiting", func(t *testing.T) {
		m := waiting(t, Options{})
		actErr(t, m, ann, ActionEndTurn, `{}`, domain.ECONFLICT)
		actErr(t, m, ann, ActionPlace, placeBody(defaultPlacement(m, Home)), domain.ECONFLICT)
		actErr(t, m, ben, ActionForfeit, `{}`, domain.EFORBIDDEN)
		require.Empty(t, Rules{}.Legal(m, ann))
	})
}

func TestPlacement(t *testing.T) {
	m := joined(t, Options{}, 1) // home receives: away places first
	good := defaultPlacement(m, Away)
	with := func(edit func([]Placement) []Placement) string {
		ps := append([]Placement(nil), good...)
		return placeBody(edit(ps))
	}
	for _, c := range []struct {
		name, body string
		who        domain.Actor
		code       string
	}{
		{"the offense first", placeBody(defaultPlacement(m, Home)), ann, domain.ECONFLICT},
		{"not seated", placeBody(good), eve, domain.EFORBIDDEN},
		{"malformed", `{"positions": 3}`, ben, domain.EINVALID},
		{"not an object", `[1]`, ben, domain.EINVALID},
		{"six players", with(func(ps []Placement) []Placement { return ps[:6] }), ben, domain.EINVALID},
		{"nobody", `{}`, ben, domain.EINVALID},
		{"one twice", with(func(ps []Placement) []Placement { ps[1].Player = ps[0].Player; return ps }), ben, domain.EINVALID},
		{"an opponent", with(func(ps []Placement) []Placement { ps[0].Player = "reds.1"; return ps }), ben, domain.EINVALID},
		{"unknown", with(func(ps []Placement) []Placement { ps[0].Player = "x"; return ps }), ben, domain.EINVALID},
		{"no id", with(func(ps []Placement) []Placement { ps[0].Player = ""; return ps }), ben, domain.EINVALID},
		{"other half", with(func(ps []Placement) []Placement { ps[0].X = 9; return ps }), ben, domain.EINVALID},
		{"off the pitch", with(func(ps []Placement) []Placement { ps[0].X = 20; return ps }), ben, domain.EINVALID},
		{"below the pitch", with(func(ps []Placement) []Placement { ps[0].Y = 11; return ps }), ben, domain.EINVALID},
		{"two on one square", with(func(ps []Placement) []Placement { ps[1].X, ps[1].Y = ps[0].X, ps[0].Y; return ps }), ben, domain.EINVALID},
		{"moving instead", moveBody("blues.1", "11,5"), ben, domain.ECONFLICT},
	} {
		t.Run(c.name, func(t *testing.T) {
			typ := ActionPlace
			if c.name == "moving instead" {
				typ = ActionMove
			}
			actErr(t, m, c.who, typ, c.body, c.code)
		})
	}

	// The defense places; the offense sees it and places; the ball is kicked.
	m, out := act(t, m, ben, ActionPlace, placeBody(good), t0.Add(10*time.Second))
	require.Equal(t, PhaseSetup, m.Phase)
	require.Equal(t, Home, m.Placing)
	require.Equal(t, t0.Add(10*time.Second+DefaultTurnSeconds*time.Second), m.Deadline, "the offense's own placement time")
	require.Equal(t, []string{EventPlaced}, rulestest.Types(out.Events))
	require.Equal(t, PlaceResult{Phase: PhaseSetup}, out.Result)
	q, st := pos(t, m, "blues.1")
	require.Equal(t, Square{column(Away, 1), 5}, q)
	require.Equal(t, StateStanding, st)
	actErr(t, m, ben, ActionPlace, placeBody(good), domain.ECONFLICT)

	m, out = act(t, m, ann, ActionPlace, placeBody(defaultPlacement(m, Home)), t0.Add(20*time.Second), 110) // d110 = 110: (9,10)
	require.Equal(t, PhasePlay, m.Phase)
	require.Equal(t, []string{EventPlaced, EventKickoff, EventBallRests, EventTurnStarted}, rulestest.Types(out.Events))
	require.Equal(t, KickoffData{Offense: Home, Die: 110, To: Square{9, 10}}, rulestest.Data[KickoffData](t, out.Events, EventKickoff))
	require.Equal(t, Ball{State: BallLoose, Pos: Square{9, 10}}, m.Ball)
	require.Equal(t, Home, m.Active, "the offense starts")
	require.Equal(t, 1, m.Turn)
	require.Equal(t, 1, m.HalfTurns)
	require.Equal(t, 1, m.Home.Turns)
	require.Equal(t, t0.Add(20*time.Second+DefaultTurnSeconds*time.Second), m.Deadline)
}

func TestKickoffCatchChain(t *testing.T) {
	m := joined(t, Options{}, 1)
	m, _ = act(t, m, ben, ActionPlace, placeBody(defaultPlacement(m, Away)), t0)
	// Home in a tight block: (8,4) (8,5) (7,5).
	ps := []Placement{{"reds.1", 8, 4}, {"reds.2", 8, 5}, {"reds.3", 7, 5}, {"reds.4", 0, 0}, {"reds.5", 0, 2}, {"reds.6", 0, 4}, {"reds.7", 0, 6}}
	// d110 = 49 → (8,4): reds.1 fails (AG 4, no enemy near: 70 %, rolls 71);
	// scatter d8 = 5 (south) → (8,5): reds.2 fails (95); scatter 7 (west) →
	// (7,5): reds.3 catches (70).
	m, out := act(t, m, ann, ActionPlace, placeBody(ps), t0, 49, 71, 5, 95, 7, 70)
	require.Equal(t, []string{EventPlaced, EventKickoff, EventCatchFailed, EventScattered, EventCatchFailed, EventScattered, EventCaught, EventTurnStarted}, rulestest.Types(out.Events))
	require.Equal(t, Ball{State: BallCarried, Pos: Square{7, 5}, Carrier: "reds.3"}, m.Ball)
	fails := rulestest.All[BallRollData](t, out.Events, EventCatchFailed)
	require.Equal(t, BallRollData{Side: Home, Player: "reds.1", At: Square{8, 4}, AG: 4, Chance: 70, Roll: 71}, fails[0])
	require.Equal(t, Home, m.Active, "a failed catch at the kick-off is no turnover")
}

func TestSetupTimeouts(t *testing.T) {
	m := joined(t, Options{}, 2) // away receives: home places first
	m, out := expire(t, m, 5*time.Second)
	require.Equal(t, []string{EventTimedOut, EventPlaced}, rulestest.Types(out.Events))
	require.Equal(t, "ann", out.Events[0].Player, "the coach whose time ran out")
	placed := rulestest.Data[PlacedData](t, out.Events, EventPlaced)
	require.True(t, placed.Auto)
	require.Equal(t, defaultPlacement(m, Home), placed.Positions)
	require.Equal(t, Away, m.Placing)
	require.Equal(t, 1, m.Home.Timeouts)
	require.Equal(t, t0.Add(2*DefaultTurnSeconds*time.Second), m.Deadline, "the expired deadline plus the timer, however late the tick")

	m, out = expire(t, m, 0, 1) // the kick-off: d110 = 1 → (10,0)
	require.Equal(t, PhasePlay, m.Phase)
	require.Equal(t, Away, m.Active)
	require.Equal(t, []string{EventTimedOut, EventPlaced, EventKickoff, EventBallRests, EventTurnStarted}, rulestest.Types(out.Events))
	require.Equal(t, Square{10, 0}, m.Ball.Pos)
}

func TestAbandonInSetup(t *testing.T) {
	m := joined(t, Options{TurnsPerHalf: 1}, 1)
	m.Away.Timeouts = AbandonAfter - 1
	m, out := expire(t, m, 0)
	require.Equal(t, PhaseOver, m.Phase)
	require.Equal(t, ReasonAbandoned, m.EndReason)
	require.Equal(t, "ann", m.Winner)
	require.Equal(t, []string{EventTimedOut, EventForfeited, domain.EventGameOver}, rulestest.Types(out.Events))
}

func TestLegalInSetup(t *testing.T) {
	m := joined(t, Options{}, 1)
	require.Empty(t, Rules{}.Legal(m, ann), "the offense waits")
	require.Empty(t, Rules{}.Legal(m, eve))
	moves := Rules{}.Legal(m, ben)
	require.Len(t, moves, len(Formations()))
	for _, mv := range moves {
		require.Equal(t, ActionPlace, mv.Type)
		b, err := json.Marshal(mv.Payload)
		require.NoError(t, err)
		act(t, m, ben, ActionPlace, string(b), t0)
	}
	for _, f := range Formations() {
		for _, side := range []Side{Home, Away} {
			ps := placement(m, side, f)
			s := &step{m: m}
			require.NoError(t, s.checkPlacement(side, ps), "%s for %s", f.Name, side)
		}
	}
}
