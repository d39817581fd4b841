// Package store is the only package that talks to Firestore. It owns the
// document paths and codecs, and runs the action transaction every game shares.
package store

import (
	"crypto/rand"
	"encoding/hex"
	"sync"
	"time"

	"cloud.google.com/go/firestore"

	"github.com/meeple-games/meeple/domain"
)

// Store is the Firestore adapter.
type Store struct {
	FS *firestore.Client
	// Games are the games the store runs (the deployment's registry).
	Games *Games
	// Now is the clock; rules see it through domain.Env.
	Now func() time.Time
	// FixedSeeds lets a create request choose a game's seed so a whole game
	// replays. Only the local stack and tests set it; production never does.
	FixedSeeds bool
	// RetryBudget bounds how long a contended action keeps running again
	// (0: DefaultRetryBudget).
	RetryBudget time.Duration
	// QueueWindow is how many of a quick-match queue's oldest waiting
	// tickets a newcomer picks among (0: DefaultQueueWindow). Wider: fewer
	// newcomers race for one ticket, at one read more per ticket looked at
	// (docs/scale.md).
	QueueWindow int

	seeds seedCache // the seeds of games this process has played (log.go)
	// needTx holds the actions ("{kind}/{type}") that asked a batch for a
	// read only a transaction makes (txn.go): they start in one from then on.
	needTx sync.Map
}

// New returns a Store on client running the games of reg, with the real clock.
func New(client *firestore.Client, reg domain.Registry) *Store {
	return &Store{FS: client, Games: NewGames(reg), Now: time.Now}
}

// now is the clock the store acts with, to the microsecond: what Firestore
// keeps of a timestamp, so a step's recorded time is the very time its rules
// saw and a replay (replay.go) computes the same state.
func (s *Store) now() time.Time {
	if s.Now == nil {
		return time.Now().Truncate(time.Microsecond)
	}
	return s.Now().Truncate(time.Microsecond)
}

// NewSeed returns a fresh secret game seed: 32 random bytes, hex encoded.
func NewSeed() string {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	return hex.EncodeToString(b)
}

// NewID returns a random document id (20 hex characters).
func NewID() string {
	b := make([]byte, 10)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}
