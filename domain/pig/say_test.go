package pig

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/rulestest"
)

func TestSay(t *testing.T) {
	g := Game{Players: []string{"a", "b"}, Names: []string{"Ann", "Ben"}, Target: 30}
	for _, tc := range []struct {
		name string
		ev   domain.Event
		want string
	}{
		{"joined", domain.Event{Type: EventJoined, Player: "b"}, "Ben joined: the game starts"},
		{"rolled", domain.Event{Type: EventRolled, Player: "b", Data: RolledData{Roll: 5, TurnTotal: 11}}, "Ben rolled 5 (turn total 11)"},
		{"rolled 1", domain.Event{Type: EventRolled, Player: "a", Data: RolledData{Roll: 1}}, "Ann rolled 1: turn total lost"},
		{"held", domain.Event{Type: EventHeld, Player: "a", Data: HeldData{Banked: 9, Score: 21}}, "Ann held 9 (score 21)"},
		{"timeout", domain.Event{Type: EventTimeout, Player: "a"}, "Ann ran out of time"},
		{"won", domain.Event{Type: domain.EventGameOver, Player: "a", Data: domain.GameOver{Winners: []string{"a"}, Reason: "target"}}, "Ann wins: reached 30"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := (Rules{}).Say(g, tc.ev); got != tc.want {
				t.Errorf("Say = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestSingleFillsText plays through the platform's Single (the game as
// registered, not the conformance kit's wrapper): every event of every step
// carries its words, said as of the new state.
func TestSingleFillsText(t *testing.T) {
	w := rulestest.NewWorld(NewPlatformGame(), "say", t0)
	var texts []string
	for _, a := range []domain.Action{
		{ID: "new", Type: domain.ActionCreate, Actor: ann},
		{ID: "j", Type: "join", Actor: bob},
		{ID: "r", Type: "roll", Actor: ann},
	} {
		ch, err := w.Do(a)
		require.NoError(t, err)
		for _, st := range ch.Steps {
			for _, e := range st.Events {
				texts = append(texts, e.Text)
			}
		}
	}
	require.Len(t, texts, 2)
	if got, want := texts[0], "Bob joined: the game starts"; got != want {
		t.Errorf("join: got %q, want %q", got, want)
	}
	if got := texts[1]; !strings.HasPrefix(got, "Ann rolled ") {
		t.Errorf("roll: got %q, want Ann rolled …", got)
	}
}
