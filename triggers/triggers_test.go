package triggers_test

import (
	"context"
	"errors"
	"fmt"

	"cloud.google.com/go/firestore"
	"sync"
	"testing"
	"time"

	"github.com/cloudevents/sdk-go/v2/event"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/pig"
	"github.com/meeple-games/meeple/store"
	"github.com/meeple-games/meeple/triggers"
)

var (
	annWon  = store.Totals{Wins: 1, Played: 1}
	bobLost = store.Totals{Losses: 1, Played: 1}
)

func TestGameEventDeliveredTwice(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	e.create(t, "g1", tickerState{})
	e.win(t, "g1")
	ev := e.recordEvent(t, "delivery-1", "g1", 1, ptr(true))
	for i := range 2 {
		require.NoError(t, e.tr.GameEvent(ctx, ev), "delivery %d", i+1)
	}
	require.Equal(t, annWon, e.totals(t, "ann"))
	require.Equal(t, bobLost, e.totals(t, "bob"))
	require.False(t, e.record(t, "g1", 1).Pending, "pending after GameEvent")
}

func TestGameEventDeliveredConcurrently(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	e.create(t, "g1", tickerState{})
	e.win(t, "g1")
	ev := e.recordEvent(t, "delivery-1", "g1", 1, ptr(true))
	var wg sync.WaitGroup
	errs := make([]error, 3)
	for i := range errs {
		wg.Add(1)
		go func() { defer wg.Done(); errs[i] = e.tr.GameEvent(ctx, ev) }()
	}
	wg.Wait()
	for i, err := range errs {
		require.NoError(t, err, "delivery %d", i+1)
	}
	require.Equal(t, annWon, e.totals(t, "ann"))
	require.Equal(t, bobLost, e.totals(t, "bob"))
	require.Equal(t, store.Leaderboard{Kind: tickerKind, Mode: store.DefaultMode, Complete: true}, e.leaderboard(t), "no board before the tick")
	r, err := e.tr.RunTick(ctx, e.clock())
	require.NoError(t, err)
	require.Equal(t, triggers.TickReport{Projected: 1, Rebuilt: 1, Changed: 1}, r)
	require.Equal(t, []store.LeaderEntry{{PlayerID: "ann", Wins: 1}, {PlayerID: "bob", Losses: 1}}, e.leaderboard(t).Entries)
}

func TestGameEventDoesNothing(t *testing.T) {
	for _, tc := range []struct {
		name  string
		event func(e *env, t *testing.T) event.Event
	}{
		{"a record written not pending", func(e *env, t *testing.T) event.Event { return e.recordEvent(t, "x", "g1", 1, ptr(false)) }},
		{"a deleted record", func(e *env, t *testing.T) event.Event { return e.recordEvent(t, "x", "g1", 1, nil) }},
		{"undecodable data", func(e *env, t *testing.T) event.Event {
			ev := e.recordEvent(t, "x", "g1", 1, ptr(true))
			require.NoError(t, ev.SetData("application/protobuf", []byte{0x0a, 0xff}))
			return ev
		}},
		{"an unsupported content type", func(e *env, t *testing.T) event.Event {
			ev := e.recordEvent(t, "x", "g1", 1, ptr(true))
			ev.SetDataContentType("text/plain")
			return ev
		}},
		{"a document that is no event record", func(e *env, t *testing.T) event.Event {
			ev := e.recordEvent(t, "x", "g1", 1, ptr(true))
			de, err := triggers.DocumentEventOf(ev)
			require.NoError(t, err)
			de.Value.Name = "projects/" + e.project + "/databases/(default)/documents/games/g1/events/1"
			b, err := triggers.EncodeDocumentEvent(de)
			require.NoError(t, err)
			require.NoError(t, ev.SetData("application/protobuf", b))
			return ev
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			e.create(t, "g1", tickerState{})
			e.win(t, "g1")
			require.NoError(t, e.tr.GameEvent(context.Background(), tc.event(e, t)))
			require.Equal(t, store.Totals{}, e.totals(t, "ann"))
			require.True(t, e.record(t, "g1", 1).Pending, "record still pending")
		})
	}
}

