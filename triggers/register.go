package triggers

import (
	"context"
	"maps"
	"sync"

	"github.com/GoogleCloudPlatform/functions-framework-go/functions"
	"github.com/cloudevents/sdk-go/v2/event"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/store"
)

// Names of the deployed functions (the --entry-point of each).
const (
	GameEventFunction = "GameEvent"
	TickFunction      = "Tick"
	OutboxFunction    = "Outbox"
)

// DocumentTriggers maps each document-event function to the document pattern
// it watches: the local stack registers these with the emulator
// (fsemu.Admin.RegisterTrigger), production with an Eventarc trigger on
// google.cloud.firestore.document.v1.written.
var DocumentTriggers = map[string]string{GameEventFunction: EventRecordPattern, OutboxFunction: OutboxPattern, BotTurnFunction: BotTurnPattern}

// DocumentTriggersFor is DocumentTriggers less GameEvent when no game of reg
// registers an effect handler. Then no action leaves work for it: a game's
// end writes its stats in its own commit (store.statsInCommit) and a record
// the game's projection needs is marked by its action. What is left pending
// all the same (a draw whose gameOver names no players, a record of an
// older deployment) the tick's sweep applies, PendingAge after its write.
// Without it every event record a game writes (a Tile Race completion's, a
// history batch) is one trigger delivery and one function invocation that
// do nothing: in the load generator that delivery was about a third of the
// processor time of a Tile Race completion (issue 22).
func DocumentTriggersFor(reg domain.Registry) map[string]string {
	out := maps.Clone(DocumentTriggers)
	for _, e := range reg {
		if len(e.Effects) > 0 {
			return out
		}
	}
	delete(out, GameEventFunction)
	return out
}

// Deploy registers the CloudEvent functions with the Functions Framework,
// running the games of reg: the deploy root calls it at init.
func Deploy(reg domain.Registry) {
	defaultMu.Lock()
	defaultReg = reg
	defaultMu.Unlock()
	for name, fn := range Functions() {
		functions.CloudEvent(name, fn)
	}
}

var (
	defaultMu  sync.Mutex
	defaultReg domain.Registry
	defaultT   *Triggers
)

// Default returns the process-wide Triggers on store.Default, made on first
// use (not at cold start), so the local stack can store.SetDefault first.
func Default(ctx context.Context) (*Triggers, error) {
	defaultMu.Lock()
	defer defaultMu.Unlock()
	if defaultT != nil {
		return defaultT, nil
	}
	st, err := store.Default(ctx, defaultReg)
	if err != nil {
		return nil, err
	}
	defaultT = New(st)
	return defaultT, nil
}

// Functions returns the deployed CloudEvent functions by name, each running on
// Default: what init registers with the Functions Framework, and what the
// local stack serves through a LegacyHandler (GameEvent) and calls on its own
// schedule (Tick, or Default's RunTick directly).
func Functions() map[string]CloudEventFunc {
	lazy := func(f func(*Triggers, context.Context, event.Event) error) CloudEventFunc {
		return func(ctx context.Context, e event.Event) error {
			t, err := Default(ctx)
			if err != nil {
				return err
			}
			return f(t, ctx, e)
		}
	}
	return map[string]CloudEventFunc{
		GameEventFunction: lazy((*Triggers).GameEvent),
		TickFunction:      lazy((*Triggers).Tick),
		OutboxFunction:    lazy((*Triggers).Outbox),
		BotTurnFunction:   lazy((*Triggers).BotTurn),
	}
}

// Functions returns t's CloudEvent functions by name, for a LegacyHandler.
func (t *Triggers) Functions() map[string]CloudEventFunc {
	return map[string]CloudEventFunc{GameEventFunction: t.GameEvent, TickFunction: t.Tick, OutboxFunction: t.Outbox, BotTurnFunction: t.BotTurn}
}

// LegacyHandler returns the handler that serves the Firestore emulator's
// trigger deliveries to t's functions; mount it at LegacyPathPrefix.
func (t *Triggers) LegacyHandler() *LegacyHandler {
	return &LegacyHandler{Functions: t.Functions(), Log: t.Log}
}
