package triggers_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"cloud.google.com/go/firestore/apiv1/firestorepb"
	"github.com/cloudevents/sdk-go/v2/event"
	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/pig"
	"github.com/meeple-games/meeple/store"
	"github.com/meeple-games/meeple/store/storetest"
	"github.com/meeple-games/meeple/triggers"
)

// The triggers' tests play Pig (domain/pig), the example game, from chosen
// states: Ann and Bob, Bob one point from the target of 1. A game with a
// deadline is one where the timer runs; each deadline that passes makes the
// current player hold, so the first passes the turn to Bob (a "strike") and
// the second makes Bob hold and win, Ann losing on time. A game without a
// deadline is Ann's turn with one point rolled: she wins by holding.
type tickerState struct {
	Deadline time.Time
	Strikes  int // deadlines already passed (0 or 1)
}

const tickerKind = pig.Kind

func pigState(id string, s tickerState) pig.Game {
	g := pig.Game{ID: id, Players: []string{"ann", "bob"}, Names: []string{"Ann", "Bob"}, Scores: []int{0, 1},
		Target: 1, Started: true, Current: s.Strikes, Deadline: s.Deadline}
	if s.Deadline.IsZero() {
		g.TurnTotal = 1
	} else {
		g.TurnSecs = 60
	}
	return g
}

// strikes is how many deadlines passed in g (2: the game ended on time).
func strikes(g pig.Game) int {
	if g.Over {
		return 2
	}
	return g.Current
}

// handledPig is Pig with an effect handler on gameOver that does nothing.
// A game's end whose only effect is its stats writes them in its own commit
// and leaves nothing pending (store.statsInCommit); a game with a handler
// leaves its record pending for GameEvent and the tick's sweep, which then
// run the handler and the stats: the path these tests check.
func handledPig() domain.Entry {
	e := pig.Entry()
	e.Effects = []domain.Effect{{
		Event: domain.EventGameOver,
		Reads: func(domain.Record) ([]domain.Read, error) { return nil, nil },
		Run:   func(domain.Docs, domain.Record, time.Time) (domain.Change, error) { return domain.Change{}, nil },
	}}
	return e
}

// env is one test's emulator project, store, clock and triggers.
type env struct {
	project string
	st      *store.Store
	tr      *triggers.Triggers
	mu      sync.Mutex
	now     time.Time
}

func newEnv(t *testing.T, more ...domain.Entry) *env {
	t.Helper()
	e := &env{project: storetest.Project(t), now: time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)}
	e.st = store.New(storetest.ClientFor(t, e.project), append(domain.Registry{handledPig()}, more...))
	e.st.FixedSeeds = true
	e.st.Now = e.clock
	e.tr = triggers.New(e.st)
	return e
}

func (e *env) clock() time.Time { e.mu.Lock(); defer e.mu.Unlock(); return e.now }

func (e *env) advance(d time.Duration) { e.mu.Lock(); e.now = e.now.Add(d); e.mu.Unlock() }

// create makes a ticker game between ann and bob.
func (e *env) create(t *testing.T, id string, s tickerState) string {
	t.Helper()
	g := pigState(id, s)
	require.NoError(t, e.st.PutGame(context.Background(), pig.Kind, id, pig.Rules{}.Header(g), g, "seed-"+id))
	return id
}

// win has ann win game id through the action pipeline, which writes a pending
// event record at version 1.
func (e *env) win(t *testing.T, id string) {
	t.Helper()
	_, _, err := store.Run(context.Background(), e.st, store.Request{Kind: pig.Kind, GameID: id,
		Action: domain.Action{ID: "win-" + id, Type: "hold", Actor: domain.Actor{ID: "ann", Name: "Ann", Role: domain.RoleGuest}}})
	require.NoError(t, err)
}

func (e *env) totals(t *testing.T, player string) store.Totals {
	t.Helper()
	got, err := e.st.PlayerTotals(context.Background(), player, tickerKind, store.DefaultMode)
	require.NoError(t, err)
	return got
}

func (e *env) leaderboard(t *testing.T) store.Leaderboard {
	t.Helper()
	lb, err := e.st.LeaderboardDoc(context.Background(), tickerKind, store.DefaultMode)
	require.NoError(t, err)
	lb.UpdatedAt = time.Time{}
	return lb
}

func (e *env) record(t *testing.T, gameID string, seq int64) store.EventRecord {
	t.Helper()
	recs, err := e.st.Events(context.Background(), gameID)
	require.NoError(t, err)
	for _, r := range recs {
		if r.Seq == seq {
			return r
		}
	}
	t.Fatalf("no event record %s/%d", gameID, seq)
	return store.EventRecord{}
}

// recordEvent is the CloudEvent production delivers for a write of the event
// record seq of gameID with the given pending flag (nil value: a delete).
func (e *env) recordEvent(t *testing.T, id, gameID string, seq int64, value *bool) event.Event {
	t.Helper()
	name := triggers.DocumentName{Project: e.project, Database: "(default)", Path: fmt.Sprintf("games/%s/events/%s", gameID, store.EventID(seq))}
	doc := func(pending bool) *firestorepb.Document {
		return &firestorepb.Document{Name: name.String(), Fields: map[string]*firestorepb.Value{
			"pending": {ValueType: &firestorepb.Value_BooleanValue{BooleanValue: pending}},
			"seq":     {ValueType: &firestorepb.Value_IntegerValue{IntegerValue: seq}},
		}}
	}
	data := triggers.DocumentEvent{OldValue: doc(true)}
	if value != nil {
		data = triggers.DocumentEvent{Value: doc(*value)}
	}
	ev, err := triggers.NewDocumentCloudEvent(triggers.DocumentCloudEvent{ID: id, Type: triggers.TypeWritten, Time: e.clock(), Document: name, Data: data})
	require.NoError(t, err)
	return ev
}

func ptr[T any](v T) *T { return &v }

// eventually polls cond until it holds or 15 seconds pass.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
