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
// The request carries the gameId and, for a long replay's later windows,
// from (store.MaxReplayBytes).
//
// Errors: EINVALID (no gameId, another field), ENOTFOUND, ECONFLICT (the
// game is not finished), ELIMIT (too many steps).
func replay(ctx context.Context, st *store.Store, kind string, actor domain.Actor, env Envelope, payload json.RawMessage) (any, error) {
	var req ReplayRequest
	if err := domain.DecodePayload(payload, &req); err != nil {
		return nil, err
	}
	if env.GameID == "" {
		return nil, domain.Errorf(domain.EINVALID, "gameId is required: the finished game to replay")
	}
	r, err := store.ReplayGame(ctx, st, kind, env.GameID, actor, req.From)
	if err != nil {
		return nil, err
	}
	return store.Reply{GameID: env.GameID, Events: []domain.Event{}, Result: r}, nil
}

// ReplayRequest is a replay's payload besides the gameId.
type ReplayRequest struct {
	// From is the first frame to return: 0, or a reply's "next".
	From int `json:"from" field:"int,min=0,max=100000"`
}
