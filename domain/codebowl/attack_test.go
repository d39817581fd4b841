package codebowl

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain/rulestest"
)

func TestAttackOutcomes(t *testing.T) {
	// h1 (ST 4) at (5,5) attacks a1 (ST 4) at (6,5): 50 / 25 / 25.
	base := scene(t, h(5, 5), h(0, 0), a(6, 5), a(15, 0))
	t.Run("knockdown, pushed to a free square", func(t *testing.T) {
		// 50 knocks down; a1 pushed east to (7,5), h1 follows to (6,5);
		// injury 10 + 5 × 4 = 30 %, rolls 31: unhurt.
		got, out := move(t, base, "h1", "6,5", 50, 31)
		require.Equal(t, []string{EventAttacked, EventPushed, EventFollowedUp, EventKnockedDown, EventInjuryRoll}, rulestest.Types(out.Events))
		at := rulestest.Data[AttackedData](t, out.Events, EventAttacked)
		require.Equal(t, AttackedData{Side: Home, Attacker: "h1", Target: "a1", From: Square{5, 5}, At: Square{6, 5},
			AttackerST: 4, TargetST: 4, Odds: AttackOdds{0, 50, 25, 25}, Roll: 50, Result: AttackKnockdown}, at)
		q, _ := pos(t, got, "h1")
		require.Equal(t, Square{6, 5}, q)
		q, st := pos(t, got, "a1")
		require.Equal(t, Square{7, 5}, q)
		require.Equal(t, StateDown, st)
		require.Equal(t, Home, got.Active, "no turnover")
		require.Equal(t, MoveResult{Attack: AttackKnockdown}, out.Result)
	})
	t.Run("knockdown and dead", func(t *testing.T) {
		got, out := move(t, base, "h1", "6,5", 1, 30)
		require.Equal(t, []string{EventAttacked, EventPushed, EventFollowedUp, EventKnockedDown, EventInjuryRoll, EventPlayerKilled}, rulestest.Types(out.Events))
		_, st := pos(t, got, "a1")
		require.Equal(t, StateDead, st)
		require.Equal(t, PlayerKilledData{Side: Away, Coach: "ben", TeamID: "blues", Player: "a1", Name: "A1", Cause: CauseKnockedDown, By: "h1"},
			rulestest.Data[PlayerKilledData](t, out.Events, EventPlayerKilled))
	})
	t.Run("no effect", func(t *testing.T) {
		got, out := move(t, base, "h1", "6,5", 75)
		require.Equal(t, []string{EventAttacked}, rulestest.Types(out.Events))
		q, _ := pos(t, got, "h1")
		require.Equal(t, Square{5, 5}, q)
		_, st := pos(t, got, "a1")
		require.Equal(t, StateStanding, st)
		require.Equal(t, Home, got.Active)
	})
	t.Run("attacker down: turnover", func(t *testing.T) {
		// 76: the attacker falls; injury by a1's ST 4: 30 %, rolls 99.
		got, out := move(t, base, "h1", "6,5", 76, 99)
		require.Equal(t, []string{EventAttacked, EventKnockedDown, EventInjuryRoll, EventTurnover, EventTurnEnded, EventTurnStarted}, rulestest.Types(out.Events))
		require.Equal(t, KnockedDownData{Side: Home, Player: "h1", At: Square{5, 5}, Cause: CauseAttackFailed, By: "a1"},
			rulestest.Data[KnockedDownData](t, out.Events, EventKnockedDown))
		_, st := pos(t, got, "h1")
		require.Equal(t, StateDown, st)
		require.Equal(t, Away, got.Active)
		require.Equal(t, MoveResult{Attack: AttackAttackerDown, Turnover: EndAttackerDown}, out.Result)
	})
	t.Run("move then attack", func(t *testing.T) {
		m := scene(t, h(2, 5), h(0, 0), a(6, 5), a(15, 0))
		got, out := move(t, m, "h1", "3,5 4,5 5,5 6,5", 75) // three steps, the attack is the fourth
		require.Equal(t, []string{EventMoved, EventMoved, EventMoved, EventAttacked}, rulestest.Types(out.Events))
		q, _ := pos(t, got, "h1")
		require.Equal(t, Square{5, 5}, q)
	})
	t.Run("attack after a dodge", func(t *testing.T) {
		// h1 leaves a1's zone towards a2 (AG 4 vs 4: 60 %), then attacks a2.
		m := scene(t, h(5, 5), h(0, 0), a(6, 5), a(5, 3))
		_, out := move(t, m, "h1", "4,4 5,3", 60, 70) // 70: no effect
		require.Equal(t, []string{EventDodged, EventMoved, EventAttacked}, rulestest.Types(out.Events))
	})
	t.Run("tripped before the attack", func(t *testing.T) {
		m := scene(t, h(5, 5), h(0, 0), a(6, 5), a(5, 3))
		got, out := move(t, m, "h1", "4,4 5,3", 61, 99)
		require.NotContains(t, rulestest.Types(out.Events), EventAttacked)
		require.Equal(t, Away, got.Active)
	})
}

