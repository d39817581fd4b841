package triggers

import (
	"context"
	"sync"
	"time"

	"github.com/cloudevents/sdk-go/v2/event"

	"github.com/meeple-games/meeple/store"
)

// BotTurnFunction is the function that moves bots (docs/bots.md).
const BotTurnFunction = "BotTurn"

// BotTurnPattern is the document BotTurn watches: the bot-turn document that
// every write of an active game seating a bot writes too (store.BotTurnPattern).
const BotTurnPattern = store.BotTurnPattern

// DefaultMaxBotGames bounds the stalled bot games one tick looks at.
const DefaultMaxBotGames = 100

// BotTurn is the function for writes to games/{gameId}/bots/turn, which the
// store writes with every write of an active game that seats a bot, and
// only then: it plays the bots' moves (store.PlayBots, which reads the game
// and finds what is due). The writes of games without a bot — nearly all —
// invoke nothing. A repeated delivery sends the same move under the same
// action id (derived from the version), which the pipeline never applies
// twice.
//
// It returns an error only when a retry can help.
func (t *Triggers) BotTurn(ctx context.Context, e event.Event) error {
	de, err := DocumentEventOf(e)
	if err != nil {
		t.log().Error("BotTurn: dropping undecodable event", "id", e.ID(), "err", err)
		return nil
	}
	if de.Value == nil {
		return nil
	}
	name, err := ParseDocumentName(de.Value.GetName())
	if err != nil {
		t.log().Error("BotTurn: dropping event", "id", e.ID(), "err", err)
		return nil
	}
	gameID, doc, ok := gameChild(name.Path, "bots")
	if !ok || doc != "turn" {
		return nil
	}
	n, err := store.PlayBots(ctx, t.Store, gameID)
	switch {
	case err == nil:
		t.log().Debug("BotTurn", "id", e.ID(), "game", gameID, "moves", n)
		return nil
	case Retryable(err):
		t.log().Warn("BotTurn: will be retried", "id", e.ID(), "game", gameID, "err", err)
		return err
	default:
		t.log().Error("BotTurn: bot move dropped", "id", e.ID(), "game", gameID, "err", err)
		return nil
	}
}

// playStalledBots is the tick's part: active games with a bot that nothing
// wrote for store.BotStall (a lost delivery, or a bot that must show it is
// still there) get their bots' moves. It returns how many moves it made.
func (t *Triggers) playStalledBots(ctx context.Context, now time.Time) (games, moves int, err error) {
	stalled, err := t.Store.BotGames(ctx, now.Add(-store.BotStall), DefaultMaxBotGames)
	if err != nil {
		return 0, 0, err
	}
	var mu sync.Mutex
	t.each(len(stalled), func(i int) {
		n, err := store.PlayBots(ctx, t.Store, stalled[i].ID)
		mu.Lock()
		defer mu.Unlock()
		if err != nil {
			t.log().Error("Tick: bot move failed", "game", stalled[i].ID, "err", err)
			return
		}
		moves += n
	})
	return len(stalled), moves, nil
}
