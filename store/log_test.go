package store_test

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/store"
)

// collection lists the ids of a game's subcollection.
func collection(t *testing.T, f *fixture, id, name string) []string {
	t.Helper()
	snaps, err := f.st.FS.Collection("games").Doc(id).Collection(name).Documents(context.Background()).GetAll()
	require.NoError(t, err)
	var ids []string
	for _, s := range snaps {
		ids = append(ids, s.Ref.ID)
	}
	return ids
}

// TestActionWritesOneDocument: an action of a one-document game that ends
// nothing writes the game document alone — no action record, no event
// record — and its events travel in the game document's log; every
// store.FlushEvery steps one history batch is written; the game's end writes
// its effects' record with the rest of the history in it (no batch of its
// own). The event log read back
// has every step once, in order, whatever document holds it.
func TestActionWritesOneDocument(t *testing.T) {
	f := newFixture(t)
	id := f.game(t, map[string]any{"target": 60})
	// No action record: the create's reply (it may hold a room code) is in
	// the server-only private/server, the join's in the game document.
	require.Empty(t, collection(t, f, id, "actions"))
	require.Empty(t, collection(t, f, id, "events"), "nor an event record")

	_, err := f.run(t, ann, id, "r1", "roll", nil)
	require.NoError(t, err)
	require.Empty(t, collection(t, f, id, "actions"), "no action record for the roll")
	require.Empty(t, collection(t, f, id, "events"))
	doc, err := f.st.GameDoc(context.Background(), id)
	require.NoError(t, err)
	log := logSteps(t, doc["log"])
	require.Len(t, log, 2, "the join and the roll are in the game document")
	raw, err := f.st.FS.Collection("games").Doc(id).Get(context.Background())
	require.NoError(t, err)
	stored, ok := raw.Data()["log"].([]byte)
	require.True(t, ok, "the log is stored as bytes, got %T", raw.Data()["log"])
	text, err := store.LogText(stored)
	require.NoError(t, err)
	require.Less(t, len(stored), len(text), "deflated")
	require.Equal(t, "roll", log[1]["type"])

	win(t, f, id)
	_, version := state(t, f, id)
	events, err := f.st.Events(context.Background(), id)
	require.NoError(t, err)
	require.Len(t, events, int(version), "one record per step, each once")
	for i, e := range events {
		require.Equal(t, int64(i+1), e.Seq, "in order")
	}
	require.False(t, events[len(events)-1].Pending, "the gameOver's record: its stats were written with it")
	var batches, records int
	var record string
	for _, eid := range collection(t, f, id, "events") {
		if strings.HasPrefix(eid, "b") {
			batches++
		} else {
			records++
			record = eid
		}
	}
	require.Equal(t, 1, records, "only the gameOver has its own record")
	want := int((version - 1) / store.FlushEvery) // full batches of the steps before the end
	require.LessOrEqual(t, batches, want, "about one batch per FlushEvery steps, none at the end")
	snap, err := f.st.FS.Collection("games").Doc(id).Collection("events").Doc(record).Get(context.Background())
	require.NoError(t, err)
	require.NotEmpty(t, snap.Data()["steps"], "the history's last batch rides in the gameOver's record")
	doc, err = f.st.GameDoc(context.Background(), id)
	require.NoError(t, err)
	require.LessOrEqual(t, len(logSteps(t, doc["log"])), store.LogKeep, "an ended game keeps only its last steps")
}

// TestRetriesAfterManyActions: a retry is recognised among the game's last
// store.ActKeep actions — the same reply while it is among the last
// store.ReplyKeep, else a clear 409 — and never applied twice.
func TestRetriesAfterManyActions(t *testing.T) {
	f := newFixture(t)
	id := f.game(t, map[string]any{"target": 1000})
	first, err := f.run(t, ann, id, "first", "roll", nil)
	require.NoError(t, err)
	play := func(n int) {
		for i := 0; i < n; i++ {
			s, _ := state(t, f, id)
			who := ann
			if s.Current == 1 {
				who = bob
			}
			_, err := f.run(t, who, id, fmt.Sprint("x", store.NewID()), "hold", nil)
			require.NoError(t, err)
		}
	}
	play(store.ReplyKeep - 1)
	again, err := f.run(t, ann, id, "first", "roll", nil)
	require.NoError(t, err, "among the last %d: the reply again", store.ReplyKeep)
	require.Equal(t, first, again)

	play(2)
	_, v := state(t, f, id)
	_, err = f.run(t, ann, id, "first", "roll", nil)
	require.Equal(t, domain.ECONFLICT, domain.ErrorCode(err), "%v", err)
	require.Contains(t, err.Error(), "already applied")
	_, v2 := state(t, f, id)
	require.Equal(t, v, v2, "the retry changed nothing")

	_, err = f.run(t, ann, id, "first", "hold", nil)
	require.Equal(t, domain.EEXISTS, domain.ErrorCode(err), "the same id for another request: %v", err)
}

