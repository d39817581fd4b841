package triggers_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"cloud.google.com/go/firestore"
	"cloud.google.com/go/firestore/apiv1/firestorepb"
	"github.com/cloudevents/sdk-go/v2/event"
	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/tilerace"
	"github.com/meeple-games/meeple/notify/discord"
	"github.com/meeple-games/meeple/notify/discord/discordtest"
	"github.com/meeple-games/meeple/store"
	"github.com/meeple-games/meeple/triggers"
)

// outboxEnv is a race's outbox wired to a fake Discord through the real
// Tile Race deliverer (as games/ wires it) and the emulator.
type outboxEnv struct {
	*env
	fake *discordtest.Server
}

func newOutboxEnv(t *testing.T) *outboxEnv {
	t.Helper()
	fake, err := discordtest.Start()
	require.NoError(t, err)
	t.Cleanup(fake.Close)
	sender := &discord.Sender{AllowBase: func() string { return fake.URL }, HTTPTimeout: 500 * time.Millisecond}
	out := &domain.Outbox{
		Reads: []domain.DocID{domain.Doc(tilerace.SlotDiscord, ""), domain.Doc(tilerace.SlotDiscordStatus, "")},
		Deliver: func(ctx context.Context, d domain.Docs, m domain.Message) error {
			url := tilerace.WebhookOf(d, m)
			if url == "" {
				return &domain.DeliveryError{Permanent: true, Reason: "no webhook is configured for " + m.To}
			}
			return sender.Send(ctx, url, m.Body)
		},
		Failed: tilerace.DeliveryFailed,
	}
	e := newEnv(t, domain.Entry{Game: tilerace.RaceGame{}, Function: "TileRace", Outbox: out})
	return &outboxEnv{env: e, fake: fake}
}

// message writes an outbox message of race r to dest as an action would
// (its delivery state added by the store) and returns its key.
func (e *outboxEnv) message(t *testing.T, r, key, dest, title string) {
	t.Helper()
	body, _ := json.Marshal(tilerace.WebhookBody{Embeds: []tilerace.Embed{{Title: title, Color: 0xe11d48}}, AllowedMentions: tilerace.AllowedMentions{Parse: []string{}}})
	ctx := context.Background()
	_, err := e.st.FS.Doc("games/"+r+"/outbox/"+key).Set(ctx, map[string]any{
		"to": dest, "body": json.RawMessage(nil), "kind": tilerace.Kind, "state": store.OutboxPending, "attempts": 0, "nextAt": e.clock(), "createdAt": e.clock(),
	})
	require.NoError(t, err)
	var b map[string]any
	require.NoError(t, json.Unmarshal(body, &b))
	_, err = e.st.FS.Doc("games/"+r+"/outbox/"+key).Update(ctx, []firestore.Update{{Path: "body", Value: b}})
	require.NoError(t, err)
}

func (e *outboxEnv) hooks(t *testing.T, r string, hooks map[string]string) {
	t.Helper()
	_, err := e.st.FS.Doc("games/"+r+"/private/discord").Set(context.Background(), map[string]any{"webhooks": hooks})
	require.NoError(t, err)
}

// created is the CloudEvent of an outbox message's creation.
func (e *outboxEnv) created(t *testing.T, r, key string) event.Event {
	t.Helper()
	name := triggers.DocumentName{Project: e.project, Database: "(default)", Path: "games/" + r + "/outbox/" + key}
	doc := &firestorepb.Document{Name: name.String(), Fields: map[string]*firestorepb.Value{
		"state": {ValueType: &firestorepb.Value_StringValue{StringValue: store.OutboxPending}},
	}}
	ev, err := triggers.NewDocumentCloudEvent(triggers.DocumentCloudEvent{ID: "c-" + key, Type: triggers.TypeCreated, Time: e.clock(), Document: name,
		Data: triggers.DocumentEvent{Value: doc}})
	require.NoError(t, err)
	return ev
}

func (e *outboxEnv) doc(t *testing.T, r, key string) store.OutboxDoc {
	t.Helper()
	docs, err := e.st.Outbox(context.Background(), r)
	require.NoError(t, err)
	d, ok := docs[key]
	require.True(t, ok, "no outbox %s", key)
	return d
}

func titles(ms []discordtest.Message) []string {
	var out []string
	for _, m := range ms {
		var b tilerace.WebhookBody
		_ = json.Unmarshal(m.Body, &b)
		if len(b.Embeds) > 0 {
			out = append(out, m.Webhook+" "+b.Embeds[0].Title)
		}
	}
	return out
}

