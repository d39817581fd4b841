package store

import (
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"time"

	"cloud.google.com/go/firestore"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/meeple-games/meeple/domain"
)

// QueueStale is how long a waiting player stays in a quick-match queue without
// calling again. A waiting client repeats its quick-match call (same action id)
// well within this, or is dropped, so nobody is paired with a player who left.
const QueueStale = 60 * time.Second

// seenEvery is how often a waiting player's polls refresh their ticket: a
// poll in between writes nothing.
const seenEvery = QueueStale / 6

// DefaultQueueWindow is how many of the oldest waiting tickets of a queue a
// newcomer chooses among (Store.QueueWindow; docs/scale.md).
const DefaultQueueWindow = 10

// claimTries bounds how many waiting tickets one call tries to claim before
// it waits itself (each failed claim lost a race for that ticket).
const claimTries = 4

// Ticket is a player's place in a quick-match queue, as the caller gets it
// (and reads it at queues/{queue}/tickets/{playerId}).
type Ticket struct {
	Status   string    `json:"status"` // "waiting", "matched" or "left"
	GameID   string    `json:"gameId,omitempty"`
	ActionID string    `json:"actionId"`
	Since    time.Time `json:"since"`
}

// Ticket states.
const (
	ticketWaiting = "waiting"
	ticketMatched = "matched"
	ticketLeft    = "left"
)

// ticketDoc is a ticket as stored: the Ticket, and for a waiting player what
// a newcomer needs to pair with them (who they are, the game they would
// host) and when they last called.
type ticketDoc struct {
	Status   string    `firestore:"status"`
	GameID   string    `firestore:"gameId,omitempty"`
	ActionID string    `firestore:"actionId"`
	Since    time.Time `firestore:"since"`
	Seen     time.Time `firestore:"seen,omitempty"`
	Name     string    `firestore:"name,omitempty"`
	Role     string    `firestore:"role,omitempty"`
	Create   string    `firestore:"create,omitempty"` // the create request of the game they would host
}

func (t ticketDoc) ticket() Ticket {
	return Ticket{Status: t.Status, GameID: t.GameID, ActionID: t.ActionID, Since: t.Since}
}

// ticketOf decodes a ticket snapshot; a missing one is the zero ticket.
func ticketOf(snap *firestore.DocumentSnapshot, err error) (ticketDoc, *firestore.DocumentSnapshot, error) {
	var t ticketDoc
	if status.Code(err) == codes.NotFound {
		return t, nil, nil
	}
	if err != nil {
		return t, nil, err
	}
	if err := snap.DataTo(&t); err != nil {
		return t, nil, err
	}
	return t, snap, nil
}

