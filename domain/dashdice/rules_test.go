package dashdice

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/rulestest"
)

func TestBuiltinModes(t *testing.T) {
	want := map[string][3]any{ // ruleSet, start, target
		"classic":   {RuleSetClassic, 0, 100},
		"quickfire": {RuleSetClassic, 0, 50},
		"zero-hour": {RuleSetZeroHour, 100, 0},
		"last-line": {RuleSetLastLine, 50, 0},
		"true-grit": {RuleSetTrueGrit, 0, 0},
	}
	modes := BuiltinModes()
	require.Len(t, modes, len(want))
	for _, m := range modes {
		t.Run(m.ID, func(t *testing.T) {
			w, ok := want[m.ID]
			require.True(t, ok, "unexpected mode %q", m.ID)
			got := [3]any{m.RuleSet, m.StartingScore, m.TargetScore}
			require.Equal(t, w, got, "got ruleSet/start/target %v, want %v", got, w)
			require.NoError(t, m.Validate())
			require.NotEmpty(t, m.Name)
			require.NotEmpty(t, m.Description)
		})
	}
}

func TestModeJSON(t *testing.T) {
	b, err := json.Marshal(modeByID(t, "quickfire"))
	require.NoError(t, err)
	var got map[string]any
	require.NoError(t, json.Unmarshal(b, &got))
	for _, k := range []string{"id", "name", "description", "ruleSet", "startingScore", "targetScore"} {
		require.Contains(t, got, k)
	}
}

func TestModeValidate(t *testing.T) {
	ok := Mode{ID: "x", Name: "X", RuleSet: RuleSetClassic, TargetScore: 10}
	tests := []struct {
		name   string
		change func(*Mode)
		msg    string // "" for valid
	}{
		{"valid classic", func(*Mode) {}, ""},
		{"valid zero-hour", func(m *Mode) { m.RuleSet, m.StartingScore, m.TargetScore = RuleSetZeroHour, 60, 0 }, ""},
		{"valid last-line", func(m *Mode) { m.RuleSet, m.StartingScore, m.TargetScore = RuleSetLastLine, 30, 0 }, ""},
		{"valid true-grit", func(m *Mode) { m.RuleSet, m.TargetScore = RuleSetTrueGrit, 0 }, ""},
		{"no id", func(m *Mode) { m.ID = "" }, "id is required"},
		{"bad id", func(m *Mode) { m.ID = "Classic Mode" }, "a-z"},
		{"long id", func(m *Mode) { m.ID = strings.Repeat("a", 41) }, "a-z"},
		{"no name", func(m *Mode) { m.Name = " " }, "name is required"},
		{"long name", func(m *Mode) { m.Name = strings.Repeat("n", 61) }, "name is longer"},
		{"long description", func(m *Mode) { m.Description = strings.Repeat("d", 501) }, "description is longer"},
		{"negative start", func(m *Mode) { m.StartingScore = -1 }, "between 0 and"},
		{"huge target", func(m *Mode) { m.TargetScore = 2_000_000 }, "between 0 and"},
		{"no rule set", func(m *Mode) { m.RuleSet = "" }, "ruleSet is required"},
		{"unknown rule set", func(m *Mode) { m.RuleSet = "pig" }, "unknown ruleSet"},
		{"classic target not above start", func(m *Mode) { m.StartingScore = 10 }, "target score above"},
		{"zero-hour start 0", func(m *Mode) { m.RuleSet, m.StartingScore, m.TargetScore = RuleSetZeroHour, 0, 0 }, "exactly 0"},
		{"zero-hour target", func(m *Mode) { m.RuleSet, m.StartingScore, m.TargetScore = RuleSetZeroHour, 100, 5 }, "exactly 0"},
		{"last-line start 0", func(m *Mode) { m.RuleSet, m.StartingScore, m.TargetScore = RuleSetLastLine, 0, 0 }, "last point"},
		{"true-grit target", func(m *Mode) { m.RuleSet, m.TargetScore = RuleSetTrueGrit, 999999 }, "no target"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := ok
			tt.change(&m)
			err := m.Validate()
			if tt.msg == "" {
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			require.Equal(t, domain.EINVALID, domain.ErrorCode(err))
			require.Contains(t, domain.ErrorMessage(err), tt.msg)
		})
	}
}

func TestNewMatch(t *testing.T) {
	classic := modeByID(t, "classic")
	tests := []struct {
		name     string
		id       string
		host     domain.Actor
		mode     Mode
		opts     Options
		wantSecs int
		wantErr  string
	}{
		{"default timer", "m1", alice, classic, Options{}, 30, ""},
		{"no timer", "m1", alice, classic, Options{TurnSeconds: NoTimer}, 0, ""},
		{"min timer", "m1", alice, classic, Options{TurnSeconds: 5}, 5, ""},
		{"max timer", "m1", alice, classic, Options{TurnSeconds: 600}, 600, ""},
		{"too short", "m1", alice, classic, Options{TurnSeconds: 4}, 0, "turnSeconds"},
		{"too long", "m1", alice, classic, Options{TurnSeconds: 601}, 0, "turnSeconds"},
		{"negative", "m1", alice, classic, Options{TurnSeconds: -2}, 0, "turnSeconds"},
		{"no id", "", alice, classic, Options{}, 0, "match id"},
		{"no host", "m1", domain.Actor{Name: "x"}, classic, Options{}, 0, "host id"},
		{"bad mode", "m1", alice, Mode{ID: "x"}, Options{}, 0, "name is required"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := NewMatch(tt.id, tt.host, tt.mode, tt.opts, t0.In(time.FixedZone("X", 3600)))
			if tt.wantErr != "" {
				require.Error(t, err)
				require.Equal(t, domain.EINVALID, domain.ErrorCode(err))
				require.Contains(t, domain.ErrorMessage(err), tt.wantErr)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.wantSecs, m.TurnSeconds)
			require.Equal(t, PhaseWaiting, m.Phase)
			require.Equal(t, Player{ID: "alice", Name: "Alice"}, m.Host)
			require.Nil(t, m.Opponent)
			require.Equal(t, t0, m.CreatedAt)
			require.Equal(t, t0.Add(JoinWindow), m.JoinDeadline)
			require.Equal(t, 1, m.Multiplier)
			checkInvariants(t, m)
			h := Rules{}.Header(m)
			require.Equal(t, domain.Header{Status: domain.StatusWaiting, Players: []string{"alice"}, Deadline: t0.Add(JoinWindow)}, h)
		})
	}
	t.Run("starting score", func(t *testing.T) {
		m := waiting(t, "zero-hour")
		require.Equal(t, 100, m.Host.Score)
		m, _ = act(t, m, bob, ActionJoin, `{}`, t0)
		require.Equal(t, 100, m.Opponent.Score)
	})
}

