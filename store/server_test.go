package store_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/dashdice"
	"github.com/meeple-games/meeple/domain/pig"
	"github.com/meeple-games/meeple/store"
)

// coldStore is another instance of f's store (same database, games and
// clock) that has read no seed yet: what a retry or the next action meets
// on a cold function instance.
func coldStore(f *fixture) *store.Store {
	st := store.New(f.st.FS, f.reg)
	st.FixedSeeds = true
	st.Now = f.st.Now
	return st
}

// runOn sends one action to st as who (roomCode for a join with one).
func runOn(t *testing.T, st *store.Store, kind string, who domain.Actor, gameID, actionID, typ, roomCode string, extra map[string]any) (json.RawMessage, error) {
	t.Helper()
	body := map[string]any{"gameId": gameID, "actionId": actionID, "type": typ}
	for k, v := range extra {
		body[k] = v
	}
	raw, _ := json.Marshal(body)
	req := store.Request{Kind: kind, GameID: gameID, RoomCode: roomCode, Action: domain.Action{ID: actionID, Type: typ, Actor: who, Payload: raw}}
	if typ == domain.ActionCreate {
		req.Seed = "fixed-seed"
	}
	out, _, err := store.Run(context.Background(), st, req)
	return out, err
}

// roomFields reads the server-only fields a game's room holds, and
// checks that it has no private/server.
func roomFields(t *testing.T, f *fixture, id, code string) map[string]any {
	t.Helper()
	ctx := context.Background()
	room, err := f.st.FS.Doc("rooms/" + code).Get(ctx)
	require.NoError(t, err)
	require.Equal(t, id, room.Data()["gameId"], "the room resolves its code")
	require.Equal(t, "fixed-seed", room.Data()["seed"], "the room holds the seed")
	require.NotEmpty(t, room.Data()["reply"], "and the create's reply")
	require.NotNil(t, room.Data()["replay"], "and how the game began")
	_, err = f.st.FS.Doc("games/" + id + "/private/server").Get(ctx)
	require.Equal(t, codes.NotFound, status.Code(err), "a game with a room has no private/server: %v", err)
	return room.Data()
}

// coldRetry retries Ann's create "c1" (payload) on a cold instance: it gets
// the reply the create first got, first.
func coldRetry(t *testing.T, f *fixture, kind string, first store.Reply, payload map[string]any) {
	t.Helper()
	out, err := runOn(t, coldStore(f), kind, ann, "", "c1", domain.ActionCreate, "", payload)
	require.NoError(t, err)
	var again store.Reply
	require.NoError(t, json.Unmarshal(out, &again))
	require.Equal(t, first, again, "a retried create gets its first reply")
}

// replaysCold checks that ended game id replays, verified, on a cold
// instance: it reads how the game began and its seed where they are kept.
func replaysCold(t *testing.T, f *fixture, kind, id string) {
	t.Helper()
	rp, err := store.ReplayGame(context.Background(), coldStore(f), kind, id, ann, 0)
	require.NoError(t, err)
	require.True(t, rp.Verified, "%s", rp.Diverged)
}

// pigInRoom is a fixture where Ann created a Pig game ("c1", target 1)
// with room code code, and that create's reply.
func pigInRoom(t *testing.T, code string) (*fixture, store.Reply) {
	t.Helper()
	f := newFixture(t)
	drawCodes(f, code)
	first, err := f.run(t, ann, "", "c1", domain.ActionCreate, map[string]any{"target": 1})
	require.NoError(t, err)
	return f, first
}

