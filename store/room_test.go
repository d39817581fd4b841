package store_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/pig"
	"github.com/meeple-games/meeple/store"
)

// drawCodes makes f's store draw these room codes in turn, the last one
// for ever after.
func drawCodes(f *fixture, codes ...string) {
	var mu sync.Mutex
	f.st.RoomCodes = func() string {
		mu.Lock()
		defer mu.Unlock()
		c := codes[0]
		if len(codes) > 1 {
			codes = codes[1:]
		}
		return c
	}
}

// roomOf is the room code a create's reply hands its creator.
func roomOf(t *testing.T, reply store.Reply) string {
	t.Helper()
	b, err := json.Marshal(reply.Result)
	require.NoError(t, err)
	var created domain.Created
	require.NoError(t, json.Unmarshal(b, &created))
	return created.RoomCode
}

// A create picks its room code without reading: a code a room holds fails
// the create's commit, and the create runs again with another code.
func TestCreateWithATakenRoomCode(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	drawCodes(f, "TAKEN2", "TAKEN2", "FREE23")
	_, err := f.st.FS.Doc("rooms/TAKEN2").Set(ctx, map[string]any{"gameId": "other", "kind": pig.Kind})
	require.NoError(t, err)
	reply, err := f.run(t, ann, "", "c1", domain.ActionCreate, map[string]any{"target": 100})
	require.NoError(t, err)
	if got, want := roomOf(t, reply), "FREE23"; got != want {
		t.Fatalf("got room code %q, want %q", got, want)
	}
	taken, err := f.st.FS.Doc("rooms/TAKEN2").Get(ctx)
	require.NoError(t, err)
	require.Equal(t, "other", taken.Data()["gameId"], "the room keeps its code")
	free, err := f.st.FS.Doc("rooms/FREE23").Get(ctx)
	require.NoError(t, err)
	require.Equal(t, reply.GameID, free.Data()["gameId"])
}

// A room code is retired with its game (roomCode): after the game ends the
// code still names it, a join with it is refused by the game, and a new
// create that draws the code takes another.
func TestRoomCodeRetiredWithItsGame(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	drawCodes(f, "RTRD23", "RTRD23", "NEW234")
	id := f.game(t, map[string]any{"target": 1})
	win(t, f, id)
	got, err := f.st.ResolveRoom(ctx, "RTRD23")
	require.NoError(t, err)
	require.Equal(t, id, got, "the ended game keeps its code")
	cat := domain.Actor{ID: "p-cat", Name: "Cat", Role: domain.RoleGuest}
	_, err = f.run(t, cat, got, "j-cat", "join", nil)
	require.Equal(t, domain.ECONFLICT, domain.ErrorCode(err), "a join through an ended game's code: %v", err)

	reply, err := f.run(t, ann, "", "c-next", domain.ActionCreate, map[string]any{"target": 1})
	require.NoError(t, err)
	if got, want := roomOf(t, reply), "NEW234"; got != want {
		t.Fatalf("got room code %q, want %q", got, want)
	}
	got, err = f.st.ResolveRoom(ctx, "RTRD23")
	require.NoError(t, err)
	require.Equal(t, id, got, "a retired code is not handed out again")
	_, err = f.st.ResolveRoom(ctx, "NONE23")
	require.Equal(t, domain.ENOTFOUND, domain.ErrorCode(err))
}