func TestKind(t *testing.T) {
	require.Equal(t, "dashdice", Rules{}.Kind())
}

func TestClassify(t *testing.T) {
	for a := 1; a <= 6; a++ {
		for b := 1; b <= 6; b++ {
			var want string
			switch {
			case a == 1 && b == 1:
				want = ClassSnakeEyes
			case a == 1 || b == 1:
				want = ClassSingleOne
			case a == 6 && b == 6:
				want = ClassDoubleSix
			case a == b:
				want = ClassDouble
			default:
				want = ClassNormal
			}
			require.Equal(t, want, Classify(a, b), "Classify(%d, %d)", a, b)
		}
	}
}

func TestJoin(t *testing.T) {
	t.Run("seats the opponent", func(t *testing.T) {
		now := t0.Add(time.Minute)
		m, out := act(t, waiting(t, "classic"), bob, ActionJoin, payload("join", ""), now)
		require.Equal(t, PhaseTurnDecider, m.Phase)
		require.Equal(t, &Player{ID: "bob", Name: "Bob"}, m.Opponent)
		require.Equal(t, now.Add(30*time.Second), m.TurnDeadline, "the call is timed")
		require.True(t, m.JoinDeadline.IsZero())
		require.Equal(t, []string{EventJoined}, rulestest.Types(out.Events))
		require.Equal(t, "bob", out.Events[0].Player)
		require.Equal(t, JoinResult{Seat: SeatOpponent, Phase: PhaseTurnDecider}, out.Result)
		require.Equal(t, domain.Header{Status: domain.StatusActive, Players: []string{"alice", "bob"}, Deadline: now.Add(30 * time.Second)}, Rules{}.Header(m))
	})
	t.Run("no timer", func(t *testing.T) {
		m, err := NewMatch("m1", alice, modeByID(t, "classic"), Options{TurnSeconds: NoTimer}, t0)
		require.NoError(t, err)
		m, _ = act(t, m, bob, ActionJoin, `{}`, t0)
		require.True(t, m.TurnDeadline.IsZero())
		require.True(t, Rules{}.Header(m).Deadline.IsZero())
	})
	t.Run("errors", func(t *testing.T) {
		cancelled, _ := act(t, waiting(t, "classic"), alice, ActionForfeit, `{}`, t0)
		tests := []struct {
			name string
			m    Match
			who  domain.Actor
			code string
			msg  string
		}{
			{"host joins own match", waiting(t, "classic"), alice, domain.ECONFLICT, "already in"},
			{"opponent joins again", joined(t, "classic"), bob, domain.ECONFLICT, "already in"},
			{"full", joined(t, "classic"), carol, domain.ECONFLICT, "full"},
			{"in gameplay", playing(t, "classic", SeatHost), carol, domain.ECONFLICT, "full"},
			{"cancelled", cancelled, carol, domain.ECONFLICT, "over"},
			{"no id", waiting(t, "classic"), domain.Actor{Name: "x"}, domain.EINVALID, "player id"},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				err := actErr(t, tt.m, tt.who, ActionJoin, `{}`, tt.code)
				require.Contains(t, domain.ErrorMessage(err), tt.msg)
			})
		}
	})
}

func TestCall(t *testing.T) {
	tests := []struct {
		call  string
		die   int
		first Seat
	}{
		{"odd", 1, SeatOpponent},
		{"odd", 5, SeatOpponent},
		{"odd", 2, SeatHost},
		{"even", 6, SeatOpponent},
		{"even", 3, SeatHost},
		{"EVEN", 4, SeatOpponent},
	}
	for _, tt := range tests {
		t.Run(tt.call+"/"+string(rune('0'+tt.die)), func(t *testing.T) {
			now := t0.Add(10 * time.Second)
			m, out := act(t, joined(t, "classic"), bob, ActionCall, payload("call", `"call":"`+tt.call+`"`), now, tt.die)
			correct := tt.first == SeatOpponent
			require.Equal(t, PhaseGameplay, m.Phase)
			require.Equal(t, tt.first, m.CurrentTurn)
			require.Equal(t, tt.first, m.FirstTurn)
			require.Equal(t, strings.ToLower(tt.call), m.Call)
			require.Equal(t, tt.die, m.DeciderDie)
			require.Equal(t, 1, m.Turn)
			require.Equal(t, now.Add(30*time.Second), m.TurnDeadline)
			require.Equal(t, CallResult{Die: tt.die, Correct: correct, FirstTurn: tt.first}, out.Result)
			require.Equal(t, []string{EventCalled, EventTurnStarted}, rulestest.Types(out.Events))
			require.Equal(t, CalledData{Call: strings.ToLower(tt.call), Die: tt.die, Correct: correct, FirstTurn: tt.first}, out.Events[0].Data)
			require.Equal(t, m.CurrentPlayerID, out.Events[1].Player)
		})
	}
	t.Run("errors", func(t *testing.T) {
		tests := []struct {
			name string
			m    Match
			who  domain.Actor
			body string
			code string
			msg  string
		}{
			{"host calls", joined(t, "classic"), alice, `{"call":"odd"}`, domain.ECONFLICT, "only the opponent"},
			{"stranger", joined(t, "classic"), carol, `{"call":"odd"}`, domain.EFORBIDDEN, "not a player"},
			{"waiting", waiting(t, "classic"), alice, `{"call":"odd"}`, domain.ECONFLICT, "nothing to call"},
			{"gameplay", playing(t, "classic", SeatHost), bob, `{"call":"odd"}`, domain.ECONFLICT, "nothing to call"},
			{"bad value", joined(t, "classic"), bob, `{"call":"seven"}`, domain.EINVALID, `call must be one of odd, even, not "seven"`},
			{"missing", joined(t, "classic"), bob, `{}`, domain.EINVALID, `"odd" or "even"`},
			{"wrong type", joined(t, "classic"), bob, `{"call":5}`, domain.EINVALID, `"call" must be a string`},
			{"malformed", joined(t, "classic"), bob, `{"call":`, domain.EINVALID, "malformed"},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				err := actErr(t, tt.m, tt.who, ActionCall, tt.body, tt.code)
				require.Contains(t, domain.ErrorMessage(err), tt.msg)
			})
		}
	})
}

// rollCase is one roll from a set position: alice (host) to move with the
// given scores, turn score 10 and multiplier mult.
type rollCase struct {
	name       string
	mult       int
	dice       [2]int
	class      string
	points     int
	turnScore  int  // after the roll
	multAfter  int  // multiplier after the roll (before any turn end)
	turnOver   bool // the turn passed to bob
	host, opp  int  // banked scores after
	scoreReset bool
	gift       int
}