// TestServerFieldsRideInTheRoom: a game with a room code keeps its seed,
// its create's reply and its replay's start in rooms/{code}, which its create
// writes anyway, not in a private/server of its own (one write fewer a
// game), and a cold instance finds them there: it rolls with the seed, a
// retried create gets its reply, and the ended game replays.
func TestServerFieldsRideInTheRoom(t *testing.T) {
	ctx := context.Background()
	t.Run("public", func(t *testing.T) {
		f, first := pigInRoom(t, "SRVPUB")
		id := first.GameID
		roomFields(t, f, id, "SRVPUB")
		_, err := f.run(t, bob, id, "join", "join", nil)
		require.NoError(t, err)

		cold := coldStore(f)
		out, err := runOn(t, cold, pig.Kind, ann, id, "r1", "roll", "", nil)
		require.NoError(t, err, "a cold instance reads the seed from the room")
		var r store.Reply
		require.NoError(t, json.Unmarshal(out, &r))
		s, _ := state(t, f, id)
		if got, want := s.LastRolled[ann.ID], domain.NewSeededDice("fixed-seed", r.Version).Roll(6); got != want {
			t.Fatalf("roll = %d, want %d (the room's seed)", got, want)
		}
		coldRetry(t, f, pig.Kind, first, map[string]any{"target": 1})

		win(t, f, id)
		doc, err := f.st.GameDoc(ctx, id)
		require.NoError(t, err)
		require.Equal(t, "fixed-seed", doc["seed"], "the end reveals the seed")
		replaysCold(t, f, pig.Kind, id)
	})

	t.Run("private", func(t *testing.T) {
		f := newFixture(t, domain.Entry{Game: dashdice.NewGame(), Function: "DashDice"})
		f.kind = dashdice.Kind
		drawCodes(f, "SRVPRV")
		first, err := f.run(t, ann, "", "c1", domain.ActionCreate, map[string]any{"mode": "classic", "private": true})
		require.NoError(t, err)
		id := first.GameID
		doc, err := f.st.GameDoc(ctx, id)
		require.NoError(t, err)
		require.NotContains(t, doc, "roomCode", "a private game's code stays out of its document")
		roomFields(t, f, id, "SRVPRV")
		code, err := f.st.FS.Doc("games/" + id + "/private/room").Get(ctx)
		require.NoError(t, err)
		require.Equal(t, "SRVPRV", code.Data()["code"])

		_, err = runOn(t, coldStore(f), dashdice.Kind, bob, id, "j", dashdice.ActionJoin, "SRVPRV", nil)
		require.NoError(t, err)
		// The decider's die: the seed, found through private/room.
		_, err = runOn(t, coldStore(f), dashdice.Kind, bob, id, "call", dashdice.ActionCall, "", map[string]any{"call": "odd"})
		require.NoError(t, err)
		var m dashdice.Match
		_, err = f.st.GameState(ctx, id, &m)
		require.NoError(t, err)
		require.NotZero(t, m.DeciderDie, "the decider rolled")

		coldRetry(t, f, dashdice.Kind, first, map[string]any{"mode": "classic", "private": true})

		_, err = runOn(t, coldStore(f), dashdice.Kind, ann, id, "ff", dashdice.ActionForfeit, "", nil)
		require.NoError(t, err)
		doc, err = f.st.GameDoc(ctx, id)
		require.NoError(t, err)
		require.Equal(t, "fixed-seed", doc["seed"], "the end reveals the seed, read through private/room")
		replaysCold(t, f, dashdice.Kind, id)
	})

	// A game created before its room held these fields has them in
	// private/server, and its room only the game's id: it plays on.
	t.Run("created before", func(t *testing.T) {
		f, first := pigInRoom(t, "SRVOLD")
		id := first.GameID
		fields := roomFields(t, f, id, "SRVOLD")
		_, err := f.st.FS.Doc("games/"+id+"/private/server").Set(ctx, fields)
		require.NoError(t, err)
		_, err = f.st.FS.Doc("rooms/SRVOLD").Set(ctx, map[string]any{"gameId": id, "kind": pig.Kind, "createdAt": fields["createdAt"]})
		require.NoError(t, err)

		_, err = runOn(t, coldStore(f), pig.Kind, bob, id, "join", "join", "", nil)
		require.NoError(t, err)
		_, err = runOn(t, coldStore(f), pig.Kind, ann, id, "r1", "roll", "", nil)
		require.NoError(t, err, "the seed from private/server")
		coldRetry(t, f, pig.Kind, first, map[string]any{"target": 1})
		win(t, f, id)
		replaysCold(t, f, pig.Kind, id)
	})
}
