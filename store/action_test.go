package store_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/store"
	"github.com/meeple-games/meeple/store/storetest"
)

// counter is a tiny rule set that exercises the pipeline: "add" adds a die roll,
// "bad" is always illegal, a deadline (when set) adds 100 and moves on a minute.
type counter struct{}

type counterState struct {
	Total    int       `json:"total"`
	Rolls    []int     `json:"rolls"`
	Deadline time.Time `json:"deadline"`
	Over     bool      `json:"over"`
}

func (counter) Kind() string { return "counter" }

func (counter) Header(s counterState) domain.Header {
	st := domain.StatusActive
	if s.Over {
		st = domain.StatusOver
	}
	return domain.Header{Status: st, Players: []string{"p1"}, Deadline: s.Deadline}
}

func (counter) Apply(s counterState, a domain.Action, env domain.Env) (counterState, domain.Outcome, error) {
	switch a.Type {
	case "add":
		r := env.Dice.Roll(6)
		s.Rolls = append(append([]int(nil), s.Rolls...), r)
		s.Total += r
		return s, domain.Outcome{Events: []domain.Event{{Type: "added", Player: a.Actor.ID, Data: map[string]int{"roll": r}}}, Result: map[string]int{"total": s.Total}}, nil
	case "end":
		s.Over = true
		return s, domain.Outcome{Events: []domain.Event{{Type: domain.EventGameOver, Data: domain.GameOver{Kind: "counter", Winners: []string{"p1"}, Reason: "end"}}}}, nil
	}
	return s, domain.Outcome{}, domain.Errorf(domain.EINVALID, "unknown action type %q", a.Type)
}

func (counter) Expire(s counterState, env domain.Env) (counterState, domain.Outcome, error) {
	s.Total += 100
	s.Deadline = env.Now.Add(time.Minute)
	return s, domain.Outcome{Events: []domain.Event{{Type: "expired"}}}, nil
}

type fixture struct {
	st  *store.Store
	now time.Time
	mu  sync.Mutex
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	f := &fixture{now: time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)}
	f.st = store.New(storetest.Client(t))
	f.st.FixedSeeds = true
	f.st.Now = func() time.Time { f.mu.Lock(); defer f.mu.Unlock(); return f.now }
	return f
}

func (f *fixture) advance(d time.Duration) { f.mu.Lock(); f.now = f.now.Add(d); f.mu.Unlock() }

func (f *fixture) create(t *testing.T, s counterState) string {
	t.Helper()
	c, err := store.CreateGame(context.Background(), f.st, counter{}, store.Create{ID: store.NewID(), Seed: "fixed-seed"}, s)
	require.NoError(t, err)
	return c.GameID
}

func act(t *testing.T, f *fixture, gameID, actionID, typ string) (store.Reply, error) {
	t.Helper()
	body, _ := json.Marshal(map[string]string{"gameId": gameID, "actionId": actionID, "type": typ})
	raw, err := store.Act(context.Background(), f.st, counter{}, store.Request{GameID: gameID,
		Action: domain.Action{ID: actionID, Type: typ, Actor: domain.Actor{ID: "p1", Name: "P1"}, Payload: body}})
	var r store.Reply
	if err == nil {
		require.NoError(t, json.Unmarshal(raw, &r))
	}
	return r, err
}

func state(t *testing.T, f *fixture, id string) (counterState, int64) {
	t.Helper()
	var s counterState
	v, err := f.st.GameState(context.Background(), id, &s)
	require.NoError(t, err)
	return s, v
}

func TestActAppliesAndIsIdempotent(t *testing.T) {
	f := newFixture(t)
	id := f.create(t, counterState{})

	first, err := act(t, f, id, "a1", "add")
	require.NoError(t, err)
	if got, want := first.Version, int64(1); got != want {
		t.Fatalf("version = %d, want %d", got, want)
	}
	// The roll is the documented derivation of the seed at sequence 1.
	want := domain.NewSeededDice("fixed-seed", 1).Roll(6)
	s, _ := state(t, f, id)
	if s.Total != want {
		t.Fatalf("total = %d, want %d (seeded roll)", s.Total, want)
	}

	again, err := act(t, f, id, "a1", "add")
	require.NoError(t, err)
	require.Equal(t, first, again, "a retried action id returns the first reply")
	s2, v := state(t, f, id)
	require.Equal(t, s, s2, "a retry changes nothing")
	require.Equal(t, int64(1), v)

	events, err := f.st.Events(context.Background(), id)
	require.NoError(t, err)
	require.Len(t, events, 1)
	require.Equal(t, "a1", events[0].ActionID)
}

func TestActErrorsLeaveGameUnchanged(t *testing.T) {
	f := newFixture(t)
	id := f.create(t, counterState{})
	_, err := act(t, f, id, "a1", "add")
	require.NoError(t, err)
	before, v0 := state(t, f, id)

	tests := []struct {
		name, game, action, typ, code string
	}{
		{"unknown type", id, "b1", "nope", domain.EINVALID},
		{"unknown game", "nosuchgame", "b2", "add", domain.ENOTFOUND},
		{"missing action id", id, "", "add", domain.EINVALID},
		{"reused id, other request", id, "a1", "end", domain.EEXISTS},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := act(t, f, tt.game, tt.action, tt.typ)
			if got := domain.ErrorCode(err); got != tt.code {
				t.Fatalf("code = %q (%v), want %q", got, err, tt.code)
			}
			after, v := state(t, f, id)
			require.Equal(t, before, after)
			require.Equal(t, v0, v)
		})
	}
}

