package triggers

import (
	"context"

	"github.com/cloudevents/sdk-go/v2/event"

	"github.com/meeple-games/meeple/store"
)

// OutboxPattern is the document pattern Outbox watches.
const OutboxPattern = "games/{gameId}/outbox/{key}"

// Outbox is the function for writes to games/{gameId}/outbox/{key}: a new
// message (a game wrote it in its action's transaction) gets its first
// delivery attempt at once. Updates — the attempts' own bookkeeping — and
// deletes do nothing; the tick makes the retries. A repeated delivery finds
// the message leased or delivered and sends nothing.
//
// It returns an error only when Firestore failed; a failed send is recorded
// on the message and retried by the tick, never by redelivery.
func (t *Triggers) Outbox(ctx context.Context, e event.Event) error {
	de, err := DocumentEventOf(e)
	if err != nil {
		t.log().Error("Outbox: dropping undecodable event", "id", e.ID(), "err", err)
		return nil
	}
	if de.Value == nil || de.OldValue != nil {
		return nil
	}
	if de.Value.GetFields()["state"].GetStringValue() != store.OutboxPending {
		return nil
	}
	name, err := ParseDocumentName(de.Value.GetName())
	if err != nil {
		t.log().Error("Outbox: dropping event", "id", e.ID(), "err", err)
		return nil
	}
	gameID, key, ok := gameChild(name.Path, "outbox")
	if !ok {
		t.log().Error("Outbox: dropping event for a document that is no outbox message", "id", e.ID(), "document", name.Path)
		return nil
	}
	d, err := t.Store.Deliver(ctx, gameID, key)
	if err != nil {
		// The message stays pending: the tick takes it up when its lease ends.
		t.log().Warn("Outbox: delivery not recorded", "id", e.ID(), "game", gameID, "key", key, "err", err)
		return nil
	}
	// d.Error holds no address (domain.DeliveryError), so it may be logged.
	t.log().Debug("Outbox", "id", e.ID(), "game", gameID, "key", key, "state", d.State, "attempts", d.Attempts, "error", d.Error)
	return nil
}

// deliverDue makes one attempt for each due outbox message (up to
// MaxOutbox) and adds what happened to r.
func (t *Triggers) deliverDue(ctx context.Context, due []store.OutboxRef, r *TickReport) {
	var results = make([]store.Delivery, len(due))
	var errs = make([]error, len(due))
	t.each(len(due), func(i int) {
		results[i], errs[i] = t.Store.Deliver(ctx, due[i].GameID, due[i].Key)
	})
	for i, d := range results {
		switch {
		case errs[i] != nil:
			t.log().Error("Tick: delivery not recorded", "game", due[i].GameID, "key", due[i].Key, "err", errs[i])
			r.OutboxErrors++
		case d.State == store.OutboxDelivered:
			r.Delivered++
		case d.State == store.OutboxFailed:
			r.GivenUp++
		case d.State == store.OutboxPending:
			r.Retrying++
		}
	}
}
