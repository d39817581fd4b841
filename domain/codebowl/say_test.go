package codebowl

import (
	"testing"

	"github.com/meeple-games/meeple/domain"
)

func TestSay(t *testing.T) {
	m := Match{
		Home: TeamSide{Coach: "ann", CoachName: "Ann", TeamName: "Reds", Players: []MatchPlayer{{ID: "r1", Name: "Grok"}}, Score: 2},
		Away: TeamSide{Coach: "ben", CoachName: "Ben", TeamName: "Blues", Players: []MatchPlayer{{ID: "b1", Name: "Bly"}}, Score: 1},
	}
	to := Square{X: 3, Y: 4}
	for _, tc := range []struct {
		name string
		ev   domain.Event
		want string
	}{
		{"joined", domain.Event{Type: EventJoined, Data: JoinedData{Side: Away, CoachName: "Ben", TeamName: "Blues"}}, "Blues (coach Ben) joined as away"},
		{"turn", domain.Event{Type: EventTurnStarted, Data: TurnStartedData{Side: Home, Half: 1, Turn: 3}}, "half 1, turn 3: Reds's turn"},
		{"moved", domain.Event{Type: EventMoved, Data: MovedData{Side: Home, Player: "r1", To: to}}, "Grok (Reds) moved to (3, 4)"},
		{"attacked", domain.Event{Type: EventAttacked, Data: AttackedData{Side: Home, Attacker: "r1", Target: "b1", AttackerST: 4, TargetST: 3, AssistPts: 1, Roll: 2, Result: AttackKnockdown}}, "Grok (Reds) attacked Bly (Blues) (ST 5 against 3, rolled 2): knockdown"},
		{"pushed off", domain.Event{Type: EventPushedOff, Data: PushedData{Side: Away, Player: "b1"}}, "Bly (Blues) was pushed off the pitch"},
		{"scored", domain.Event{Type: EventScored, Data: ScoredData{Side: Home, Player: "r1", Home: 2, Away: 1}}, "touchdown! Grok (Reds) scored for Reds (2–1)"},
		{"turnover", domain.Event{Type: EventTurnover, Data: TurnoverData{Side: Away, Reason: EndTripped}}, "turnover for Blues (a player tripped)"},
		{"ball", domain.Event{Type: EventScattered, Data: BallMoveData{To: to}}, "the ball scattered to (3, 4)"},
		{"won", domain.Event{Type: domain.EventGameOver, Data: domain.GameOver{Winners: []string{"ann"}, Reason: ReasonPoints}}, "Reds wins, 2–1: the higher score"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := (Rules{}).Say(m, tc.ev); got != tc.want {
				t.Errorf("Say = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestPlatformGameSays: the platform game's rules (wrapped for the call)
// still say the events; a wrapper once hid Say from Single.
func TestPlatformGameSays(t *testing.T) {
	r := PlatformGame{}.rules(nil, nil)
	if _, ok := r.(domain.Sayer[Match]); !ok {
		t.Fatalf("%T is not a domain.Sayer[Match]", r)
	}
}
