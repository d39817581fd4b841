// Package discord delivers messages to Discord webhooks through disgo's
// webhook client and its REST rate limiter (which waits out Discord's
// X-RateLimit headers and retries 429s after Retry-After), and classifies
// every failure as a domain.DeliveryError the outbox can act on: retry
// later (429, 5xx, timeouts, network) or give up (404 webhook deleted,
// 401/403 token rejected, 400 message rejected).
//
// Webhook URLs are secrets: nothing here logs them or puts them in an
// error (disgo's own loggers, which print request URLs, are silenced).
package discord

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/disgoorg/disgo/discord"
	"github.com/disgoorg/disgo/rest"
	"github.com/disgoorg/disgo/webhook"
	"github.com/disgoorg/snowflake/v2"

	"github.com/meeple-games/meeple/domain"
)

// DiscordAPI is the base of Discord's REST API the webhooks are called on.
const DiscordAPI = "https://discord.com/api/v10"

// Defaults of a Sender.
const (
	DefaultHTTPTimeout = 15 * time.Second
	// DefaultRetries is how many times one send is tried on 429: once. The
	// outbox waits out retry_after (however long) and tries again; disgo
	// would wait inside the request, past the attempt's time limit when
	// Discord asks for long waits. disgo's limiter still paces the sends
	// the X-RateLimit headers announce.
	DefaultRetries = 1
)

// Sender sends webhook messages. Its REST clients (one per API base) and
// their rate limiters are shared by every send of the process, so the
// buckets Discord announces hold across messages.
type Sender struct {
	// AllowBase returns a base URL (scheme://host[:port]) whose webhooks are
	// sent to besides Discord's: the fake Discord of tests and the local
	// stack. nil or "": Discord only.
	AllowBase func() string
	// HTTPTimeout bounds one HTTP request; 0 is DefaultHTTPTimeout.
	HTTPTimeout time.Duration
	// Retries on 429 within one send; 0 is DefaultRetries.
	Retries int

	mu      sync.Mutex
	clients map[string]rest.Client
}

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// target is a parsed webhook URL.
type target struct {
	api   string // the REST API base the webhook is called on
	id    snowflake.ID
	token string
}

// parse reads a webhook URL: https://discord.com/api[/vN]/webhooks/{id}/{token}
// (or discordapp.com), or the same under AllowBase.
func (s *Sender) parse(raw string) (target, error) {
	bad := &domain.DeliveryError{Permanent: true, Reason: "the webhook URL is not a Discord webhook URL"}
	u, err := url.Parse(raw)
	if err != nil || u.RawQuery != "" || u.User != nil {
		return target{}, bad
	}
	path := u.EscapedPath()
	api := ""
	switch host := strings.ToLower(u.Host); {
	case u.Scheme == "https" && (host == "discord.com" || host == "discordapp.com" || host == "ptb.discord.com" || host == "canary.discord.com"):
		api = DiscordAPI
	default:
		base := ""
		if s.AllowBase != nil {
			base = strings.TrimSuffix(s.AllowBase(), "/")
		}
		if base == "" || !strings.HasPrefix(raw, base+"/") {
			return target{}, bad
		}
		b, err := url.Parse(base)
		if err != nil {
			return target{}, bad
		}
		path = strings.TrimPrefix(path, b.EscapedPath())
		api = base + "/api/v10"
	}
	parts := strings.Split(strings.TrimPrefix(path, "/"), "/")
	if len(parts) == 5 && parts[0] == "api" && strings.HasPrefix(parts[1], "v") {
		parts = append(parts[:1], parts[2:]...)
	}
	if len(parts) != 4 || parts[0] != "api" || parts[1] != "webhooks" || parts[3] == "" {
		return target{}, bad
	}
	id, err := snowflake.Parse(parts[2])
	if err != nil {
		return target{}, bad
	}
	return target{api: api, id: id, token: parts[3]}, nil
}

func (s *Sender) client(api string) rest.Client {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c, ok := s.clients[api]; ok {
		return c
	}
	if s.clients == nil {
		s.clients = map[string]rest.Client{}
	}
	timeout := s.HTTPTimeout
	if timeout == 0 {
		timeout = DefaultHTTPTimeout
	}
	retries := s.Retries
	if retries == 0 {
		retries = DefaultRetries
	}
	c := rest.NewClient("",
		rest.WithURL(api),
		rest.WithLogger(quiet),
		rest.WithHTTPClient(&http.Client{Timeout: timeout, Transport: preciseReset{http.DefaultTransport}}),
		rest.WithRateLimiterConfigOpts(rest.WithRateLimiterLogger(quiet), rest.WithMaxRetries(retries)),
	)
	s.clients[api] = c
	return c
}

