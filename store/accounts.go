package store

import (
	"context"
	"strings"
	"time"

	"cloud.google.com/go/firestore"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/meeple-games/meeple/domain"
)

// Login throttling: after MaxLoginFailures failed attempts within LoginWindow,
// an account refuses logins until the window since the first failure passes.
const (
	MaxLoginFailures = 5
	LoginWindow      = 15 * time.Minute
)

const docCredentials = "credentials"

// CreateGuest writes the public profile of a new guest player.
func (s *Store) CreateGuest(ctx context.Context, id, name string) error {
	_, err := s.playerRef(id).Set(ctx, map[string]any{"name": name, "kind": "guest", fCreatedAt: s.now()})
	return err
}

// Register creates an account: a unique username, the account's profile, its
// public player profile and its password hash, in one transaction.
//
// Errors: EEXISTS (username taken).
func (s *Store) Register(ctx context.Context, uid, username, name, passwordHash string) error {
	key := strings.ToLower(username)
	err := s.FS.RunTransaction(ctx, func(ctx context.Context, tx *firestore.Transaction) error {
		now := s.now()
		if err := tx.Create(s.FS.Collection(colUsernames).Doc(key), map[string]any{"uid": uid, fCreatedAt: now}); err != nil {
			return err
		}
		user := s.FS.Collection(colUsers).Doc(uid)
		if err := tx.Create(user, map[string]any{"username": username, "name": name, fCreatedAt: now}); err != nil {
			return err
		}
		if err := tx.Create(user.Collection(colPrivate).Doc(docCredentials), map[string]any{"hash": passwordHash, "failures": 0}); err != nil {
			return err
		}
		return tx.Set(s.playerRef(uid), map[string]any{"name": name, "kind": "account", fCreatedAt: now}, firestore.MergeAll)
	})
	if status.Code(err) == codes.AlreadyExists {
		return domain.Errorf(domain.EEXISTS, "username %q is taken", username)
	}
	return err
}

// Account is what a successful login yields.
type Account struct {
	UID  string
	Name string
}

// Login checks a password with verify (a slow hash comparison) and counts
// failures per account, refusing attempts while an account is throttled.
//
// Errors: EUNAUTHORIZED (unknown user or wrong password, not told apart),
// ELIMIT (too many failures).
func (s *Store) Login(ctx context.Context, username string, verify func(hash string) bool) (Account, error) {
	wrong := domain.Errorf(domain.EUNAUTHORIZED, "wrong username or password")
	snap, err := s.FS.Collection(colUsernames).Doc(strings.ToLower(username)).Get(ctx)
	if status.Code(err) == codes.NotFound {
		return Account{}, wrong
	}
	if err != nil {
		return Account{}, err
	}
	uid, _ := snap.Data()["uid"].(string)
	user := s.FS.Collection(colUsers).Doc(uid)
	var acct Account
	err = s.checkPassword(ctx, user.Collection(colPrivate).Doc(docCredentials), []*firestore.DocumentRef{user}, verify, wrong,
		func(docs []*firestore.DocumentSnapshot) {
			name, _ := docs[0].Data()["name"].(string)
			acct = Account{UID: uid, Name: name}
		})
	return acct, err
}

// checkPassword checks a password against the hash in the credentials
// document creds ({hash, failures, firstFailureAt}) and counts failures,
// refusing attempts while MaxLoginFailures failures within LoginWindow stand.
// The other documents are read in the same transaction and handed to ok on
// success. Accounts and every game's password sign-in (SignIn) share it.
//
// Errors: wrong (a missing document or a wrong password, not told apart),
// ELIMIT (too many failures).
func (s *Store) checkPassword(ctx context.Context, creds *firestore.DocumentRef, others []*firestore.DocumentRef, verify func(hash string) bool, wrong error, ok func(others []*firestore.DocumentSnapshot)) error {
	failed := false
	err := s.FS.RunTransaction(ctx, func(ctx context.Context, tx *firestore.Transaction) error {
		docs, err := tx.GetAll(append([]*firestore.DocumentRef{creds}, others...))
		if err != nil {
			return err
		}
		failed = false
		if !docs[0].Exists() {
			return wrong
		}
		c := docs[0].Data()
		now := s.now()
		failures, _ := c["failures"].(int64)
		first, _ := c["firstFailureAt"].(time.Time)
		if failures > 0 && now.Sub(first) >= LoginWindow {
			failures = 0
		}
		if failures >= MaxLoginFailures {
			return domain.Errorf(domain.ELIMIT, "too many failed logins; try again after %s", first.Add(LoginWindow).UTC().Format(time.RFC3339))
		}
		hash, _ := c["hash"].(string)
		if !verify(hash) {
			if failures == 0 {
				first = now
			}
			failed = true // returning an error would roll the count back
			return tx.Update(creds, []firestore.Update{{Path: "failures", Value: failures + 1}, {Path: "firstFailureAt", Value: first}})
		}
		ok(docs[1:])
		if c["failures"] != int64(0) {
			return tx.Update(creds, []firestore.Update{{Path: "failures", Value: 0}})
		}
		return nil
	})
	if err == nil && failed {
		return wrong
	}
	return err
}