func TestRoll(t *testing.T) {
	classic := func(mode string) []rollCase {
		return []rollCase{
			{name: "single one", mult: 1, dice: [2]int{1, 4}, class: ClassSingleOne, turnOver: true, host: 30, opp: 40, multAfter: 1},
			{name: "single one x2", mult: 2, dice: [2]int{5, 1}, class: ClassSingleOne, turnOver: true, host: 30, opp: 40, multAfter: 1},
			{name: "snake eyes", mult: 1, dice: [2]int{1, 1}, class: ClassSnakeEyes, points: 20, turnScore: 30, multAfter: 1, host: 30, opp: 40},
			{name: "snake eyes x2", mult: 2, dice: [2]int{1, 1}, class: ClassSnakeEyes, points: 20, turnScore: 30, multAfter: 2, host: 30, opp: 40},
			{name: "double six", mult: 1, dice: [2]int{6, 6}, class: ClassDoubleSix, turnOver: true, host: 0, opp: 40, scoreReset: true, multAfter: 1},
			{name: "double six x2", mult: 2, dice: [2]int{6, 6}, class: ClassDoubleSix, turnOver: true, host: 0, opp: 40, scoreReset: true, multAfter: 1},
			{name: "other double", mult: 1, dice: [2]int{3, 3}, class: ClassDouble, points: 6, turnScore: 16, multAfter: 2, host: 30, opp: 40},
			{name: "other double x2", mult: 2, dice: [2]int{5, 5}, class: ClassDouble, points: 10, turnScore: 20, multAfter: 2, host: 30, opp: 40},
			{name: "normal", mult: 1, dice: [2]int{2, 5}, class: ClassNormal, points: 7, turnScore: 17, multAfter: 1, host: 30, opp: 40},
			{name: "normal x2", mult: 2, dice: [2]int{2, 5}, class: ClassNormal, points: 14, turnScore: 24, multAfter: 2, host: 30, opp: 40},
		}
	}
	modes := []struct {
		mode      string
		host, opp int
		cases     []rollCase
	}{
		{"classic", 30, 40, classic("classic")},
		{"quickfire", 30, 40, classic("quickfire")},
		{"zero-hour", 60, 70, []rollCase{
			{name: "single one", mult: 1, dice: [2]int{4, 1}, class: ClassSingleOne, turnOver: true, host: 60, opp: 70, multAfter: 1},
			{name: "single one x2", mult: 2, dice: [2]int{1, 2}, class: ClassSingleOne, turnOver: true, host: 60, opp: 70, multAfter: 1},
			{name: "snake eyes", mult: 1, dice: [2]int{1, 1}, class: ClassSnakeEyes, points: 20, turnScore: 30, multAfter: 2, host: 60, opp: 90, gift: 20},
			{name: "snake eyes x2", mult: 2, dice: [2]int{1, 1}, class: ClassSnakeEyes, points: 20, turnScore: 30, multAfter: 2, host: 60, opp: 90, gift: 20},
			{name: "double six is a plain double", mult: 1, dice: [2]int{6, 6}, class: ClassDoubleSix, points: 12, turnScore: 22, multAfter: 2, host: 60, opp: 82, gift: 12},
			{name: "double six x2", mult: 2, dice: [2]int{6, 6}, class: ClassDoubleSix, points: 12, turnScore: 22, multAfter: 2, host: 60, opp: 82, gift: 12},
			{name: "other double", mult: 1, dice: [2]int{4, 4}, class: ClassDouble, points: 8, turnScore: 18, multAfter: 2, host: 60, opp: 78, gift: 8},
			{name: "other double x2", mult: 2, dice: [2]int{2, 2}, class: ClassDouble, points: 4, turnScore: 14, multAfter: 2, host: 60, opp: 74, gift: 4},
			{name: "normal", mult: 1, dice: [2]int{3, 6}, class: ClassNormal, points: 9, turnScore: 19, multAfter: 1, host: 60, opp: 70},
			{name: "normal x2", mult: 2, dice: [2]int{3, 6}, class: ClassNormal, points: 18, turnScore: 28, multAfter: 2, host: 60, opp: 70},
		}},
		{"last-line", 50, 50, []rollCase{
			{name: "single one banks", mult: 1, dice: [2]int{1, 3}, class: ClassSingleOne, turnScore: 10, turnOver: true, host: 60, opp: 40, multAfter: 1},
			{name: "single one x2", mult: 2, dice: [2]int{6, 1}, class: ClassSingleOne, turnScore: 10, turnOver: true, host: 60, opp: 40, multAfter: 1},
			{name: "snake eyes", mult: 1, dice: [2]int{1, 1}, class: ClassSnakeEyes, points: 20, turnScore: 30, multAfter: 1, host: 50, opp: 50},
			{name: "snake eyes x2", mult: 2, dice: [2]int{1, 1}, class: ClassSnakeEyes, points: 20, turnScore: 30, multAfter: 2, host: 50, opp: 50},
			{name: "double six", mult: 1, dice: [2]int{6, 6}, class: ClassDoubleSix, points: 24, turnScore: 34, multAfter: 2, host: 50, opp: 50},
			{name: "double six x2 does not stack", mult: 2, dice: [2]int{6, 6}, class: ClassDoubleSix, points: 24, turnScore: 34, multAfter: 2, host: 50, opp: 50},
			{name: "other double", mult: 1, dice: [2]int{3, 3}, class: ClassDouble, points: 12, turnScore: 22, multAfter: 2, host: 50, opp: 50},
			{name: "other double x2", mult: 2, dice: [2]int{3, 3}, class: ClassDouble, points: 12, turnScore: 22, multAfter: 2, host: 50, opp: 50},
			{name: "normal", mult: 1, dice: [2]int{4, 5}, class: ClassNormal, points: 9, turnScore: 19, multAfter: 1, host: 50, opp: 50},
			{name: "normal x2", mult: 2, dice: [2]int{4, 5}, class: ClassNormal, points: 18, turnScore: 28, multAfter: 2, host: 50, opp: 50},
		}},
		{"true-grit", 0, 0, []rollCase{
			{name: "single one banks", mult: 1, dice: [2]int{1, 5}, class: ClassSingleOne, turnScore: 10, turnOver: true, host: 10, opp: 0, multAfter: 1},
			{name: "single one x4", mult: 4, dice: [2]int{5, 1}, class: ClassSingleOne, turnScore: 10, turnOver: true, host: 10, opp: 0, multAfter: 1},
			{name: "snake eyes", mult: 1, dice: [2]int{1, 1}, class: ClassSnakeEyes, points: 20, turnScore: 30, multAfter: 7},
			{name: "snake eyes x3", mult: 3, dice: [2]int{1, 1}, class: ClassSnakeEyes, points: 20, turnScore: 30, multAfter: 7},
			{name: "double six", mult: 1, dice: [2]int{6, 6}, class: ClassDoubleSix, points: 12, turnScore: 22, multAfter: 6},
			{name: "double six x3", mult: 3, dice: [2]int{6, 6}, class: ClassDoubleSix, points: 36, turnScore: 46, multAfter: 6},
			{name: "other double", mult: 1, dice: [2]int{3, 3}, class: ClassDouble, points: 6, turnScore: 16, multAfter: 3},
			{name: "other double x7", mult: 7, dice: [2]int{2, 2}, class: ClassDouble, points: 28, turnScore: 38, multAfter: 2},
			{name: "normal", mult: 1, dice: [2]int{2, 5}, class: ClassNormal, points: 7, turnScore: 17, multAfter: 1},
			{name: "normal x2", mult: 2, dice: [2]int{2, 5}, class: ClassNormal, points: 14, turnScore: 24, multAfter: 2},
			{name: "normal x7", mult: 7, dice: [2]int{2, 5}, class: ClassNormal, points: 49, turnScore: 59, multAfter: 7},
		}},
	}
	for _, md := range modes {
		for _, tt := range md.cases {
			t.Run(md.mode+"/"+tt.name, func(t *testing.T) {
				m := playing(t, md.mode, SeatHost)
				m.Host.Score, m.Opponent.Score = md.host, md.opp
				m.TurnScore, m.Multiplier, m.TurnRolls = 10, tt.mult, 3
				m.Host.Timeouts = 2
				now := t0.Add(20 * time.Second)
				got, out := act(t, m, alice, ActionRoll, payload("roll", ""), now, tt.dice[0], tt.dice[1])

				require.Equal(t, tt.dice, got.Dice)
				require.Equal(t, tt.class, got.RollClass)
				require.Equal(t, tt.host, got.Host.Score, "host score")
				require.Equal(t, tt.opp, got.Opponent.Score, "opponent score")
				require.Zero(t, got.Host.Timeouts, "acting resets the timeouts")
				rolled := rulestest.Data[RolledData](t, out.Events, EventRolled)
				require.Equal(t, RolledData{Dice: tt.dice, Class: tt.class, Points: tt.points, TurnScore: tt.turnScore,
					Multiplier: tt.multAfter, OpponentPoints: tt.gift, ScoreReset: tt.scoreReset, TurnOver: tt.turnOver}, rolled)
				require.Equal(t, "alice", out.Events[0].Player)
				res := out.Result.(RollResult)
				require.Equal(t, RollResult{Dice: tt.dice, Class: tt.class, Points: tt.points, TurnScore: tt.turnScore,
					Multiplier: tt.multAfter, TurnOver: tt.turnOver, Score: tt.host}, res)
				if tt.turnOver {
					require.Equal(t, SeatOpponent, got.CurrentTurn)
					require.Equal(t, "bob", got.CurrentPlayerID)
					require.Equal(t, 2, got.Turn)
					require.Zero(t, got.TurnScore)
					require.Zero(t, got.TurnRolls)
					require.Equal(t, 1, got.Multiplier, "the multiplier resets with the turn")
					require.Equal(t, now.Add(30*time.Second), got.TurnDeadline)
					ended := rulestest.Data[TurnEndedData](t, out.Events, EventTurnEnded)
					require.Equal(t, Seat("host"), ended.Seat)
					require.Contains(t, []string{EndSingleOne, EndDoubleSix}, ended.Reason)
					started := rulestest.Data[TurnStartedData](t, out.Events, EventTurnStarted)
					require.Equal(t, TurnStartedData{Turn: 2, Seat: SeatOpponent, Deadline: now.Add(30 * time.Second)}, started)
				} else {
					require.Equal(t, SeatHost, got.CurrentTurn)
					require.Equal(t, 1, got.Turn)
					require.Equal(t, tt.turnScore, got.TurnScore)
					require.Equal(t, tt.multAfter, got.Multiplier)
					require.Equal(t, 4, got.TurnRolls)
					require.Equal(t, m.TurnDeadline, got.TurnDeadline, "a roll does not restart the timer")
					require.Equal(t, []string{EventRolled}, rulestest.Types(out.Events))
				}
			})
		}
	}
}

