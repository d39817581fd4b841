package domain

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// SlotOutbox is the slot of a game's outbox: games/{gameId}/outbox/{key}.
// A game with an Entry.Outbox declares it (Path OutboxPath, Access
// ReadNever) and writes a Message there in the action's own transaction, so
// a message exists exactly when its action committed. The platform adds the
// delivery state, and its trigger and tick hand each message to the entry's
// Outbox.Deliver until it is delivered or can never be (docs/triggers.md).
const SlotOutbox = "outbox"

// OutboxPath is the path every game's outbox slot has (the platform's trigger
// watches games/{gameId}/outbox/{key}).
const OutboxPath = "outbox/{key}"

// Message is an outbox document as a game writes it. It names its
// destination rather than holding its address: addresses may be secrets
// (webhook URLs), which the deliverer reads from the game's private
// documents at each attempt, so a reconfigured destination takes effect
// for messages still waiting.
type Message struct {
	To   string          `json:"to"`   // a destination the deliverer resolves, e.g. "main", "slot2"
	Body json.RawMessage `json:"body"` // what to send, in the deliverer's format
	// Source says what made the message (the action type), for operators.
	Source string `json:"source,omitempty"`
}

// Outbox is how a game's outbox messages leave: Entry.Outbox.
type Outbox struct {
	// Reads are the game's documents Deliver needs (read afresh for each
	// attempt, outside any transaction).
	Reads []DocID
	// Deliver sends one message. A failure is a *DeliveryError (anything
	// else counts as a retryable failure with no detail kept, since an
	// error's text may hold an address).
	Deliver func(ctx context.Context, d Docs, m Message) error
	// Failed returns the writes that tell the game's admins a message can
	// never be delivered (a status document); nil writes nothing. It runs in
	// a transaction with the documents Reads lists.
	Failed func(d Docs, m Message, f DeliveryError, now time.Time) []Write
}

// DeliveryError is why a delivery failed. Its Reason is stored on the
// outbox document and may be shown to the game's admins, so it never holds
// an address or a secret.
type DeliveryError struct {
	// Permanent: trying again cannot help (the destination is gone or not
	// configured); the message is given up.
	Permanent bool
	// RetryAfter is how long the destination asked to wait (a rate limit);
	// 0 leaves the wait to the platform's backoff.
	RetryAfter time.Duration
	// Status is the destination's HTTP status, 0 when none came back.
	Status int
	Reason string
}

func (e *DeliveryError) Error() string {
	if e.Status != 0 {
		return fmt.Sprintf("delivery failed (%d): %s", e.Status, e.Reason)
	}
	return "delivery failed: " + e.Reason
}
