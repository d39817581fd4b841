package triggers

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/cloudevents/sdk-go/v2/event"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/store"
)

// BotTurnFunction is the function that moves bots (docs/bots.md).
const BotTurnFunction = "BotTurn"

// GamePattern is the document pattern BotTurn watches: the game document.
const GamePattern = "games/{gameId}"

// DefaultMaxBotGames bounds the stalled bot games one tick looks at.
const DefaultMaxBotGames = 100

// gameDoc parses games/{gameId}.
func gameDoc(path string) (gameID string, ok bool) {
	parts := strings.Split(path, "/")
	if len(parts) != 2 || parts[0] != "games" || parts[1] == "" {
		return "", false
	}
	return parts[1], true
}

// BotTurn is the function for writes to games/{gameId}: when the game is
// active and seats a bot, it plays the bots' moves (store.PlayBots). It
// decides that from the event's document alone, so the writes of games
// without a bot — nearly all — cost no read. A repeated delivery sends the
// same move under the same action id (derived from the version), which the
// pipeline never applies twice.
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
	f := de.Value.GetFields()
	if f["status"].GetStringValue() != string(domain.StatusActive) {
		return nil
	}
	var players []string
	for _, v := range f["players"].GetArrayValue().GetValues() {
		players = append(players, v.GetStringValue())
	}
	if !store.HasBot(players) {
		return nil
	}
	name, err := ParseDocumentName(de.Value.GetName())
	if err != nil {
		t.log().Error("BotTurn: dropping event", "id", e.ID(), "err", err)
		return nil
	}
	gameID, ok := gameDoc(name.Path)
	if !ok {
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
