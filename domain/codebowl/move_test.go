package codebowl

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/rulestest"
)

func TestMoveFree(t *testing.T) {
	m := scene(t, h(2, 2), h(2, 8), a(15, 5))
	got, out := move(t, m, "h1", "3,3 4,4 5,5 6,5") // MV 4, nowhere near an enemy: no dice
	q, st := pos(t, got, "h1")
	require.Equal(t, Square{6, 5}, q)
	require.Equal(t, StateStanding, st)
	require.Equal(t, []string{EventMoved, EventMoved, EventMoved, EventMoved}, rulestest.Types(out.Events))
	require.Equal(t, MovedData{Side: Home, Player: "h1", From: Square{2, 2}, To: Square{3, 3}}, rulestest.Data[MovedData](t, out.Events, EventMoved))
	require.Equal(t, MoveResult{Steps: 4}, out.Result)
	require.True(t, got.Home.Players[0].Acted)
	require.Equal(t, Home, got.Active, "h2 has not acted")

	// The last player to act ends the turn.
	got, out = move(t, got, "h2", "3,8")
	require.Equal(t, Away, got.Active)
	require.Equal(t, []string{EventMoved, EventTurnEnded, EventTurnStarted}, rulestest.Types(out.Events))
	require.Equal(t, TurnEndedData{Side: Home, Half: 1, Turn: 1, Reason: EndAllActed}, rulestest.Data[TurnEndedData](t, out.Events, EventTurnEnded))
	require.False(t, got.Home.Players[0].Acted, "acted flags clear with the turn")
}

func TestMoveRefusals(t *testing.T) {
	m := scene(t, h(5, 5), h(6, 6), h(2, 2).fallen(), h(0, 0).stats(4, 7, 1), a(7, 5), a(5, 7).fallen(), a(15, 5))
	m = withBall(m, 3, 3)
	for _, c := range []struct {
		name, body string
		who        string // coach id
		typ        string
		code       string
	}{
		{"not seated", moveBody("h1", "4,5"), "eve", ActionMove, domain.EFORBIDDEN},
		{"not your turn", moveBody("a1", "8,5"), "ben", ActionMove, domain.ECONFLICT},
		{"no player", `{"path":[{"x":4,"y":5}]}`, "ann", ActionMove, domain.EINVALID},
		{"unknown player", moveBody("zz", "4,5"), "ann", ActionMove, domain.EINVALID},
		{"an opponent's player", moveBody("a1", "8,5"), "ann", ActionMove, domain.EINVALID},
		{"path not an array", `{"player":"h1","path":"north"}`, "ann", ActionMove, domain.EINVALID},
		{"empty path", moveBody("h1", ""), "ann", ActionMove, domain.EINVALID},
		{"too far", moveBody("h1", "4,4 3,3 2,3 1,3 0,3"), "ann", ActionMove, domain.EINVALID},
		{"a jump", moveBody("h1", "3,5"), "ann", ActionMove, domain.EINVALID},
		{"standing still", moveBody("h1", "5,5"), "ann", ActionMove, domain.EINVALID},
		{"off the pitch", moveBody("h4", "-1,0"), "ann", ActionMove, domain.EINVALID},
		{"onto a team-mate", moveBody("h1", "6,6"), "ann", ActionMove, domain.EINVALID},
		{"onto a knocked-down enemy", moveBody("h1", "5,6 5,7"), "ann", ActionMove, domain.EINVALID},
		{"through an enemy", moveBody("h1", "6,5 7,5 8,5"), "ann", ActionMove, domain.EINVALID},
		{"a long path", moveBody("h1", "4,5 5,5 4,5 5,5 4,5 5,5 4,5 5,5 4,5 5,5 4,5 5,5 4,5 5,5 4,5 5,5 4,5 5,5 4,5 5,5 4,5 5,5 4,5 5,5 4,5 5,5 4,5 5,5 4,5 5,5 4,5 5,5 4,5"), "ann", ActionMove, domain.EINVALID},
		{"a fallen player runs too far", moveBody("h3", "3,2"), "ann", ActionMove, domain.EINVALID}, // MV 4 - 3 = 1 … (3,2) is one step: allowed; see below
		{"standUp of a standing player", `{"player":"h1"}`, "ann", ActionStandUp, domain.ECONFLICT},
		{"standUp of nobody", `{}`, "ann", ActionStandUp, domain.EINVALID},
	} {
		if c.name == "a fallen player runs too far" {
			c.body = moveBody("h3", "3,2 4,2")
		}
		t.Run(c.name, func(t *testing.T) {
			who := map[string]domain.Actor{"ann": ann, "ben": ben, "eve": eve}[c.who]
			actErr(t, m, who, c.typ, c.body, c.code)
		})
	}
	t.Run("a fallen player cannot attack", func(t *testing.T) {
		m := scene(t, h(5, 5).fallen().stats(2, 2, 8), a(7, 5))
		actErr(t, m, ann, ActionMove, moveBody("h1", "6,5 7,5"), domain.EINVALID)
	})
	t.Run("acting twice", func(t *testing.T) {
		got, _ := move(t, m, "h4", "1,0")
		actErr(t, got, ann, ActionMove, moveBody("h4", "0,0"), domain.ECONFLICT)
	})
	t.Run("dead", func(t *testing.T) {
		d := m.clone()
		d.Home.Players[3].State, d.Home.Players[3].Pos = StateDead, offPitch
		actErr(t, d, ann, ActionMove, moveBody("h4", "1,0"), domain.EINVALID)
	})
}

