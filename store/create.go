package store

import (
	"context"
	"crypto/rand"
	"math/big"

	"cloud.google.com/go/firestore"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/meeple-games/meeple/domain"
)

// roomAlphabet leaves out letters and digits people confuse (0/O, 1/I/L).
const roomAlphabet = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"

// RoomCodeLen is the length of a room code.
const RoomCodeLen = 6

func newRoomCode() string {
	b := make([]byte, RoomCodeLen)
	for i := range b {
		n, err := rand.Int(rand.Reader, big.NewInt(int64(len(roomAlphabet))))
		if err != nil {
			panic(err)
		}
		b[i] = roomAlphabet[n.Int64()]
	}
	return string(b)
}

// roomCode picks a room code for a game being created. It reads
// nothing: the create makes rooms/{code} with Create, which fails if a
// room holds the code, and the action then runs again (AlreadyExists,
// runAction) with another random code — one chance in about 10⁹ per room,
// where a read per create cost every game a document read.
//
// A room code is retired with its game, not freed: rooms/{code} keeps
// naming the game after it ends, and a join with the code reaches that
// game, which refuses it (it has started, it is over). Freeing the code
// cost every game's end a read (private/room) and a delete (rooms/{code}),
// and let an old code lead into a stranger's new game. The space is
// 31⁶ ≈ 8.9×10⁸ codes: at 10,000 rooms a day, ten years of them take 4 %
// of it, and a create then runs a second attempt once in 25. Should that
// ever matter, RoomCodeLen 7 (2.8×10¹⁰ codes) or a sweep that deletes the
// rooms of games long over (the delete each game's end paid before) frees
// the space again.
func (st *Store) roomCode() string {
	if st.RoomCodes != nil {
		return st.RoomCodes()
	}
	return newRoomCode()
}

// ResolveRoom returns the id of the game a room code stands for.
//
// Errors: ENOTFOUND.
func (s *Store) ResolveRoom(ctx context.Context, code string) (string, error) {
	snap, err := s.roomRef(code).Get(ctx)
	if status.Code(err) == codes.NotFound {
		return "", domain.Errorf(domain.ENOTFOUND, "no room %q", code)
	}
	if err != nil {
		return "", err
	}
	id, _ := snap.Data()["gameId"].(string)
	return id, nil
}

// EventRecord is one entry of a game's public event log.
type EventRecord struct {
	ID       string         `json:"id"`  // the document id
	Seq      int64          `json:"seq"` // the game version it made (0 for a step that versions no game)
	Kind     string         `json:"kind"`
	Type     string         `json:"type"`
	ActionID string         `json:"actionId"`
	Actor    map[string]any `json:"actor"`
	Events   []domain.Event `json:"events"`
	Pending  bool           `json:"pending"`
}

// Events reads a game's event log, one record per step, in order (by
// version; steps that version no game by time, then id): the event records,
// the history batches expanded, and the steps still only in the game
// document's log (log.go).
func (s *Store) Events(ctx context.Context, gameID string) ([]EventRecord, error) {
	snaps, err := s.gameRef(gameID).Collection(colEvents).OrderBy(fAt, firestore.Asc).OrderBy(firestore.DocumentID, firestore.Asc).Documents(ctx).GetAll()
	if err != nil {
		return nil, err
	}
	var game map[string]any
	if snap, err := s.gameRef(gameID).Get(ctx); err == nil {
		game = snap.Data()
	} else if !notFound(err) {
		return nil, err
	}
	return expandRecords(snaps, game)
}
