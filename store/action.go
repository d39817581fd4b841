package store

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"time"

	"cloud.google.com/go/firestore"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/meeple-games/meeple/domain"
)

// Request is one authenticated action on an existing game.
type Request struct {
	GameID string
	Action domain.Action
	// ExpectVersion, when set, makes the action apply only to that version of
	// the game: a client that acted on what it saw cannot act twice by accident.
	ExpectVersion *int64
}

// Reply is what an action returns to its caller, and what a retry gets again.
type Reply struct {
	GameID  string         `json:"gameId"`
	Version int64          `json:"version"`
	Events  []domain.Event `json:"events"`
	Result  any            `json:"result,omitempty"`
}

// maxExpiries bounds how many overdue deadlines one transaction applies.
const maxExpiries = 50

// step is one state change: an expiry or the action itself.
type step struct {
	version int64
	actor   domain.Actor
	typ     string
	events  []domain.Event
}

// stepper applies expiries and actions to a loaded game, keeping what each step did.
type stepper[S any] struct {
	rules  domain.Rules[S]
	g      *game[S]
	seed   func() (string, error)
	steps  []step
	spawns []domain.Spawn
	result any
}

func (p *stepper[S]) dice() domain.Dice {
	return &lazyDice{load: p.seed, seq: p.g.Version + 1}
}

// expire applies every deadline that passed by now, each as of its deadline.
func (p *stepper[S]) expire(now time.Time) error {
	for i := 0; i < maxExpiries; i++ {
		h := p.rules.Header(p.g.State)
		if h.Status == domain.StatusOver || h.Deadline.IsZero() || now.Before(h.Deadline) {
			return nil
		}
		s, out, err := guard(func() (S, domain.Outcome, error) {
			return p.rules.Expire(p.g.State, domain.Env{Now: h.Deadline, Dice: p.dice()})
		})
		if err != nil {
			return err
		}
		p.record(s, domain.System, "expire", out)
	}
	return nil
}

func (p *stepper[S]) record(s S, actor domain.Actor, typ string, out domain.Outcome) {
	p.g.State = s
	p.g.Version++
	p.steps = append(p.steps, step{version: p.g.Version, actor: actor, typ: typ, events: out.Events})
	p.spawns = append(p.spawns, out.Spawn...)
	p.result = out.Result
}

func (p *stepper[S]) events() []domain.Event {
	var all []domain.Event
	for _, s := range p.steps {
		all = append(all, s.events...)
	}
	if all == nil {
		all = []domain.Event{}
	}
	return all
}

// Act runs one action on a game in one transaction: read the game, apply any
// overdue timeouts as of their deadlines, apply the action, write the state with
// its new version, append the event records and record the action id. A retried
// action id returns the first reply and changes nothing.
//
// Errors: ENOTFOUND (no such game), ECONFLICT (stale ExpectVersion, or the rules
// say not now), EEXISTS (action id reused for a different request), and whatever
// the rules return; all of them leave the game unchanged.
func Act[S any](ctx context.Context, st *Store, rules domain.Rules[S], req Request) (json.RawMessage, error) {
	return runAction(ctx, st, req.GameID, req.Action, func(ctx context.Context, tx *firestore.Transaction, now time.Time) (*actionDone, error) {
		g, err := loadGame[S](tx, st, rules.Kind(), req.GameID)
		if err != nil {
			return nil, err
		}
		p := &stepper[S]{rules: rules, g: g, seed: seedLoader(tx, st, g.ID)}
		if req.ExpectVersion != nil && *req.ExpectVersion != g.Version {
			return nil, domain.Errorf(domain.ECONFLICT, "stale request: the game is at version %d, not %d", g.Version, *req.ExpectVersion)
		}
		if err := p.expire(now); err != nil {
			return nil, err
		}
		s, out, err := guard(func() (S, domain.Outcome, error) {
			return rules.Apply(g.State, req.Action, domain.Env{Now: now, Dice: p.dice()})
		})
		if err != nil {
			return nil, err
		}
		p.record(s, req.Action.Actor, req.Action.Type, out)
		return &actionDone{
			reply:   Reply{GameID: g.ID, Version: g.Version, Events: p.events(), Result: p.result},
			version: g.Version,
			write:   func() error { return p.write(tx, st, req.Action.ID, now) },
		}, nil
	})
}