func TestAttackStrengthAndAssists(t *testing.T) {
	for _, c := range []struct {
		name    string
		players []pl
		adv     int
		assists []Assist
	}{
		{"stronger attacker", []pl{h(5, 5).stats(6, 3, 3), a(6, 5)}, 2, nil},
		{"weaker attacker", []pl{h(5, 5).stats(1, 6, 5), a(6, 5).stats(7, 3, 2)}, -6, nil},
		{"an equal ally", []pl{h(5, 5), h(7, 4), a(6, 5)}, 1, []Assist{{"h2", 4, 2}}},
		{"a stronger ally", []pl{h(5, 5), h(7, 6).stats(6, 3, 3), a(6, 5)}, 2, []Assist{{"h2", 6, 4}}},
		{"a weaker ally: 0.5 floors to 0", []pl{h(5, 5), h(6, 6).stats(2, 5, 5), a(6, 5)}, 0, []Assist{{"h2", 2, 1}}},
		{"two weaker allies make 1", []pl{h(5, 5), h(6, 6).stats(2, 5, 5), h(6, 4).stats(3, 5, 4), a(6, 5)}, 1,
			[]Assist{{"h2", 2, 1}, {"h3", 3, 1}}},
		{"an ally in another tackle zone does not help", []pl{h(5, 5), h(7, 4), a(6, 5), a(8, 3)}, 0, nil},
		{"a knocked-down enemy marks nobody", []pl{h(5, 5), h(7, 4), a(6, 5), a(8, 3).fallen()}, 1, []Assist{{"h2", 4, 2}}},
		{"a knocked-down ally does not help", []pl{h(5, 5), h(7, 4).fallen(), a(6, 5)}, 0, nil},
		{"an ally not next to the target", []pl{h(5, 5), h(4, 5), a(6, 5)}, 0, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := scene(t, append(c.players, h(0, 0), a(19, 0))...)
			_, out := move(t, m, "h1", "6,5", 100, 100)
			at := rulestest.Data[AttackedData](t, out.Events, EventAttacked)
			require.Equal(t, c.adv, at.Odds.Advantage)
			require.Equal(t, AttackChances(c.adv), at.Odds)
			require.Equal(t, c.assists, at.Assists)
		})
	}
}