// QuickMatch pairs me with a player waiting in a queue of a game that
// implements domain.Matcher, or makes me one who waits. The game's Queue
// names the queue and the create request the pair's game is made with.
//
// There is no queue document: each waiting player has their own ticket,
// queues/{queue}/tickets/{playerId}, so callers of one queue write different
// documents and quick match scales with demand (docs/scale.md). A newcomer
// reads the oldest waiting tickets (one query, outside any transaction),
// picks one of the first Store.QueueWindow at random, so concurrent newcomers
// rarely pick the same, and claims it in one transaction: the waiting
// player's create (they host) and my join, both tickets marked matched,
// each ticket written only if it is unchanged since it was read. A claim
// that loses a race for a ticket (someone else took it, or someone took me)
// tries another, then I wait. Calling again with the same action id polls:
// it returns the match once made, keeps me in the queue, and tries to pair
// me with whoever waits too. A new action id starts a new search.
//
// Pairing is exactly once: a ticket is matched by the one transaction that
// found it waiting; nobody is paired with themselves; a ticket left
// (leaveQueue) or stale (no call for QueueStale) is never claimed.
//
// Errors: EINVALID (the game has no quick match; the game's refusal of the
// create request, checked before waiting), and what the game's create and
// join return.
func QuickMatch(ctx context.Context, st *Store, kind string, me domain.Actor, actionID string, payload json.RawMessage) (Ticket, error) {
	e, ok := st.Games.Find(kind)
	if !ok {
		return Ticket{}, domain.Errorf(domain.EINVALID, "unknown game kind %q", kind)
	}
	m, ok := e.Game.(domain.Matcher)
	if !ok {
		return Ticket{}, domain.Errorf(domain.EINVALID, "%s has no quick match", kind)
	}
	if err := domain.Admit(e.Game, me, "", domain.ActionQuickMatch); err != nil {
		return Ticket{}, err
	}
	if actionID == "" {
		return Ticket{}, domain.Errorf(domain.EINVALID, "actionId is required")
	}
	name, create, err := m.Queue(payload)
	if err != nil {
		return Ticket{}, err
	}
	tickets := st.FS.Collection(colQueues).Doc(kind + "-" + name).Collection(colTickets)
	mine := tickets.Doc(me.ID)
	for try := 0; try < claimTries; try++ {
		cur, snap, err := ticketOf(mine.Get(ctx))
		if err != nil {
			return Ticket{}, err
		}
		if cur.ActionID == actionID && cur.Status == ticketMatched {
			return cur.ticket(), nil
		}
		var cands []*firestore.DocumentSnapshot
		if cur.ActionID == actionID && cur.Status == ticketWaiting {
			// A waiting player's poll pairs with the next younger waiting
			// ticket after its own: waiters polling at once then claim
			// different tickets (each its successor) rather than all racing
			// for the oldest few.
			cands, err = st.nextWaiting(ctx, tickets, me.ID, cur.Since)
			if err == nil && len(cands) == 0 {
				// The youngest waiter: an older one, if any.
				cands, err = st.waitingTickets(ctx, tickets, me.ID)
			}
		} else {
			cands, err = st.waitingTickets(ctx, tickets, me.ID)
		}
		if err != nil {
			return Ticket{}, err
		}
		if len(cands) == 0 {
			break
		}
		c := cands[rand.IntN(len(cands))]
		t, err := st.claim(ctx, e, tickets, c, snap, me, actionID, payload)
		var gone hostRefused
		switch {
		case err == nil:
			return t, nil
		case errors.As(err, &gone):
			// Their request no longer makes a game (their team went into
			// another match meanwhile): they leave the queue.
			_, _ = c.Ref.Update(ctx, []firestore.Update{{Path: "status", Value: ticketLeft}}, firestore.LastUpdateTime(c.UpdateTime))
		case lostRace(err):
			// Someone else claimed them, or me: look again.
		default:
			return Ticket{}, err
		}
	}
	return st.wait(ctx, e, mine, me, actionID, create)
}

// lostRace reports whether a claim failed because a ticket it read changed
// before it committed (a precondition, or Firestore's contention abort).
func lostRace(err error) bool {
	switch status.Code(err) {
	case codes.FailedPrecondition, codes.Aborted, codes.AlreadyExists, codes.NotFound:
		return true
	}
	return false
}

// waitingTickets returns up to the queue window of the oldest waiting
// tickets of a queue, not mine and not stale. Stale ones met on the way are
// marked left (only if unchanged since), so they stop filling the window.
func (st *Store) waitingTickets(ctx context.Context, tickets *firestore.CollectionRef, me string) ([]*firestore.DocumentSnapshot, error) {
	window := st.QueueWindow
	if window <= 0 {
		window = DefaultQueueWindow
	}
	snaps, err := tickets.Where("status", "==", ticketWaiting).OrderBy("since", firestore.Asc).Limit(2 * window).Documents(ctx).GetAll()
	if err != nil {
		return nil, err
	}
	now := st.now()
	var out []*firestore.DocumentSnapshot
	for _, s := range snaps {
		var t ticketDoc
		if s.Ref.ID == me || s.DataTo(&t) != nil {
			continue
		}
		if now.Sub(t.Seen) >= QueueStale {
			_, _ = s.Ref.Update(ctx, []firestore.Update{{Path: "status", Value: ticketLeft}}, firestore.LastUpdateTime(s.UpdateTime))
			continue
		}
		if len(out) < window {
			out = append(out, s)
		}
	}
	return out, nil
}

// nextWaiting returns the first waiting, fresh ticket of a queue younger
// than since (mine), not mine.
func (st *Store) nextWaiting(ctx context.Context, tickets *firestore.CollectionRef, me string, since time.Time) ([]*firestore.DocumentSnapshot, error) {
	snaps, err := tickets.Where("status", "==", ticketWaiting).Where("since", ">=", since).OrderBy("since", firestore.Asc).Limit(4).Documents(ctx).GetAll()
	if err != nil {
		return nil, err
	}
	now := st.now()
	for _, s := range snaps {
		var t ticketDoc
		if s.Ref.ID == me || s.DataTo(&t) != nil || now.Sub(t.Seen) >= QueueStale {
			continue
		}
		return []*firestore.DocumentSnapshot{s}, nil
	}
	return nil, nil
}

