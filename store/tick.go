package store

import (
	"context"
	"time"

	"cloud.google.com/go/firestore"
)

// DueGame is a game whose deadline has passed.
type DueGame struct {
	ID   string
	Kind string
}

// DueGames returns up to limit games whose deadlineAt is at or before now,
// earliest deadline first. Games without a deadline store null there and never
// match. The query needs only the automatic single-field index on deadlineAt.
func (s *Store) DueGames(ctx context.Context, now time.Time, limit int) ([]DueGame, error) {
	snaps, err := s.FS.Collection(colGames).
		Where(fDeadlineAt, "<=", now).
		OrderBy(fDeadlineAt, firestore.Asc).
		Limit(limit).
		Documents(ctx).GetAll()
	if err != nil {
		return nil, err
	}
	out := make([]DueGame, 0, len(snaps))
	for _, snap := range snaps {
		kind, _ := snap.Data()[fKind].(string)
		out = append(out, DueGame{ID: snap.Ref.ID, Kind: kind})
	}
	return out, nil
}

// PendingEvent names an event record whose effects have not run.
type PendingEvent struct {
	GameID  string
	EventID string
}

// PendingEvents returns up to limit event records, oldest first, that are still
// pending and were written at or before olderThan: a collection-group query on
// "events" (pending ==, at <=), which needs the composite index listed in
// docs/triggers.md. Records of other "events" collections are skipped.
func (s *Store) PendingEvents(ctx context.Context, olderThan time.Time, limit int) ([]PendingEvent, error) {
	snaps, err := s.FS.CollectionGroup(colEvents).
		Where(fPending, "==", true).
		Where(fAt, "<=", olderThan).
		OrderBy(fAt, firestore.Asc).
		Limit(limit).
		Documents(ctx).GetAll()
	if err != nil {
		return nil, err
	}
	out := make([]PendingEvent, 0, len(snaps))
	for _, snap := range snaps {
		game, ok := gameOf(snap.Ref)
		if !ok {
			continue
		}
		out = append(out, PendingEvent{GameID: game, EventID: snap.Ref.ID})
	}
	return out, nil
}
