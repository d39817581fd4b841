package hexdice

import (
	"testing"

	"github.com/meeple-games/meeple/domain"
)

func TestSay(t *testing.T) {
	g := Game{
		Players:    []Player{{ID: "a", Name: "Ann"}, {ID: "b", Name: "Ben"}},
		Troops:     []Troop{{ID: 1, Owner: 0, Type: Marine, HP: 4}, {ID: 2, Owner: 1, Type: Sniper, HP: 3}},
		Structures: []Structure{{ID: "s1", Kind: Outpost, Owner: Neutral}, {ID: "s2", Kind: HQ, Owner: 1}},
	}
	for _, tc := range []struct {
		name string
		ev   domain.Event
		want string
	}{
		{"joined", domain.Event{Type: EventJoined, Player: "b", Data: JoinedData{Seat: 1, Name: "Ben"}}, "Ben joined"},
		{"started", domain.Event{Type: EventGameStarted, Data: GameStartedData{Mode: "alternating", First: 1, Die: 4}}, "the game starts (alternating turns): Ben plays first (die: 4)"},
		{"turn", domain.Event{Type: EventTurnStarted, Player: "a", Data: TurnStartedData{Seat: 0, Round: 2, Income: 3, Coins: 7}}, "round 2: Ann's turn (+3 coins, 7 in all)"},
		{"bought", domain.Event{Type: EventBought, Player: "a", Data: BoughtData{Troop: 1, Type: Marine, Cost: 2, Coins: 5}}, "Ann bought a marine for 2 coins (5 left)"},
		{"moved names no hex", domain.Event{Type: EventMoved, Player: "a", Data: MovedData{Troop: 1, From: Hex{Q: 1}, To: Hex{Q: 3}, Cost: 2}}, "Ann moved Ann's marine (2 movement)"},
		{"attack hit", domain.Event{Type: EventAttacked, Player: "a", Data: AttackData{Kind: AttackTroop, Attacker: Unit{Troop: 1, Owner: 0}, Target: Unit{Troop: 2, Owner: 1}, Natural: 12, Modifier: 2, Total: 14, Defense: 11, Hit: true, Damage: 2, HP: 1}}, "Ann's marine attacked Ben's sniper: rolled 12+2 = 14 against 11, hit for 2 (HP 1)"},
		{"attack miss", domain.Event{Type: EventAttacked, Data: AttackData{Kind: AttackStructure, Attacker: Unit{Structure: "s1", Owner: Neutral}, Target: Unit{Troop: 9, Owner: 0}, Natural: 3, Modifier: -1, Total: 2, Defense: 10}}, "a neutral outpost fired at Ann's troop: rolled 3-1 = 2 against 10: miss"},
		{"killed", domain.Event{Type: EventTroopKilled, Data: TroopKilledData{Troop: 9, Owner: 0, Type: Mech, Cause: CauseStorm, By: Neutral}}, "Ann's mech was destroyed (the storm)"},
		{"captured", domain.Event{Type: EventCaptured, Data: CapturedData{Structure: "s1", Kind: Outpost, From: Neutral, To: 0}}, "Ann captured an outpost"},
		{"orders", domain.Event{Type: EventOrdersSubmitted, Player: "b", Data: OrdersSubmittedData{Seat: 1}}, "Ben locked in orders"},
		{"surrendered", domain.Event{Type: EventSurrendered, Player: "b", Data: SeatData{Seat: 1}}, "Ben surrendered"},
		{"emote", domain.Event{Type: EventEmote, Player: "a", Data: EmoteData{Seat: 0, Emote: "gg", Text: "Good game!"}}, "Ann: Good game!"},
		{"won", domain.Event{Type: domain.EventGameOver, Player: "a", Data: domain.GameOver{Winners: []string{"a"}, Reason: ReasonHQ}}, "Ann wins: the enemy HQ fell"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := (Rules{}).Say(g, tc.ev); got != tc.want {
				t.Errorf("Say = %q, want %q", got, tc.want)
			}
		})
	}
}