func TestGameEventJSONData(t *testing.T) {
	e := newEnv(t)
	e.create(t, "g1", tickerState{})
	e.win(t, "g1")
	ev := event.New()
	ev.SetID("json-1")
	ev.SetType(triggers.TypeWritten)
	ev.SetSource("//firestore.googleapis.com/projects/" + e.project + "/databases/(default)")
	require.NoError(t, ev.SetData("application/json", []byte(`{"value":{"name":"projects/`+e.project+
		`/databases/(default)/documents/games/g1/events/000000000001","fields":{"pending":{"booleanValue":true},"extra":{"nullValue":null}},"future":1}}`)))
	require.NoError(t, e.tr.GameEvent(context.Background(), ev))
	require.Equal(t, annWon, e.totals(t, "ann"))
}

func TestGameEventReturnsRetryableErrors(t *testing.T) {
	e := newEnv(t)
	e.create(t, "g1", tickerState{})
	e.win(t, "g1")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := e.tr.GameEvent(ctx, e.recordEvent(t, "x", "g1", 1, ptr(true)))
	require.Error(t, err, "a cancelled call can be retried")
	require.True(t, e.record(t, "g1", 1).Pending, "record still pending")
}

func TestRetryable(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{nil, false},
		{status.Error(codes.Unavailable, "down"), true},
		{status.Error(codes.Aborted, "contention"), true},
		{status.Error(codes.InvalidArgument, "bad"), false},
		{status.Error(codes.NotFound, "gone"), false},
		{context.DeadlineExceeded, true},
		{domain.Errorf(domain.EINVALID, "bad record"), false},
		{errors.New("store: decode"), false},
	} {
		t.Run(errString(tc.err), func(t *testing.T) {
			require.Equal(t, tc.want, triggers.Retryable(tc.err))
		})
	}
}

func errString(err error) string {
	if err == nil {
		return "nil"
	}
	return err.Error()
}

func TestRunTickAdvancesOnce(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	now := e.clock()
	e.create(t, "due", tickerState{Deadline: now.Add(-30 * time.Second)})
	e.create(t, "later", tickerState{Deadline: now.Add(30 * time.Second)})
	e.create(t, "none", tickerState{})

	r, err := e.tr.RunTick(ctx, now)
	require.NoError(t, err)
	require.Equal(t, triggers.TickReport{Due: 1, Advanced: 1, Steps: 1}, r, "first tick")
	r, err = e.tr.RunTick(ctx, now)
	require.NoError(t, err)
	require.Equal(t, triggers.TickReport{}, r, "second tick")

	for _, tc := range []struct {
		id      string
		version int64
		strikes int
	}{{"due", 1, 1}, {"later", 0, 0}, {"none", 0, 0}} {
		var s pig.Game
		v, err := e.st.GameState(ctx, tc.id, &s)
		require.NoError(t, err)
		require.Equal(t, tc.version, v, "version of %s", tc.id)
		require.Equal(t, tc.strikes, strikes(s), "strikes of %s", tc.id)
	}
	var s pig.Game
	_, err = e.st.GameState(ctx, "due", &s)
	require.NoError(t, err)
	require.Equal(t, now.Add(30*time.Second), s.Deadline.UTC(), "timeout applied as of its deadline")
}

