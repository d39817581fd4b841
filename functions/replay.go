package functions

import (
	"context"
	"encoding/json"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/store"
)

// replay answers a replay request: a finished game played again from its
// seed and recorded actions (store.ReplayGame). Any signed-in caller may ask:
// a replay shows what the game's public documents showed, and a player's own
// hidden documents only to that player; no game's admission is asked, since
// nothing is changed (a spectator of a Tile Race has no team token).
//
// The request carries the gameId and nothing else.
//
// Errors: EINVALID (no gameId, another field), ENOTFOUND, ECONFLICT (the
// game is not finished), ELIMIT (too many steps).
func replay(ctx context.Context, st *store.Store, kind string, actor domain.Actor, env Envelope, payload json.RawMessage) (any, error) {
	if err := domain.DecodePayload(payload, nil); err != nil {
		return nil, err
	}
	if env.GameID == "" {
		return nil, domain.Errorf(domain.EINVALID, "gameId is required: the finished game to replay")
	}
	r, err := store.ReplayGame(ctx, st, kind, env.GameID, actor)
	if err != nil {
		return nil, err
	}
	return store.Reply{GameID: env.GameID, Events: []domain.Event{}, Result: r}, nil
}
