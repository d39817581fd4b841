package store

import (
	"context"
	"encoding/json"

	"cloud.google.com/go/firestore"

	"github.com/meeple-games/meeple/domain"
)

// SignIn runs a game's password sign-in (domain.SignIn): it reads what the
// sign-in lists, lets the game find the principal and its credential
// document, and checks the password with verify (a slow hash comparison)
// under the same throttle accounts have; the principal is found again on the
// documents read in the checking transaction, so one removed meanwhile cannot
// sign in.
//
// Errors: EUNAUTHORIZED (no such game or principal, or a wrong password, not
// told apart), ELIMIT (too many failures), EINVALID (a malformed request).
func (s *Store) SignIn(ctx context.Context, e domain.Entry, si domain.SignIn, req json.RawMessage, verify func(hash string) bool) (domain.Actor, error) {
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
	for _, r := range reads {
		p, err := sl.path(gameID, r.DocID)
		if err != nil {
			return domain.Actor{}, wrong
		}
		refs = append(refs, s.FS.Doc(p))
	}
	docsOf := func(snaps []*firestore.DocumentSnapshot) (domain.Docs, error) {
		d := domain.NewDocs()
		for i, snap := range snaps {
			if !snap.Exists() {
				continue
			}
			j, err := docJSON(snap.Data())
			if err != nil {
				return d, err
			}
			d.Put(reads[i].DocID, j)
		}
		return d, nil
	}
	snaps, err := s.FS.GetAll(ctx, refs)
	if err != nil {
		return domain.Actor{}, err
	}
	d, err := docsOf(snaps)
	if err != nil {
		return domain.Actor{}, err
	}
	_, cred, err := si.Find(d, req)
	if err != nil {
		return domain.Actor{}, err
	}
	p, err := sl.path(gameID, cred)
	if err != nil {
		return domain.Actor{}, wrong
	}
	var actor domain.Actor
	var found error
	err = s.checkPassword(ctx, s.FS.Doc(p), refs, verify, wrong, func(others []*firestore.DocumentSnapshot) {
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