func TestLastLineSingleOneWins(t *testing.T) {
	m := playing(t, "last-line", SeatOpponent)
	m.Host.Score, m.Opponent.Score = 15, 85
	m.TurnScore = 40
	got, out := act(t, m, bob, ActionRoll, `{}`, t0, 1, 2)
	require.Equal(t, PhaseGameOver, got.Phase)
	require.Equal(t, 0, got.Host.Score)
	require.Equal(t, 100, got.Opponent.Score)
	banked := rulestest.Data[BankedData](t, out.Events, EventBanked)
	require.Equal(t, BankedData{Amount: 40, Taken: 15, Score: 100, OpponentScore: 0, Cause: EndSingleOne}, banked)
	require.Equal(t, &domain.GameOver{Kind: "dashdice", Mode: "last-line", Winners: []string{"bob"}, Losers: []string{"alice"}, Reason: ReasonTarget, Players: []string{"alice", "bob"}},
		rulestest.GameOver(t, out.Events))
	require.True(t, out.Result.(RollResult).GameOver)
}

func TestBank(t *testing.T) {
	tests := []struct {
		mode          string
		name          string
		host, opp, ts int
		wantHost      int
		wantOpp       int
		bust          bool
		win           bool
		taken         int
	}{
		{"classic", "adds", 30, 40, 25, 55, 40, false, false, 0},
		{"classic", "just short", 90, 40, 9, 99, 40, false, false, 0},
		{"classic", "exactly target wins", 90, 40, 10, 100, 40, false, true, 0},
		{"classic", "above target wins", 90, 40, 35, 125, 40, false, true, 0},
		{"classic", "zero turn score passes", 30, 40, 0, 30, 40, false, false, 0},
		{"quickfire", "target 50 wins", 40, 10, 10, 50, 10, false, true, 0},
		{"quickfire", "below 50", 30, 10, 19, 49, 10, false, false, 0},
		{"zero-hour", "subtracts", 60, 70, 25, 35, 70, false, false, 0},
		{"zero-hour", "exactly zero wins", 30, 70, 30, 0, 70, false, true, 0},
		{"zero-hour", "below zero busts", 30, 70, 31, 30, 70, true, false, 0},
		{"zero-hour", "zero turn score passes", 30, 70, 0, 30, 70, false, false, 0},
		{"last-line", "transfers", 50, 50, 30, 80, 20, false, false, 30},
		{"last-line", "capped at opponent score wins", 70, 30, 45, 100, 0, false, true, 30},
		{"last-line", "exact takes the last point", 70, 30, 30, 100, 0, false, true, 30},
		{"last-line", "zero turn score passes", 50, 50, 0, 50, 50, false, false, 0},
	}
	for _, tt := range tests {
		t.Run(tt.mode+"/"+tt.name, func(t *testing.T) {
			m := playing(t, tt.mode, SeatHost)
			m.Host.Score, m.Opponent.Score, m.TurnScore, m.Multiplier = tt.host, tt.opp, tt.ts, 2
			m.Host.Timeouts = 1
			now := t0.Add(12 * time.Second)
			got, out := act(t, m, alice, ActionBank, payload("bank", ""), now)
			require.Equal(t, tt.wantHost, got.Host.Score, "host score")
			require.Equal(t, tt.wantOpp, got.Opponent.Score, "opponent score")
			require.Zero(t, got.TurnScore)
			require.Zero(t, got.Host.Timeouts)
			banked := tt.ts
			if tt.bust {
				banked = 0
			}
			require.Equal(t, BankResult{Banked: banked, Bust: tt.bust, Score: tt.wantHost, OpponentScore: tt.wantOpp, GameOver: tt.win}, out.Result)
			if tt.bust {
				require.Equal(t, BustData{Amount: tt.ts, Score: tt.host}, rulestest.Data[BustData](t, out.Events, EventBust))
				require.Equal(t, EndBust, rulestest.Data[TurnEndedData](t, out.Events, EventTurnEnded).Reason)
			} else {
				require.Equal(t, BankedData{Amount: tt.ts, Taken: tt.taken, Score: tt.wantHost, OpponentScore: tt.wantOpp, Cause: EndBank},
					rulestest.Data[BankedData](t, out.Events, EventBanked))
			}
			g := rulestest.GameOver(t, out.Events)
			if tt.win {
				require.Equal(t, PhaseGameOver, got.Phase)
				require.Equal(t, "alice", got.Winner)
				require.Equal(t, "bob", got.Loser)
				require.Equal(t, ReasonTarget, got.EndReason)
				require.Equal(t, now, got.EndedAt)
				require.Equal(t, &domain.GameOver{Kind: "dashdice", Mode: tt.mode, Winners: []string{"alice"}, Losers: []string{"bob"}, Reason: ReasonTarget, Players: []string{"alice", "bob"}}, g)
				require.Equal(t, domain.StatusOver, Rules{}.Header(got).Status)
				return
			}
			require.Nil(t, g)
			require.Equal(t, PhaseGameplay, got.Phase)
			require.Equal(t, SeatOpponent, got.CurrentTurn)
			require.Equal(t, 1, got.Multiplier)
			require.Equal(t, now.Add(30*time.Second), got.TurnDeadline)
			require.Equal(t, 2, got.Turn)
		})
	}
	t.Run("true-grit/rejected", func(t *testing.T) {
		m := playing(t, "true-grit", SeatHost)
		m.TurnScore = 30
		err := actErr(t, m, alice, ActionBank, `{}`, domain.EINVALID)
		require.Contains(t, domain.ErrorMessage(err), "not allowed in True Grit")
	})
}

