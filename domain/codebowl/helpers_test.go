package codebowl

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/rulestest"
)

var (
	t0  = time.Date(2026, 3, 14, 15, 9, 26, 0, time.UTC)
	ann = domain.Actor{ID: "ann", Name: "Ann", Role: domain.RolePlayer} // home
	ben = domain.Actor{ID: "ben", Name: "Ben", Role: domain.RolePlayer} // away
	eve = domain.Actor{ID: "eve", Name: "Eve", Role: domain.RoleGuest}  // not seated
)

// spec returns a valid team spec: seven 4/4/4 players, default armor.
func spec(name string) TeamSpec {
	ts := TeamSpec{Name: name, Image: "https://img.example/" + strings.ToLower(name) + ".png"}
	for i := 0; i < TeamSize; i++ {
		ts.Players = append(ts.Players, PlayerSpec{Name: fmt.Sprintf("%s %d", name, i+1), ST: 4, AG: 4, MV: 4})
	}
	return ts
}

// team returns a new valid team of coach.
func team(t testing.TB, id string, coach domain.Actor) Team {
	t.Helper()
	tm, err := NewTeam(id, coach.ID, spec(strings.ToUpper(id[:1])+id[1:]))
	require.NoError(t, err)
	return tm
}

// waiting returns a match created by ann with opts.
func waiting(t testing.TB, opts Options) Match {
	t.Helper()
	m, err := NewMatch("m1", ann, team(t, "reds", ann), opts, t0)
	require.NoError(t, err)
	checkInvariants(t, m)
	return m
}

// joined returns a match ben joined; coin is the d2 (1: home receives).
func joined(t testing.TB, opts Options, coin int) Match {
	t.Helper()
	m := waiting(t, opts)
	d := domain.Script(coin)
	got, _, err := Join(m, ben, team(t, "blues", ben), domain.Env{Now: t0, Dice: d})
	require.NoError(t, err)
	require.Zero(t, d.Remaining())
	checkInvariants(t, got)
	return got
}

// kickedOff returns a match in play after both coaches placed in the line
// formation, home receiving, the ball kicked off to an empty square (d110 =
// kick), home to move.
func kickedOff(t testing.TB, opts Options) Match {
	t.Helper()
	m := joined(t, opts, 1)
	m, _ = act(t, m, ben, ActionPlace, placeBody(defaultPlacement(m, Away)), t0)
	m, _ = act(t, m, ann, ActionPlace, placeBody(defaultPlacement(m, Home)), t0, 1) // (0,0): empty
	require.Equal(t, PhasePlay, m.Phase)
	require.Equal(t, Home, m.Active)
	return m
}

func placeBody(ps []Placement) string {
	b, _ := json.Marshal(map[string]any{"positions": ps})
	return string(b)
}

// pl is a player of a scene.
type pl struct {
	side           Side
	x, y           int
	st, ag, mv, ar int // 0: 4, 4, 4, 3
	down           bool
}

func h(x, y int) pl { return pl{side: Home, x: x, y: y} }
func a(x, y int) pl { return pl{side: Away, x: x, y: y} }

func (p pl) stats(st, ag, mv int) pl { p.st, p.ag, p.mv = st, ag, mv; return p }
func (p pl) armor(ar int) pl         { p.ar = ar; return p }
func (p pl) fallen() pl              { p.down = true; return p }