// actionDone is what the body of an action transaction did: the reply, and the
// writes to make once every read is done.
type actionDone struct {
	reply   any
	version int64 // recorded with the action
	write   func() error
}

// runAction is the transaction every action runs in, whatever the game: body
// reads and applies the action; a domain error from it is the action's
// refusal, unless the same action id already succeeded, in which case its
// first reply is returned again (a retry). On success the writes are made and
// the action record games/{id}/actions/{actorId}~{actionId} is created with
// the reply, so a concurrent duplicate fails the Create and gets that reply.
//
// Errors: EINVALID (no action id), EEXISTS (action id reused for a different
// request), and body's errors.
func runAction(ctx context.Context, st *Store, gameID string, a domain.Action, body func(context.Context, *firestore.Transaction, time.Time) (*actionDone, error)) (json.RawMessage, error) {
	if a.ID == "" {
		return nil, domain.Errorf(domain.EINVALID, "actionId is required")
	}
	if gameID == "" {
		return nil, domain.Errorf(domain.EINVALID, "gameId is required")
	}
	hash := requestHash(a)
	var reply json.RawMessage
	err := st.FS.RunTransaction(ctx, func(ctx context.Context, tx *firestore.Transaction) error {
		reply = nil
		now := st.now()
		done, err := body(ctx, tx, now)
		if err != nil {
			if !errors.As(err, new(*domain.Error)) {
				return err
			}
			prev, rerr := recordedReply(tx.Get(st.actionRef(gameID, a)))
			if rerr != nil {
				return rerr
			}
			if prev == nil {
				return err
			}
			if prev.hash != hash {
				return domain.Errorf(domain.EEXISTS, "actionId %q was already used for a different request", a.ID)
			}
			reply = prev.reply
			return nil
		}
		b, err := json.Marshal(done.reply)
		if err != nil {
			return err
		}
		if err := done.write(); err != nil {
			return err
		}
		if err := tx.Create(st.actionRef(gameID, a), map[string]any{
			"type": a.Type, "actor": a.Actor.ID, "hash": hash,
			fVersion: done.version, "reply": string(b), "at": now,
		}); err != nil {
			return err
		}
		reply = b
		return nil
	})
	if status.Code(err) == codes.AlreadyExists {
		// A concurrent retry of the same action id committed first.
		prev, rerr := recordedReply(st.actionRef(gameID, a).Get(ctx))
		if rerr != nil {
			return nil, rerr
		}
		if prev == nil || prev.hash != hash {
			return nil, domain.Errorf(domain.EEXISTS, "actionId %q was already used for a different request", a.ID)
		}
		return prev.reply, nil
	}
	if err != nil {
		return nil, err
	}
	return reply, nil
}

// Advance applies a game's overdue timeouts, as of their deadlines, in one
// transaction. It is what the tick runs; an action arriving first does the same
// work, so whichever comes first wins and the other finds nothing due.
// It reports how many steps it applied.
func Advance[S any](ctx context.Context, st *Store, rules domain.Rules[S], gameID string) (int, error) {
	applied := 0
	err := st.FS.RunTransaction(ctx, func(ctx context.Context, tx *firestore.Transaction) error {
		applied = 0
		g, err := loadGame[S](tx, st, rules.Kind(), gameID)
		if err != nil {
			return err
		}
		now := st.now()
		p := &stepper[S]{rules: rules, g: g, seed: seedLoader(tx, st, g.ID)}
		if err := p.expire(now); err != nil {
			return err
		}
		if len(p.steps) == 0 {
			return nil
		}
		applied = len(p.steps)
		return p.write(tx, st, "", now)
	})
	return applied, err
}

