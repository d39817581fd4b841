package tilerace

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
)

const (
	hookMain  = "https://discord.com/api/webhooks/123456789012345678/tok-MAIN_secret"
	hookSlot1 = "https://discord.com/api/webhooks/223456789012345678/tok-ONE_secret"
	hookSlot2 = "https://discordapp.com/api/v10/webhooks/323456789012345678/tok-TWO_secret"
)

func roster(refs ...TeamRef) func(string) (TeamRef, bool) {
	return func(id string) (TeamRef, bool) {
		for _, r := range refs {
			if r.ID == id {
				return r, true
			}
		}
		return TeamRef{}, false
	}
}

var red = TeamRef{ID: "t-red", Name: "Red Dragons", Color: "#e11d48", Slot: 1}
var blue = TeamRef{ID: "t-blue", Name: "Blue Moons", Color: "#2563eb", Slot: 2}

func TestDiscordAnnouncements(t *testing.T) {
	stamp := t0.Format("2006-01-02T15:04:05Z")
	for _, tc := range []struct {
		name   string
		events []domain.Event
		want   []Announcement
	}{
		{
			name: "an admin's completion: admin first, players ⭐ with points, position, START CHECK, reward",
			events: []domain.Event{
				{Type: EventCompletionsRecorded, Player: red.ID, Data: RecordedData{Team: red.ID, TeamName: red.Name, Tile: 7, Label: "Kill Obor", Players: []string{"Zezima", "Woox"}, Points: 100, Recorded: 3, Min: 1, Max: 3, By: "Ada"}},
				{Type: EventPointsAwarded, Player: red.ID, Data: AwardData{Key: "k1", Player: "Zezima", Points: 100}},
				{Type: EventTileCompleted, Player: red.ID, Data: TileCompletedData{Team: red.ID, TeamName: red.Name, Tile: 7, Label: "Kill Obor", Players: []string{"B0aty", "Zezima", "Woox"}, Points: 100, StartProof: true, Position: 8, Reward: PowerupSkip1, By: "Ada"}},
				{Type: EventPowerupGained, Player: red.ID, Data: PowerupGainedData{Team: red.ID, TeamName: red.Name, Powerup: PowerupSkip1, Tile: 7, By: "Ada"}},
			},
			want: []Announcement{{Teams: []string{red.ID}, Embed: Embed{
				Title: "✅ Red Dragons completed tile 7",
				Description: "👤 **Admin:** Ada\n**Task:** Kill Obor\n⭐ B0aty — 1.00 pts\n⭐ Zezima — 1.00 pts\n⭐ Woox — 1.00 pts\n" +
					"📍 **Position:** tile 8\n⚠️ **START CHECK:** this task needs a start picture — check it was taken.\n🎁 **Reward:** Skip 1 tile",
				Color: 0xe11d48, Timestamp: stamp,
			}}},
		},
		{
			name: "completions recorded without advancing; a player twice",
			events: []domain.Event{
				{Type: EventCompletionsRecorded, Player: red.ID, Data: RecordedData{Team: red.ID, TeamName: red.Name, Tile: 3, Label: "Kill 3 Moles", Players: []string{"Zezima", "Zezima"}, Points: 150, Recorded: 2, Min: 3, Max: 3}},
			},
			want: []Announcement{{Teams: []string{red.ID}, Embed: Embed{
				Title:       "✅ Red Dragons recorded 2 completions on tile 3",
				Description: "**Task:** Kill 3 Moles\n⭐ Zezima ×2 — 3.00 pts\n**Progress:** 2 recorded (needs 3, at most 3)",
				Color:       0xe11d48, Timestamp: stamp,
			}}},
		},
		{
			name: "a powerup tile claim",
			events: []domain.Event{
				{Type: EventPowerupTileClaimed, Player: blue.ID, Data: ClaimedData{Team: blue.ID, TeamName: blue.Name, PowerupTile: "pt-1", Label: "First to a 99", Players: []string{"Woox"}, Points: 200, Reward: PowerupBack2, Claims: 1}},
				{Type: EventPowerupGained, Player: blue.ID, Data: PowerupGainedData{Team: blue.ID, TeamName: blue.Name, Powerup: PowerupBack2, PowerupTile: "pt-1"}},
			},
			want: []Announcement{{Teams: []string{blue.ID}, Embed: Embed{
				Title:       "🎁 Blue Moons claimed First to a 99",
				Description: "**Powerup gained:** Back 2 tiles\n**Task:** First to a 99\n⭐ Woox — 2.00 pts",
				Color:       0x2563eb, Timestamp: stamp,
			}}},
		},
		{
			name: "a powerup used on another team: target, movement with labels; its teamMoved folded in",
			events: []domain.Event{
				{Type: EventPowerupUsed, Player: blue.ID, Data: map[string]any{"team": blue.ID, "teamName": blue.Name, "powerup": PowerupBack2, "powerupName": "Back 2 tiles",
					"target": red.ID, "targetName": red.Name, "from": 9, "to": 7, "fromLabel": "Kill Zulrah", "toLabel": "Kill Obor", "by": "Ada"}},
				{Type: EventTeamMoved, Player: red.ID, Data: MovedData{Team: red.ID, TeamName: red.Name, From: 9, To: 7, By: "Ada"}},
			},
			want: []Announcement{{Teams: []string{blue.ID, red.ID}, Embed: Embed{
				Title:       "⚡ Blue Moons used Back 2 tiles",
				Description: "👤 **Admin:** Ada\n🎯 **Target:** Red Dragons\n📍 Red Dragons: tile 9 (Kill Zulrah) → tile 7 (Kill Obor)",
				Color:       0x2563eb, Timestamp: stamp,
			}}},
		},
		{
			name: "copy and paste: the tile change",
			events: []domain.Event{
				{Type: EventPowerupUsed, Player: red.ID, Data: map[string]any{"team": red.ID, "teamName": red.Name, "powerup": PowerupCopyPaste, "powerupName": "Copy and Paste", "tile": 12, "source": 8, "label": "Kill Obor"}},
			},
			want: []Announcement{{Teams: []string{red.ID}, Embed: Embed{
				Title: "⚡ Red Dragons used Copy and Paste", Description: "📋 Tile 8 copied onto tile 12\n**New task:** Kill Obor",
				Color: 0xe11d48, Timestamp: stamp,
			}}},
		},
		{
			name:   "an admin's move",
			events: []domain.Event{{Type: EventTeamMoved, Player: red.ID, Data: MovedData{Team: red.ID, TeamName: red.Name, From: 4, To: 6, By: "Mia"}}},
			want: []Announcement{{Teams: []string{red.ID}, Embed: Embed{
				Title: "📍 Red Dragons moved from tile 4 to tile 6", Description: "👤 **Admin:** Mia", Color: 0xe11d48, Timestamp: stamp,
			}}},
		},
		{
			name: "team management and cooldown",
			events: []domain.Event{
				{Type: EventTeamCreated, Player: "t-new", Data: TeamData{Team: "t-new", TeamName: "Gold", Color: "#ca8a04", Members: []string{"Dino", "Faux"}, Slot: 4, By: "Mia"}},
				{Type: EventTeamUpdated, Player: red.ID, Data: TeamUpdatedData{Team: red.ID, TeamName: red.Name, Changes: []string{"Discord slot 0 → 1"}, By: "Mia"}},
				{Type: EventTeamRemoved, Player: "t-old", Data: TeamData{Team: "t-old", TeamName: "Old", Color: "#000001", By: "Mia"}},
				{Type: EventCooldownSet, Player: blue.ID, Data: CooldownData{Team: blue.ID, TeamName: blue.Name, Cooldown: false, By: "Mia"}},
			},
			want: []Announcement{
				{Teams: []string{"t-new"}, Embed: Embed{Title: "➕ Team Gold added", Description: "👤 **Admin:** Mia\n**Members:** Dino, Faux\n**Discord slot:** 4", Color: 0xca8a04, Timestamp: stamp}},
				{Teams: []string{red.ID}, Embed: Embed{Title: "✏️ Team Red Dragons updated", Description: "👤 **Admin:** Mia\n• Discord slot 0 → 1", Color: 0xe11d48, Timestamp: stamp}},
				{Teams: []string{"t-old"}, Embed: Embed{Title: "➖ Team Old removed", Description: "👤 **Admin:** Mia", Color: 1, Timestamp: stamp}},
				{Teams: []string{blue.ID}, Embed: Embed{Title: "⏳ Cooldown off for Blue Moons", Description: "👤 **Admin:** Mia", Color: 0x2563eb, Timestamp: stamp}},
			},
		},
		{
			name: "reset, and an undo with the teams it affected and the points it took back",
			events: []domain.Event{
				{Type: EventGameReset, Data: AdminData{By: "Mia"}},
				{Type: EventUndone, Data: map[string]any{"actions": []any{map[string]any{"record": "r1", "type": "complete", "actor": "Red Dragons"}},
					"teams": []string{red.ID}, "teamNames": []string{red.Name}, "by": "Mia"}},
				{Type: EventPointsReversed, Player: red.ID, Data: map[string]any{"key": "k1", "player": "Zezima", "points": 100, "team": red.ID, "teamName": red.Name, "by": "Mia"}},
			},
			want: []Announcement{
				{Embed: Embed{Title: "🔄 The game was reset", Description: "👤 **Admin:** Mia", Color: colorGame, Timestamp: stamp}},
				{Teams: []string{red.ID}, Embed: Embed{Title: "↩️ Undo: 1 action reverted",
					Description: "👤 **Admin:** Mia\n**Affected teams:** Red Dragons\n• complete by Red Dragons\n➖ 1.00 pts from Zezima (Red Dragons)",
					Color:       colorGame, Timestamp: stamp}},
			},
		},
		{
			name: "events without an announcement",
			events: []domain.Event{
				{Type: EventTilesRevealed, Data: RevealedData{From: 7, To: 9}},
				{Type: EventDiscordSet, Data: DiscordSetData{Configured: []string{"main"}, By: "Mia"}},
				{Type: EventPoolsChanged, Data: PoolsChangedData{What: "imported", Count: 3, By: "Mia"}},
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Announcements(tc.events, roster(red, blue), t0)
			require.Equal(t, jsonOf(t, tc.want), jsonOf(t, got))
		})
	}
}

