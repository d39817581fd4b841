package store

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"math/big"

	"cloud.google.com/go/firestore"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/meeple-games/meeple/domain"
)

// Create describes a new game.
type Create struct {
	// ID of the new game; CreateID derives it from the creator and action id so a
	// retried create finds the game it made the first time.
	ID       string
	RoomCode bool   // reserve a room code others can join with
	Seed     string // a chosen seed: only when Store.FixedSeeds
}

// Created is the result of creating a game.
type Created struct {
	GameID   string `json:"gameId"`
	RoomCode string `json:"roomCode,omitempty"`
	SeedHash string `json:"seedHash"`
	Version  int64  `json:"version"`
}

// CreateID is the id of the game an actor creates with actionID.
func CreateID(actorID, actionID string) string {
	sum := sha256.Sum256([]byte(actorID + "\x00" + actionID))
	return hex.EncodeToString(sum[:10])
}

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

// CreateGame writes a new game at version 0 with a fresh secret seed (or the
// chosen one where allowed), publishing only the seed's hash. Creating the same
// id again returns the existing game, so a retried create is harmless.
//
// Errors: EINVALID (a chosen seed where fixed seeds are not allowed).
func CreateGame[S any](ctx context.Context, st *Store, rules domain.Rules[S], c Create, state S) (Created, error) {
	seed := c.Seed
	if seed != "" && !st.FixedSeeds {
		return Created{}, domain.Errorf(domain.EINVALID, "a chosen seed is only allowed in the local stack")
	}
	if seed == "" {
		seed = NewSeed()
	}
	var out Created
	err := st.FS.RunTransaction(ctx, func(ctx context.Context, tx *firestore.Transaction) error {
		code := ""
		if c.RoomCode {
			for i := 0; code == "" && i < 5; i++ {
				candidate := newRoomCode()
				_, err := tx.Get(st.roomRef(candidate))
				if status.Code(err) == codes.NotFound {
					code = candidate
				} else if err != nil {
					return err
				}
			}
			if code == "" {
				return domain.Errorf(domain.ELIMIT, "no free room code; try again")
			}
		}
		out = Created{GameID: c.ID, RoomCode: code, SeedHash: domain.SeedHash(seed)}
		return createGame(tx, st, rules.Kind(), c.ID, rules.Header(state), state, seed, code, st.now())
	})
	if status.Code(err) == codes.AlreadyExists {
		data, gerr := st.GameDoc(ctx, c.ID)
		if gerr != nil {
			return Created{}, gerr
		}
		out = Created{GameID: c.ID}
		out.RoomCode, _ = data[fRoomCode].(string)
		out.SeedHash, _ = data[fSeedHash].(string)
		out.Version, _ = data[fVersion].(int64)
		return out, nil
	}
	return out, err
}

// ResolveRoom returns the id of the game a room code stands for.
//
// Errors: ENOTFOUND.
func (s *Store) ResolveRoom(ctx context.Context, code string) (string, error) {
	snap, err := s.roomRef(code).Get(ctx)
	if status.Code(err) == codes.NotFound {
		return "", domain.Errorf(domain.ENOTFOUND, "no open room %q", code)
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
	Seq      int64          `json:"seq"` // the game version it made (0 for Tile Race records)
	Kind     string         `json:"kind"`
	Type     string         `json:"type"`
	ActionID string         `json:"actionId"`
	Actor    map[string]any `json:"actor"`
	Events   []domain.Event `json:"events"`
	Pending  bool           `json:"pending"`
}

// Events reads a game's event log in order (by time, then id: the steps of
// one transaction share their time and their padded ids sort in order).
func (s *Store) Events(ctx context.Context, gameID string) ([]EventRecord, error) {
	snaps, err := s.gameRef(gameID).Collection(colEvents).OrderBy(fAt, firestore.Asc).OrderBy(firestore.DocumentID, firestore.Asc).Documents(ctx).GetAll()
	if err != nil {
		return nil, err
	}
	out := make([]EventRecord, 0, len(snaps))
	for _, snap := range snaps {
		var r EventRecord
		if err := fromFirestore(snap.Data(), &r); err != nil {
			return nil, err
		}
		r.ID = snap.Ref.ID
		out = append(out, r)
	}
	return out, nil
}