func TestRunTickConcurrentTicksAdvanceOnce(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	now := e.clock()
	e.create(t, "due", tickerState{Deadline: now.Add(-time.Second)})
	var wg sync.WaitGroup
	reports := make([]triggers.TickReport, 2)
	errs := make([]error, 2)
	for i := range reports {
		wg.Add(1)
		go func() {
			defer wg.Done()
			reports[i], errs[i] = e.tr.RunTick(ctx, now)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		require.NoError(t, err, "tick %d", i+1)
	}
	require.Equal(t, 1, reports[0].Steps+reports[1].Steps, "steps in both ticks: %+v", reports)
	recs, err := e.st.Events(ctx, "due")
	require.NoError(t, err)
	require.Len(t, recs, 1, "event records")
}

func TestRunTickSweepsPendingEffects(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	// One strike already: the tick's expiry ends the game, and no trigger is
	// registered in this project, so only the sweep can apply its effects.
	e.create(t, "g1", tickerState{Deadline: e.clock().Add(-time.Second), Strikes: 1})

	r, err := e.tr.RunTick(ctx, e.clock())
	require.NoError(t, err)
	require.Equal(t, triggers.TickReport{Due: 1, Advanced: 1, Steps: 1}, r, "tick that ends the game")
	require.True(t, e.record(t, "g1", 1).Pending, "fresh record left to its trigger")

	e.advance(triggers.DefaultPendingAge + time.Second)
	r, err = e.tr.RunTick(ctx, e.clock())
	require.NoError(t, err)
	// The projection pass that runs alongside the sweep, or the one after
	// it, rebuilds the board in the same tick.
	require.Equal(t, triggers.TickReport{Pending: 1, Applied: 1, Projected: 1, Rebuilt: 1, Changed: 1}, r, "tick that sweeps")
	require.False(t, e.record(t, "g1", 1).Pending)
	require.Equal(t, store.Totals{Losses: 1, Played: 1}, e.totals(t, "ann"))
	require.Equal(t, store.Totals{Wins: 1, Played: 1}, e.totals(t, "bob"))
	require.Equal(t, []store.LeaderEntry{{PlayerID: "bob", Wins: 1}, {PlayerID: "ann", Losses: 1}}, e.leaderboard(t).Entries)

	r, err = e.tr.RunTick(ctx, e.clock())
	require.NoError(t, err)
	require.Equal(t, triggers.TickReport{}, r, "tick with nothing left")
	require.Equal(t, store.Totals{Wins: 1, Played: 1}, e.totals(t, "bob"))
}

func TestRunTickIsolatesFailures(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	now := e.clock()
	e.create(t, "a-ok", tickerState{Deadline: now.Add(-3 * time.Second)})
	e.create(t, "b-broken", tickerState{Deadline: now.Add(-2 * time.Second)})
	e.create(t, "c-ok", tickerState{Deadline: now.Add(-time.Second)})
	_, err := e.st.FS.Doc("games/d-unknown").Set(ctx, map[string]any{"kind": "chess", "deadlineAt": now.Add(-time.Hour)})
	require.NoError(t, err)
	// A state that no longer decodes: advancing it fails.
	_, err = e.st.FS.Doc("games/b-broken").Update(ctx, []firestore.Update{{Path: "state", Value: "garbage"}})
	require.NoError(t, err)
	e.tr.Workers = 1
	r, err := e.tr.RunTick(ctx, now)
	require.NoError(t, err)
	require.Equal(t, triggers.TickReport{Due: 4, Advanced: 2, Steps: 2, Skipped: 1, Failed: 1}, r)
}

func TestRunTickBounded(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	now := e.clock()
	for _, id := range []string{"g1", "g2", "g3"} {
		e.create(t, id, tickerState{Deadline: now.Add(-time.Second)})
	}
	e.tr.MaxGames = 2
	r, err := e.tr.RunTick(ctx, now)
	require.NoError(t, err)
	require.Equal(t, triggers.TickReport{Due: 2, Advanced: 2, Steps: 2}, r, "first tick")
	r, err = e.tr.RunTick(ctx, now)
	require.NoError(t, err)
	require.Equal(t, triggers.TickReport{Due: 1, Advanced: 1, Steps: 1}, r, "second tick")
}

func TestTickFunction(t *testing.T) {
	e := newEnv(t)
	e.create(t, "g1", tickerState{Deadline: e.clock().Add(-time.Second)})
	// What Cloud Scheduler's Pub/Sub message looks like as a CloudEvent.
	ev := event.New()
	ev.SetID("msg-1")
	ev.SetType("google.cloud.pubsub.topic.v1.messagePublished")
	ev.SetSource("//pubsub.googleapis.com/projects/p/topics/tick")
	require.NoError(t, ev.SetData("application/json", map[string]any{
		"message":      map[string]any{"data": "dGljaw==", "messageId": "1", "publishTime": e.clock().Format(time.RFC3339)},
		"subscription": "projects/p/subscriptions/tick",
	}))
	require.NoError(t, e.tr.Tick(context.Background(), ev))
	var s pig.Game
	v, err := e.st.GameState(context.Background(), "g1", &s)
	require.NoError(t, err)
	require.Equal(t, int64(1), v, "version after the tick")
}

func TestFunctions(t *testing.T) {
	require.ElementsMatch(t, []string{"GameEvent", "Tick", "Outbox", "BotTurn"}, keys(triggers.Functions()))
	require.ElementsMatch(t, []string{"GameEvent", "Tick", "Outbox", "BotTurn"}, keys(newEnv(t).tr.Functions()))
	require.Equal(t, map[string]string{"GameEvent": "games/{gameId}/events/{eventId}", "Outbox": "games/{gameId}/outbox/{key}",
		"BotTurn": "games/{gameId}/bots/turn"},
		triggers.DocumentTriggers)
	for _, tc := range []struct {
		name string
		reg  domain.Registry
		want []string
	}{
		{"no game with an effect handler", domain.Registry{pig.Entry()}, []string{"Outbox", "BotTurn"}},
		{"a game with one", domain.Registry{pig.Entry(), handledPig()}, []string{"GameEvent", "Outbox", "BotTurn"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.ElementsMatch(t, tc.want, keys(triggers.DocumentTriggersFor(tc.reg)))
		})
	}
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// TestGameEventOutOfOrder: deliveries that arrive late or in another order
// than the writes — a record's creation after the sweep already applied it,
// a later record before an earlier one — apply every record's effects once.
func TestGameEventOutOfOrder(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	e.create(t, "g1", tickerState{})
	e.create(t, "g2", tickerState{})
	e.win(t, "g1")
	e.win(t, "g2")
	first := e.recordEvent(t, "d1", "g1", 1, ptr(true))
	second := e.recordEvent(t, "d2", "g2", 1, ptr(true))
	require.NoError(t, e.tr.GameEvent(ctx, second), "the later record first")
	require.NoError(t, e.tr.GameEvent(ctx, first))
	require.Equal(t, store.Totals{Wins: 2, Played: 2}, e.totals(t, "ann"))
	// The sweep and a late redelivery of both: nothing more.
	e.advance(triggers.DefaultPendingAge + time.Second)
	r, err := e.tr.RunTick(ctx, e.clock())
	require.NoError(t, err)
	require.Zero(t, r.Applied)
	require.NoError(t, e.tr.GameEvent(ctx, first))
	require.NoError(t, e.tr.GameEvent(ctx, second))
	require.Equal(t, store.Totals{Wins: 2, Played: 2}, e.totals(t, "ann"))
	require.Equal(t, store.Totals{Losses: 2, Played: 2}, e.totals(t, "bob"))
}

// TestTickProjectsABacklog: a pass takes up to MaxProject records; while
// one is full, another follows in the same tick, so a backlog larger than
// a pass is still projected at once. Each board is rebuilt once per pass
// however many records ask for it.
func TestTickProjectsABacklog(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t)
	for i := range 5 {
		id := fmt.Sprintf("g%d", i)
		e.create(t, id, tickerState{})
		e.win(t, id)
		_, err := e.st.ApplyEffects(ctx, id, store.EventID(1))
		require.NoError(t, err)
	}
	e.tr.MaxProject = 2
	r, err := e.tr.RunTick(ctx, e.clock())
	require.NoError(t, err)
	// The first pass already sees every game's totals: the others find
	// the board as it should be and write nothing.
	require.Equal(t, triggers.TickReport{Projected: 5, Rebuilt: 3, Changed: 1}, r, "passes of 2, 2 and 1 records")
	require.Equal(t, []store.LeaderEntry{{PlayerID: "ann", Wins: 5}, {PlayerID: "bob", Losses: 5}}, e.leaderboard(t).Entries)
	r, err = e.tr.RunTick(ctx, e.clock())
	require.NoError(t, err)
	require.Equal(t, triggers.TickReport{}, r)
}