func TestPush(t *testing.T) {
	t.Run("straight square taken: counter-clockwise first", func(t *testing.T) {
		// Attack east; (7,5) taken by a2: try north-east (7,4) — free.
		m := scene(t, h(5, 5), h(0, 0), a(6, 5), a(7, 5))
		got, out := move(t, m, "h1", "6,5", 1, 100)
		to := Square{7, 4}
		require.Equal(t, PushedData{Side: Away, Player: "a1", From: Square{6, 5}, To: &to}, rulestest.Data[PushedData](t, out.Events, EventPushed))
		q, _ := pos(t, got, "a1")
		require.Equal(t, to, q)
	})
	t.Run("then clockwise", func(t *testing.T) {
		m := scene(t, h(5, 5), h(0, 0), a(6, 5), a(7, 5), a(7, 4))
		got, _ := move(t, m, "h1", "6,5", 1, 100)
		q, _ := pos(t, got, "a1")
		require.Equal(t, Square{7, 6}, q)
	})
	t.Run("diagonal attack", func(t *testing.T) {
		// Attack south-east from (5,5) onto (6,6): straight (7,7) taken, then east (7,6).
		m := scene(t, h(5, 5), h(0, 0), a(6, 6), a(7, 7))
		got, _ := move(t, m, "h1", "6,6", 1, 100)
		q, _ := pos(t, got, "a1")
		require.Equal(t, Square{7, 6}, q)
	})
	t.Run("nowhere to go: falls in place, the attacker stays", func(t *testing.T) {
		m := scene(t, h(5, 5), h(0, 0), a(6, 5), a(7, 5), a(7, 4), h(7, 6))
		got, out := move(t, m, "h1", "6,5", 1, 100)
		require.Equal(t, []string{EventAttacked, EventKnockedDown, EventInjuryRoll}, rulestest.Types(out.Events))
		q, st := pos(t, got, "a1")
		require.Equal(t, Square{6, 5}, q)
		require.Equal(t, StateDown, st)
		q, _ = pos(t, got, "h1")
		require.Equal(t, Square{5, 5}, q)
	})
	t.Run("off the pitch: dead, no roll", func(t *testing.T) {
		m := scene(t, h(18, 5), h(0, 0), a(19, 5), a(10, 0))
		got, out := move(t, m, "h1", "19,5", 1)
		require.Equal(t, []string{EventAttacked, EventPushedOff, EventPlayerKilled, EventFollowedUp}, rulestest.Types(out.Events))
		require.Equal(t, PushedData{Side: Away, Player: "a1", From: Square{19, 5}}, rulestest.Data[PushedData](t, out.Events, EventPushedOff))
		require.Equal(t, CausePushedOff, rulestest.Data[PlayerKilledData](t, out.Events, EventPlayerKilled).Cause)
		_, st := pos(t, got, "a1")
		require.Equal(t, StateDead, st)
		q, _ := pos(t, got, "h1")
		require.Equal(t, Square{19, 5}, q)
	})
	t.Run("off the top edge while free squares are beside", func(t *testing.T) {
		// North from (5,1) onto (5,0): straight (5,-1) is off: pushed off.
		m := scene(t, h(5, 1), h(0, 5), a(5, 0), a(10, 5))
		got, _ := move(t, m, "h1", "5,0", 1)
		_, st := pos(t, got, "a1")
		require.Equal(t, StateDead, st)
	})
	t.Run("off the pitch with the ball", func(t *testing.T) {
		m := carriedBy(scene(t, h(18, 5), h(0, 0), a(19, 5), a(10, 0)), "a1")
		// d220 = 1 → (0,0): h2 stands there and catches (70).
		got, out := move(t, m, "h1", "19,5", 1, 1, 70)
		require.Equal(t, []string{EventAttacked, EventPushedOff, EventPlayerKilled, EventFollowedUp, EventBallOut, EventCaught, EventPossession}, rulestest.Types(out.Events))
		require.Equal(t, Ball{State: BallCarried, Pos: Square{0, 0}, Carrier: "h2"}, got.Ball)
		require.Equal(t, Home, got.Offense)
	})
	t.Run("pushed onto the loose ball: it bounces", func(t *testing.T) {
		m := withBall(scene(t, h(5, 5), h(0, 0), a(6, 5), a(15, 0)), 7, 5)
		// a1 lands on (7,5), injury 100: unhurt; the ball bounces d8 = 3 → (8,5).
		got, out := move(t, m, "h1", "6,5", 1, 100, 3)
		require.Equal(t, []string{EventAttacked, EventPushed, EventFollowedUp, EventKnockedDown, EventInjuryRoll, EventScattered, EventBallRests}, rulestest.Types(out.Events))
		require.Equal(t, Ball{State: BallLoose, Pos: Square{8, 5}}, got.Ball)
	})
	t.Run("pushed onto the ball and dead: it stays", func(t *testing.T) {
		m := withBall(scene(t, h(5, 5), h(0, 0), a(6, 5), a(15, 0)), 7, 5)
		got, _ := move(t, m, "h1", "6,5", 1, 1)
		require.Equal(t, Ball{State: BallLoose, Pos: Square{7, 5}}, got.Ball)
	})
}