func TestDiscordWebhookURL(t *testing.T) {
	for _, tc := range []struct {
		url, base string
		ok        bool
	}{
		{hookMain, "", true},
		{hookSlot2, "", true},
		{"https://canary.discord.com/api/webhooks/1/abc", "", true},
		{"http://discord.com/api/webhooks/1/abc", "", false},
		{"https://discord.com.evil.io/api/webhooks/1/abc", "", false},
		{"https://evil.io/api/webhooks/1/abc", "", false},
		{"https://discord.com/api/webhooks/abc/s3cr3t", "", false},
		{"https://discord.com/api/webhooks/1/s3cr3t?wait=true", "", false},
		{"https://user:pw@discord.com/api/webhooks/1/s3cr3t", "", false},
		{"https://discord.com/api/webhooks/1", "", false},
		{"https://discord.com/api/webhooks/1/s3cr3t/slack", "", false},
		{"http://127.0.0.1:8999/api/webhooks/1/s3cr3t", "", false},
		{"http://127.0.0.1:8999/api/webhooks/1/s3cr3t", "http://127.0.0.1:8999", true},
		{"http://127.0.0.1:9000/api/webhooks/1/s3cr3t", "http://127.0.0.1:8999", false},
		{"not a url", "", false},
	} {
		t.Run(tc.url, func(t *testing.T) {
			err := CheckWebhookURL("main", tc.url, tc.base)
			if tc.ok {
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			require.Equal(t, domain.EINVALID, domain.ErrorCode(err))
			require.Contains(t, err.Error(), "main")
			require.NotContains(t, err.Error(), "s3cr3t", "the error repeats no part of the URL")
		})
	}
}

func TestSetDiscord(t *testing.T) {
	w := race(t, 2)
	main := hookMain
	g, d, st, o, err := SetDiscord(ctx(masterAct), w.g, DiscordDoc{}, DiscordStatus{}, SetDiscordRequest{Main: &main, Slots: map[string]string{"1": hookSlot1, "2": hookSlot2}})
	require.NoError(t, err)
	require.Equal(t, []string{"main", "slot1", "slot2"}, g.Webhooks)
	require.Equal(t, map[string]string{"main": hookMain, "slot1": hookSlot1, "slot2": hookSlot2}, d.Webhooks)
	require.Equal(t, DestOK, st.Destinations["slot2"].State)
	require.Equal(t, []Doc{DocGame, DocDiscord}, o.Writes)
	for _, secret := range []string{"secret", "webhooks/"} {
		require.NotContains(t, jsonOf(t, o.Events)+jsonOf(t, o.Result)+jsonOf(t, g), secret, "no URL in events, reply or the game document")
	}
	// "" removes; the others stay.
	g, d, st, _, err = SetDiscord(ctx(adminAct), g, d, st, SetDiscordRequest{Slots: map[string]string{"2": ""}})
	require.NoError(t, err)
	require.Equal(t, []string{"main", "slot1"}, g.Webhooks)
	require.NotContains(t, d.Webhooks, "slot2")
	require.NotContains(t, st.Destinations, "slot2")

	for _, tc := range []struct {
		name  string
		actor domain.Actor
		req   SetDiscordRequest
		code  string
		field string
	}{
		{"nothing given", masterAct, SetDiscordRequest{}, domain.EINVALID, "main or slots"},
		{"slot 6", masterAct, SetDiscordRequest{Slots: map[string]string{"6": hookSlot1}}, domain.EINVALID, "slots"},
		{"slot 01", masterAct, SetDiscordRequest{Slots: map[string]string{"01": hookSlot1}}, domain.EINVALID, "slots"},
		{"a bad URL", masterAct, SetDiscordRequest{Slots: map[string]string{"3": "https://evil.io/api/webhooks/1/tok-secret"}}, domain.EINVALID, "slots.3"},
		{"a team", teamAct("t1"), SetDiscordRequest{Main: &main}, domain.EFORBIDDEN, "admin"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, _, _, err := SetDiscord(ctx(tc.actor), g, d, st, tc.req)
			require.Equal(t, tc.code, domain.ErrorCode(err), "%v", err)
			require.Contains(t, err.Error(), tc.field)
			require.NotContains(t, err.Error(), "secret")
		})
	}
}

