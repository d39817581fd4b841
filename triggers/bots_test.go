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

// docEvent is the CloudEvent of a write of the document at path (under
// games/) holding fields.
func (e *env) docEvent(t *testing.T, evID, path string, fields map[string]*firestorepb.Value) event.Event {
	t.Helper()
	name := triggers.DocumentName{Project: e.project, Database: "(default)", Path: path}
	doc := &firestorepb.Document{Name: name.String(), Fields: fields}
	ev, err := triggers.NewDocumentCloudEvent(triggers.DocumentCloudEvent{ID: evID, Type: triggers.TypeWritten, Time: e.clock(),
		Document: name, Data: triggers.DocumentEvent{Value: doc}})
	require.NoError(t, err)
	return ev
}

// turnEvent is the CloudEvent of a write of game id's bot-turn document.
func (e *env) turnEvent(t *testing.T, evID, id string) event.Event {
	t.Helper()
	return e.docEvent(t, evID, "games/"+id+"/bots/turn", map[string]*firestorepb.Value{
		"version": {ValueType: &firestorepb.Value_IntegerValue{IntegerValue: e.version(t, id)}}})
}

// hasTurnDoc reports whether game id has a bot-turn document, and its version.
func (e *env) hasTurnDoc(t *testing.T, id string) (bool, int64) {
	t.Helper()
	snap, err := storetest.ClientFor(t, e.project).Doc("games/" + id + "/bots/turn").Get(context.Background())
	if err != nil {
		require.False(t, snap != nil && snap.Exists(), "%v", err)
		return false, 0
	}
	v, _ := snap.Data()["version"].(int64)
	return true, v
}

func (e *env) version(t *testing.T, id string) int64 {
	t.Helper()
	doc, err := e.st.GameDoc(context.Background(), id)
	require.NoError(t, err)
	return doc["version"].(int64)
}

// Only an active game that seats a bot writes the bot-turn document BotTurn
// watches, so no other game's write invokes it; the document follows the
// game's version.
func TestOnlyBotGamesWriteTheTurnDocument(t *testing.T) {
	e := botEnv(t)
	ctx := context.Background()
	people := pig.Game{ID: "p1", Players: []string{"ann", "bob"}, Names: []string{"Ann", "Bob"}, Scores: []int{0, 0},
		Target: 100, Started: true}
	require.NoError(t, e.st.PutGame(ctx, pig.Kind, "p1", pig.Rules{}.Header(people), people, "seed-p1"))
	ann := domain.Actor{ID: "ann", Name: "Ann", Role: domain.RolePlayer}
	_, _, err := store.Run(ctx, e.st, store.Request{Kind: pig.Kind, GameID: "p1", Action: domain.Action{ID: "r1", Type: "roll", Actor: ann}})
	require.NoError(t, err)
	if ok, _ := e.hasTurnDoc(t, "p1"); ok {
		t.Fatal("a game without a bot wrote a bot-turn document")
	}
	e.botGame(t, "g1")
	ok, v := e.hasTurnDoc(t, "g1")
	require.True(t, ok, "a new active game with a bot has its bot-turn document")
	require.Equal(t, int64(0), v)
	require.NoError(t, e.tr.BotTurn(ctx, e.turnEvent(t, "e1", "g1")))
	ok, v = e.hasTurnDoc(t, "g1")
	require.True(t, ok)
	if got, want := v, e.version(t, "g1"); got != want || got == 0 {
		t.Fatalf("got bot-turn version %d, want the game's %d (after the bot's move)", got, want)
	}
}

// BotTurn acts on bot-turn documents only, and moves nothing in a game that
// is not active.
func TestBotTurnIgnoresOtherDocuments(t *testing.T) {
	e := botEnv(t)
	e.botGame(t, "g1")
	players := &firestorepb.Value{ValueType: &firestorepb.Value_ArrayValue{ArrayValue: &firestorepb.ArrayValue{Values: []*firestorepb.Value{
		{ValueType: &firestorepb.Value_StringValue{StringValue: pigBot.ID}}}}}}
	active := &firestorepb.Value{ValueType: &firestorepb.Value_StringValue{StringValue: "active"}}
	for _, ev := range []event.Event{
		e.docEvent(t, "e1", "games/g1", map[string]*firestorepb.Value{"status": active, "players": players}),
		e.docEvent(t, "e2", "games/g1/bots/other", nil),
		e.docEvent(t, "e3", "games/g1/events/000000000001", nil),
	} {
		require.NoError(t, e.tr.BotTurn(context.Background(), ev))
	}
	if got, want := e.version(t, "g1"), int64(0); got != want {
		t.Fatalf("got version %d, want %d", got, want)
	}
	over := pig.Game{ID: "g2", Players: []string{"ann", pigBot.ID}, Names: []string{"Ann", pigBot.Name}, Scores: []int{100, 0},
		Target: 100, Started: true, Current: 1, Over: true}
	require.NoError(t, e.st.PutGame(context.Background(), pig.Kind, "g2", pig.Rules{}.Header(over), over, "seed-g2"))
	require.NoError(t, e.tr.BotTurn(context.Background(), e.turnEvent(t, "e4", "g2")))
	if got, want := e.version(t, "g2"), int64(0); got != want {
		t.Fatalf("an ended game: got version %d, want %d", got, want)
	}
}

func TestBotTurnDeliveredTwiceMovesOncePerVersion(t *testing.T) {
	e := botEnv(t)
	e.botGame(t, "g2")
	ev := e.turnEvent(t, "e1", "g2")
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