// claim pairs me with the waiting ticket c in one transaction: their create
// and my join make the game, and both tickets are written only if they are
// as read (c as the query found it, mine as mineSnap; nil: it did not
// exist). A ticket that changed meanwhile fails the claim (lostRace).
func (st *Store) claim(ctx context.Context, e domain.Entry, tickets *firestore.CollectionRef, c *firestore.DocumentSnapshot, mineSnap *firestore.DocumentSnapshot, me domain.Actor, actionID string, payload json.RawMessage) (Ticket, error) {
	var host ticketDoc
	if err := c.DataTo(&host); err != nil {
		return Ticket{}, err
	}
	role := domain.Role(host.Role)
	if role == "" {
		role = domain.RolePlayer
	}
	hostActor := domain.Actor{ID: c.Ref.ID, Name: host.Name, Role: role}
	id := NewID()
	var out Ticket
	err := st.inTransaction(ctx, func(ctx context.Context, tx txn) error {
		now := st.now()
		if err := st.pairGame(ctx, tx, e, id, hostActor, host.ActionID, json.RawMessage(host.Create), me, actionID, payload, now); err != nil {
			return err
		}
		theirs := []firestore.Update{{Path: "status", Value: ticketMatched}, {Path: "gameId", Value: id}, {Path: "since", Value: now}}
		if err := tx.Update(c.Ref, theirs, firestore.LastUpdateTime(c.UpdateTime)); err != nil {
			return err
		}
		t := ticketDoc{Status: ticketMatched, GameID: id, ActionID: actionID, Since: now, Seen: now, Name: me.Name, Role: string(me.Role)}
		out = t.ticket()
		ref := tickets.Doc(me.ID)
		if mineSnap == nil {
			return tx.Create(ref, t)
		}
		return tx.Update(ref, []firestore.Update{
			{Path: "status", Value: t.Status}, {Path: "gameId", Value: id}, {Path: "actionId", Value: actionID},
			{Path: "since", Value: now}, {Path: "seen", Value: now}, {Path: "create", Value: firestore.Delete},
		}, firestore.LastUpdateTime(mineSnap.UpdateTime))
	}, firestore.MaxAttempts(1))
	return out, err
}

// wait puts me in the queue (or keeps me there, refreshing when I was last
// seen at most every seenEvery), after checking that my request makes a
// game. A claim of my ticket that commits first wins: I get the match.
func (st *Store) wait(ctx context.Context, e domain.Entry, mine *firestore.DocumentRef, me domain.Actor, actionID string, create json.RawMessage) (Ticket, error) {
	var out Ticket
	err := st.transact(ctx, func(ctx context.Context, tx txn) error {
		now := st.now()
		cur, snap, err := ticketOf(tx.Get(mine))
		if err != nil {
			return err
		}
		if cur.ActionID == actionID && cur.Status == ticketMatched {
			out = cur.ticket()
			return nil
		}
		if cur.ActionID == actionID && cur.Status == ticketWaiting && now.Sub(cur.Seen) < seenEvery {
			out = cur.ticket()
			return nil // waiting, and seen recently: nothing to write
		}
		// Nobody to pair with: check that my request makes a game before
		// queueing me with it (read only: nothing of it is written).
		if _, err := st.prepare(ctx, tx, e, NewID(), me, actionID, create, NewSeed(), now); err != nil {
			return err
		}
		t := ticketDoc{Status: ticketWaiting, ActionID: actionID, Since: now, Seen: now, Name: me.Name, Role: string(me.Role),
			Create: string(create)}
		if cur.ActionID == actionID && cur.Status == ticketWaiting {
			t.Since = cur.Since // still the same search: keep my place
		}
		out = t.ticket()
		if snap == nil {
			return tx.Create(mine, t)
		}
		return tx.Set(mine, t)
	})
	return out, err
}

// prepare runs a create of game e (id, host, its action) inside tx, reading
// what it needs and writing nothing yet.
func (st *Store) prepare(ctx context.Context, tx txn, e domain.Entry, id string, host domain.Actor, actionID string, create json.RawMessage, seed string, now time.Time) (*attempt, error) {
	a := domain.Action{ID: actionID, Type: domain.ActionCreate, Actor: host, Payload: create, GameID: id}
	plan, err := e.Game.Plan(a)
	if err != nil {
		return nil, err
	}
	x := &execution{st: st, entry: e, sl: st.slotsOf(e.Game), req: Request{Kind: e.Kind(), GameID: id, Action: a}, plan: plan, seed: seed}
	return x.run(ctx, tx, now)
}