func TestDodge(t *testing.T) {
	// h1 (AG 4) leaves (5,5), next to a1 (AG 5) and a2 (AG 3): 60 + 10 × (4 − 5) = 50 %.
	m := scene(t, h(5, 5), h(0, 0), a(6, 5).stats(3, 5, 4), a(5, 6).stats(6, 3, 3))
	t.Run("safe", func(t *testing.T) {
		got, out := move(t, m, "h1", "4,4 3,3", 50)
		require.Equal(t, []string{EventDodged, EventMoved, EventMoved}, rulestest.Types(out.Events))
		require.Equal(t, DodgeData{Side: Home, Player: "h1", From: Square{5, 5}, To: Square{4, 4}, AG: 4, EnemyAG: 5,
			Tacklers: []string{"a1", "a2"}, Chance: 50, Roll: 50}, rulestest.Data[DodgeData](t, out.Events, EventDodged))
		q, _ := pos(t, got, "h1")
		require.Equal(t, Square{3, 3}, q)
	})
	t.Run("tripped", func(t *testing.T) {
		// Roll 51: tripped where he stood; injury by the strongest tackler,
		// a2 (ST 6): 10 + 5 × 6 = 40 %, rolls 41: unhurt. Turnover.
		got, out := move(t, m, "h1", "4,4 3,3", 51, 41)
		require.Equal(t, []string{EventTripped, EventKnockedDown, EventInjuryRoll, EventTurnover, EventTurnEnded, EventTurnStarted}, rulestest.Types(out.Events))
		q, st := pos(t, got, "h1")
		require.Equal(t, Square{5, 5}, q)
		require.Equal(t, StateDown, st)
		require.Equal(t, KnockedDownData{Side: Home, Player: "h1", At: Square{5, 5}, Cause: CauseTripped, By: "a2"}, rulestest.Data[KnockedDownData](t, out.Events, EventKnockedDown))
		require.Equal(t, InjuryRollData{Side: Home, Player: "h1", By: "a2", ByST: 6, Chance: 40, Roll: 41}, rulestest.Data[InjuryRollData](t, out.Events, EventInjuryRoll))
		require.Equal(t, Away, got.Active, "tripping is a turnover")
		require.Equal(t, MoveResult{Turnover: EndTripped}, out.Result)
		require.Equal(t, TurnoverData{Side: Home, Reason: EndTripped}, rulestest.Data[TurnoverData](t, out.Events, EventTurnover))
	})
	t.Run("tripped and killed", func(t *testing.T) {
		got, out := move(t, m, "h1", "4,4", 90, 40)
		require.Equal(t, []string{EventTripped, EventKnockedDown, EventInjuryRoll, EventPlayerKilled, EventTurnover, EventTurnEnded, EventTurnStarted}, rulestest.Types(out.Events))
		require.Equal(t, PlayerKilledData{Side: Home, Coach: "ann", TeamID: "reds", Player: "h1", Name: "H1", Cause: CauseTripped, By: "a2"},
			rulestest.Data[PlayerKilledData](t, out.Events, EventPlayerKilled))
		q, st := pos(t, got, "h1")
		require.Equal(t, offPitch, q)
		require.Equal(t, StateDead, st)
		require.Equal(t, []string{"h1"}, got.Dead(Home))
	})
	t.Run("each tackle zone left", func(t *testing.T) {
		// From (5,5) to (5,4): still next to a1 (6,5); then (5,3): free.
		got, out := move(t, m, "h1", "5,4 5,3", 10, 20)
		require.Len(t, rulestest.All[DodgeData](t, out.Events, EventDodged), 2)
		require.Equal(t, []string{"a1"}, rulestest.All[DodgeData](t, out.Events, EventDodged)[1].Tacklers)
		q, _ := pos(t, got, "h1")
		require.Equal(t, Square{5, 3}, q)
	})
	t.Run("knocked-down enemies do not trip", func(t *testing.T) {
		m := scene(t, h(5, 5), h(0, 0), a(6, 5).fallen())
		_, out := move(t, m, "h1", "4,5")
		require.Equal(t, []string{EventMoved}, rulestest.Types(out.Events))
	})
}