// scene returns a match in play, half 1, home's first turn, home on offense,
// with exactly the players given: home's are h1, h2, … and away's a1, a2, …
// in order. The ball lies loose out of the way on (12,10) until withBall or
// carriedBy.
func scene(t testing.TB, players ...pl) Match {
	t.Helper()
	o, err := Options{}.resolve()
	require.NoError(t, err)
	m := Match{ID: "m1", Options: o, Phase: PhasePlay, CreatedAt: t0,
		Home:         TeamSide{Coach: ann.ID, CoachName: ann.Name, TeamID: "reds", TeamName: "Reds"},
		Away:         TeamSide{Coach: ben.ID, CoachName: ben.Name, TeamID: "blues", TeamName: "Blues"},
		FirstOffense: Home, CoinDie: 1, Half: 1, Drive: 1, Offense: Home, Active: Home, HalfStarter: Home,
		HalfTurns: 1, Turn: 1, Deadline: t0.Add(DefaultTurnSeconds * time.Second),
		Ball: Ball{State: BallLoose, Pos: Square{12, 10}}}
	m.Home.Turns = 1
	for _, p := range players {
		ts := m.side(p.side)
		id := fmt.Sprintf("%s%d", string(p.side[0]), len(ts.Players)+1)
		mp := MatchPlayer{ID: id, Name: strings.ToUpper(id), ST: or(p.st, 4), AG: or(p.ag, 4), MV: or(p.mv, 4), AR: or(p.ar, 3),
			State: StateStanding, Pos: Square{p.x, p.y}}
		if p.down {
			mp.State = StateDown
		}
		ts.Players = append(ts.Players, mp)
	}
	if _, taken := m.at(m.Ball.Pos); taken {
		t.Fatalf("a scene player on the ball's square %v", m.Ball.Pos)
	}
	return m
}

func or(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}

// withBall puts the loose ball on (x, y).
func withBall(m Match, x, y int) Match {
	m.Ball = Ball{State: BallLoose, Pos: Square{x, y}}
	return m
}

// carriedBy gives the ball to player id; his side is on offense.
func carriedBy(m Match, id string) Match {
	side, i, ok := m.find(id)
	if !ok {
		panic("no player " + id)
	}
	m.Ball = Ball{State: BallCarried, Pos: m.side(side).Players[i].Pos, Carrier: id}
	m.Offense = side
	return m
}

// pos returns player id's square and state.
func pos(t testing.TB, m Match, id string) (Square, PlayerState) {
	t.Helper()
	side, i, ok := m.find(id)
	require.True(t, ok, "no player %s", id)
	p := m.side(side).Players[i]
	return p.Pos, p.State
}

// path parses "x,y x,y …".
func path(s string) []Square {
	var out []Square
	for _, f := range strings.Fields(s) {
		var q Square
		if _, err := fmt.Sscanf(f, "%d,%d", &q.X, &q.Y); err != nil {
			panic(err)
		}
		out = append(out, q)
	}
	return out
}

func moveBody(player, steps string) string {
	b, _ := json.Marshal(map[string]any{"player": player, "path": path(steps)})
	return string(b)
}

// move applies a move of player along steps by the coach on turn, rolling dice.
func move(t testing.TB, m Match, player, steps string, dice ...int) (Match, domain.Outcome) {
	t.Helper()
	who := ann
	if m.Active == Away {
		who = ben
	}
	return act(t, m, who, ActionMove, moveBody(player, steps), t0, dice...)
}