func TestTrueGritEnd(t *testing.T) {
	tests := []struct {
		name          string
		first, second int // turn scores banked by the first (host) and second (bob) player
		winner        string
		draw          bool
	}{
		{"second wins", 25, 30, "bob", false},
		{"first wins", 45, 30, "alice", false},
		{"draw", 30, 30, "", true},
		{"both zero draw", 0, 0, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := playing(t, "true-grit", SeatHost)
			m.TurnScore = tt.first
			m, out := act(t, m, alice, ActionRoll, `{}`, t0, 1, 4)
			require.Nil(t, rulestest.GameOver(t, out.Events))
			require.Equal(t, tt.first, m.Host.Score)
			require.Equal(t, SeatOpponent, m.CurrentTurn)
			m.TurnScore = tt.second
			m, out = act(t, m, bob, ActionRoll, `{}`, t0, 3, 1)
			require.Equal(t, PhaseGameOver, m.Phase)
			require.Equal(t, tt.second, m.Opponent.Score)
			require.Equal(t, tt.winner, m.Winner)
			require.Equal(t, tt.draw, m.Draw)
			require.Equal(t, ReasonScore, m.EndReason)
			want := &domain.GameOver{Kind: "dashdice", Mode: "true-grit", Draw: tt.draw, Reason: ReasonScore, Players: []string{"alice", "bob"}}
			if tt.winner != "" {
				loser := "alice"
				if tt.winner == "alice" {
					loser = "bob"
				}
				want.Winners, want.Losers = []string{tt.winner}, []string{loser}
			}
			require.Equal(t, want, rulestest.GameOver(t, out.Events))
			require.True(t, out.Result.(RollResult).GameOver)
		})
	}
}

func TestExpireWaiting(t *testing.T) {
	m := waiting(t, "classic")
	got, out := expire(t, m, 3*time.Hour)
	require.Equal(t, PhaseGameOver, got.Phase)
	require.Equal(t, ReasonCancelled, got.EndReason)
	require.True(t, got.Cancelled())
	require.Equal(t, t0.Add(JoinWindow), got.EndedAt, "as of the deadline, not the late tick")
	require.Empty(t, got.Winner)
	require.Nil(t, rulestest.GameOver(t, out.Events), "a cancelled match has no result")
	require.Equal(t, []domain.Event{{Type: EventCancelled, Player: "alice", Data: CancelledData{Reason: "noOpponent"}}}, out.Events)
	for _, e := range out.Events {
		require.NotEqual(t, domain.EventGameOver, e.Type, "nothing for the effects")
	}
}

func TestExpireTurnDecider(t *testing.T) {
	m := joined(t, "classic") // deadline t0+30s
	got, out := expire(t, m, 17*time.Second)
	require.Equal(t, PhaseGameplay, got.Phase)
	require.Equal(t, SeatHost, got.CurrentTurn)
	require.Equal(t, SeatHost, got.FirstTurn)
	require.Empty(t, got.Call)
	require.Zero(t, got.DeciderDie)
	require.Equal(t, 1, got.Opponent.Timeouts)
	require.Equal(t, t0.Add(60*time.Second), got.TurnDeadline, "chained from the expired deadline")
	require.Equal(t, []string{EventTimedOut, EventCalled, EventTurnStarted}, rulestest.Types(out.Events))
	require.Equal(t, TimedOutData{Phase: PhaseTurnDecider, Seat: SeatOpponent, Timeouts: 1}, out.Events[0].Data)
	require.Equal(t, "bob", out.Events[0].Player)
}

