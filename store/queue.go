package store

import (
	"context"
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

// QuickMatch pairs me with the player waiting in queue, creating their game
// with pair, or makes me the one who waits. Calling again with the same action
// id polls: it keeps a waiting player in the queue and returns the match once
// made. A new action id starts a new search.
func QuickMatch[S any](ctx context.Context, st *Store, rules domain.Rules[S], queue string, me domain.Actor, actionID string,
	pair func(gameID string, host, guest domain.Actor) (S, error)) (Ticket, error) {
	qref := st.FS.Collection(colQueues).Doc(queue)
	tickets := qref.Collection(colTickets)
	var out Ticket
	err := st.FS.RunTransaction(ctx, func(ctx context.Context, tx *firestore.Transaction) error {
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
		var waiting *struct {
			ID, Name, ActionID string
			Since              time.Time
		}
		if docs[0].Exists() {
			if w, ok := docs[0].Data()["waiting"].(map[string]any); ok {
				waiting = &struct {
					ID, Name, ActionID string
					Since              time.Time
				}{}
				waiting.ID, _ = w["id"].(string)
				waiting.Name, _ = w["name"].(string)
				waiting.ActionID, _ = w["actionId"].(string)
				waiting.Since, _ = w["since"].(time.Time)
			}
		}
		if waiting != nil && waiting.ID != me.ID && now.Sub(waiting.Since) < QueueStale {
			id := NewID()
			host := domain.Actor{ID: waiting.ID, Name: waiting.Name}
			state, err := pair(id, host, me)
			if err != nil {
				return err
			}
			if err := createGame(tx, st, rules.Kind(), id, rules.Header(state), state, NewSeed(), "", now); err != nil {
				return err
			}
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
		out = Ticket{Status: "waiting", ActionID: actionID, Since: now}
		if err := tx.Set(qref, map[string]any{"waiting": map[string]any{
			"id": me.ID, "name": me.Name, "actionId": actionID, "since": now}, fUpdatedAt: now}); err != nil {
			return err
		}
		return setTicket(tx, tickets.Doc(me.ID), out)
	})
	return out, err
}

func setTicket(tx *firestore.Transaction, ref *firestore.DocumentRef, t Ticket) error {
	m, err := toFirestore(t)
	if err != nil {
		return err
	}
	doc := m.(map[string]any)
	doc["since"] = t.Since // a timestamp, not a string
	return tx.Set(ref, doc)
}

// LeaveQueue takes me out of queue if I am waiting there. A match already made
// stands: the player forfeits it like any other.
func (st *Store) LeaveQueue(ctx context.Context, queue string, me domain.Actor) (Ticket, error) {
	qref := st.FS.Collection(colQueues).Doc(queue)
	tref := qref.Collection(colTickets).Doc(me.ID)
	var out Ticket
	err := st.FS.RunTransaction(ctx, func(ctx context.Context, tx *firestore.Transaction) error {
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