// write stores the new state, one event record per step, spawned games, and on
// the game's end reveals its seed and frees its room code. All reads are done.
func (p *stepper[S]) write(tx *firestore.Transaction, st *Store, actionID string, now time.Time) error {
	g := p.g
	h := p.rules.Header(g.State)
	updates, err := gameFields(h, g.State, g.Version, now)
	if err != nil {
		return err
	}
	if h.Status == domain.StatusOver {
		seed, err := p.seed()
		if err != nil {
			return err
		}
		updates = append(updates, firestore.Update{Path: fSeed, Value: seed})
	}
	if h.Status == domain.StatusOver && g.RoomCode != "" {
		if err := tx.Delete(st.roomRef(g.RoomCode)); err != nil {
			return err
		}
	}
	if err := tx.Update(st.gameRef(g.ID), updates); err != nil {
		return err
	}
	for _, s := range p.steps {
		evs, err := toFirestore(s.events)
		if err != nil {
			return err
		}
		if evs == nil {
			evs = []any{}
		}
		if err := tx.Create(st.eventRef(g.ID, EventID(s.version)), map[string]any{
			"seq": s.version, "at": now, fKind: g.Kind, "type": s.typ, "actionId": actionID,
			"actor":   map[string]any{"id": s.actor.ID, "name": s.actor.Name, "role": string(s.actor.Role)},
			"events":  evs,
			"pending": domain.HasEffects(s.events),
		}); err != nil {
			return err
		}
	}
	for _, sp := range p.spawns {
		state, ok := sp.State.(S)
		if !ok {
			return errors.New("store: spawned state of the wrong type")
		}
		if err := createGame(tx, st, g.Kind, sp.ID, p.rules.Header(state), state, NewSeed(), "", now); err != nil {
			return err
		}
	}
	return nil
}

// guard turns a panic in the rules into an error, and a failed lazy seed read
// into the read's error.
func guard[S any](f func() (S, domain.Outcome, error)) (s S, out domain.Outcome, err error) {
	defer seedFailure(&err)
	return f()
}

// seedFailure, deferred, turns a lazyDice's failed seed read (a panic, since
// Roll cannot return an error) back into *err; other panics go on.
func seedFailure(err *error) {
	if r := recover(); r != nil {
		if l, ok := r.(seedLoadFailed); ok {
			*err = l.err
			return
		}
		panic(r)
	}
}

type recorded struct {
	hash  string
	reply json.RawMessage
}

// recordedReply decodes an action record read with Get; nil when there is none.
func recordedReply(snap *firestore.DocumentSnapshot, err error) (*recorded, error) {
	if status.Code(err) == codes.NotFound {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	h, _ := snap.Data()["hash"].(string)
	r, _ := snap.Data()["reply"].(string)
	return &recorded{hash: h, reply: json.RawMessage(r)}, nil
}

// requestHash identifies what an action asked for, whatever the key order of
// its JSON, so a reused action id with a different request is caught.
func requestHash(a domain.Action) string {
	var v any
	canon := a.Payload
	if json.Unmarshal(a.Payload, &v) == nil {
		canon, _ = json.Marshal(v)
	}
	sum := sha256.Sum256(bytes.Join([][]byte{[]byte(a.Type), []byte(a.Actor.ID), canon}, []byte{0}))
	return hex.EncodeToString(sum[:])
}

// seedLoader reads the game's private seed once, inside tx, on first use.
func seedLoader(tx *firestore.Transaction, st *Store, gameID string) func() (string, error) {
	var seed string
	return func() (string, error) {
		if seed != "" {
			return seed, nil
		}
		snap, err := tx.Get(st.privateRef(gameID))
		if err != nil {
			return "", err
		}
		seed, _ = snap.Data()["seed"].(string)
		if seed == "" {
			return "", errors.New("store: game has no seed")
		}
		return seed, nil
	}
}

type seedLoadFailed struct{ err error }

// lazyDice reads the seed only when a rule rolls, so actions without dice cost
// one read. Rules cannot return an error from Roll, so a failed read panics
// with seedLoadFailed and guard turns it back into an error.
type lazyDice struct {
	load func() (string, error)
	seq  int64
	d    *domain.SeededDice
}

func (l *lazyDice) Roll(sides int) int {
	if l.d == nil {
		seed, err := l.load()
		if err != nil {
			panic(seedLoadFailed{err})
		}
		l.d = domain.NewSeededDice(seed, l.seq)
	}
	return l.d.Roll(sides)
}