// Send posts body (a Discord "execute webhook" JSON object) to the webhook.
// ctx bounds the whole send, rate-limit waits included.
//
// Errors: *domain.DeliveryError.
func (s *Sender) Send(ctx context.Context, webhookURL string, body json.RawMessage) error {
	t, err := s.parse(webhookURL)
	if err != nil {
		return err
	}
	var msg discord.WebhookMessageCreate
	if err := json.Unmarshal(body, &msg); err != nil {
		return &domain.DeliveryError{Permanent: true, Reason: "the message is not a webhook message"}
	}
	// disgo's limiter returns early without releasing its bucket when the
	// wait would pass the context's deadline; give it a context without one
	// that is cancelled when ctx ends instead.
	sctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	defer cancel()
	stop := context.AfterFunc(ctx, cancel)
	defer stop()
	wh := webhook.New(t.id, t.token, webhook.WithRestClient(s.client(t.api)), webhook.WithLogger(quiet))
	_, err = wh.Rest().CreateWebhookMessage(t.id, t.token, msg, false, 0, rest.WithCtx(sctx))
	return classify(err)
}

// classify turns a send's error into a DeliveryError without any of the
// error's text (which may quote the URL).
func classify(err error) error {
	if err == nil {
		return nil
	}
	var re rest.Error
	if errors.As(err, &re) && re.Response != nil {
		code := re.Response.StatusCode
		switch {
		case code == http.StatusTooManyRequests:
			return &domain.DeliveryError{Status: code, RetryAfter: retryAfter(re), Reason: "rate limited by Discord"}
		case code == http.StatusNotFound:
			return &domain.DeliveryError{Status: code, Permanent: true, Reason: "the webhook does not exist (deleted?)"}
		case code == http.StatusUnauthorized || code == http.StatusForbidden:
			return &domain.DeliveryError{Status: code, Permanent: true, Reason: "Discord refused the webhook's token"}
		case code >= 500:
			return &domain.DeliveryError{Status: code, Reason: "Discord is unavailable"}
		case code >= 400:
			return &domain.DeliveryError{Status: code, Permanent: true, Reason: fmt.Sprintf("Discord rejected the message (code %d)", re.Code)}
		}
		return &domain.DeliveryError{Status: code, Reason: "unexpected reply from Discord"}
	}
	var ue *url.Error
	if errors.As(err, &ue) && ue.Timeout() {
		return &domain.DeliveryError{Reason: "timed out waiting for Discord"}
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		// disgo hands the context to its rate limiter only (the HTTP request
		// has its own timeout): the send waited its turn in a busy bucket for
		// the whole attempt. Back in line soon, not after a backoff.
		return &domain.DeliveryError{RetryAfter: time.Second, Reason: "waited too long for Discord's rate limit"}
	}
	return &domain.DeliveryError{Reason: "could not reach Discord"}
}

// retryAfter is a 429's wait: the body's retry_after (seconds, fractional),
// else the Retry-After header.
func retryAfter(re rest.Error) time.Duration {
	var b struct {
		RetryAfter float64 `json:"retry_after"`
	}
	if json.Unmarshal(re.RsBody, &b) == nil && b.RetryAfter > 0 {
		return time.Duration(math.Ceil(b.RetryAfter * float64(time.Second)))
	}
	if s, err := strconv.ParseFloat(re.Response.Header.Get("Retry-After"), 64); err == nil && s > 0 {
		return time.Duration(s * float64(time.Second))
	}
	return 0
}

// preciseReset works around disgo v0.18's reading of X-RateLimit-Reset-After
// (time.Duration(seconds) * time.Second truncates 0.8 s to 0): it turns the
// relative reset into the absolute X-RateLimit-Reset disgo reads exactly,
// computed on this machine's clock (so no clock skew with Discord's). Without
// it the limiter sends into a window Discord has closed and collects 429s.
type preciseReset struct{ next http.RoundTripper }

func (p preciseReset) RoundTrip(r *http.Request) (*http.Response, error) {
	rs, err := p.next.RoundTrip(r)
	if err != nil || rs == nil {
		return rs, err
	}
	if after := rs.Header.Get("X-RateLimit-Reset-After"); after != "" {
		if s, err := strconv.ParseFloat(after, 64); err == nil && s >= 0 {
			// Rounded up, plus a millisecond for disgo's float reading of
			// the fraction: a send a millisecond late costs nothing, one a
			// hair early costs a 429.
			at := time.Now().Add(time.Duration(math.Ceil(s*1e3)+1) * time.Millisecond)
			ms := (at.UnixNano() + int64(time.Millisecond) - 1) / int64(time.Millisecond)
			rs.Header.Set("X-RateLimit-Reset", fmt.Sprintf("%d.%03d", ms/1e3, ms%1e3))
			rs.Header.Del("X-RateLimit-Reset-After")
		}
	}
	return rs, nil
}