// TestDiscordOutbox: an action's announcements go to main and to the slot of
// every team concerned, only where a webhook is configured; keys are stable.
func TestDiscordOutbox(t *testing.T) {
	g := Game{Teams: []TeamRef{red, blue}, Webhooks: []string{"main", "slot2"}}
	steps := []domain.Step{{Type: "usePowerup", Events: []domain.Event{
		{Type: EventPowerupUsed, Player: blue.ID, Data: map[string]any{"team": blue.ID, "teamName": blue.Name, "powerup": PowerupBack1, "target": red.ID, "targetName": red.Name, "from": 3, "to": 2}},
	}}, {Type: "complete", Events: []domain.Event{
		{Type: EventTileCompleted, Player: red.ID, Data: TileCompletedData{Team: red.ID, TeamName: red.Name, Tile: 2, Label: "x", Position: 3}},
	}}}
	slot := func(team string) int { r, _ := g.TeamRef(team); return r.Slot }
	ws := DiscordOutbox(g, "g1:t-blue", "act-1", steps, slot, t0)
	var got []string
	for _, w := range ws {
		require.Equal(t, domain.SlotOutbox, w.Slot)
		require.True(t, w.Create)
		m := w.Value.(domain.Message)
		var body WebhookBody
		require.NoError(t, json.Unmarshal(m.Body, &body))
		require.Equal(t, []string{}, body.AllowedMentions.Parse, "no mentions are parsed")
		got = append(got, m.To+" "+body.Embeds[0].Title)
		require.True(t, strings.HasSuffix(w.Key, "-"+m.To), w.Key)
	}
	require.Equal(t, []string{"main ⚡ Blue Moons used Back 1 tile", "slot2 ⚡ Blue Moons used Back 1 tile", "main ✅ Red Dragons completed tile 2"}, got,
		"slot 1 (Red) has no webhook; Blue's slot 2 gets its own powerup")
	require.Equal(t, jsonOf(t, ws), jsonOf(t, DiscordOutbox(g, "g1:t-blue", "act-1", steps, slot, t0)))
	require.Empty(t, DiscordOutbox(Game{Teams: g.Teams}, "a", "b", steps, slot, t0), "nothing configured, nothing written")
}
