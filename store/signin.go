package store

import (
	"context"
	"encoding/json"
	"errors"

	"cloud.google.com/go/firestore"

	"github.com/meeple-games/meeple/domain"
)

// SignIn runs a game's password sign-in (domain.SignIn): it reads what the
// sign-in lists (and what Find asks for more), lets the game find the
// principal and its credential document, and checks the password with verify
// (a slow hash comparison) under the throttle of source, the caller's
// address (checkPassword). The principal is found again on the documents read
// in the checking transaction, so one removed or changed meanwhile cannot
// sign in with a stale session generation.
//
// Errors: EUNAUTHORIZED (no such game or principal, or a wrong password, not
// told apart), ELIMIT (this source must wait), EINVALID (a malformed request).
func (s *Store) SignIn(ctx context.Context, e domain.Entry, si domain.SignIn, req json.RawMessage, source string, verify func(hash string) bool) (domain.Actor, error) {
	wrong := domain.Errorf(domain.EUNAUTHORIZED, "wrong game, name or password")
	gameID, reads, err := si.Reads(req)
	if err != nil {
		return domain.Actor{}, err
	}
	if !validID(gameID) {
		return domain.Actor{}, wrong
	}
	sl := s.slotsOf(e.Game)
	var refs []*firestore.DocumentRef
	var ids []domain.DocID
	add := func(rs []domain.Read) error {
		for _, r := range rs {
			p, err := sl.path(gameID, r.DocID)
			if err != nil {
				return wrong
			}
			refs, ids = append(refs, s.FS.Doc(p)), append(ids, r.DocID)
		}
		return nil
	}
	docsOf := func(snaps []*firestore.DocumentSnapshot) (domain.Docs, error) {
		d := domain.NewDocs()
		for i, snap := range snaps {
			if !snap.Exists() {
				d.Put(ids[i], nil)
				continue
			}
			j, err := docJSON(snap.Data())
			if err != nil {
				return d, err
			}
			d.Put(ids[i], j)
		}
		return d, nil
	}
	if err := add(reads); err != nil {
		return domain.Actor{}, err
	}
	var cred domain.DocID
	for round := 0; ; round++ {
		snaps, err := s.FS.GetAll(ctx, refs)
		if err != nil {
			return domain.Actor{}, err
		}
		d, err := docsOf(snaps)
		if err != nil {
			return domain.Actor{}, err
		}
		_, cred, err = si.Find(d, req)
		var need *domain.NeedDocs
		if errors.As(err, &need) && round < maxRounds {
			if err := add(need.Reads); err != nil {
				return domain.Actor{}, err
			}
			continue
		}
		if err != nil {
			return domain.Actor{}, err
		}
		break
	}
	p, err := sl.path(gameID, cred)
	if err != nil {
		return domain.Actor{}, wrong
	}
	var actor domain.Actor
	var found error
	err = s.checkPassword(ctx, s.FS.Doc(p), source, refs, verify, wrong, func(others []*firestore.DocumentSnapshot) {
		d, err := docsOf(others)
		if err != nil {
			found = err
			return
		}
		var again domain.DocID
		actor, again, found = si.Find(d, req)
		if found == nil && again != cred {
			found = wrong
		}
	})
	if err != nil {
		return domain.Actor{}, err
	}
	return actor, found
}

// SessionGen is a platform player's session generation (0 until they first
// sign out everywhere): a session token of another generation is refused.
func (s *Store) SessionGen(ctx context.Context, playerID string) (int64, error) {
	snap, err := s.playerRef(playerID).Get(ctx)
	if notFound(err) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	gen, _ := snap.Data()["sessionGen"].(int64)
	return gen, nil
}

// EndSessions moves a platform player's session generation on: every session
// token issued before stops working. It returns the new generation.
func (s *Store) EndSessions(ctx context.Context, playerID string) (int64, error) {
	var gen int64
	err := s.inTransaction(ctx, func(ctx context.Context, tx txn) error {
		snap, err := tx.Get(s.playerRef(playerID))
		if err != nil && !notFound(err) {
			return err
		}
		gen = 0
		if err == nil {
			gen, _ = snap.Data()["sessionGen"].(int64)
		}
		gen++
		return tx.Set(s.playerRef(playerID), map[string]any{"sessionGen": gen, fUpdatedAt: s.now()}, firestore.MergeAll)
	})
	return gen, err
}
