package store_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/pig"
	"github.com/meeple-games/meeple/store"
	"github.com/meeple-games/meeple/store/storetest"
)

// The pipeline's tests play Pig, the example game (domain/pig): it rolls
// dice, has a turn timer and ends with a gameOver.

var (
	ann = domain.Actor{ID: "p-ann", Name: "Ann", Role: domain.RoleGuest}
	bob = domain.Actor{ID: "p-bob", Name: "Bob", Role: domain.RoleGuest}
)

type fixture struct {
	st   *store.Store
	reg  domain.Registry
	kind string // of the games run plays: Pig's, or one of more's
	now  time.Time
	mu   sync.Mutex
}

func newFixture(t *testing.T, more ...domain.Entry) *fixture {
	t.Helper()
	f := &fixture{kind: pig.Kind, now: time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)}
	f.reg = append(domain.Registry{pig.Entry()}, more...)
	f.st = store.New(storetest.Client(t), f.reg)
	f.st.FixedSeeds = true
	f.st.Now = func() time.Time { f.mu.Lock(); defer f.mu.Unlock(); return f.now }
	return f
}

func (f *fixture) advance(d time.Duration) { f.mu.Lock(); f.now = f.now.Add(d); f.mu.Unlock() }

// run sends one action as who, with a JSON payload of extra fields.
func (f *fixture) run(t *testing.T, who domain.Actor, gameID, actionID, typ string, extra map[string]any) (store.Reply, error) {
	t.Helper()
	body := map[string]any{"gameId": gameID, "actionId": actionID, "type": typ}
	for k, v := range extra {
		body[k] = v
	}
	raw, _ := json.Marshal(body)
	req := store.Request{Kind: f.kind, GameID: gameID, Action: domain.Action{ID: actionID, Type: typ, Actor: who, Payload: raw}}
	if typ == domain.ActionCreate {
		req.Seed = "fixed-seed"
	}
	out, _, err := store.Run(context.Background(), f.st, req)
	var r store.Reply
	if err == nil {
		require.NoError(t, json.Unmarshal(out, &r))
	}
	return r, err
}

// game creates a Pig game of Ann's that Bob joined (version 1): Ann's turn.
func (f *fixture) game(t *testing.T, opts map[string]any) string {
	t.Helper()
	r, err := f.run(t, ann, "", store.NewID(), domain.ActionCreate, opts)
	require.NoError(t, err)
	_, err = f.run(t, bob, r.GameID, "join", "join", nil)
	require.NoError(t, err)
	return r.GameID
}

func state(t *testing.T, f *fixture, id string) (pig.Game, int64) {
	t.Helper()
	var s pig.Game
	v, err := f.st.GameState(context.Background(), id, &s)
	require.NoError(t, err)
	return s, v
}

func TestRunAppliesAndIsIdempotent(t *testing.T) {
	f := newFixture(t)
	id := f.game(t, nil)

	first, err := f.run(t, ann, id, "a1", "roll", nil)
	require.NoError(t, err)
	if got, want := first.Version, int64(2); got != want {
		t.Fatalf("version = %d, want %d", got, want)
	}
	// The roll is the documented derivation of the seed at the version it makes.
	want := domain.NewSeededDice("fixed-seed", 2).Roll(6)
	s, _ := state(t, f, id)
	if got := s.LastRolled[ann.ID]; got != want {
		t.Fatalf("roll = %d, want %d (seeded)", got, want)
	}

	again, err := f.run(t, ann, id, "a1", "roll", nil)
	require.NoError(t, err)
	require.Equal(t, first, again, "a retried action id returns the first reply")
	s2, v := state(t, f, id)
	require.Equal(t, s, s2, "a retry changes nothing")
	require.Equal(t, int64(2), v)

	events, err := f.st.Events(context.Background(), id)
	require.NoError(t, err)
	require.Len(t, events, 2, "join and the roll")
	require.Equal(t, "a1", events[1].ActionID)
}