// TestRetryOlderThanActs: a retry of an action that has left the game
// document's recent actions (and whose step is in a history batch) is a 409
// "already applied", on its player's turn too, and changes nothing; the game
// document keeps 2 bytes for each action that left; a new action that
// shares an old one's fingerprint by chance is applied.
func TestRetryOlderThanActs(t *testing.T) {
	f := newFixture(t)
	id := f.game(t, map[string]any{"target": 1000})
	_, err := f.run(t, ann, id, "first", "roll", nil)
	require.NoError(t, err)
	turn := func() domain.Actor {
		s, _ := state(t, f, id)
		if s.Current == 1 {
			return bob
		}
		return ann
	}
	hold := func() {
		_, err := f.run(t, turn(), id, fmt.Sprint("x", store.NewID()), "hold", nil)
		require.NoError(t, err)
	}
	for i := 0; i < store.ActKeep+store.FlushEvery+1 || turn() != ann; i++ {
		hold()
	}
	doc, err := f.st.GameDoc(context.Background(), id)
	require.NoError(t, err)
	_, v := state(t, f, id)
	old, ok := doc["oldActs"].([]byte)
	require.True(t, ok, "oldActs is bytes: %T", doc["oldActs"])
	// The create's key (recognised from private/server) leaves no
	// fingerprint; the join's and every other action's do.
	require.Equal(t, 2*(int(v)-store.ActKeep), len(old), "2 bytes for each action that left acts (version %d)", v)

	_, err = f.run(t, ann, id, "first", "roll", nil)
	require.Equal(t, domain.ECONFLICT, domain.ErrorCode(err), "%v", err)
	require.Contains(t, err.Error(), "already applied")
	_, v2 := state(t, f, id)
	require.Equal(t, v, v2, "the old retry changed nothing")

	// An action id whose key shares the fingerprint of "first"'s.
	sum := sha256.Sum256([]byte(ann.ID + "~first"))
	twin := ""
	for i := 0; twin == ""; i++ {
		c := fmt.Sprint("twin-", i)
		if s := sha256.Sum256([]byte(ann.ID + "~" + c)); s[0] == sum[0] && s[1] == sum[1] {
			twin = c
		}
	}
	_, err = f.run(t, ann, id, twin, "roll", nil)
	require.NoError(t, err, "a new action sharing a fingerprint (%s) is applied", twin)
	_, v3 := state(t, f, id)
	require.Equal(t, v+1, v3)
}

// TestRetriedCreate: a create keeps no action record, and its retry still
// gets the first reply (room code included) — while the game document lists
// it among its recent actions and after it has left them — and the same
// action id for another request is refused.
func TestRetriedCreate(t *testing.T) {
	f := newFixture(t)
	first, err := f.run(t, ann, "", "c1", domain.ActionCreate, map[string]any{"target": 1000})
	require.NoError(t, err)
	require.Empty(t, collection(t, f, first.GameID, "actions"))
	again, err := f.run(t, ann, "", "c1", domain.ActionCreate, map[string]any{"target": 1000})
	require.NoError(t, err)
	require.Equal(t, first, again)

	_, err = f.run(t, bob, first.GameID, "join", "join", nil)
	require.NoError(t, err)
	for i := 0; i < store.ActKeep+2; i++ {
		s, _ := state(t, f, first.GameID)
		who := ann
		if s.Current == 1 {
			who = bob
		}
		_, err := f.run(t, who, first.GameID, fmt.Sprint("h", i), "hold", nil)
		require.NoError(t, err)
	}
	again, err = f.run(t, ann, "", "c1", domain.ActionCreate, map[string]any{"target": 1000})
	require.NoError(t, err, "beyond the recent actions too")
	require.Equal(t, first, again)

	_, err = f.run(t, ann, "", "c1", domain.ActionCreate, map[string]any{"target": 500})
	require.Equal(t, domain.EEXISTS, domain.ErrorCode(err), "the same id for another request: %v", err)
}

// logSteps decodes a game document's log: one JSON string of steps.
func logSteps(t *testing.T, v any) []map[string]any {
	t.Helper()
	s, ok := v.(string)
	require.True(t, ok, "a game document read through the store has its log as JSON text (store.Unpacked), got %T", v)
	var out []map[string]any
	require.NoError(t, json.Unmarshal([]byte(s), &out))
	return out
}

// TestLogWrittenBeforeDeflate: a game document whose log an older release
// stored as JSON text still plays: a retry of an action in it gets its first
// reply, events included, and the next action's write deflates the log with
// every step kept.
func TestLogWrittenBeforeDeflate(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	id := f.game(t, map[string]any{"target": 100})
	first, err := f.run(t, ann, id, "r1", "roll", nil)
	require.NoError(t, err)
	require.NotEmpty(t, first.Events)

	ref := f.st.FS.Collection("games").Doc(id)
	snap, err := ref.Get(ctx)
	require.NoError(t, err)
	old := snap.Data()
	text, err := store.LogText(old["log"])
	require.NoError(t, err)
	old["log"] = text
	_, err = ref.Set(ctx, old)
	require.NoError(t, err)

	again, err := f.run(t, ann, id, "r1", "roll", nil)
	require.NoError(t, err, "a retry, its reply in a log stored as text")
	require.Equal(t, first, again)

	g, _ := state(t, f, id)
	who := ann
	if g.Players[g.Current] == bob.ID {
		who = bob
	}
	_, err = f.run(t, who, id, "r2", "roll", nil)
	require.NoError(t, err)
	snap, err = ref.Get(ctx)
	require.NoError(t, err)
	require.IsType(t, []byte{}, snap.Data()["log"], "the next write deflates the log")
	doc, err := f.st.GameDoc(ctx, id)
	require.NoError(t, err)
	var seqs []any
	for _, s := range logSteps(t, doc["log"]) {
		seqs = append(seqs, s["seq"])
	}
	require.Equal(t, []any{float64(1), float64(2), float64(3)}, seqs, "the join, r1 and r2, none lost")
}
