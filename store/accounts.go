package store

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"time"

	"cloud.google.com/go/firestore"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/meeple-games/meeple/domain"
)

// Sign-in throttling (docs/security.md): failures are counted per principal
// and source (the caller's address) and per source alone, never per
// principal alone, so a stranger who knows a name can slow only himself, not
// lock its owner out. After FreeFailures failures a source must wait before
// its next attempt: 2 s, then twice as long after each further failure, up to
// MaxThrottle. A success clears the principal-and-source count; the source's
// own count (over every principal) allows SourceFailures failures before the
// same delays apply to all its attempts. Counts lapse after ThrottleWindow
// without a failure.
const (
	FreeFailures   = 3
	SourceFailures = 20
	MaxThrottle    = 15 * time.Minute
	ThrottleWindow = time.Hour
)

const colThrottle = "throttle"

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
	err := s.inTransaction(ctx, func(ctx context.Context, tx txn) error {
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

// Login checks a password with verify (a slow hash comparison) under the
// sign-in throttle of source (the caller's address).
//
// Errors: EUNAUTHORIZED (unknown user or wrong password, not told apart),
// ELIMIT (this source must wait).
func (s *Store) Login(ctx context.Context, username, source string, verify func(hash string) bool) (Account, error) {
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
	err = s.checkPassword(ctx, user.Collection(colPrivate).Doc(docCredentials), source, []*firestore.DocumentRef{user}, verify, wrong,
		func(docs []*firestore.DocumentSnapshot) {
			name, _ := docs[0].Data()["name"].(string)
			acct = Account{UID: uid, Name: name}
		})
	return acct, err
}

// checkPassword checks a password against the hash in the credentials
// document creds ({hash}) with verify, under the sign-in throttle of source
// (see FreeFailures). The other documents are read in the same transaction
// and handed to ok on success. Accounts and every game's password sign-in
// (SignIn) share it.
//
// Errors: wrong (a missing document or a wrong password, not told apart),
// ELIMIT (this source must wait).
func (s *Store) checkPassword(ctx context.Context, creds *firestore.DocumentRef, source string, others []*firestore.DocumentRef, verify func(hash string) bool, wrong error, ok func(others []*firestore.DocumentSnapshot)) error {
	pair := s.FS.Collection(colThrottle).Doc(throttleKey("pair", creds.Path, source))
	src := s.FS.Collection(colThrottle).Doc(throttleKey("source", source))
	failed := false
	err := s.transact(ctx, func(ctx context.Context, tx txn) error {
		docs, err := tx.GetAll(append([]*firestore.DocumentRef{creds, pair, src}, others...))
		if err != nil {
			return err
		}
		failed = false
		now := s.now()
		p, so := throttleOf(docs[1], now), throttleOf(docs[2], now)
		wait := p.wait(FreeFailures)
		if w := so.wait(SourceFailures); w.After(wait) {
			wait = w
		}
		if now.Before(wait) {
			return domain.Errorf(domain.ELIMIT, "too many failed sign-ins from your address; try again after %s", wait.UTC().Format(time.RFC3339))
		}
		c := map[string]any{}
		if docs[0].Exists() {
			c = docs[0].Data()
		}
		hash, _ := c["hash"].(string)
		if !docs[0].Exists() || !verify(hash) {
			failed = true // returning an error would roll the counts back
			if err := tx.Set(pair, p.failed(now)); err != nil {
				return err
			}
			return tx.Set(src, so.failed(now))
		}
		ok(docs[3:])
		if docs[1].Exists() {
			return tx.Delete(pair)
		}
		return nil
	})
	if err == nil && failed {
		return wrong
	}
	return err
}

// throttle is a throttle document: failures and the last one's time.
type throttle struct {
	Failures int64
	Last     time.Time
}

func throttleOf(snap *firestore.DocumentSnapshot, now time.Time) throttle {
	if !snap.Exists() {
		return throttle{}
	}
	t := throttle{}
	t.Failures, _ = snap.Data()["failures"].(int64)
	t.Last, _ = snap.Data()["last"].(time.Time)
	if now.Sub(t.Last) >= ThrottleWindow {
		return throttle{}
	}
	return t
}

// wait is when the next attempt may come, after free failures.
func (t throttle) wait(free int64) time.Time {
	if t.Failures < free {
		return time.Time{}
	}
	d := 2 * time.Second << min(t.Failures-free, 20)
	return t.Last.Add(min(d, MaxThrottle))
}

func (t throttle) failed(now time.Time) map[string]any {
	return map[string]any{"failures": t.Failures + 1, "last": now, "expiresAt": now.Add(ThrottleWindow)}
}

// throttleKey names a throttle document without storing addresses or
// principals in the clear.
func throttleKey(parts ...string) string {
	sum := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return hex.EncodeToString(sum[:12])
}