func TestRunErrorsLeaveGameUnchanged(t *testing.T) {
	f := newFixture(t)
	id := f.game(t, nil)
	_, err := f.run(t, ann, id, "a1", "hold", nil)
	require.NoError(t, err)
	before, v0 := state(t, f, id)

	tests := []struct {
		name, game, action, typ, code string
		who                           domain.Actor
	}{
		{"unknown type", id, "b1", "nope", domain.EINVALID, bob},
		{"unknown game", "nosuchgame", "b2", "roll", domain.ENOTFOUND, bob},
		{"no game id", "", "b3", "roll", domain.EINVALID, bob},
		{"a game id that names no document", "..", "b4", "roll", domain.EINVALID, bob},
		{"missing action id", id, "", "roll", domain.EINVALID, bob},
		{"not your turn", id, "b5", "roll", domain.ECONFLICT, ann},
		{"not a player", id, "b6", "roll", domain.EFORBIDDEN, domain.Actor{ID: "p-cy", Role: domain.RoleGuest}},
		{"reused id, other request", id, "a1", "roll", domain.EEXISTS, ann},
		{"a session scoped to a game", id, "b7", "roll", domain.EFORBIDDEN, domain.Actor{ID: "g1:t1", Role: "team", Game: "g1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := f.run(t, tt.who, tt.game, tt.action, tt.typ, nil)
			if got := domain.ErrorCode(err); got != tt.code {
				t.Fatalf("code = %q (%v), want %q", got, err, tt.code)
			}
			after, v := state(t, f, id)
			require.Equal(t, before, after)
			require.Equal(t, v0, v)
		})
	}
}

func TestRunStaleVersionAndRetryAfterGameMoved(t *testing.T) {
	f := newFixture(t)
	id := f.game(t, nil)
	v1 := int64(1)
	req := func(actionID string) (json.RawMessage, error) {
		body, _ := json.Marshal(map[string]any{"gameId": id, "actionId": actionID, "type": "roll", "version": 1})
		out, _, err := store.Run(context.Background(), f.st, store.Request{Kind: pig.Kind, GameID: id, ExpectVersion: &v1,
			Action: domain.Action{ID: actionID, Type: "roll", Actor: ann, Payload: body}})
		return out, err
	}
	first, err := req("x1")
	require.NoError(t, err)
	_, err = req("x2")
	require.Equal(t, domain.ECONFLICT, domain.ErrorCode(err), "a second action on version 1 is stale: %v", err)
	again, err := req("x1")
	require.NoError(t, err, "a retry of an applied action still gets its reply after the game moved on")
	require.JSONEq(t, string(first), string(again))
}

