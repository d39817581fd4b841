package store

import (
	"context"
	"errors"
	"time"

	"cloud.google.com/go/firestore"

	"github.com/meeple-games/meeple/domain"
)

// The outbox: games/{gameId}/outbox/{key}, written by a game in its action's
// transaction (domain.SlotOutbox); the store adds the delivery state below,
// and Deliver hands a message to its game's Outbox until it is delivered or
// given up (docs/triggers.md).
const colOutbox = "outbox"

// Fields of an outbox document besides the game's domain.Message.
const (
	fOutState       = "state"       // OutboxPending, OutboxDelivered, OutboxFailed
	fOutNextAt      = "nextAt"      // when the next attempt may start (also the lease of one under way)
	fOutAttempts    = "attempts"    // attempts started
	fOutCreatedAt   = "createdAt"   // when the action wrote it
	fOutDeliveredAt = "deliveredAt" // when it was delivered
	fOutLastError   = "lastError"   // why the last attempt failed (never an address)
)

// Outbox states.
const (
	OutboxPending   = "pending"
	OutboxDelivered = "delivered"
	OutboxFailed    = "failed"
	// OutboxSkipped is what Deliver reports for a message it did not try:
	// absent, no longer pending, leased by another attempt or not due yet.
	OutboxSkipped = "skipped"
)

// Outbox timing.
const (
	// OutboxLease is how long an attempt holds a message: another deliverer
	// (the tick) leaves it alone meanwhile, and takes it up if the attempt
	// died. It exceeds OutboxTimeout.
	OutboxLease = 60 * time.Second
	// OutboxTimeout bounds one attempt's send (a destination that hangs).
	OutboxTimeout = 20 * time.Second
	// Backoff of failed attempts: doubling from OutboxBackoff to OutboxMaxBackoff.
	OutboxBackoff    = 2 * time.Second
	OutboxMaxBackoff = 10 * time.Minute
)

// createOutbox creates an outbox document: the game's message and a fresh
// delivery state, due now.
func createOutbox(tx txn, ref *firestore.DocumentRef, v any, kind string, now time.Time) error {
	doc, err := docFields(v, now, nil)
	if err != nil {
		return err
	}
	doc[fKind] = kind
	doc[fOutState] = OutboxPending
	doc[fOutAttempts] = int64(0)
	doc[fOutNextAt] = now
	doc[fOutCreatedAt] = now
	return tx.Create(ref, doc)
}

// Delivery is what one Deliver did.
type Delivery struct {
	State    string    // OutboxDelivered, OutboxPending (to retry), OutboxFailed, OutboxSkipped
	Attempts int64     // attempts made so far
	NextAt   time.Time // the next attempt, when pending
	Error    string    // the failure's reason (no address)
}

// OutboxRef names one outbox document.
type OutboxRef struct {
	GameID string
	Key    string
}

// Deliver makes one delivery attempt of games/{gameID}/outbox/{key} if it is
// pending and due: it leases the message (so a concurrent trigger or tick
// leaves it alone), sends it through its game's Outbox and records the
// outcome. A success marks it delivered; a permanent failure gives it up
// and writes what the game's Outbox.Failed returns (the admins' status); any
// other failure schedules a retry after the destination's RetryAfter when
// it gave one, else after the backoff. A message is never lost: an attempt that
// dies leaves it pending, due when its lease ends.
func (s *Store) Deliver(ctx context.Context, gameID, key string) (Delivery, error) {
	if !validID(gameID) || !validID(key) {
		return Delivery{}, domain.Errorf(domain.EINVALID, "bad outbox document %q/%q", gameID, key)
	}
	ref := s.gameRef(gameID).Collection(colOutbox).Doc(key)
	now := s.now()
	var (
		msg      domain.Message
		kind     string
		attempts int64
		claimed  bool
	)
	err := s.transact(ctx, func(ctx context.Context, tx txn) error {
		claimed = false
		snap, err := tx.Get(ref)
		if notFound(err) {
			return nil
		}
		if err != nil {
			return err
		}
		data := snap.Data()
		next, _ := data[fOutNextAt].(time.Time)
		if st, _ := data[fOutState].(string); st != OutboxPending || next.After(now) {
			return nil
		}
		if err := fromFirestore(data, &msg); err != nil {
			return domain.Errorf(domain.EINVALID, "outbox %s/%s: %v", gameID, key, err)
		}
		kind, _ = data[fKind].(string)
		attempts, _ = data[fOutAttempts].(int64)
		attempts++
		claimed = true
		return tx.Update(ref, []firestore.Update{{Path: fOutNextAt, Value: now.Add(OutboxLease)}, {Path: fOutAttempts, Value: attempts}})
	})
	if err != nil || !claimed {
		return Delivery{State: OutboxSkipped}, err
	}
	e, ok := s.Games.Find(kind)
	if !ok || e.Outbox == nil {
		return s.settle(ctx, ref, e, gameID, msg, attempts, &domain.DeliveryError{Permanent: true, Reason: "no deliverer for game kind " + kind})
	}
	sl := s.slotsOf(e.Game)
	docs := domain.NewDocs()
	if len(e.Outbox.Reads) > 0 {
		rs := newReadSet()
		reads := make([]domain.Read, 0, len(e.Outbox.Reads))
		for _, id := range e.Outbox.Reads {
			reads = append(reads, domain.Read{DocID: id, Snapshot: true})
		}
		if err := s.read(ctx, nil, sl, gameID, rs, reads); err != nil {
			return s.settle(ctx, ref, e, gameID, msg, attempts, &domain.DeliveryError{Reason: "reading the game's delivery settings failed"})
		}
		docs = rs.docs
	}
	sctx, cancel := context.WithTimeout(ctx, OutboxTimeout)
	derr := e.Outbox.Deliver(sctx, docs, msg)
	cancel()
	if derr == nil {
		return s.settle(ctx, ref, e, gameID, msg, attempts, nil)
	}
	var de *domain.DeliveryError
	if !errors.As(derr, &de) {
		// An unclassified error's text may hold the address: keep none of it.
		de = &domain.DeliveryError{Reason: "delivery failed"}
	}
	return s.settle(ctx, ref, e, gameID, msg, attempts, de)
}