func TestExpireGameplay(t *testing.T) {
	tests := []struct {
		mode          string
		name          string
		host, opp, ts int
		wantHost      int
		wantOpp       int
		win           bool
		bust          bool
	}{
		{"classic", "banks", 30, 40, 20, 50, 40, false, false},
		{"classic", "banks to a win", 95, 40, 10, 105, 40, true, false},
		{"quickfire", "banks to a win", 45, 40, 5, 50, 40, true, false},
		{"zero-hour", "banks", 60, 70, 20, 40, 70, false, false},
		{"zero-hour", "busts", 10, 70, 20, 10, 70, false, true},
		{"zero-hour", "exact zero wins", 20, 70, 20, 0, 70, true, false},
		{"last-line", "transfers", 50, 50, 20, 70, 30, false, false},
		{"last-line", "takes the last point", 90, 10, 20, 100, 0, true, false},
		{"true-grit", "banks like a single one", 0, 0, 35, 35, 0, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.mode+"/"+tt.name, func(t *testing.T) {
			m := playing(t, tt.mode, SeatHost)
			m.Host.Score, m.Opponent.Score, m.TurnScore, m.Multiplier = tt.host, tt.opp, tt.ts, 2
			deadline := m.TurnDeadline
			got, out := expire(t, m, 45*time.Second)
			require.Equal(t, tt.wantHost, got.Host.Score)
			require.Equal(t, tt.wantOpp, got.Opponent.Score)
			require.Equal(t, 1, got.Host.Timeouts)
			require.Equal(t, EventTimedOut, out.Events[0].Type)
			require.Equal(t, "alice", out.Events[0].Player)
			if tt.bust {
				require.Contains(t, rulestest.Types(out.Events), EventBust)
			} else {
				require.Equal(t, EndTimeout, rulestest.Data[BankedData](t, out.Events, EventBanked).Cause)
			}
			if tt.win {
				require.Equal(t, PhaseGameOver, got.Phase)
				require.Equal(t, "alice", got.Winner)
				require.Equal(t, deadline, got.EndedAt)
				require.NotNil(t, rulestest.GameOver(t, out.Events))
				return
			}
			require.Equal(t, SeatOpponent, got.CurrentTurn)
			require.Equal(t, 1, got.Multiplier)
			require.Zero(t, got.TurnScore)
			require.Equal(t, deadline.Add(30*time.Second), got.TurnDeadline)
			require.Equal(t, EndTimeout, rulestest.Data[TurnEndedData](t, out.Events, EventTurnEnded).Reason)
		})
	}
}

func TestExpireTrueGritEnds(t *testing.T) {
	m := playing(t, "true-grit", SeatHost)
	m.TurnScore = 12
	m, _ = expire(t, m, 0)
	require.Equal(t, SeatOpponent, m.CurrentTurn)
	m.TurnScore = 11
	m, out := expire(t, m, 0)
	require.Equal(t, PhaseGameOver, m.Phase)
	require.Equal(t, "alice", m.Winner)
	require.Equal(t, ReasonScore, m.EndReason)
	require.NotNil(t, rulestest.GameOver(t, out.Events))
}

func TestExpireChainsAsOfDeadlines(t *testing.T) {
	m := playing(t, "classic", SeatHost) // deadline t0+30s
	require.Equal(t, t0.Add(30*time.Second), m.TurnDeadline)
	// A tick that runs very late applies each deadline as of its time.
	late := t0.Add(time.Hour)
	var want []time.Time
	for i := 1; i <= 4; i++ {
		d := Rules{}.Header(m).Deadline
		var err error
		m, _, err = Rules{}.Expire(m, domain.Env{Now: late, Dice: domain.Script()})
		require.NoError(t, err)
		want = append(want, d)
		require.Equal(t, d.Add(30*time.Second), m.TurnDeadline, "expiry %d", i)
	}
	require.Equal(t, []time.Time{t0.Add(30 * time.Second), t0.Add(60 * time.Second), t0.Add(90 * time.Second), t0.Add(120 * time.Second)}, want)
	require.Equal(t, 5, m.Turn)
	require.Equal(t, 2, m.Host.Timeouts)
	require.Equal(t, 2, m.Opponent.Timeouts)
}

func TestAbandon(t *testing.T) {
	t.Run("three idle timeouts in a row forfeit", func(t *testing.T) {
		m := joined(t, "classic")
		m, _ = expire(t, m, 0) // bob did not call: 1, alice starts
		m, _ = expire(t, m, 0) // alice 1
		m, _ = expire(t, m, 0) // bob 2
		m, _ = expire(t, m, 0) // alice 2
		require.Equal(t, PhaseGameplay, m.Phase)
		require.Equal(t, SeatOpponent, m.CurrentTurn)
		require.Equal(t, 2, m.Opponent.Timeouts)
		deadline := m.TurnDeadline
		m, out := expire(t, m, 0) // bob 3
		require.Equal(t, PhaseGameOver, m.Phase)
		require.Equal(t, "alice", m.Winner)
		require.Equal(t, "bob", m.Loser)
		require.Equal(t, ReasonAbandoned, m.EndReason)
		require.Equal(t, deadline, m.EndedAt)
		require.Equal(t, []string{EventTimedOut, EventBanked, EventForfeited, domain.EventGameOver}, rulestest.Types(out.Events))
		require.Equal(t, ForfeitedData{Seat: SeatOpponent, Reason: ReasonAbandoned}, out.Events[2].Data)
		require.Equal(t, &domain.GameOver{Kind: "dashdice", Mode: "classic", Winners: []string{"alice"}, Losers: []string{"bob"}, Reason: ReasonAbandoned, Players: []string{"alice", "bob"}},
			rulestest.GameOver(t, out.Events))
	})
	t.Run("acting resets the count", func(t *testing.T) {
		m := playing(t, "classic", SeatHost)
		m, _ = expire(t, m, 0) // alice 1
		m, _ = expire(t, m, 0) // bob 1
		m, _ = expire(t, m, 0) // alice 2
		m, _ = expire(t, m, 0) // bob 2
		require.Equal(t, SeatHost, m.CurrentTurn)
		m, _ = act(t, m, alice, ActionRoll, `{}`, m.TurnDeadline.Add(-time.Second), 2, 3)
		require.Zero(t, m.Host.Timeouts)
		m, _ = expire(t, m, 0) // alice 1 (she rolled; the timer banks)
		require.Equal(t, 5, m.Host.Score)
		require.Equal(t, 1, m.Host.Timeouts)
		m, out := expire(t, m, 0) // bob 3
		require.Equal(t, PhaseGameOver, m.Phase)
		require.Equal(t, "alice", m.Winner)
		require.NotNil(t, rulestest.GameOver(t, out.Events))
	})
}

