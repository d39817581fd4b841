package store

import (
	"context"
	"errors"
	"maps"
	"time"

	"cloud.google.com/go/firestore"

	"github.com/meeple-games/meeple/domain"
)

// ApplyEffects runs the effects of the event record games/{gameID}/events/{id}
// in one transaction, exactly once: every handler the record's game
// registered for one of its events, and for a game that keeps stats the
// platform's own: for every gameOver event, the player's per-kind, per-mode
// totals (players/{p}.stats.{kind}.{mode}) and the results on the record
// (resultFields: the players' ledger); when that changed a leaderboard, or the
// game has a projection its events make due, the projection's mark on the
// record for the tick, which rebuilds them (leaderboards.go). Then it clears
// the record's pending flag, the idempotency key. A missing or no longer
// pending record is left alone and reports applied == false. (A game's end
// whose only effect is its stats is not pending: the action wrote them with
// the record, statsInCommit.)
//
// A record whose effects cannot be applied (an undecodable event, an id that
// cannot name a document, a handler's EINVALID) gets pending=false and an
// effectsError field, so it never blocks the tick's sweep, and ApplyEffects
// returns an EINVALID error.
func (s *Store) ApplyEffects(ctx context.Context, gameID, id string) (applied bool, err error) {
	if !validID(gameID) || !validID(id) {
		return false, domain.Errorf(domain.EINVALID, "bad game id %q or event id %q", gameID, id)
	}
	var invalid error
	err = s.transact(ctx, func(ctx context.Context, tx txn) error {
		applied, invalid = false, nil
		ref := s.eventRef(gameID, id)
		snap, err := tx.Get(ref)
		if notFound(err) {
			return nil
		}
		if err != nil {
			return err
		}
		data := snap.Data()
		if pending, _ := data[fPending].(bool); !pending {
			return nil
		}
		now := s.now()
		write, err := s.prepareEffects(ctx, tx, gameID, id, data, now, false)
		if err != nil {
			if domain.ErrorCode(err) != domain.EINVALID {
				return err
			}
			invalid = err
			return tx.Update(ref, []firestore.Update{
				{Path: fPending, Value: false}, {Path: fEffectsAt, Value: now}, {Path: fEffectsError, Value: domain.ErrorMessage(err)},
			})
		}
		mark, err := write()
		if err != nil {
			return err
		}
		applied = true
		ups := []firestore.Update{{Path: fPending, Value: false}, {Path: fEffectsAt, Value: now}}
		for k, v := range mark {
			ups = append(ups, firestore.Update{Path: k, Value: v})
		}
		return tx.Update(ref, ups)
	})
	if err != nil {
		return false, err
	}
	return applied, invalid
}

// prepareEffects does every read of a record's effects and runs its handlers
// (only the eager ones when eager), returning the writes to make; they
// return the fields the record's own update adds: the projection's mark
// and the results (resultFields), empty when none.
//
// Errors: EINVALID for a record that cannot be applied.
func (s *Store) prepareEffects(ctx context.Context, tx txn, gameID, id string, data map[string]any, now time.Time, eager bool) (func() (map[string]any, error), error) {
	var r domain.Record
	if err := fromFirestore(data, &r); err != nil {
		return nil, domain.Errorf(domain.EINVALID, "event record %s/%s: %v", gameID, id, err)
	}
	r.GameID, r.ID = gameID, id
	r.At, _ = data[fAt].(time.Time)
	e, ok := s.Games.Find(r.Kind)
	if !ok {
		return nil, domain.Errorf(domain.EINVALID, "event record %s/%s: no game of kind %q", gameID, id, r.Kind)
	}
	sl := s.slotsOf(e.Game)
	rs := newReadSet()
	var writes []domain.Write
	var steps []domain.Step
	seen := map[string]bool{}
	for _, ev := range r.Events {
		if seen[ev.Type] {
			continue
		}
		seen[ev.Type] = true
		for _, h := range s.Games.handlersOf(r.Kind, ev.Type) {
			if eager && !h.Eager {
				continue
			}
			ch, err := s.runHandler(ctx, tx, sl, rs, h, r, now)
			if err != nil {
				return nil, err
			}
			writes = append(writes, ch.Writes...)
			steps = append(steps, ch.Steps...)
		}
	}
	stats := func() error { return nil }
	var boards []Board
	var results map[string]any
	if e.Stats && !eager && seen[domain.EventGameOver] {
		fx, err := s.collectEffects(func() ([]string, error) { return playersOf(tx, s, gameID) }, gameID, id, data)
		if err != nil {
			return nil, err
		}
		stats, boards = s.statsWrites(tx, fx)
		results = resultFields(fx)
	}
	project := false
	if e.Projection != nil && !eager {
		for _, typ := range e.Projection.Events {
			project = project || seen[typ]
		}
	}
	return func() (map[string]any, error) {
		for _, w := range writes {
			p, err := sl.path(gameID, w.DocID)
			if err != nil {
				return nil, err
			}
			if err := writeDoc(tx, s.FS.Doc(p), w, rs, now, sl); err != nil {
				return nil, err
			}
		}
		for _, step := range steps {
			if _, _, err := s.writeRecord(tx, e, gameID, step, "fx-"+NewID(), now, nil); err != nil {
				return nil, err
			}
		}
		mark := map[string]any{}
		maps.Copy(mark, projectionMark(boards, project))
		maps.Copy(mark, results)
		return mark, stats()
	}, nil
}

// runHandler reads what a handler needs and runs it.
func (s *Store) runHandler(ctx context.Context, tx txn, sl *slots, rs *readSet, h domain.Effect, r domain.Record, now time.Time) (domain.Change, error) {
	reads, err := h.Reads(r)
	if err != nil {
		return domain.Change{}, err
	}
	for round := 0; ; round++ {
		if err := s.read(ctx, tx, sl, r.GameID, rs, reads); err != nil {
			return domain.Change{}, err
		}
		w, err := guard(func() (domain.Change, error) { return h.Run(rs.docs, r, now) })
		var need *domain.NeedDocs
		if errors.As(err, &need) && round < maxRounds {
			reads = need.Reads
			continue
		}
		return w, err
	}
}

// eagerRecord is an event record whose eager handlers run after the commit.
type eagerRecord struct {
	id   string
	at   time.Time
	step domain.Step
}

// eager runs the eager effect handlers of the records the action wrote, each
// record in a transaction of its own, right after the action committed. A
// failure is harmless: the record stays pending and its effects run them
// again.
func (x *execution) eager(ctx context.Context) {
	for _, er := range x.eagerRecords {
		evs, err := toFirestore(er.step.Events)
		if err != nil {
			continue
		}
		data := map[string]any{fKind: x.entry.Kind(), "type": er.step.Type, fAt: er.at, "events": evs,
			"actor": map[string]any{"id": er.step.Actor.ID, "name": er.step.Actor.Name, "role": string(er.step.Actor.Role), "game": er.step.Actor.Game}}
		// As a batch when its handlers read only snapshots (a Tile Race
		// frontier check that finds nothing to raise is then one read, not a
		// transaction's three round trips); in a transaction otherwise.
		fast := true
		_ = x.st.batched(ctx, &fast, "eager/"+x.key(), func(ctx context.Context, tx txn) error {
			write, err := x.st.prepareEffects(ctx, tx, x.req.GameID, er.id, data, x.st.now(), true)
			if err != nil {
				return err
			}
			_, err = write() // eager handlers mark no projection
			return err
		})
	}
	x.eagerRecords = nil
}
