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
	"github.com/meeple-games/meeple/store"
	"github.com/meeple-games/meeple/store/storetest"
	"github.com/meeple-games/meeple/triggers"
)

// ticker is a two-player rule set with a turn timer: "win" ends the game with
// the actor winning; each deadline that passes is a strike, and the second
// strike ends the game, the first player losing on time.
type ticker struct{}

type tickerState struct {
	Players  []string  `json:"players"`
	Deadline time.Time `json:"deadline"`
	Strikes  int       `json:"strikes"`
	Over     bool      `json:"over"`
}

const tickerKind = "ticker"

func (ticker) Kind() string { return tickerKind }

func (ticker) Header(s tickerState) domain.Header {
	h := domain.Header{Status: domain.StatusActive, Players: s.Players, Deadline: s.Deadline}
	if s.Over {
		h.Status, h.Deadline = domain.StatusOver, time.Time{}
	}
	return h
}

func over(s tickerState, winner, loser, reason string) (tickerState, domain.Outcome) {
	s.Over = true
	return s, domain.Outcome{Events: []domain.Event{{Type: domain.EventGameOver, Data: domain.GameOver{
		Kind: tickerKind, Mode: "blitz", Winners: []string{winner}, Losers: []string{loser}, Reason: reason}}}}
}

func (ticker) Apply(s tickerState, a domain.Action, env domain.Env) (tickerState, domain.Outcome, error) {
	if a.Type != "win" || s.Over {
		return s, domain.Outcome{}, domain.Errorf(domain.ECONFLICT, "not now")
	}
	loser := s.Players[0]
	if loser == a.Actor.ID {
		loser = s.Players[1]
	}
	s, out := over(s, a.Actor.ID, loser, "win")
	return s, out, nil
}

func (ticker) Expire(s tickerState, env domain.Env) (tickerState, domain.Outcome, error) {
	s.Strikes++
	if s.Strikes >= 2 {
		s, out := over(s, s.Players[1], s.Players[0], "timeout")
		return s, out, nil
	}
	s.Deadline = env.Now.Add(time.Minute)
	return s, domain.Outcome{Events: []domain.Event{{Type: "strike", Player: s.Players[0]}}}, nil
}

// env is one test's emulator project, store, clock and triggers.
type env struct {
	project string
	st      *store.Store
	tr      *triggers.Triggers
	mu      sync.Mutex
	now     time.Time
}

func newEnv(t *testing.T) *env {
	t.Helper()
	e := &env{project: storetest.Project(t), now: time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)}
	e.st = store.New(storetest.ClientFor(t, e.project))
	e.st.FixedSeeds = true
	e.st.Now = e.clock
	e.tr = triggers.New(e.st)
	e.tr.Advancers[tickerKind] = triggers.AdvancerFor(ticker{})
	return e
}

func (e *env) clock() time.Time { e.mu.Lock(); defer e.mu.Unlock(); return e.now }

func (e *env) advance(d time.Duration) { e.mu.Lock(); e.now = e.now.Add(d); e.mu.Unlock() }

// create makes a ticker game between ann and bob.
func (e *env) create(t *testing.T, id string, s tickerState) string {
	t.Helper()
	if s.Players == nil {
		s.Players = []string{"ann", "bob"}
	}
	c, err := store.CreateGame(context.Background(), e.st, ticker{}, store.Create{ID: id, Seed: "seed-" + id}, s)
	require.NoError(t, err)
	return c.GameID
}

// win has ann win game id through the action pipeline, which writes a pending
// event record at version 1.
func (e *env) win(t *testing.T, id string) {
	t.Helper()
	_, err := store.Act(context.Background(), e.st, ticker{}, store.Request{GameID: id, Action: domain.Action{ID: "win-" + id, Type: "win", Actor: domain.Actor{ID: "ann", Name: "Ann"}}})
	require.NoError(t, err)
}

func (e *env) totals(t *testing.T, player string) store.Totals {
	t.Helper()
	got, err := e.st.PlayerTotals(context.Background(), player, tickerKind, "blitz")
	require.NoError(t, err)
	return got
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