func TestExpireErrors(t *testing.T) {
	over, _ := act(t, playing(t, "classic", SeatHost), bob, ActionForfeit, `{}`, t0)
	noTimer, err := NewMatch("m1", alice, modeByID(t, "classic"), Options{TurnSeconds: NoTimer}, t0)
	require.NoError(t, err)
	noTimer, _ = act(t, noTimer, bob, ActionJoin, `{}`, t0)
	early := playing(t, "classic", SeatHost)
	tests := []struct {
		name string
		m    Match
		now  time.Time
		msg  string
	}{
		{"over", over, t0.Add(time.Hour), "over"},
		{"no timer", noTimer, t0.Add(time.Hour), "no deadline"},
		{"too early", early, early.TurnDeadline.Add(-time.Millisecond), "has not passed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := rulestest.JSON(t, tt.m)
			got, out, err := Rules{}.Expire(tt.m, domain.Env{Now: tt.now, Dice: domain.Script()})
			require.Error(t, err)
			require.Equal(t, domain.ECONFLICT, domain.ErrorCode(err))
			require.Contains(t, domain.ErrorMessage(err), tt.msg)
			require.Equal(t, before, rulestest.JSON(t, got))
			require.Equal(t, before, rulestest.JSON(t, tt.m))
			require.Empty(t, out.Events)
		})
	}
}

func TestForfeit(t *testing.T) {
	t.Run("host cancels a waiting match", func(t *testing.T) {
		m, out := act(t, waiting(t, "classic"), alice, ActionForfeit, payload("forfeit", ""), t0.Add(time.Minute))
		require.True(t, m.Cancelled())
		require.Equal(t, ForfeitResult{Cancelled: true}, out.Result)
		require.Nil(t, rulestest.GameOver(t, out.Events))
		require.Equal(t, []domain.Event{{Type: EventCancelled, Player: "alice", Data: CancelledData{Reason: "hostLeft"}}}, out.Events)
	})
	for _, tt := range []struct {
		name   string
		m      func(t *testing.T) Match
		who    domain.Actor
		winner string
	}{
		{"opponent in turn decider", func(t *testing.T) Match { return joined(t, "classic") }, bob, "alice"},
		{"host in turn decider", func(t *testing.T) Match { return joined(t, "zero-hour") }, alice, "bob"},
		{"player not on turn", func(t *testing.T) Match { return playing(t, "last-line", SeatHost) }, bob, "alice"},
		{"player on turn", func(t *testing.T) Match { return playing(t, "true-grit", SeatHost) }, alice, "bob"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m := tt.m(t)
			m.TurnScore = 0
			got, out := act(t, m, tt.who, ActionForfeit, `{}`, t0.Add(5*time.Second))
			require.Equal(t, PhaseGameOver, got.Phase)
			require.Equal(t, tt.winner, got.Winner)
			require.Equal(t, tt.who.ID, got.Loser)
			require.Equal(t, ReasonForfeit, got.EndReason)
			require.Equal(t, ForfeitResult{Winner: tt.winner}, out.Result)
			require.Equal(t, []string{EventForfeited, domain.EventGameOver}, rulestest.Types(out.Events))
			require.Equal(t, tt.who.ID, out.Events[0].Player)
			require.Equal(t, &domain.GameOver{Kind: "dashdice", Mode: m.Mode.ID, Winners: []string{tt.winner}, Losers: []string{tt.who.ID}, Reason: ReasonForfeit, Players: []string{"alice", "bob"}},
				rulestest.GameOver(t, out.Events))
		})
	}
	t.Run("errors", func(t *testing.T) {
		over, _ := act(t, playing(t, "classic", SeatHost), bob, ActionForfeit, `{}`, t0)
		actErr(t, over, alice, ActionForfeit, `{}`, domain.ECONFLICT)
		actErr(t, playing(t, "classic", SeatHost), carol, ActionForfeit, `{}`, domain.EFORBIDDEN)
		actErr(t, waiting(t, "classic"), carol, ActionForfeit, `{}`, domain.EFORBIDDEN)
	})
}

func TestRematch(t *testing.T) {
	over, _ := act(t, playing(t, "quickfire", SeatHost), bob, ActionForfeit, `{}`, t0)
	now := t0.Add(time.Minute)

	m, out := act(t, over, alice, ActionRematch, payload("rematch", ""), now)
	require.True(t, m.Host.Rematch)
	require.False(t, m.Opponent.Rematch)
	require.Empty(t, m.RematchID)
	require.Empty(t, out.Spawn)
	require.Equal(t, RematchResult{Waiting: true}, out.Result)
	require.Equal(t, []domain.Event{{Type: EventRematchRequested, Player: "alice", Data: RematchRequestedData{Seat: SeatHost}}}, out.Events)

	err := actErr(t, m, alice, ActionRematch, `{}`, domain.ECONFLICT)
	require.Contains(t, domain.ErrorMessage(err), "already asked")

	m, out = act(t, m, bob, ActionRematch, `{}`, now)
	id := RematchID("m1")
	require.Len(t, id, 20)
	require.Equal(t, id, m.RematchID)
	require.Equal(t, RematchResult{RematchID: id}, out.Result)
	require.Equal(t, []string{EventRematchRequested, EventRematchCreated}, rulestest.Types(out.Events))
	require.Nil(t, rulestest.GameOver(t, out.Events))
	require.Len(t, out.Spawn, 1)
	require.Equal(t, id, out.Spawn[0].ID)
	next, ok := out.Spawn[0].State.(Match)
	require.True(t, ok, "spawn state is %T", out.Spawn[0].State)
	checkInvariants(t, next)
	require.Equal(t, Match{
		ID: id, Mode: modeByID(t, "quickfire"), Phase: PhaseTurnDecider, CreatedAt: now,
		Host:        Player{ID: "alice", Name: "Alice"},
		Opponent:    &Player{ID: "bob", Name: "Bob"},
		Multiplier:  1,
		TurnSeconds: 30, TurnDeadline: now.Add(30 * time.Second),
		RematchOf: "m1",
	}, next)

	// The rematch is a normal match.
	next, _ = act(t, next, bob, ActionCall, `{"call":"even"}`, now, 2)
	require.Equal(t, SeatOpponent, next.CurrentTurn)

	err = actErr(t, m, alice, ActionRematch, `{}`, domain.ECONFLICT)
	require.Contains(t, domain.ErrorMessage(err), "already been created")

	t.Run("keeps no timer and privacy", func(t *testing.T) {
		m, err := NewMatch("room", alice, modeByID(t, "true-grit"), Options{TurnSeconds: NoTimer, Private: true}, t0)
		require.NoError(t, err)
		m, _ = act(t, m, bob, ActionJoin, `{}`, t0)
		m, _ = act(t, m, alice, ActionForfeit, `{}`, t0)
		m, _ = act(t, m, bob, ActionRematch, `{}`, t0)
		_, out := act(t, m, alice, ActionRematch, `{}`, t0)
		next := out.Spawn[0].State.(Match)
		require.Zero(t, next.TurnSeconds)
		require.True(t, next.TurnDeadline.IsZero())
		require.True(t, next.Private)
		require.Equal(t, RematchID("room"), next.ID)
	})
	t.Run("errors", func(t *testing.T) {
		cancelled, _ := act(t, waiting(t, "classic"), alice, ActionForfeit, `{}`, t0)
		actErr(t, playing(t, "classic", SeatHost), alice, ActionRematch, `{}`, domain.ECONFLICT)
		actErr(t, joined(t, "classic"), bob, ActionRematch, `{}`, domain.ECONFLICT)
		actErr(t, over, carol, ActionRematch, `{}`, domain.EFORBIDDEN)
		err := actErr(t, cancelled, alice, ActionRematch, `{}`, domain.ECONFLICT)
		require.Contains(t, domain.ErrorMessage(err), "cancelled")
	})
}