func TestStandUp(t *testing.T) {
	m := scene(t, h(5, 5).fallen().stats(3, 3, 6), h(0, 0), a(6, 5), a(15, 5))
	t.Run("and move MV − 3", func(t *testing.T) {
		// Stands (no roll), leaves a1's zone (AG 3 vs 4: 50 %, rolls 1), three steps.
		got, out := move(t, m, "h1", "4,5 3,5 2,5", 1)
		require.Equal(t, []string{EventStoodUp, EventDodged, EventMoved, EventMoved, EventMoved}, rulestest.Types(out.Events))
		q, st := pos(t, got, "h1")
		require.Equal(t, Square{2, 5}, q)
		require.Equal(t, StateStanding, st)
	})
	t.Run("too far", func(t *testing.T) {
		actErr(t, m, ann, ActionMove, moveBody("h1", "4,5 3,5 2,5 1,5"), domain.EINVALID)
	})
	t.Run("standUp action", func(t *testing.T) {
		got, out := act(t, m, ann, ActionStandUp, `{"player":"h1"}`, t0)
		require.Equal(t, []string{EventStoodUp}, rulestest.Types(out.Events))
		_, st := pos(t, got, "h1")
		require.Equal(t, StateStanding, st)
		require.True(t, got.Home.Players[0].Acted)
	})
	t.Run("move with no path stands up", func(t *testing.T) {
		got, _ := act(t, m, ann, ActionMove, `{"player":"h1","path":[]}`, t0)
		_, st := pos(t, got, "h1")
		require.Equal(t, StateStanding, st)
	})
	t.Run("MV below 3 only stands", func(t *testing.T) {
		m := scene(t, h(5, 5).fallen().stats(5, 5, 2), h(0, 0))
		actErr(t, m, ann, ActionMove, moveBody("h1", "4,5"), domain.EINVALID)
		act(t, m, ann, ActionStandUp, `{"player":"h1"}`, t0)
	})
}