// pairGame creates a quick match's game in tx: the host's create, then the
// guest's join run on the game the create made, stored as one new game at
// version 0 with both seated.
//
// A refusal of the host's create by the game (not a Firestore failure) is
// returned as hostRefused.
func (st *Store) pairGame(ctx context.Context, tx txn, e domain.Entry, id string, host domain.Actor, hostAction string, create json.RawMessage, guest domain.Actor, guestAction string, queued json.RawMessage, now time.Time) error {
	payload := json.RawMessage("{}")
	if j, ok := e.Game.(domain.QueueJoiner); ok {
		p, err := j.JoinPayload(queued)
		if err != nil {
			return err
		}
		payload = p
	}
	join := domain.Action{ID: guestAction, Type: domain.ActionJoin, Actor: guest, Payload: payload, GameID: id}
	plan, err := e.Game.Plan(join)
	if err != nil {
		return err
	}
	at, err := st.prepare(ctx, tx, e, id, host, hostAction, create, NewSeed(), now)
	if c := domain.ErrorCode(err); c != "" && c != domain.EINTERNAL {
		return hostRefused{err}
	}
	if err != nil {
		return err
	}
	made, ok := at.change.GameWrite()
	if !ok {
		return domain.Errorf(domain.EINTERNAL, "%s create wrote no game", e.Kind())
	}
	h := domain.Header{}
	if made.Header != nil {
		h = *made.Header
	}
	doc, err := json.Marshal(map[string]any{fKind: e.Kind(), fVersion: 0, fStatus: h.Status, fState: made.Value})
	if err != nil {
		return err
	}
	docs := at.rs.docs
	docs.Put(domain.GameDocID, doc)
	at.sealer = &lazySealer{load: at.seed}
	env := domain.Env{Now: now, DiceAt: func(seq int64) domain.Dice { return &lazyDice{load: at.seed, seq: seq} }, Seal: at.sealer}
	// The join reads what it names besides the game (made above, not yet
	// stored), in rounds like any action.
	joined, err := rounds(plan.Reads, func(reads []domain.Read) error {
		var more []domain.Read
		for _, r := range reads {
			if r.All || r.DocID != domain.GameDocID {
				more = append(more, r)
			}
		}
		return st.read(ctx, tx, at.x.sl, id, at.rs, more)
	}, func() (domain.Change, error) { return e.Game.Run(docs, join, env) })
	if err != nil {
		return err
	}
	w, ok := joined.GameWrite()
	if !ok {
		return domain.Errorf(domain.EINTERNAL, "%s join wrote no game", e.Kind())
	}
	w.Create, w.Version = true, 0
	writes := []domain.Write{w}
	for _, x := range at.change.Writes {
		if x.DocID != domain.GameDocID {
			writes = append(writes, x)
		}
	}
	for _, x := range joined.Writes {
		if x.DocID != domain.GameDocID {
			writes = append(writes, x)
		}
	}
	at.change = domain.Change{Writes: writes}
	at.joined = &join // recorded with the create, for a replay (replay.go)
	return at.write()
}

// hostRefused is the game's refusal of a waiting player's create when a
// newcomer pairs with them.
type hostRefused struct{ error }

func (h hostRefused) Unwrap() error { return h.error }

// LeaveQueue takes me out of the queue a quickMatch request with payload
// joins, if I am waiting there. A match already made stands: the player
// forfeits it like any other.
//
// Errors: EINVALID (no quick match, a request that names no queue).
func (st *Store) LeaveQueue(ctx context.Context, kind string, me domain.Actor, payload json.RawMessage) (Ticket, error) {
	e, ok := st.Games.Find(kind)
	if !ok {
		return Ticket{}, domain.Errorf(domain.EINVALID, "unknown game kind %q", kind)
	}
	m, ok := e.Game.(domain.Matcher)
	if !ok {
		return Ticket{}, domain.Errorf(domain.EINVALID, "%s has no quick match", kind)
	}
	name, _, err := m.Queue(payload)
	if err != nil {
		return Ticket{}, err
	}
	tref := st.FS.Collection(colQueues).Doc(kind + "-" + name).Collection(colTickets).Doc(me.ID)
	var out Ticket
	err = st.transact(ctx, func(ctx context.Context, tx txn) error {
		cur, snap, err := ticketOf(tx.Get(tref))
		if err != nil {
			return err
		}
		out = Ticket{Status: ticketLeft, Since: st.now()}
		if snap == nil {
			return nil
		}
		if cur.Status == ticketMatched {
			out = cur.ticket()
			return nil
		}
		out.ActionID = cur.ActionID
		return tx.Update(tref, []firestore.Update{{Path: "status", Value: ticketLeft}, {Path: "since", Value: out.Since}})
	})
	return out, err
}