func TestApplyErrors(t *testing.T) {
	over, _ := act(t, playing(t, "classic", SeatHost), bob, ActionForfeit, `{}`, t0)
	tests := []struct {
		name string
		m    Match
		who  domain.Actor
		typ  string
		body string
		code string
		msg  string
	}{
		{"unknown type", playing(t, "classic", SeatHost), alice, "shuffle", `{}`, domain.EINVALID, `unknown action type "shuffle"`},
		{"empty type", playing(t, "classic", SeatHost), alice, "", `{}`, domain.EINVALID, "unknown action type"},
		{"roll not your turn", playing(t, "classic", SeatHost), bob, ActionRoll, `{}`, domain.ECONFLICT, "not your turn"},
		{"bank not your turn", playing(t, "zero-hour", SeatOpponent), alice, ActionBank, `{}`, domain.ECONFLICT, "not your turn"},
		{"roll by stranger", playing(t, "classic", SeatHost), carol, ActionRoll, `{}`, domain.EFORBIDDEN, "not a player"},
		{"bank by stranger", playing(t, "classic", SeatHost), carol, ActionBank, `{}`, domain.EFORBIDDEN, "not a player"},
		{"roll while waiting", waiting(t, "classic"), alice, ActionRoll, `{}`, domain.ECONFLICT, "waiting for an opponent"},
		{"roll in turn decider", joined(t, "classic"), alice, ActionRoll, `{}`, domain.ECONFLICT, "odd or even"},
		{"bank in turn decider", joined(t, "classic"), bob, ActionBank, `{}`, domain.ECONFLICT, "odd or even"},
		{"roll when over", over, alice, ActionRoll, `{}`, domain.ECONFLICT, "over"},
		{"bank when over", over, alice, ActionBank, `{}`, domain.ECONFLICT, "over"},
		{"call when over", over, bob, ActionCall, `{"call":"odd"}`, domain.ECONFLICT, "over"},
		{"malformed roll", playing(t, "classic", SeatHost), alice, ActionRoll, `{"gameId":`, domain.EINVALID, "malformed"},
		{"array roll", playing(t, "classic", SeatHost), alice, ActionRoll, `[1,2]`, domain.EINVALID, "malformed"},
		{"malformed bank", playing(t, "classic", SeatHost), alice, ActionBank, `nope`, domain.EINVALID, "malformed"},
		{"malformed join", waiting(t, "classic"), bob, ActionJoin, `{`, domain.EINVALID, "malformed"},
		{"malformed forfeit", playing(t, "classic", SeatHost), alice, ActionForfeit, `{]`, domain.EINVALID, "malformed"},
		{"malformed rematch", over, alice, ActionRematch, `"x`, domain.EINVALID, "malformed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := actErr(t, tt.m, tt.who, tt.typ, tt.body, tt.code)
			require.Contains(t, domain.ErrorMessage(err), tt.msg)
		})
	}
	t.Run("empty payload is an empty object", func(t *testing.T) {
		m, _ := act(t, playing(t, "classic", SeatHost), alice, ActionRoll, ``, t0, 2, 3)
		require.Equal(t, 5, m.TurnScore)
	})
}

func TestApplyDoesNotShareState(t *testing.T) {
	m := playing(t, "zero-hour", SeatHost)
	before := rulestest.JSON(t, m)
	got, _ := act(t, m, alice, ActionRoll, `{}`, t0, 3, 3) // gifts bob 6
	require.NotSame(t, m.Opponent, got.Opponent)
	got.Opponent.Score = 999
	got.Host.Name = "changed"
	require.Equal(t, before, rulestest.JSON(t, m))
}

func TestMatchJSON(t *testing.T) {
	m := playing(t, "classic", SeatOpponent)
	b, err := json.Marshal(m)
	require.NoError(t, err)
	var got map[string]any
	require.NoError(t, json.Unmarshal(b, &got))
	for _, k := range []string{"id", "mode", "phase", "host", "opponent", "currentTurn", "currentPlayerId", "turn", "turnScore",
		"dice", "multiplier", "turnSeconds", "turnDeadline", "createdAt", "call", "deciderDie", "firstTurn"} {
		require.Contains(t, got, k)
	}
	require.Equal(t, "opponent", got["currentTurn"])
	require.Equal(t, "bob", got["currentPlayerId"])
	require.Equal(t, map[string]any{"id": "bob", "name": "Bob", "score": 0.0, "timeouts": 0.0, "rematch": false}, got["opponent"])
	require.NotContains(t, got, "joinDeadline", "zero times are left out")
	require.NotContains(t, got, "winner")

	w := waiting(t, "classic")
	b, err = json.Marshal(w)
	require.NoError(t, err)
	require.Contains(t, string(b), `"opponent":null`)
	require.NotContains(t, string(b), "turnDeadline")
}
