package stack

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/tilerace"
	"github.com/meeple-games/meeple/games"
	"github.com/meeple-games/meeple/notify/discord/discordtest"
)

// TestDiscordEndToEnd: through the real functions, the emulator's Outbox
// trigger and the disgo sender, a completion's announcement arrives at the
// fake Discord's main webhook and at the team's slot webhook, exactly as
// formatted from the reply's events; a rejected action announces nothing;
// no URL is in the reply, the events or any document a client reads.
func TestDiscordEndToEnd(t *testing.T) {
	fake, err := discordtest.Start()
	require.NoError(t, err)
	t.Cleanup(fake.Close)
	t.Setenv(games.DiscordBaseEnv, fake.URL)
	s := startStack(t)
	ctx := context.Background()
	r := s.Demos["tilerace"].Values
	call := func(body map[string]any) (map[string]any, error) {
		body["gameId"] = r["gameId"]
		return Post(ctx, s.FunctionsURL+"/TileRace", r["masterToken"], body)
	}
	mainURL, slotURL := fake.WebhookURL("100", "main-s3cr3t"), fake.WebhookURL("101", "slot1-s3cr3t")

	out, err := call(map[string]any{"actionId": "dc-1", "type": "setDiscord", "main": mainURL, "slots": map[string]any{"1": slotURL}})
	require.NoError(t, err)
	reply, _ := json.Marshal(out)
	require.NotContains(t, string(reply), "s3cr3t", "the reply names no URL")

	_, err = call(map[string]any{"actionId": "dc-bad", "type": "setDiscord", "main": "https://evil.example/api/webhooks/1/x-s3cr3t"})
	require.Error(t, err)
	require.Contains(t, err.Error(), "main")
	require.NotContains(t, err.Error(), "s3cr3t", "the refusal does not repeat the URL")

	var players []string
	require.NoError(t, json.Unmarshal([]byte(r["firstPlayers"]), &players))
	_, err = call(map[string]any{"actionId": "dc-stale", "type": "complete", "team": r["team0"], "tile": 2, "recorded": 0, "players": players, "complete": true})
	require.Error(t, err, "a stale tile is refused")

	out, err = call(map[string]any{"actionId": "dc-complete", "type": "complete", "team": r["team0"], "tile": 1, "recorded": 0, "players": players, "complete": true})
	require.NoError(t, err)
	var evs []domain.Event
	b, _ := json.Marshal(out["events"])
	require.NoError(t, json.Unmarshal(b, &evs))
	for i := range evs { // Announcements formats from the events' data
		evs[i].Data = json.RawMessage(mustJSON(t, evs[i].Data))
	}
	eventually(t, 30*time.Second, func() error {
		if n := len(fake.Messages()); n < 2 {
			return fmt.Errorf("%d messages at the fake Discord", n)
		}
		return nil
	})
	time.Sleep(500 * time.Millisecond) // (nothing more is expected: a stray message would show below)
	msgs := fake.Messages()
	require.Len(t, msgs, 2, "one announcement, to main and to Red's slot 1; nothing for the refused actions")
	got := map[string]tilerace.WebhookBody{}
	for _, m := range msgs {
		var body tilerace.WebhookBody
		require.NoError(t, json.Unmarshal(m.Body, &body))
		got[m.Webhook] = body
		require.NotContains(t, string(m.Body), "s3cr3t")
	}
	require.Contains(t, got, "100")
	require.Contains(t, got, "101")
	require.Equal(t, got["100"], got["101"])
	emb := got["100"].Embeds[0]
	require.Equal(t, "✅ Red Dragons completed tile 1", emb.Title)
	require.Equal(t, 0xe11d48, emb.Color, "the team's colour")
	require.True(t, strings.HasPrefix(emb.Description, "👤 **Admin:** Mia\n"), "the admin on the first line: %q", emb.Description)
	require.Contains(t, emb.Description, "⭐ "+players[0])
	want := tilerace.Announcements(evs, func(id string) (tilerace.TeamRef, bool) {
		return tilerace.TeamRef{ID: id, Color: "#e11d48"}, id == r["team0"]
	}, mustTime(t, emb.Timestamp))
	require.Len(t, want, 1)
	require.Equal(t, want[0].Embed, emb, "exactly the embed the events give")

	// No URL in anything a client reads: the game, the teams, the events.
	for _, path := range []string{"games/" + r["gameId"], "games/" + r["gameId"] + "/teams/" + r["team0"]} {
		snap, err := s.Store.FS.Doc(path).Get(ctx)
		require.NoError(t, err)
		require.NotContains(t, string(mustJSON(t, snap.Data())), "s3cr3t", path)
	}
	recs, err := s.Store.Events(ctx, r["gameId"])
	require.NoError(t, err)
	require.NotContains(t, string(mustJSON(t, recs)), "s3cr3t", "the event log")
	box, err := s.Store.Outbox(ctx, r["gameId"])
	require.NoError(t, err)
	require.Len(t, box, 2)
	for k, m := range box {
		require.Equal(t, "delivered", m.State, k)
	}

	// Undo after the announcement went out (issue 20): delivery state is
	// not game state, so the undo is exact, and it is announced itself, at
	// main and at the affected team's slot.
	out, err = call(map[string]any{"actionId": "dc-undo", "type": "undo"})
	require.NoError(t, err, "an announced completion can be undone")
	team, err := s.Store.FS.Doc("games/" + r["gameId"] + "/teams/" + r["team0"]).Get(ctx)
	require.NoError(t, err)
	require.EqualValues(t, 1, team.Data()["position"], "back on tile 1")
	eventually(t, 30*time.Second, func() error {
		if n := len(fake.Messages()); n < 4 {
			return fmt.Errorf("%d messages at the fake Discord", n)
		}
		return nil
	})
	for _, m := range fake.Messages()[2:] {
		var body tilerace.WebhookBody
		require.NoError(t, json.Unmarshal(m.Body, &body))
		require.Equal(t, "↩️ Undo: 1 action reverted", body.Embeds[0].Title, m.Webhook)
		require.Contains(t, body.Embeds[0].Description, "Red Dragons")
	}
	require.ElementsMatch(t, []string{"100", "101"}, []string{fake.Messages()[2].Webhook, fake.Messages()[3].Webhook})
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return b
}

func mustTime(t *testing.T, s string) time.Time {
	t.Helper()
	at, err := time.Parse(time.RFC3339, s)
	require.NoError(t, err)
	return at
}
