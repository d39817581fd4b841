package tilerace

import (
	"encoding/json"
	"testing"

	"github.com/meeple-games/meeple/domain"
)

func TestSay(t *testing.T) {
	for _, tc := range []struct {
		name string
		ev   domain.Event
		want string
	}{
		{"completed", domain.Event{Type: EventTileCompleted, Data: TileCompletedData{TeamName: "Reds", Tile: 4}}, "Reds completed tile 4"},
		{"recorded", domain.Event{Type: EventCompletionsRecorded, Data: RecordedData{TeamName: "Reds", Tile: 4, Players: []string{"ann", "ben"}}}, "Reds recorded 2 completions on tile 4"},
		{"awarded", domain.Event{Type: EventPointsAwarded, Data: AwardData{Player: "ann", TeamName: "Reds", Points: 150, Tile: 4}}, "ann (Reds) earned 1.50 pts on tile 4"},
		{"moved", domain.Event{Type: EventTeamMoved, Data: MovedData{TeamName: "Blues", From: 3, To: 5}}, "Blues moved from tile 3 to tile 5"},
		{"updated", domain.Event{Type: EventTeamUpdated, Data: TeamUpdatedData{TeamName: "Blues", Changes: []string{`name "A" → "Blues"`}}}, `Team Blues updated: name "A" → "Blues"`},
		{"cooldown", domain.Event{Type: EventCooldownSet, Data: CooldownData{TeamName: "Blues", Cooldown: true}}, "Cooldown on for Blues"},
		{"won", domain.Event{Type: EventTeamWon, Data: TeamWonData{TeamName: "Reds"}}, "Reds won the race!"},
		{"started", domain.Event{Type: EventGameStarted, Data: AdminData{By: "Master"}}, "The race has started"},
		{"unknown", domain.Event{Type: "newThing"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Say(tc.ev); got != tc.want {
				t.Errorf("Say = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestSayReadsStoredData: the data of an event read back from the store is
// a JSON object, not the typed struct: the words are the same.
func TestSayReadsStoredData(t *testing.T) {
	typed := domain.Event{Type: EventTileCompleted, Data: TileCompletedData{TeamName: "Reds", Tile: 9}}
	raw, err := json.Marshal(typed.Data)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	if got, want := Say(domain.Event{Type: EventTileCompleted, Data: m}), Say(typed); got != want {
		t.Errorf("Say(stored) = %q, want %q", got, want)
	}
}

// TestDiscordTitlesAreTheWords: a Discord title is the event's words after
// an emoji.
func TestDiscordTitlesAreTheWords(t *testing.T) {
	ev := domain.Event{Type: EventTeamMoved, Data: MovedData{Team: "t1", TeamName: "Blues", From: 3, To: 5}}
	anns := Announcements([]domain.Event{ev}, func(string) (TeamRef, bool) { return TeamRef{}, false }, t0)
	if len(anns) != 1 {
		t.Fatalf("got %d announcements, want 1", len(anns))
	}
	if got, want := anns[0].Embed.Title, emojiMoved+" "+Say(ev); got != want {
		t.Errorf("title %q, want %q", got, want)
	}
}