func TestActStaleVersionAndRetryAfterGameMoved(t *testing.T) {
	f := newFixture(t)
	id := f.create(t, counterState{})
	v0 := int64(0)
	req := func(actionID string) (json.RawMessage, error) {
		body, _ := json.Marshal(map[string]any{"gameId": id, "actionId": actionID, "type": "add", "version": 0})
		return store.Act(context.Background(), f.st, counter{}, store.Request{GameID: id, ExpectVersion: &v0,
			Action: domain.Action{ID: actionID, Type: "add", Actor: domain.Actor{ID: "p1"}, Payload: body}})
	}
	first, err := req("x1")
	require.NoError(t, err)
	_, err = req("x2")
	require.Equal(t, domain.ECONFLICT, domain.ErrorCode(err), "a second action on version 0 is stale: %v", err)
	again, err := req("x1")
	require.NoError(t, err, "a retry of an applied action still gets its reply after the game moved on")
	require.JSONEq(t, string(first), string(again))
}

func TestConcurrentActionsOnOneVersionApplyOnce(t *testing.T) {
	f := newFixture(t)
	id := f.create(t, counterState{})
	v0 := int64(0)
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i := range errs {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			aid := []string{"c1", "c2"}[i]
			body, _ := json.Marshal(map[string]any{"actionId": aid, "type": "add"})
			_, errs[i] = store.Act(context.Background(), f.st, counter{}, store.Request{GameID: id, ExpectVersion: &v0,
				Action: domain.Action{ID: aid, Type: "add", Actor: domain.Actor{ID: "p1"}, Payload: body}})
		}(i)
	}
	wg.Wait()
	ok := 0
	for _, err := range errs {
		if err == nil {
			ok++
		} else if got := domain.ErrorCode(err); got != domain.ECONFLICT {
			t.Fatalf("loser's code = %q (%v), want %q", got, err, domain.ECONFLICT)
		}
	}
	if ok != 1 {
		t.Fatalf("%d of 2 concurrent actions applied, want exactly 1 (%v)", ok, errs)
	}
	s, v := state(t, f, id)
	require.Len(t, s.Rolls, 1)
	require.Equal(t, int64(1), v)
}

func TestDeadlinesApplyAsOfTheirTime(t *testing.T) {
	f := newFixture(t)
	id := f.create(t, counterState{Deadline: f.now.Add(30 * time.Second)})

	n, err := store.Advance(context.Background(), f.st, counter{}, id)
	require.NoError(t, err)
	require.Equal(t, 0, n, "nothing is due yet")

	f.advance(95 * time.Second) // two deadlines passed: +30s and +90s
	r, err := act(t, f, id, "late", "add")
	require.NoError(t, err)
	require.Equal(t, int64(3), r.Version, "two expiries then the action")
	require.Equal(t, "expired", r.Events[0].Type)
	s, _ := state(t, f, id)
	require.Equal(t, f.now.Add(-95*time.Second).Add(150*time.Second), s.Deadline, "the next deadline follows the last one, not the clock")

	n, err = store.Advance(context.Background(), f.st, counter{}, id)
	require.NoError(t, err)
	require.Equal(t, 0, n, "the action already applied what was due")
}

func TestGameOverRevealsSeedAndMarksEffectsPending(t *testing.T) {
	f := newFixture(t)
	id := f.create(t, counterState{})
	doc, err := f.st.GameDoc(context.Background(), id)
	require.NoError(t, err)
	require.Equal(t, domain.SeedHash("fixed-seed"), doc["seedHash"])
	require.Nil(t, doc["seed"], "the seed is secret while the game runs")

	_, err = act(t, f, id, "e1", "end")
	require.NoError(t, err)
	doc, err = f.st.GameDoc(context.Background(), id)
	require.NoError(t, err)
	require.Equal(t, "fixed-seed", doc["seed"])
	require.Equal(t, "over", doc["status"])
	events, err := f.st.Events(context.Background(), id)
	require.NoError(t, err)
	require.True(t, events[0].Pending)
}

func TestCreateIsIdempotentAndFixedSeedsAreLocalOnly(t *testing.T) {
	f := newFixture(t)
	c := store.Create{ID: store.CreateID("p1", "mk1"), RoomCode: true}
	a, err := store.CreateGame(context.Background(), f.st, counter{}, c, counterState{})
	require.NoError(t, err)
	require.Len(t, a.RoomCode, store.RoomCodeLen)
	b, err := store.CreateGame(context.Background(), f.st, counter{}, c, counterState{})
	require.NoError(t, err)
	require.Equal(t, a, b)
	got, err := f.st.ResolveRoom(context.Background(), a.RoomCode)
	require.NoError(t, err)
	require.Equal(t, a.GameID, got)

	f.st.FixedSeeds = false
	_, err = store.CreateGame(context.Background(), f.st, counter{}, store.Create{ID: "x", Seed: "s"}, counterState{})
	require.Equal(t, domain.EINVALID, domain.ErrorCode(err))
}