// TestOutboxDelivery: the trigger's first attempt and the tick's retries
// take a message through Discord's failures: delivered exactly as written,
// retried after 429's retry_after and after 5xx and timeouts (never lost),
// given up on 404 with the admins' status document saying why (no URL).
func TestOutboxDelivery(t *testing.T) {
	e := newOutboxEnv(t)
	ctx := context.Background()
	main := e.fake.WebhookURL("100", "main-s3cr3t")
	e.hooks(t, "r1", map[string]string{"main": main, "slot1": e.fake.WebhookURL("101", "one-s3cr3t")})

	t.Run("delivered at once, exactly as written; a redelivered event sends nothing more", func(t *testing.T) {
		e.message(t, "r1", "m1", "main", "✅ Red Dragons completed tile 7")
		for range 2 {
			require.NoError(t, e.tr.Outbox(ctx, e.created(t, "r1", "m1")))
		}
		require.Equal(t, []string{"100 ✅ Red Dragons completed tile 7"}, titles(e.fake.Messages()))
		d := e.doc(t, "r1", "m1")
		require.Equal(t, store.OutboxDelivered, d.State)
		require.EqualValues(t, 1, d.Attempts)
		require.Equal(t, e.clock(), d.DeliveredAt.UTC())
	})

	t.Run("Discord down: a 429 with retry_after, a 500, a hang; the tick retries until it is back", func(t *testing.T) {
		// (The fake's Retry-After is real time: disgo waits it out before
		// the next request to the webhook, so it is kept short.)
		e.fake.Script("101", discordtest.Reply{Status: 429, RetryAfter: 3}, discordtest.Reply{Status: 500}, discordtest.Reply{Hang: true})
		e.message(t, "r1", "m2", "slot1", "⚡ Blue Moons used Back 1 tile")
		require.NoError(t, e.tr.Outbox(ctx, e.created(t, "r1", "m2")))
		d := e.doc(t, "r1", "m2")
		require.Equal(t, store.OutboxPending, d.State)
		require.Equal(t, "delivery failed (429): rate limited by Discord", d.LastError)
		require.Equal(t, e.clock().Add(3*time.Second), d.NextAt.UTC(), "Discord's retry_after, longer than the first backoff")

		r, err := e.tr.RunTick(ctx, e.clock())
		require.NoError(t, err)
		require.Zero(t, r.OutboxDue, "not due before then")

		e.advance(3 * time.Second)
		r, err = e.tr.RunTick(ctx, e.clock())
		require.NoError(t, err)
		require.Equal(t, 1, r.Retrying)
		d = e.doc(t, "r1", "m2")
		require.Equal(t, "delivery failed (500): Discord is unavailable", d.LastError)
		require.Equal(t, e.clock().Add(2*store.OutboxBackoff), d.NextAt.UTC(), "the backoff doubles")

		e.advance(2 * store.OutboxBackoff)
		_, err = e.tr.RunTick(ctx, e.clock())
		require.NoError(t, err)
		d = e.doc(t, "r1", "m2")
		require.Contains(t, d.LastError, "timed out")
		require.Equal(t, e.clock().Add(4*store.OutboxBackoff), d.NextAt.UTC())

		e.advance(4 * store.OutboxBackoff)
		r, err = e.tr.RunTick(ctx, e.clock())
		require.NoError(t, err)
		require.Equal(t, 1, r.Delivered)
		require.Equal(t, store.OutboxDelivered, e.doc(t, "r1", "m2").State)
		require.Equal(t, []string{"100 ✅ Red Dragons completed tile 7", "101 ⚡ Blue Moons used Back 1 tile"}, titles(e.fake.Messages()))
	})

	t.Run("a deleted webhook (404): given up, the admins' status says so without the URL", func(t *testing.T) {
		e.fake.Script("100", discordtest.Reply{Status: 404})
		e.message(t, "r1", "m3", "main", "🔄 The game was reset")
		require.NoError(t, e.tr.Outbox(ctx, e.created(t, "r1", "m3")))
		d := e.doc(t, "r1", "m3")
		require.Equal(t, store.OutboxFailed, d.State)
		require.Equal(t, "delivery failed (404): the webhook does not exist (deleted?)", d.LastError)
		snap, err := e.st.FS.Doc("games/r1/private/discordStatus").Get(ctx)
		require.NoError(t, err)
		b, _ := json.Marshal(snap.Data())
		var st tilerace.DiscordStatus
		require.NoError(t, json.Unmarshal(b, &st))
		require.Equal(t, tilerace.DestinationStatus{State: tilerace.DestFailed, Error: d.LastError, Failed: 1, At: e.clock()}, st.Destinations["main"])
		require.NotContains(t, string(b), "s3cr3t")

		e.advance(time.Hour)
		r, err := e.tr.RunTick(ctx, e.clock())
		require.NoError(t, err)
		require.Zero(t, r.OutboxDue, "a message given up is never tried again")
	})

	t.Run("a destination with no webhook: given up at once", func(t *testing.T) {
		e.message(t, "r1", "m4", "slot4", "x")
		require.NoError(t, e.tr.Outbox(ctx, e.created(t, "r1", "m4")))
		require.Equal(t, "delivery failed: no webhook is configured for slot4", e.doc(t, "r1", "m4").LastError)
	})

	t.Run("an attempt that died holds its lease, then the tick takes it up", func(t *testing.T) {
		e.message(t, "r1", "m5", "main", "📍 Red Dragons moved from tile 4 to tile 6")
		_, err := e.st.FS.Doc("games/r1/outbox/m5").Update(ctx, []firestore.Update{{Path: "nextAt", Value: e.clock().Add(store.OutboxLease)}, {Path: "attempts", Value: 1}})
		require.NoError(t, err)
		require.NoError(t, e.tr.Outbox(ctx, e.created(t, "r1", "m5")))
		require.Equal(t, store.OutboxPending, e.doc(t, "r1", "m5").State, "leased: the trigger leaves it")
		e.advance(store.OutboxLease)
		r, err := e.tr.RunTick(ctx, e.clock())
		require.NoError(t, err)
		require.Equal(t, 1, r.Delivered)
		require.Len(t, e.fake.Messages(), 3)
	})
	for _, m := range e.fake.Messages() {
		require.NotContains(t, fmt.Sprint(m.Body), "s3cr3t")
	}
}
