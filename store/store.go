// Package store is the only package that talks to Firestore. It owns the
// document paths and codecs, and runs the action transaction every game shares.
package store

import (
	"context"
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
	// ComputeBudget is the wall time one action's rules may compute before
	// domain.Env.Stop says so (0: DefaultComputeBudget); half of what is
	// left of the request's deadline when that is sooner.
	ComputeBudget time.Duration

	// ProjectionSettle is how long after its commit's time (wall clock) a
	// record marked for the projection pass waits before a pass takes it,
	// so that commits stamped earlier are visible by then (projection.go).
	// Zero: none (tests whose clock is not the wall clock); deployments
	// and the local stack use DefaultProjectionSettle.
	ProjectionSettle time.Duration

	// RoomCodes picks a room code candidate (nil: random, newRoomCode);
	// tests set it to make two creates pick the same code.
	RoomCodes func() string

	seeds fifo[string] // the seeds of games this process has played (seedCacheSize)
	// configs holds copies of documents of slots with CacheFor (cache.go).
	configs docCache
	// passCursor is the projection pass's cursor as this instance last
	// read or wrote it (projection.go).
	projCursor passCursorCache
	// needTx holds, by action ("{kind}/{type}"), how many of its runs asked
	// for a read only a transaction makes (txn.go, txNeedsOf): an action
	// where most do starts in a transaction.
	needTx sync.Map
	// warm holds the game documents this instance last read or committed,
	// and warmOdds, by action, how often such a copy was current (warm.go).
	warm     warmGames
	warmOdds sync.Map
}

// New returns a Store on client running the games of reg, with the real clock.
func New(client *firestore.Client, reg domain.Registry) *Store {
	st := &Store{FS: client, Games: NewGames(reg), Now: time.Now}
	st.seeds.max = seedCacheSize
	return st
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

// DefaultComputeBudget: a request's whole time is 20 s (functions'
// DefaultRequestTimeout), of which a computation that may stop early (a
// board simulation) takes at most this, leaving its reads and commit room
// even on a starved machine.
const DefaultComputeBudget = 5 * time.Second

// stopper is domain.Env.Stop for an action run under ctx: wall time, not
// the store's clock (tests move that by hand), since it bounds the work.
func (s *Store) stopper(ctx context.Context) func() bool {
	start := time.Now()
	d := s.ComputeBudget
	if d == 0 {
		d = DefaultComputeBudget
	}
	if dl, ok := ctx.Deadline(); ok {
		d = min(d, time.Until(dl)/2)
	}
	end := start.Add(d)
	return func() bool { return time.Now().After(end) }
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
