package partyboard

import (
	"testing"

	"github.com/meeple-games/meeple/domain"
)

func TestSay(t *testing.T) {
	g := Game{Players: []Player{{ID: "a", Name: "Ann"}, {ID: "b", Name: "Ben"}}}
	tile := 7
	for _, tc := range []struct {
		name string
		ev   domain.Event
		want string
	}{
		{"joined", domain.Event{Type: EventJoined, Player: "b", Data: JoinedData{Name: "Ben", Seat: 1}}, "Ben joined"},
		{"started", domain.Event{Type: EventStarted, Player: "a", Data: StartedData{Board: "pokemon-gen1", Players: []string{"a", "b"}}}, "the game starts on pokemon-gen1: Ann and Ben"},
		{"turn", domain.Event{Type: EventTurnStarted, Player: "b", Data: TurnStartedData{Turn: 4, Tile: 12}}, "turn 4: Ben's turn, on tile 12"},
		{"rolled", domain.Event{Type: EventRolled, Player: "a", Data: RolledData{Purpose: PurposeTurnRoll, Rolls: []int{5}}}, "Ann rolled 5 to move"},
		{"moved", domain.Event{Type: EventMoved, Player: "a", Data: MovedData{From: 3, To: 8, Cause: CauseRoll, Stop: StopMandatory}}, "Ann moved from tile 3 to tile 8 (stopped at a mandatory tile)"},
		{"rule", domain.Event{Type: EventRule, Player: "a", Data: RuleData{Type: "SkipTurnRule", Text: "Lose a turn"}}, "Ann: Lose a turn"},
		{"effect", domain.Event{Type: EventEffect, Player: "a", Data: EffectData{Target: "b", Effect: EffectLostTurns, Value: 2}}, "Ben will lose 2 turns"},
		{"mandatory tile", domain.Event{Type: EventEffect, Player: "a", Data: EffectData{Target: "a", Effect: EffectMandatoryTile, Tile: &tile}}, "tile 7 is now mandatory for Ann"},
		{"challenge", domain.Event{Type: EventChallenged, Player: "a", Data: ChallengedData{Winner: "b", Loser: "a"}}, "Ben won the challenge against Ann: an extra turn, and Ann loses one"},
		{"timed out", domain.Event{Type: EventTimedOut, Player: "b", Data: TimedOutData{Strikes: 2}}, "Ben ran out of time: the default was played (2 in a row)"},
		{"left", domain.Event{Type: EventRemoved, Player: "x", Data: RemovedData{By: BySelf}}, "a player left the game"},
		{"won", domain.Event{Type: domain.EventGameOver, Player: "a", Data: domain.GameOver{Winners: []string{"a"}, Reason: ReasonFinish}}, "Ann wins: reached the finish"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := (Rules{}).Say(g, tc.ev); got != tc.want {
				t.Errorf("Say = %q, want %q", got, tc.want)
			}
		})
	}
}