func coach(side Side) domain.Actor {
	if side == Home {
		return ann
	}
	return ben
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

// actErr applies an action that must fail with code, rolling nothing, and
// checks nothing changed.
func actErr(t testing.TB, m Match, who domain.Actor, typ, body, code string) error {
	t.Helper()
	before := rulestest.JSON(t, m)
	got, out, err := Rules{}.Apply(m, domain.Action{ID: "a-1", Type: typ, Actor: who, Payload: json.RawMessage(body)},
		domain.Env{Now: t0, Dice: domain.Script()})
	require.Error(t, err, "%s by %s: want error %s", typ, who.ID, code)
	require.Equal(t, code, domain.ErrorCode(err), "%s by %s: got %v", typ, who.ID, err)
	require.NotEmpty(t, domain.ErrorMessage(err))
	require.Equal(t, before, rulestest.JSON(t, m), "Apply changed its input")
	require.Equal(t, before, rulestest.JSON(t, got), "Apply returned a changed state with an error")
	require.Empty(t, out.Events)
	return err
}

// expire runs Expire as of the current deadline plus late, rolling dice.
func expire(t testing.TB, m Match, late time.Duration, dice ...int) (Match, domain.Outcome) {
	t.Helper()
	before := rulestest.JSON(t, m)
	dl := Rules{}.Header(m).Deadline
	require.False(t, dl.IsZero(), "no deadline to expire")
	d := domain.Script(dice...)
	got, out, err := Rules{}.Expire(m, domain.Env{Now: dl.Add(late), Dice: d})
	require.NoError(t, err)
	require.Zero(t, d.Remaining(), "Expire rolled fewer dice than scripted")
	require.Equal(t, before, rulestest.JSON(t, m), "Expire changed its input")
	checkInvariants(t, got)
	return got, out
}

// checkInvariants checks what must hold of every reachable state, and
// returns its JSON.
func checkInvariants(t testing.TB, m Match) string {
	t.Helper()
	b, err := json.Marshal(m)
	require.NoError(t, err)
	var back Match
	require.NoError(t, json.Unmarshal(b, &back))
	require.Equal(t, m, back, "JSON round trip") // so marshalling back gives b again

	h := Rules{}.Header(m)
	require.Equal(t, m.Home.Coach, h.Players[0])
	require.LessOrEqual(t, len(m.Log), LogSize)

	// One player per square; positions agree with states. (Plain checks in
	// these loops: require's bookkeeping would dominate the random matches.)
	var occ [Width][Height]string
	for _, side := range []Side{Home, Away} {
		for _, p := range m.side(side).Players {
			switch {
			case p.OnPitch() && !p.Pos.OnPitch():
				t.Fatalf("%s is %s at %v, off the pitch", p.ID, p.State, p.Pos)
			case p.OnPitch() && occ[p.Pos.X][p.Pos.Y] != "":
				t.Fatalf("%s and %s on %v", p.ID, occ[p.Pos.X][p.Pos.Y], p.Pos)
			case p.OnPitch():
				occ[p.Pos.X][p.Pos.Y] = p.ID
			case p.Pos != offPitch || (p.State != StateReserve && p.State != StateDead) || p.Acted:
				t.Fatalf("%s is %s at %v, acted %v", p.ID, p.State, p.Pos, p.Acted)
			}
			if side != m.Active && p.Acted {
				t.Fatalf("%s of the side not on turn has acted", p.ID)
			}
		}
	}
	// The ball is in exactly one place.
	switch m.Ball.State {
	case BallNone:
		require.Equal(t, offPitch, m.Ball.Pos)
		require.Empty(t, m.Ball.Carrier)
		require.NotEqual(t, PhasePlay, m.Phase, "no ball in play")
	case BallLoose:
		require.True(t, m.Ball.Pos.OnPitch())
		require.Empty(t, occ[m.Ball.Pos.X][m.Ball.Pos.Y], "a loose ball under a player")
		require.Empty(t, m.Ball.Carrier)
	case BallCarried:
		side, i, ok := m.find(m.Ball.Carrier)
		require.True(t, ok, "carrier %s", m.Ball.Carrier)
		p := m.side(side).Players[i]
		require.Equal(t, StateStanding, p.State, "the carrier stands")
		require.Equal(t, p.Pos, m.Ball.Pos)
		if m.Phase == PhasePlay {
			require.NotEqual(t, GoalColumn(side), p.Pos.X, "a carrier in his goal column has scored")
		}
	default:
		t.Fatalf("ball state %q", m.Ball.State)
	}
	require.GreaterOrEqual(t, m.Home.Score, 0)
	require.GreaterOrEqual(t, m.Away.Score, 0)

	n := m.Options.TurnsPerHalf
	switch m.Phase {
	case PhaseWaiting:
		require.Equal(t, domain.StatusWaiting, h.Status)
		require.Len(t, h.Players, 1)
		require.Equal(t, m.JoinDeadline, h.Deadline)
		require.False(t, m.JoinDeadline.IsZero())
	case PhaseSetup, PhasePlay:
		require.Equal(t, domain.StatusActive, h.Status)
		require.Len(t, h.Players, 2)
		require.NotEqual(t, h.Players[0], h.Players[1])
		require.Equal(t, m.Options.TurnSeconds > 0, !m.Deadline.IsZero(), "a deadline exactly when there is a timer")
		require.Equal(t, m.Deadline, h.Deadline)
		require.Contains(t, []int{1, 2}, m.Half)
		require.Empty(t, m.Winner)
		require.Nil(t, m.Summary)
		require.True(t, m.JoinDeadline.IsZero())
		require.GreaterOrEqual(t, m.HalfTurns, 0)
		require.LessOrEqual(t, m.HalfTurns, 2*n)
		require.LessOrEqual(t, m.Home.Turns+m.Away.Turns, 4*n)
		if m.Phase == PhasePlay {
			require.Empty(t, m.Placing)
			require.Equal(t, (m.HalfTurns+1)/2, m.Turn)
			require.GreaterOrEqual(t, m.HalfTurns, 1)
			want := m.HalfStarter
			if m.HalfTurns%2 == 0 {
				want = want.Other()
			}
			require.Equal(t, want, m.Active, "turns alternate from the half's starter")
			for _, side := range []Side{Home, Away} {
				for _, p := range m.side(side).Players {
					if p.State == StateReserve {
						t.Fatalf("%s in reserve in play", p.ID)
					}
				}
			}
		} else {
			require.Empty(t, m.Active)
			require.Contains(t, []Side{Home, Away}, m.Placing)
			require.Less(t, m.HalfTurns, 2*n)
			for _, side := range []Side{Home, Away} {
				placed := side != m.Placing && m.Placing == m.Offense
				for _, p := range m.side(side).Players {
					switch {
					case p.State == StateDead:
					case placed && (p.State != StateStanding || !InHalf(side, p.Pos)):
						t.Fatalf("%s is %s on %v in setup: want standing in his half", p.ID, p.State, p.Pos)
					case !placed && p.State != StateReserve:
						t.Fatalf("%s is %s in setup before his placement", p.ID, p.State)
					}
				}
			}
		}
	case PhaseOver:
		require.Equal(t, domain.StatusOver, h.Status)
		require.True(t, h.Deadline.IsZero())
		require.Empty(t, m.Active)
		require.NotEmpty(t, m.EndReason)
		require.False(t, m.EndedAt.IsZero())
		if m.EndReason == ReasonCancelled {
			require.Empty(t, m.Winner)
			require.Nil(t, m.Summary)
			break
		}
		require.NotNil(t, m.Summary)
		require.Equal(t, m.Home.Score, m.Summary.Home.Score)
		require.Equal(t, m.Away.Score, m.Summary.Away.Score)
		require.Equal(t, m.Dead(Home), m.Summary.Home.Dead)
		require.Equal(t, m.Dead(Away), m.Summary.Away.Dead)
		if m.Draw {
			require.Empty(t, m.Winner)
			require.Equal(t, ReasonPoints, m.EndReason)
			require.Equal(t, m.Home.Score, m.Away.Score)
		} else {
			require.Equal(t, m.side(m.WinnerSide).Coach, m.Winner)
			require.Equal(t, m.side(m.WinnerSide.Other()).Coach, m.Loser)
		}
		switch m.EndReason {
		case ReasonPoints:
			if !m.Draw {
				require.Greater(t, m.side(m.WinnerSide).Score, m.side(m.WinnerSide.Other()).Score)
			}
		case ReasonElimination:
			require.Zero(t, m.side(m.WinnerSide.Other()).alive())
		}
	default:
		t.Fatalf("unknown phase %q", m.Phase)
	}
	return string(b)
}
