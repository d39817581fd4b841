package games

import (
	"context"
	"fmt"
	"io"
	"sort"
	"sync"
	"time"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/notify/discord/discordtest"
)

// DiscordLoad measures Tile Race's Discord announcements through the local
// stack (the real functions, the Outbox trigger, the tick) against a fake
// Discord, whose base URL must be MEEPLE_DISCORD_BASE (loadgen -discord):
//
//  1. latency: completions one at a time, each timed from sending the
//     action to its message arriving at the fake's main webhook;
//  2. rate limit: the fake limits every webhook to limit messages a second
//     (announced in its X-RateLimit headers, 429 beyond); a burst of
//     completions from ten teams, and the rate at which the main webhook
//     (which gets every one) receives them: it should match the limit, with
//     none lost.
func DiscordLoad(ctx context.Context, p domain.Probe, fake *discordtest.Server, limit int, burst int, out io.Writer) error {
	const teams = 10
	slots := map[string]string{}
	for n := 1; n <= 5; n++ {
		slots[fmt.Sprint(n)] = fake.WebhookURL(fmt.Sprint(200+n), fmt.Sprint("slot-token-", n))
	}
	r, err := newLoadRace(ctx, p, "discord-race", teams,
		map[string]any{"type": "setDiscord", "main": fake.WebhookURL("100", "main-token"), "slots": slots})
	if err != nil {
		return err
	}
	complete := func(i int, id string) error {
		_, err := r.complete(i, id)
		return err
	}
	toMain := func() []discordtest.Message {
		var ms []discordtest.Message
		for _, m := range fake.Messages() {
			if m.Webhook == "100" {
				ms = append(ms, m)
			}
		}
		return ms
	}
	waitMain := func(n int, within time.Duration) ([]discordtest.Message, error) {
		deadline := time.Now().Add(within)
		for {
			ms := toMain()
			if len(ms) >= n {
				return ms, nil
			}
			if time.Now().After(deadline) {
				return ms, fmt.Errorf("%d of %d messages at the main webhook after %s", len(ms), n, within)
			}
			select {
			case <-fake.Arrived():
			case <-time.After(20 * time.Millisecond):
			case <-ctx.Done():
				return ms, ctx.Err()
			}
		}
	}

	// (1) Latency, unlimited.
	const sequential = 30
	var lat []time.Duration
	for k := range sequential {
		before := len(toMain())
		start := time.Now()
		if err := complete(k%teams, fmt.Sprint("seq-", k)); err != nil {
			return err
		}
		ms, err := waitMain(before+1, 30*time.Second)
		if err != nil {
			return err
		}
		lat = append(lat, ms[before].At.Sub(start))
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	fmt.Fprintf(out, "action → message at the fake Discord (main webhook), one at a time: p50 %s, p99 %s (%d completions, 2 messages each: main + team slot)\n",
		Pct(lat, 50), Pct(lat, 99), len(lat))

	// (2) A burst under the fake's rate limit.
	fake.Limit(limit, time.Second)
	base := len(toMain())
	req0, lim0 := fake.Counts()
	start := time.Now()
	var wg sync.WaitGroup
	errs := make(chan error, teams)
	for i := range teams {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range burst / teams {
				if err := complete(i, fmt.Sprint("burst-", i, "-", k)); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		return err
	}
	sent := time.Since(start)
	n := burst / teams * teams
	ms, err := waitMain(base+n, time.Duration(n/limit+120)*time.Second)
	if err != nil {
		return err
	}
	got := ms[base:]
	span := got[len(got)-1].At.Sub(got[0].At)
	req1, lim1 := fake.Counts()
	rate := float64(len(got)-1) / span.Seconds()
	fmt.Fprintf(out, "burst of %d completions (sent in %s) under a limit of %d messages/s per webhook: the main webhook received %d of %d (none lost) at %.2f messages/s over %s; %d requests in all, %d answered 429 (retried by the outbox)\n",
		n, sent.Round(time.Millisecond), limit, len(got), n, rate, span.Round(time.Millisecond), req1-req0, lim1-lim0)
	fake.Limit(0, 0)
	return nil
}