// settle records an attempt's outcome on the outbox document (and, for a
// message given up, the game's status writes, in one transaction).
func (s *Store) settle(ctx context.Context, ref *firestore.DocumentRef, e domain.Entry, gameID string, msg domain.Message, attempts int64, de *domain.DeliveryError) (Delivery, error) {
	now := s.now()
	switch {
	case de == nil:
		_, err := ref.Update(ctx, []firestore.Update{
			{Path: fOutState, Value: OutboxDelivered}, {Path: fOutDeliveredAt, Value: now},
			{Path: fOutLastError, Value: firestore.Delete}, {Path: fUpdatedAt, Value: now},
		})
		return Delivery{State: OutboxDelivered, Attempts: attempts}, err
	case de.Permanent:
		err := s.transact(ctx, func(ctx context.Context, tx txn) error {
			var writes []domain.Write
			rs := newReadSet()
			if e.Outbox != nil && e.Outbox.Failed != nil {
				sl := s.slotsOf(e.Game)
				reads := make([]domain.Read, 0, len(e.Outbox.Reads))
				for _, id := range e.Outbox.Reads {
					reads = append(reads, domain.Locked(id))
				}
				if err := s.read(ctx, tx, sl, gameID, rs, reads); err != nil {
					return err
				}
				writes = e.Outbox.Failed(rs.docs, msg, *de, now)
				for _, w := range writes {
					p, err := sl.path(gameID, w.DocID)
					if err != nil {
						return err
					}
					if err := writeDoc(tx, s.FS.Doc(p), w, rs, now, sl); err != nil {
						return err
					}
				}
			}
			return tx.Update(ref, []firestore.Update{
				{Path: fOutState, Value: OutboxFailed}, {Path: fOutLastError, Value: de.Error()}, {Path: fUpdatedAt, Value: now},
			})
		})
		return Delivery{State: OutboxFailed, Attempts: attempts, Error: de.Error()}, err
	default:
		wait := OutboxBackoff
		for i := int64(1); i < attempts && wait < OutboxMaxBackoff; i++ {
			wait *= 2
		}
		wait = min(wait, OutboxMaxBackoff)
		if de.RetryAfter > 0 {
			// The destination said when: a rate limit is no outage, and
			// waiting longer would only slow the queue behind it.
			wait = de.RetryAfter
		}
		next := now.Add(wait)
		_, err := ref.Update(ctx, []firestore.Update{
			{Path: fOutNextAt, Value: next}, {Path: fOutLastError, Value: de.Error()}, {Path: fUpdatedAt, Value: now},
		})
		return Delivery{State: OutboxPending, Attempts: attempts, NextAt: next, Error: de.Error()}, err
	}
}

// DueOutbox returns up to limit pending outbox messages whose next attempt
// is due at now, the longest waiting first: a collection-group query on
// "outbox" (state ==, nextAt <=), which needs the composite index in
// firestore.indexes.json. Documents of other "outbox" collections are skipped.
func (s *Store) DueOutbox(ctx context.Context, now time.Time, limit int) ([]OutboxRef, error) {
	snaps, err := s.FS.CollectionGroup(colOutbox).
		Where(fOutState, "==", OutboxPending).
		Where(fOutNextAt, "<=", now).
		OrderBy(fOutNextAt, firestore.Asc).
		Limit(limit).
		Documents(ctx).GetAll()
	if err != nil {
		return nil, err
	}
	out := make([]OutboxRef, 0, len(snaps))
	for _, snap := range snaps {
		game, ok := gameOf(snap.Ref)
		if !ok {
			continue
		}
		out = append(out, OutboxRef{GameID: game, Key: snap.Ref.ID})
	}
	return out, nil
}

// OutboxDoc is an outbox document as operators and tests read it.
type OutboxDoc struct {
	domain.Message
	Kind        string    `json:"kind"`
	State       string    `json:"state"`
	Attempts    int64     `json:"attempts"`
	NextAt      time.Time `json:"nextAt"`
	CreatedAt   time.Time `json:"createdAt"`
	DeliveredAt time.Time `json:"deliveredAt,omitzero"`
	LastError   string    `json:"lastError,omitempty"`
}

// Outbox reads a game's outbox documents by key.
func (s *Store) Outbox(ctx context.Context, gameID string) (map[string]OutboxDoc, error) {
	snaps, err := s.gameRef(gameID).Collection(colOutbox).Documents(ctx).GetAll()
	if err != nil {
		return nil, err
	}
	out := map[string]OutboxDoc{}
	for _, snap := range snaps {
		var d OutboxDoc
		if err := fromFirestore(snap.Data(), &d); err != nil {
			return nil, err
		}
		out[snap.Ref.ID] = d
	}
	return out, nil
}
