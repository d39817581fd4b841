package codebowl

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain/rulestest"
)

func TestBounceChainIsCut(t *testing.T) {
	// Two players who never catch, the ball scattering back and forth
	// between them: after maxBounces arrivals it rests on the nearest empty
	// square.
	m := scene(t, h(5, 5).stats(4, 1, 7), h(6, 5).stats(4, 1, 7), a(15, 0))
	s := newStep(m, t0, &cycleDice{values: []int{100, 3, 100, 7}}, "ann")
	s.land(Square{5, 5})
	require.Equal(t, Ball{State: BallLoose, Pos: Square{4, 4}}, s.m.Ball)
	require.Equal(t, EventBallRests, s.events[len(s.events)-1].Type)
	require.Len(t, rulestest.All[BallRollData](t, s.events, EventCatchFailed), maxBounces)
	checkInvariants(t, s.m)
}

func TestGeometry(t *testing.T) {
	require.True(t, Square{0, 0}.OnPitch())
	require.True(t, Square{19, 10}.OnPitch())
	require.False(t, Square{20, 0}.OnPitch())
	require.False(t, Square{0, 11}.OnPitch())
	require.False(t, Square{-1, 3}.OnPitch())
	require.True(t, Square{3, 3}.Adjacent(Square{4, 4}))
	require.False(t, Square{3, 3}.Adjacent(Square{3, 3}))
	require.False(t, Square{3, 3}.Adjacent(Square{5, 3}))
	require.True(t, InHalf(Home, Square{9, 10}))
	require.False(t, InHalf(Home, Square{10, 0}))
	require.True(t, InHalf(Away, Square{10, 0}))
	require.Equal(t, 19, GoalColumn(Home))
	require.Equal(t, 0, GoalColumn(Away))
	require.Equal(t, Square{0, 0}, halfSquare(Home, 1))
	require.Equal(t, Square{19, 10}, halfSquare(Away, 110))
	require.Equal(t, Square{10, 0}, halfSquare(Away, 1))
	require.Equal(t, Square{19, 10}, pitchSquare(220))
	require.Equal(t, Square{0, 1}, pitchSquare(21))
	require.Equal(t, 8, column(Home, 1))
	require.Equal(t, 11, column(Away, 1))
	for i, d := range Directions {
		require.Equal(t, i, dirIndex(d))
	}
	require.Equal(t, -1, dirIndex(Square{0, 0}))
}

// TestJSONShapes pins the documents the platform stores.
func TestJSONShapes(t *testing.T) {
	tm := team(t, "reds", ann)
	b, err := json.Marshal(tm)
	require.NoError(t, err)
	require.JSONEq(t, `{"id":"reds","coach":"ann","name":"Reds","image":"https://img.example/reds.png","nextPlayer":8,"restarts":0,"players":[
		{"id":"reds.1","name":"Reds 1","st":4,"ag":4,"mv":4,"ar":3},
		{"id":"reds.2","name":"Reds 2","st":4,"ag":4,"mv":4,"ar":3},
		{"id":"reds.3","name":"Reds 3","st":4,"ag":4,"mv":4,"ar":3},
		{"id":"reds.4","name":"Reds 4","st":4,"ag":4,"mv":4,"ar":3},
		{"id":"reds.5","name":"Reds 5","st":4,"ag":4,"mv":4,"ar":3},
		{"id":"reds.6","name":"Reds 6","st":4,"ag":4,"mv":4,"ar":3},
		{"id":"reds.7","name":"Reds 7","st":4,"ag":4,"mv":4,"ar":3}]}`, string(b))
	var back Team
	require.NoError(t, json.Unmarshal(b, &back))
	require.Equal(t, tm, back)

	m := scene(t, h(5, 5), a(6, 5).fallen())
	m.Log = []string{"kick-off"}
	b, err = json.Marshal(m)
	require.NoError(t, err)
	require.JSONEq(t, `{"id":"m1","options":{"turnSeconds":120,"turnsPerHalf":8,"armor":false,"private":false},
		"phase":"play","createdAt":"2026-03-14T15:09:26Z",
		"home":{"coach":"ann","coachName":"Ann","teamId":"reds","teamName":"Reds","score":0,"turns":1,"timeouts":0,
			"players":[{"id":"h1","name":"H1","st":4,"ag":4,"mv":4,"ar":3,"state":"standing","pos":{"x":5,"y":5}}]},
		"away":{"coach":"ben","coachName":"Ben","teamId":"blues","teamName":"Blues","score":0,"turns":0,"timeouts":0,
			"players":[{"id":"a1","name":"A1","st":4,"ag":4,"mv":4,"ar":3,"state":"down","pos":{"x":6,"y":5}}]},
		"firstOffense":"home","coinDie":1,"half":1,"drive":1,"offense":"home","active":"home","halfStarter":"home",
		"halfTurns":1,"turn":1,"ball":{"state":"loose","pos":{"x":12,"y":10}},
		"deadline":"2026-03-14T15:11:26Z","log":["kick-off"]}`, string(b))
}
