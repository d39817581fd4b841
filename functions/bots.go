package functions

import (
	"context"
	"encoding/json"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/store"
)

// addBot seats a bot in a waiting game for its host (docs/bots.md): the
// caller must be the game's host (its first player); the bot joins through
// the game's own join, as the bot, so the game admits and refuses it as it
// would a person (a full game is 409). The join's action id is derived from
// the host's, so a retried addBot gets the first reply and seats nobody
// else.
//
// Errors: EINVALID (no gameId, no or bad level, a game without bots),
// ENOTFOUND, EFORBIDDEN (not the host), ECONFLICT (not waiting, full), and
// the game's join refusals.
func (s *Server) addBot(ctx context.Context, e domain.Entry, actor domain.Actor, env Envelope, payload json.RawMessage) (any, error) {
	var req domain.AddBotRequest
	if err := domain.DecodePayload(payload, &req); err != nil {
		return nil, err
	}
	if req.Level == "" {
		return nil, domain.Errorf(domain.EINVALID, "level is required (random or strong)")
	}
	if e.Bots == nil {
		return nil, domain.Errorf(domain.EINVALID, "type: %s games take no bots (docs/bots.md)", e.Kind())
	}
	if env.GameID == "" {
		return nil, domain.Errorf(domain.EINVALID, "gameId is required")
	}
	if env.ActionID == "" {
		return nil, domain.Errorf(domain.EINVALID, "actionId is required")
	}
	// A game is readable by anyone, so reading it first tells the caller
	// nothing new; the join below runs on the game as it is then.
	doc, err := s.Store.GameDoc(ctx, env.GameID)
	if err != nil {
		return nil, err
	}
	if kind, _ := doc["kind"].(string); kind != e.Kind() {
		return nil, domain.Errorf(domain.ENOTFOUND, "no such %s game", e.Kind())
	}
	players, _ := doc["players"].([]any)
	if len(players) == 0 || players[0] != actor.ID {
		return nil, domain.Errorf(domain.EFORBIDDEN, "only the host of the game may add a bot")
	}
	seated := map[string]bool{}
	for _, p := range players {
		if id, ok := p.(string); ok {
			seated[id] = true
		}
	}
	// The first free bot seat of the level; a seat a bot already holds is
	// tried again only for a retry (same action id: the pipeline answers
	// it with its first reply, and refuses anyone else's).
	var last error
	for n := 1; n <= domain.MaxBotSeats; n++ {
		bot := domain.BotActor(req.Level, n)
		join := domain.Action{ID: "addBot~" + env.ActionID, Type: domain.ActionJoin, Actor: bot, GameID: env.GameID, Payload: e.Bots.Join(bot)}
		reply, _, err := store.Run(ctx, s.Store, store.Request{Kind: e.Kind(), GameID: env.GameID, Action: join})
		if err == nil {
			return reply, nil
		}
		last = err
		if !seated[bot.ID] {
			return nil, err
		}
	}
	return nil, last
}