func TestPickup(t *testing.T) {
	t.Run("picked up on the way", func(t *testing.T) {
		// AG 4, no enemy by the ball: 70 %. He runs on with it.
		m := withBall(scene(t, h(2, 5), h(0, 0), a(15, 5)), 3, 5)
		got, out := move(t, m, "h1", "3,5 4,5", 70)
		require.Equal(t, []string{EventMoved, EventPickedUp, EventMoved}, rulestest.Types(out.Events))
		require.Equal(t, Ball{State: BallCarried, Pos: Square{4, 5}, Carrier: "h1"}, got.Ball)
		require.Equal(t, Home, got.Active)
	})
	t.Run("enemy by the ball", func(t *testing.T) {
		// a1 stands next to the ball (not to h1's start): 70 − 10 = 60 %.
		m := withBall(scene(t, h(2, 5), h(0, 0), a(4, 6)), 3, 5)
		_, out := move(t, m, "h1", "3,5", 60)
		require.Equal(t, BallRollData{Side: Home, Player: "h1", At: Square{3, 5}, AG: 4, EnemyAdjacent: true, Chance: 60, Roll: 60},
			rulestest.Data[BallRollData](t, out.Events, EventPickedUp))
	})
	t.Run("knocked-down enemy by the ball: no tackle zone, no −10 %", func(t *testing.T) {
		// Rulings 5 and 8: only standing players exert a tackle zone, so a1
		// lying next to the ball leaves h1's chance at 70 %; 70 succeeds.
		m := withBall(scene(t, h(2, 5), h(0, 0), a(4, 6).fallen()), 3, 5)
		_, out := move(t, m, "h1", "3,5", 70)
		require.Equal(t, BallRollData{Side: Home, Player: "h1", At: Square{3, 5}, AG: 4, EnemyAdjacent: false, Chance: 70, Roll: 70},
			rulestest.Data[BallRollData](t, out.Events, EventPickedUp))
	})
	t.Run("failed: scatter and turnover", func(t *testing.T) {
		m := withBall(scene(t, h(2, 5), h(0, 0), a(15, 5)), 3, 5)
		// 71 > 70 fails; d8 = 3 (east) → (4,5): empty, it rests.
		got, out := move(t, m, "h1", "3,5 4,5", 71, 3)
		require.Equal(t, []string{EventMoved, EventPickupFailed, EventScattered, EventBallRests, EventTurnover, EventTurnEnded, EventTurnStarted}, rulestest.Types(out.Events))
		require.Equal(t, Ball{State: BallLoose, Pos: Square{4, 5}}, got.Ball)
		q, st := pos(t, got, "h1")
		require.Equal(t, Square{3, 5}, q, "the move stops on the ball's square")
		require.Equal(t, StateStanding, st, "a failed pickup does not knock down")
		require.Equal(t, Away, got.Active)
		require.Equal(t, MoveResult{Steps: 1, Turnover: EndPickupFailed}, out.Result)
	})
	t.Run("failed: caught by an enemy", func(t *testing.T) {
		// Scatter d8 = 1 (north) → (3,4) where a1 (AG 2) stands: his catch,
		// 50 % − 10 (h1 is next to him) = 40, rolls 40: away has the ball.
		m := withBall(scene(t, h(2, 5), h(0, 0), a(3, 4).stats(5, 2, 5)), 3, 5)
		// h1 leaves (2,5), next to a1 at (3,4): a dodge (AG 4 vs 2: 80 %) first.
		got, out := move(t, m, "h1", "3,5", 80, 71, 1, 40)
		require.Equal(t, []string{EventDodged, EventMoved, EventPickupFailed, EventScattered, EventCaught, EventPossession,
			EventTurnover, EventTurnEnded, EventTurnStarted}, rulestest.Types(out.Events))
		require.Equal(t, Ball{State: BallCarried, Pos: Square{3, 4}, Carrier: "a1"}, got.Ball)
		require.Equal(t, Away, got.Offense, "the other side picked it up: it is on offense")
	})
	t.Run("scatter onto a fallen player bounces", func(t *testing.T) {
		m := withBall(scene(t, h(2, 5), h(0, 0), a(3, 4).fallen()), 3, 5)
		// fails (71), d8 = 1 → (3,4): a1 is down, bounces d8 = 1 → (3,3): rests.
		got, out := move(t, m, "h1", "3,5", 71, 1, 1)
		require.Equal(t, []string{EventMoved, EventPickupFailed, EventScattered, EventScattered, EventBallRests,
			EventTurnover, EventTurnEnded, EventTurnStarted}, rulestest.Types(out.Events))
		require.Equal(t, Ball{State: BallLoose, Pos: Square{3, 3}}, got.Ball)
	})
	t.Run("scatter out of the pitch", func(t *testing.T) {
		m := withBall(scene(t, h(1, 5), h(5, 0), a(15, 5)), 0, 5)
		// fails (71), d8 = 7 (west) → (-1,5): out; d220 = 26 → (5,1): empty.
		got, out := move(t, m, "h1", "0,5", 71, 7, 26)
		require.Equal(t, []string{EventMoved, EventPickupFailed, EventScattered, EventBallOut, EventBallRests,
			EventTurnover, EventTurnEnded, EventTurnStarted}, rulestest.Types(out.Events))
		require.Equal(t, BallMoveData{From: Square{-1, 5}, To: Square{5, 1}, Die: 26}, rulestest.Data[BallMoveData](t, out.Events, EventBallOut))
		require.Equal(t, Ball{State: BallLoose, Pos: Square{5, 1}}, got.Ball)
	})
	t.Run("out and onto a player", func(t *testing.T) {
		m := withBall(scene(t, h(1, 5), h(5, 1), a(15, 5)), 0, 5)
		// out d220 = 26 → (5,1): h2 catches (70): no turnover for the catch,
		// but the failed pickup still ends the turn.
		got, _ := move(t, m, "h1", "0,5", 71, 7, 26, 70)
		require.Equal(t, Ball{State: BallCarried, Pos: Square{5, 1}, Carrier: "h2"}, got.Ball)
		require.Equal(t, Away, got.Active)
	})
}