func TestCarrierKnockedDown(t *testing.T) {
	t.Run("drops the ball into the 3×3", func(t *testing.T) {
		m := carriedBy(scene(t, h(5, 5), h(0, 0), a(6, 5), a(15, 0)), "a1")
		// Knockdown, a1 pushed to (7,5), unhurt (100); drop d9 = 6 → (8,5): rests.
		got, out := move(t, m, "h1", "6,5", 1, 100, 6)
		require.Equal(t, []string{EventAttacked, EventPushed, EventFollowedUp, EventKnockedDown, EventInjuryRoll, EventDropped, EventBallRests}, rulestest.Types(out.Events))
		require.Equal(t, BallMoveData{From: Square{7, 5}, To: Square{8, 5}, Die: 6}, rulestest.Data[BallMoveData](t, out.Events, EventDropped))
		require.Equal(t, Ball{State: BallLoose, Pos: Square{8, 5}}, got.Ball)
	})
	t.Run("drops on himself: it bounces off", func(t *testing.T) {
		m := carriedBy(scene(t, h(5, 5), h(0, 0), a(6, 5), a(15, 0)), "a1")
		// d9 = 5 is his own square (he lies there): bounce d8 = 5 → (7,6).
		got, out := move(t, m, "h1", "6,5", 1, 100, 5, 5)
		require.Equal(t, []string{EventAttacked, EventPushed, EventFollowedUp, EventKnockedDown, EventInjuryRoll, EventDropped, EventScattered, EventBallRests}, rulestest.Types(out.Events))
		require.Equal(t, Square{7, 6}, got.Ball.Pos)
	})
	t.Run("dead carrier: the ball may rest where he lay", func(t *testing.T) {
		m := carriedBy(scene(t, h(5, 5), h(0, 0), a(6, 5), a(15, 0)), "a1")
		got, _ := move(t, m, "h1", "6,5", 1, 1, 5)
		require.Equal(t, Ball{State: BallLoose, Pos: Square{7, 5}}, got.Ball)
	})
	t.Run("dropped to the attacker, who catches it", func(t *testing.T) {
		m := carriedBy(scene(t, h(5, 5), h(0, 0), a(6, 5), a(15, 0)), "a1")
		// a1 at (7,5) drops d9 = 4 → (6,5): h1 followed up there; catch
		// 70 % − 10 (a1 is down: no; a2 far) = 70, rolls 70.
		got, out := move(t, m, "h1", "6,5", 1, 100, 4, 70)
		require.Equal(t, Ball{State: BallCarried, Pos: Square{6, 5}, Carrier: "h1"}, got.Ball)
		require.False(t, rulestest.Data[BallRollData](t, out.Events, EventCaught).EnemyAdjacent, "a knocked-down enemy does not count")
	})
	t.Run("tripped carrier", func(t *testing.T) {
		m := carriedBy(scene(t, h(5, 5), h(0, 0), a(6, 5), a(15, 0)), "h1")
		got, out := move(t, m, "h1", "4,5", 61, 100, 1) // tripped, unhurt, drop d9 = 1 → (4,4)
		require.Equal(t, []string{EventTripped, EventKnockedDown, EventInjuryRoll, EventDropped, EventBallRests,
			EventTurnover, EventTurnEnded, EventTurnStarted}, rulestest.Types(out.Events))
		require.Equal(t, Ball{State: BallLoose, Pos: Square{4, 4}}, got.Ball)
	})
	t.Run("failed attacker with the ball", func(t *testing.T) {
		m := carriedBy(scene(t, h(5, 5), h(0, 0), a(6, 5), a(15, 0)), "h1")
		got, _ := move(t, m, "h1", "6,5", 76, 100, 9) // down, unhurt, drop (6,6)
		require.Equal(t, Ball{State: BallLoose, Pos: Square{6, 6}}, got.Ball)
		require.Equal(t, Away, got.Active)
	})
}

