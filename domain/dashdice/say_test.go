package dashdice

import (
	"testing"

	"github.com/meeple-games/meeple/domain"
)

func TestSay(t *testing.T) {
	m := playing(t, "classic", SeatHost)
	for _, tc := range []struct {
		name string
		ev   domain.Event
		want string
	}{
		{"joined", domain.Event{Type: EventJoined, Player: "bob", Data: JoinedData{Seat: SeatOpponent, Name: "Bob"}}, "Bob joined"},
		{"called", domain.Event{Type: EventCalled, Player: "bob", Data: CalledData{Call: "odd", Die: 4, FirstTurn: SeatHost}}, "Bob called odd, the die shows 4 (wrong): Alice starts"},
		{"call timed out", domain.Event{Type: EventCalled, Player: "bob", Data: CalledData{FirstTurn: SeatHost}}, "Bob did not call in time: Alice starts"},
		{"turn started", domain.Event{Type: EventTurnStarted, Player: "alice", Data: TurnStartedData{Turn: 3, Seat: SeatHost}}, "turn 3: Alice's turn"},
		{"rolled", domain.Event{Type: EventRolled, Player: "alice", Data: RolledData{Dice: [2]int{2, 3}, Class: ClassNormal, Points: 5, TurnScore: 11, Multiplier: 1}}, "Alice rolled 2 and 3: +5 (turn score 11)"},
		{"rolled a double", domain.Event{Type: EventRolled, Player: "alice", Data: RolledData{Dice: [2]int{4, 4}, Class: ClassDouble, Points: 8, TurnScore: 8, Multiplier: 2}}, "Alice rolled 4 and 4: +8 (turn score 8, ×2)"},
		{"single one", domain.Event{Type: EventRolled, Player: "bob", Data: RolledData{Dice: [2]int{1, 5}, Class: ClassSingleOne, TurnOver: true}}, "Bob rolled 1 and 5: a single 1 ends the turn"},
		{"double six reset", domain.Event{Type: EventRolled, Player: "bob", Data: RolledData{Dice: [2]int{6, 6}, Class: ClassDoubleSix, ScoreReset: true}}, "Bob rolled 6 and 6: double six, banked score back to 0"},
		{"banked", domain.Event{Type: EventBanked, Player: "alice", Data: BankedData{Amount: 12, Score: 40, Cause: EndBank}}, "Alice banked 12 (score 40)"},
		{"banked on timeout", domain.Event{Type: EventBanked, Player: "alice", Data: BankedData{Amount: 3, Score: 3, Cause: EndTimeout}}, "Alice banked 3 (score 3) as the timer ran out"},
		{"bust", domain.Event{Type: EventBust, Player: "alice", Data: BustData{Amount: 9, Score: 4}}, "Alice went bust: banking 9 would go below 0 (score stays 4)"},
		{"turn ended", domain.Event{Type: EventTurnEnded, Player: "bob", Data: TurnEndedData{Turn: 2, Seat: SeatOpponent, Reason: EndSingleOne}}, "Bob's turn ended (a single 1)"},
		{"timed out", domain.Event{Type: EventTimedOut, Player: "bob", Data: TimedOutData{Phase: PhaseGameplay, Seat: SeatOpponent, Timeouts: 2}}, "Bob ran out of time (2 in a row)"},
		{"forfeited", domain.Event{Type: EventForfeited, Player: "bob", Data: ForfeitedData{Seat: SeatOpponent, Reason: ReasonForfeit}}, "Bob forfeited"},
		{"cancelled", domain.Event{Type: EventCancelled, Player: "alice", Data: CancelledData{Reason: "noOpponent"}}, "the match was cancelled: nobody joined in time"},
		{"rematch asked", domain.Event{Type: EventRematchRequested, Player: "alice", Data: RematchRequestedData{Seat: SeatHost}}, "Alice asks for a rematch"},
		{"game over", domain.Event{Type: domain.EventGameOver, Player: "alice", Data: domain.GameOver{Winners: []string{"alice"}, Reason: ReasonTarget}}, "Alice wins: reached the target"},
		{"draw", domain.Event{Type: domain.EventGameOver, Data: domain.GameOver{Draw: true, Reason: ReasonScore}}, "the match is a draw"},
		{"unknown", domain.Event{Type: "somethingNew"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := (Rules{}).Say(m, tc.ev); got != tc.want {
				t.Errorf("Say = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestSingleSaysEveryEvent plays a match through the platform's Single: every
// event it records carries its words.
func TestSingleSaysEveryEvent(t *testing.T) {
	var _ domain.Sayer[Match] = Rules{}
	m := joined(t, "quickfire")
	events := []domain.Event{{Type: EventRolled, Player: "alice", Data: RolledData{Dice: [2]int{2, 2}, Class: ClassDouble, Points: 4, TurnScore: 4, Multiplier: 2}}}
	domain.SayAll(Rules{}, m, events)
	if got, want := events[0].Text, "Alice rolled 2 and 2: +4 (turn score 4, ×2)"; got != want {
		t.Errorf("Text = %q, want %q", got, want)
	}
}