func TestScoreByRunning(t *testing.T) {
	m := carriedBy(scene(t, h(17, 5), h(0, 0), a(10, 0)), "h1")
	got, out := move(t, m, "h1", "18,5 19,5")
	require.Equal(t, []string{EventMoved, EventMoved, EventScored, EventTurnover, EventTurnEnded, EventSetupStarted}, rulestest.Types(out.Events))
	require.Equal(t, ScoredData{Side: Home, Player: "h1", At: Square{19, 5}, Home: 1, Away: 0}, rulestest.Data[ScoredData](t, out.Events, EventScored))
	require.Equal(t, MoveResult{Steps: 2, Scored: true, Turnover: EndScore}, out.Result)
	require.Equal(t, 1, got.Home.Score)
	require.Equal(t, PhaseSetup, got.Phase)
	require.Equal(t, Away, got.Offense, "the conceding side receives")
	require.Equal(t, Home, got.Placing, "the scorers defend and place first")
	require.Equal(t, 2, got.Drive)
	require.Equal(t, Ball{State: BallNone, Pos: offPitch}, got.Ball)

	t.Run("the path stops at the score", func(t *testing.T) {
		m := carriedBy(scene(t, h(18, 5), h(0, 0), a(10, 0)), "h1")
		got, out := move(t, m, "h1", "19,5 19,6 19,7")
		require.Equal(t, MoveResult{Steps: 1, Scored: true, Turnover: EndScore}, out.Result)
		require.Equal(t, 1, got.Home.Score)
	})
	t.Run("picked up in the goal column", func(t *testing.T) {
		m := withBall(scene(t, h(18, 5), h(0, 0), a(10, 0)), 19, 5)
		got, out := move(t, m, "h1", "19,5 18,5", 1)
		require.Equal(t, MoveResult{Steps: 1, Scored: true, Turnover: EndScore}, out.Result)
		require.Equal(t, 1, got.Home.Score)
	})
	t.Run("the own goal column is no score", func(t *testing.T) {
		m := carriedBy(scene(t, h(1, 5), h(5, 0), a(10, 0)), "h1")
		got, _ := move(t, m, "h1", "0,5")
		require.Zero(t, got.Home.Score)
		require.Equal(t, PhasePlay, got.Phase)
	})
}
