package discord_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/notify/discord"
	"github.com/meeple-games/meeple/notify/discord/discordtest"
)

const body = `{"embeds":[{"title":"✅ Red Dragons completed tile 7","description":"⭐ Zezima — 1.00 pts","color":14753096}],"allowed_mentions":{"parse":[]}}`

// sent is body as disgo puts it on the wire (its AllowedMentions spells
// out every field).
const sent = `{"embeds":[{"title":"✅ Red Dragons completed tile 7","description":"⭐ Zezima — 1.00 pts","color":14753096}],` +
	`"allowed_mentions":{"parse":[],"roles":null,"users":null,"replied_user":false}}`

func fake(t *testing.T) (*discordtest.Server, *discord.Sender) {
	t.Helper()
	s, err := discordtest.Start()
	require.NoError(t, err)
	t.Cleanup(s.Close)
	return s, &discord.Sender{AllowBase: func() string { return s.URL }}
}

// sameJSON compares JSON documents whatever their key order.
func sameJSON(t *testing.T, want string, got json.RawMessage) {
	t.Helper()
	var w, g any
	require.NoError(t, json.Unmarshal([]byte(want), &w))
	require.NoError(t, json.Unmarshal(got, &g))
	require.Equal(t, w, g)
}

func TestDiscordSend(t *testing.T) {
	for _, tc := range []struct {
		name      string
		script    []discordtest.Reply
		timeout   time.Duration
		delivered bool
		permanent bool
		status    int
		retryMin  time.Duration
		retries   int
	}{
		{name: "accepted", delivered: true},
		{name: "with retries, a 429 is waited out (retry_after) and sent again", retries: 3, script: []discordtest.Reply{{Status: 429, RetryAfter: 0.2}}, delivered: true},
		{name: "a 429 goes back to the outbox with retry_after", script: []discordtest.Reply{{Status: 429, RetryAfter: 7.5}},
			status: 429, retryMin: 7500 * time.Millisecond},
		{name: "429s beyond the retries go back to the outbox with retry_after", retries: 2, script: []discordtest.Reply{{Status: 429, RetryAfter: 0.1}, {Status: 429, RetryAfter: 7.5}},
			status: 429, retryMin: 7500 * time.Millisecond},
		{name: "500 is retried later", script: []discordtest.Reply{{Status: 500}}, status: 500},
		{name: "502 is retried later", script: []discordtest.Reply{{Status: 502}}, status: 502},
		{name: "404: the webhook is gone, never retried", script: []discordtest.Reply{{Status: 404}}, permanent: true, status: 404},
		{name: "401: the token is refused", script: []discordtest.Reply{{Status: 401}}, permanent: true, status: 401},
		{name: "a hang times out and is retried later", script: []discordtest.Reply{{Hang: true}}, timeout: 300 * time.Millisecond},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv, s := fake(t)
			s.Retries = tc.retries
			if tc.timeout > 0 {
				// disgo does not hand the context to the HTTP request; the
				// client's timeout ends a hanging one.
				s.HTTPTimeout = tc.timeout
			}
			srv.Script("", tc.script...)
			ctx := context.Background()
			if tc.timeout > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, tc.timeout)
				defer cancel()
			}
			url := srv.WebhookURL("223456789012345678", "tok-s3cr3t")
			err := s.Send(ctx, url, json.RawMessage(body))
			msgs := srv.Messages()
			if tc.delivered {
				require.NoError(t, err)
				require.Len(t, msgs, 1)
				require.Equal(t, "223456789012345678", msgs[0].Webhook)
				require.Equal(t, "tok-s3cr3t", msgs[0].Token)
				sameJSON(t, sent, msgs[0].Body)
				return
			}
			require.Empty(t, msgs)
			var de *domain.DeliveryError
			require.True(t, errors.As(err, &de), "%T %v", err, err)
			require.Equal(t, tc.permanent, de.Permanent, de.Error())
			require.Equal(t, tc.status, de.Status)
			require.GreaterOrEqual(t, de.RetryAfter, tc.retryMin)
			require.NotContains(t, de.Error(), "s3cr3t", "no URL in the error")
			require.NotContains(t, de.Error(), srv.URL)
		})
	}
}

// TestDiscordSendHonoursTheAnnouncedLimit: with a limit announced in the
// X-RateLimit headers, the sender keeps to it: every message is delivered,
// in order, and no window takes more than the limit, without a 429.
func TestDiscordSendHonoursTheAnnouncedLimit(t *testing.T) {
	srv, s := fake(t)
	srv.Limit(2, time.Second)
	url := srv.WebhookURL("1", "t")
	for i := range 6 {
		// As the outbox does: a 429 is tried again after its retry_after.
		for try := 0; ; try++ {
			err := s.Send(context.Background(), url, json.RawMessage(`{"content":"m`+string(rune('0'+i))+`"}`))
			var de *domain.DeliveryError
			if errors.As(err, &de) && de.Status == http.StatusTooManyRequests && try < 3 {
				time.Sleep(de.RetryAfter)
				continue
			}
			require.NoError(t, err)
			break
		}
	}
	msgs := srv.Messages()
	require.Len(t, msgs, 6)
	for i, m := range msgs {
		sameJSON(t, `{"content":"m`+string(rune('0'+i))+`"}`, m.Body)
	}
	_, limited := srv.Counts()
	require.Zero(t, limited, "the announced limit was waited for, not hit")
	for i := 2; i < len(msgs); i++ {
		require.GreaterOrEqual(t, msgs[i].At.Sub(msgs[i-2].At), time.Second-10*time.Millisecond, "at most 2 a second")
	}
}

func TestDiscordSendRefusesOtherHosts(t *testing.T) {
	_, s := fake(t)
	for _, url := range []string{"http://127.0.0.2:1/api/webhooks/1/t", "https://evil.io/api/webhooks/1/t", "https://discord.com/api/webhooks/x/t"} {
		err := s.Send(context.Background(), url, json.RawMessage(body))
		var de *domain.DeliveryError
		require.True(t, errors.As(err, &de))
		require.True(t, de.Permanent)
	}
}