func TestConcurrentActionsOnOneVersionApplyOnce(t *testing.T) {
	f := newFixture(t)
	id := f.game(t, nil)
	v1 := int64(1)
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i := range errs {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			aid := []string{"c1", "c2"}[i]
			body, _ := json.Marshal(map[string]any{"actionId": aid, "type": "hold"})
			_, _, errs[i] = store.Run(context.Background(), f.st, store.Request{Kind: pig.Kind, GameID: id, ExpectVersion: &v1,
				Action: domain.Action{ID: aid, Type: "hold", Actor: ann, Payload: body}})
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
	require.Equal(t, 1, s.Current, "one hold passed the turn")
	require.Equal(t, int64(2), v)
}

func TestDeadlinesApplyAsOfTheirTime(t *testing.T) {
	f := newFixture(t)
	id := f.game(t, map[string]any{"turnSeconds": 30})
	s, _ := state(t, f, id)
	require.Equal(t, f.now.Add(30*time.Second), s.Deadline)

	n, err := store.Advance(context.Background(), f.st, pig.Kind, id)
	require.NoError(t, err)
	require.Equal(t, 0, n, "nothing is due yet")

	f.advance(65 * time.Second) // two deadlines passed: +30s (Ann's) and +60s (Bob's)
	r, err := f.run(t, ann, id, "late", "hold", nil)
	require.NoError(t, err)
	require.Equal(t, int64(4), r.Version, "two expiries then the action")
	require.Equal(t, pig.EventTimeout, r.Events[0].Type)
	s, _ = state(t, f, id)
	require.Equal(t, f.now.Add(30*time.Second), s.Deadline, "Ann's hold starts Bob's turn from the clock")

	f.advance(31 * time.Second)
	n, err = store.Advance(context.Background(), f.st, pig.Kind, id)
	require.NoError(t, err)
	require.Equal(t, 1, n, "the tick applies Bob's timeout")
	s, _ = state(t, f, id)
	require.Equal(t, f.now.Add(-time.Second).Add(30*time.Second), s.Deadline, "the next deadline follows the expired one, not the clock")
	n, err = store.Advance(context.Background(), f.st, pig.Kind, id)
	require.NoError(t, err)
	require.Equal(t, 0, n, "nothing twice")
}

// win plays id until Ann (who always holds after one good roll... or Bob)
// reaches the target of 1: the first hold of a positive turn wins.
func win(t *testing.T, f *fixture, id string) {
	t.Helper()
	for i := 0; i < 100; i++ {
		s, _ := state(t, f, id)
		if s.Over {
			return
		}
		who := ann
		if s.Current == 1 {
			who = bob
		}
		typ := "roll"
		if s.TurnTotal > 0 {
			typ = "hold"
		}
		_, err := f.run(t, who, id, store.NewID(), typ, nil)
		require.NoError(t, err)
	}
	t.Fatal("no winner in 100 actions")
}

func TestGameOverRevealsSeedAndLeavesNothingPending(t *testing.T) {
	f := newFixture(t)
	id := f.game(t, map[string]any{"target": 1})
	doc, err := f.st.GameDoc(context.Background(), id)
	require.NoError(t, err)
	require.Equal(t, domain.SeedHash("fixed-seed"), doc["seedHash"])
	require.Nil(t, doc["seed"], "the seed is secret while the game runs")

	win(t, f, id)
	doc, err = f.st.GameDoc(context.Background(), id)
	require.NoError(t, err)
	require.Equal(t, "fixed-seed", doc["seed"])
	require.Equal(t, "over", doc["status"])
	events, err := f.st.Events(context.Background(), id)
	require.NoError(t, err)
	require.Len(t, events[len(events)-1].Events, 2, "the last step's events (its roll or hold, gameOver)")
	for _, e := range events {
		// The gameOver's stats were written with its record
		// (TestStatsInTheEndingCommit).
		require.False(t, e.Pending, "no record is left with effects to run: %s", e.Type)
	}
}

func TestCreateIsIdempotentAndFixedSeedsAreLocalOnly(t *testing.T) {
	f := newFixture(t)
	a, err := f.run(t, ann, "", "mk1", domain.ActionCreate, nil)
	require.NoError(t, err)
	require.Equal(t, store.CreateID(pig.Kind, ann.ID, "mk1"), a.GameID)
	var created domain.Created
	b, _ := json.Marshal(a.Result)
	require.NoError(t, json.Unmarshal(b, &created))
	require.Len(t, created.RoomCode, store.RoomCodeLen)
	require.Equal(t, domain.SeedHash("fixed-seed"), created.SeedHash)
	again, err := f.run(t, ann, "", "mk1", domain.ActionCreate, nil)
	require.NoError(t, err)
	require.Equal(t, a, again, "a retried create returns the game it made")
	got, err := f.st.ResolveRoom(context.Background(), created.RoomCode)
	require.NoError(t, err)
	require.Equal(t, a.GameID, got)

	_, err = f.run(t, ann, "", "mk1", domain.ActionCreate, map[string]any{"target": 5})
	require.Equal(t, domain.EEXISTS, domain.ErrorCode(err), "the same action id for another create")

	f.st.FixedSeeds = false
	_, err = f.run(t, ann, "", "mk2", domain.ActionCreate, nil)
	require.Equal(t, domain.EINVALID, domain.ErrorCode(err))
}

func TestLegalMoves(t *testing.T) {
	f := newFixture(t)
	id := f.game(t, nil)
	for _, tc := range []struct {
		who  domain.Actor
		want []string
	}{{ann, []string{"roll", "hold"}}, {bob, nil}} {
		r, err := f.run(t, tc.who, id, "legal-"+tc.who.ID, domain.ActionLegal, nil)
		require.NoError(t, err)
		var got struct{ Moves []domain.Move }
		b, _ := json.Marshal(r.Result)
		require.NoError(t, json.Unmarshal(b, &got))
		var types []string
		for _, m := range got.Moves {
			types = append(types, m.Type)
		}
		require.Equal(t, tc.want, types, "%s", tc.who.Name)
	}
	_, v := state(t, f, id)
	require.Equal(t, int64(1), v, "asking changes nothing")
}
