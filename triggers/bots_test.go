package triggers_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"cloud.google.com/go/firestore/apiv1/firestorepb"
	"github.com/cloudevents/sdk-go/v2/event"
	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/bot"
	"github.com/meeple-games/meeple/domain/pig"
	"github.com/meeple-games/meeple/store"
	"github.com/meeple-games/meeple/store/storetest"
	"github.com/meeple-games/meeple/triggers"
)

var pigBot = domain.BotActor(domain.BotRandom, 1)

// botEnv is an env whose Pig takes bots.
func botEnv(t *testing.T) *env {
	t.Helper()
	e := &env{project: storetest.Project(t), now: time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)}
	entry := pig.Entry()
	entry.Bots = bot.New(bot.Spec[pig.Game]{Rules: pig.Rules{}, Lister: pig.Rules{}})
	e.st = store.New(storetest.ClientFor(t, e.project), domain.Registry{entry})
	e.st.FixedSeeds = true
	e.st.Now = e.clock
	e.tr = triggers.New(e.st)
	return e
}

// botGame puts a started Pig game between ann and a random bot, whose turn
// it is (to 100: it will not end soon).
func (e *env) botGame(t *testing.T, id string) {
	t.Helper()
	g := pig.Game{ID: id, Players: []string{"ann", pigBot.ID}, Names: []string{"Ann", pigBot.Name}, Scores: []int{0, 0},
		Target: 100, Started: true, Current: 1}
	require.NoError(t, e.st.PutGame(context.Background(), pig.Kind, id, pig.Rules{}.Header(g), g, "seed-"+id))
}

// gameEvent is the CloudEvent of a write of games/{id} holding status and players.
func (e *env) gameEvent(t *testing.T, evID, id, status string, players ...string) event.Event {
	t.Helper()
	name := triggers.DocumentName{Project: e.project, Database: "(default)", Path: "games/" + id}
	var vals []*firestorepb.Value
	for _, p := range players {
		vals = append(vals, &firestorepb.Value{ValueType: &firestorepb.Value_StringValue{StringValue: p}})
	}
	doc := &firestorepb.Document{Name: name.String(), Fields: map[string]*firestorepb.Value{
		"status":  {ValueType: &firestorepb.Value_StringValue{StringValue: status}},
		"players": {ValueType: &firestorepb.Value_ArrayValue{ArrayValue: &firestorepb.ArrayValue{Values: vals}}},
	}}
	ev, err := triggers.NewDocumentCloudEvent(triggers.DocumentCloudEvent{ID: evID, Type: triggers.TypeWritten, Time: e.clock(),
		Document: name, Data: triggers.DocumentEvent{Value: doc}})
	require.NoError(t, err)
	return ev
}

func (e *env) version(t *testing.T, id string) int64 {
	t.Helper()
	doc, err := e.st.GameDoc(context.Background(), id)
	require.NoError(t, err)
	return doc["version"].(int64)
}

func TestBotTurnIgnoresGamesWithoutBots(t *testing.T) {
	e := botEnv(t)
	e.botGame(t, "g1")
	// The event says no bot is seated, or the game is not active: nothing
	// is read or played, whatever the document holds now.
	for _, ev := range []event.Event{
		e.gameEvent(t, "e1", "g1", "active", "ann", "bob"),
		e.gameEvent(t, "e2", "g1", "waiting", "ann", pigBot.ID),
		e.gameEvent(t, "e3", "g1", "over", "ann", pigBot.ID),
	} {
		require.NoError(t, e.tr.BotTurn(context.Background(), ev))
	}
	if got, want := e.version(t, "g1"), int64(0); got != want {
		t.Fatalf("got version %d, want %d", got, want)
	}
}

func TestBotTurnDeliveredTwiceMovesOncePerVersion(t *testing.T) {
	e := botEnv(t)
	e.botGame(t, "g2")
	ev := e.gameEvent(t, "e1", "g2", "active", "ann", pigBot.ID)
	var wg sync.WaitGroup
	for i := 0; i < 3; i++ {
		wg.Add(1)
		go func() { defer wg.Done(); require.NoError(t, e.tr.BotTurn(context.Background(), ev)) }()
	}
	wg.Wait()
	require.NoError(t, e.tr.BotTurn(context.Background(), ev))
	recs, err := e.st.Events(context.Background(), "g2")
	require.NoError(t, err)
	require.NotEmpty(t, recs, "the bot did not move")
	seen := map[string]bool{}
	for _, r := range recs {
		require.Equal(t, pigBot.ID, r.Actor["id"], "a step by someone else")
		// Each bot move is the one for the version it looked at.
		if got, want := r.ActionID, store.BotActionID(r.Seq-1); got != want {
			t.Fatalf("record %d: got action id %q, want %q", r.Seq, got, want)
		}
		require.False(t, seen[r.ActionID], "version %d played twice", r.Seq-1)
		seen[r.ActionID] = true
		require.True(t, strings.HasPrefix(r.ActionID, "bot-v"))
	}
}

func TestTickMovesStalledBots(t *testing.T) {
	e := botEnv(t)
	e.botGame(t, "g3")
	r, err := e.tr.RunTick(context.Background(), e.clock())
	require.NoError(t, err)
	require.Zero(t, r.BotMoves, "a game written just now is left to its trigger")
	e.advance(store.BotStall + time.Second)
	r, err = e.tr.RunTick(context.Background(), e.clock())
	require.NoError(t, err)
	if got, want := r.BotGames, 1; got != want {
		t.Fatalf("got %d stalled bot games, want %d", got, want)
	}
	if got, want := r.BotMoves, 1; got != want {
		t.Fatalf("got %d bot moves, want %d", got, want)
	}
	if got := e.version(t, "g3"); got != 1 {
		t.Fatalf("got version %d, want 1", got)
	}
}