func TestArmorInjury(t *testing.T) {
	m := scene(t, h(5, 5).stats(6, 3, 3), h(0, 0), a(6, 5).armor(4), a(15, 0))
	m.Options.Armor = true
	// ST 6 vs AR 4: 5 + 5 × 2 = 15 %.
	_, out := move(t, m, "h1", "6,5", 1, 16)
	require.Equal(t, InjuryRollData{Side: Away, Player: "a1", By: "h1", ByST: 6, Armor: true, AR: 4, Chance: 15, Roll: 16},
		rulestest.Data[InjuryRollData](t, out.Events, EventInjuryRoll))
	_, out = move(t, m, "h1", "6,5", 1, 15)
	require.True(t, rulestest.Data[InjuryRollData](t, out.Events, EventInjuryRoll).Dead)

	strong := scene(t, h(5, 5).stats(3, 4, 5), h(0, 0), a(6, 5).armor(5), a(15, 0))
	strong.Options.Armor = true
	_, out = move(t, strong, "h1", "6,5", 1, 1) // ST 3 below AR 5: 0 %, even a 1 is unhurt
	d := rulestest.Data[InjuryRollData](t, out.Events, EventInjuryRoll)
	require.Equal(t, 0, d.Chance)
	require.False(t, d.Dead)
}

func TestScoreByFollowUp(t *testing.T) {
	m := carriedBy(scene(t, h(18, 5), h(0, 0), a(19, 5), a(10, 0)), "h1")
	// a1 pushed off (dead), h1 follows into (19,5) with the ball: a score.
	got, out := move(t, m, "h1", "19,5", 1)
	require.Contains(t, rulestest.Types(out.Events), EventScored)
	require.Equal(t, 1, got.Home.Score)
	require.Equal(t, PhaseSetup, got.Phase)
}

func TestScoreInTheOpponentsTurn(t *testing.T) {
	// Home knocks down a carrier; the ball drops to an away player standing
	// in away's goal column (x = 0), who catches it: away scores in home's
	// turn. Home's turn ends; home (conceding) receives; turns still
	// alternate, so away plays the next turn.
	m := carriedBy(scene(t, h(2, 5), h(10, 10), a(1, 5), a(0, 4), a(15, 0)), "a1")
	// Attack west from (2,5) onto (1,5): push to (0,5); unhurt; drop d9 = 2
	// → (0,4): a2 catches (70 % − 10, h1 followed up next to him: 60).
	got, out := move(t, m, "h1", "1,5", 1, 100, 2, 60)
	require.Contains(t, rulestest.Types(out.Events), EventScored)
	require.Equal(t, 1, got.Away.Score)
	require.Equal(t, PhaseSetup, got.Phase)
	require.Equal(t, Home, got.Offense)
	require.Equal(t, Away, got.Placing)
	got, _ = act(t, got, ben, ActionPlace, placeBody(defaultPlacement(got, Away)), t0)
	got, _ = act(t, got, ann, ActionPlace, placeBody(defaultPlacement(got, Home)), t0, 1)
	require.Equal(t, Away, got.Active, "turns alternate: after home's turn comes away's")
}
