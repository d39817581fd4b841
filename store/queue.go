package store

import (
	"context"
	"encoding/json"
	"errors"
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

// Ticket is a player's place in a quick-match queue, at
// queues/{queue}/tickets/{playerId}, readable by that player.
type Ticket struct {
	Status   string    `json:"status"` // "waiting", "matched" or "left"
	GameID   string    `json:"gameId,omitempty"`
	ActionID string    `json:"actionId"`
	Since    time.Time `json:"since"`
}

// QuickMatch pairs me with the player waiting in a queue of a game that
// implements domain.Matcher, or makes me the one who waits. The game's
// Queue names the queue and the create request the pair's game is made with;
// the waiting player hosts it (its create runs as theirs) and I join it, all
// in one transaction, so the game starts with both seated. Calling again
// with the same action id polls: it keeps a waiting player in the queue and
// returns the match once made. A new action id starts a new search.
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
	qref := st.FS.Collection(colQueues).Doc(kind + "-" + name)
	tickets := qref.Collection(colTickets)
	var out Ticket
	err = st.FS.RunTransaction(ctx, func(ctx context.Context, tx *firestore.Transaction) error {
		now := st.now()
		docs, err := tx.GetAll([]*firestore.DocumentRef{qref, tickets.Doc(me.ID)})
		if err != nil {
			return err
		}
		var mine Ticket
		if docs[1].Exists() {
			if err := fromFirestore(docs[1].Data(), &mine); err != nil {
				return err
			}
		}
		if mine.ActionID == actionID && mine.Status == "matched" {
			out = mine
			return nil
		}
		var waiting struct {
			ID       string    `json:"id"`
			Name     string    `json:"name"`
			ActionID string    `json:"actionId"`
			Since    time.Time `json:"since"`
			Create   string    `json:"create"`
		}
		found := false
		var dropped *domain.Actor
		if docs[0].Exists() {
			if w, ok := docs[0].Data()["waiting"].(map[string]any); ok {
				found = fromFirestore(w, &waiting) == nil
			}
		}
		if found && waiting.ID != me.ID && now.Sub(waiting.Since) < QueueStale {
			id := NewID()
			host := domain.Actor{ID: waiting.ID, Name: waiting.Name, Role: domain.RolePlayer}
			err := st.pairGame(ctx, tx, e, id, host, waiting.ActionID, json.RawMessage(waiting.Create), me, actionID, payload, now)
			var gone hostRefused
			switch {
			case errors.As(err, &gone):
				// The waiting player's request no longer makes a game (their
				// team went into another match meanwhile): they leave the
				// queue and I take their place below (written after my
				// create's reads: a transaction reads before it writes).
				dropped = &host
			case err != nil:
				return err
			default:
				if err := tx.Set(qref, map[string]any{"waiting": nil, fUpdatedAt: now}); err != nil {
					return err
				}
				theirs := Ticket{Status: "matched", GameID: id, ActionID: waiting.ActionID, Since: now}
				out = Ticket{Status: "matched", GameID: id, ActionID: actionID, Since: now}
				if err := setTicket(tx, tickets.Doc(host.ID), theirs); err != nil {
					return err
				}
				return setTicket(tx, tickets.Doc(me.ID), out)
			}
		}
		// Nobody to pair with: check that my request makes a game before
		// queueing me with it.
		if _, err := st.prepare(ctx, tx, e, NewID(), me, actionID, create, NewSeed(), now); err != nil {
			return err
		}
		if dropped != nil {
			if err := setTicket(tx, tickets.Doc(dropped.ID), Ticket{Status: "left", ActionID: waiting.ActionID, Since: now}); err != nil {
				return err
			}
		}
		out = Ticket{Status: "waiting", ActionID: actionID, Since: now}
		if err := tx.Set(qref, map[string]any{"waiting": map[string]any{
			"id": me.ID, "name": me.Name, "actionId": actionID, "since": now, "create": string(create)}, fUpdatedAt: now}); err != nil {
			return err
		}
		return setTicket(tx, tickets.Doc(me.ID), out)
	})
	return out, err
}

// prepare runs a create of game e (id, host, its action) inside tx, reading
// what it needs and writing nothing yet.
func (st *Store) prepare(ctx context.Context, tx *firestore.Transaction, e domain.Entry, id string, host domain.Actor, actionID string, create json.RawMessage, seed string, now time.Time) (*attempt, error) {
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
func (st *Store) pairGame(ctx context.Context, tx *firestore.Transaction, e domain.Entry, id string, host domain.Actor, hostAction string, create json.RawMessage, guest domain.Actor, guestAction string, queued json.RawMessage, now time.Time) error {
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
	env := domain.Env{Now: now, DiceAt: func(seq int64) domain.Dice { return &lazyDice{load: at.seed, seq: seq} }}
	// The join reads what it names besides the game (made above, not yet
	// stored), in rounds like any action.
	reads := plan.Reads
	var joined domain.Change
	for round := 0; ; round++ {
		var more []domain.Read
		for _, r := range reads {
			if r.All || r.DocID != domain.GameDocID {
				more = append(more, r)
			}
		}
		if err := st.read(ctx, tx, at.x.sl, id, at.rs, more); err != nil {
			return err
		}
		joined, err = guard(func() (domain.Change, error) { return e.Game.Run(docs, join, env) })
		var need *domain.NeedDocs
		if errors.As(err, &need) && round < maxRounds {
			reads = need.Reads
			continue
		}
		if err != nil {
			return err
		}
		break
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
	return at.write()
}

// hostRefused is the game's refusal of a waiting player's create when a
// newcomer pairs with them.
type hostRefused struct{ error }

func (h hostRefused) Unwrap() error { return h.error }

func setTicket(tx *firestore.Transaction, ref *firestore.DocumentRef, t Ticket) error {
	m, err := toFirestore(t)
	if err != nil {
		return err
	}
	doc := m.(map[string]any)
	doc["since"] = t.Since // a timestamp, not a string
	return tx.Set(ref, doc)
}

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
	qref := st.FS.Collection(colQueues).Doc(kind + "-" + name)
	tref := qref.Collection(colTickets).Doc(me.ID)
	var out Ticket
	err = st.FS.RunTransaction(ctx, func(ctx context.Context, tx *firestore.Transaction) error {
		docs, err := tx.GetAll([]*firestore.DocumentRef{qref, tref})
		if err != nil {
			return err
		}
		out = Ticket{Status: "left", Since: st.now()}
		if docs[1].Exists() {
			var t Ticket
			if err := fromFirestore(docs[1].Data(), &t); err != nil {
				return err
			}
			if t.Status == "matched" {
				out = t
				return nil
			}
		}
		if docs[0].Exists() {
			if w, ok := docs[0].Data()["waiting"].(map[string]any); ok && w["id"] == me.ID {
				if err := tx.Set(qref, map[string]any{"waiting": nil, fUpdatedAt: out.Since}); err != nil {
					return err
				}
			}
		}
		return setTicket(tx, tref, out)
	})
	if status.Code(err) == codes.NotFound {
		return Ticket{Status: "left"}, nil
	}
	return out, err
}
