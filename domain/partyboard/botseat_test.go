package partyboard

import (
	"testing"

	"github.com/meeple-games/meeple/domain"
)

func TestBotResigns(t *testing.T) {
	bot, person, other := domain.BotActor(domain.BotStrong, 1).ID, "g_ann", domain.BotActor(domain.BotRandom, 1).ID
	for _, c := range []struct {
		name string
		mv   domain.Move
		want bool
	}{
		{"leave", domain.Move{Type: ActionRemovePlayer, Payload: map[string]any{"playerId": bot}}, true},
		{"roll", domain.Move{Type: ActionRoll}, false},
		{"a win over a person", domain.Move{Type: ActionChallenge, Payload: map[string]any{"winner": bot, "loser": person}}, true},
		{"a loss to a person", domain.Move{Type: ActionChallenge, Payload: map[string]any{"winner": person, "loser": bot}}, false},
		{"a win over a bot", domain.Move{Type: ActionChallenge, Payload: map[string]any{"winner": bot, "loser": other}}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := (botHelper{}).Resigns(c.mv); got != c.want {
				t.Fatalf("got %v, want %v", got, c.want)
			}
		})
	}
}

// TestBotEvaluate: ahead on the board is better, level is even.
func TestBotEvaluate(t *testing.T) {
	b, err := BuiltinBoard("pokemon-gen1")
	if err != nil {
		t.Fatal(err)
	}
	h := botHelper{src: BuiltinSource{}}
	me := domain.Actor{ID: "a"}
	game := func(mine, theirs int) Game {
		return Game{BoardID: b.ID, Players: []Player{{ID: "a", Tile: mine}, {ID: "b", Tile: theirs}}}
	}
	for _, c := range []struct {
		name         string
		mine, theirs int
		lo, hi       float64
	}{
		{"level", 10, 10, 0.5, 0.5},
		{"ahead", 30, 10, 0.5001, 1},
		{"behind", 10, 30, 0, 0.4999},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := h.Evaluate(game(c.mine, c.theirs), me); got < c.lo || got > c.hi {
				t.Fatalf("got %v, want %v to %v", got, c.lo, c.hi)
			}
		})
	}
}
