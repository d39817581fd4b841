package functions

import (
	"context"
	"strings"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/store"
)

// normalizeRoomCode lets people type a code in any case and with spaces.
func normalizeRoomCode(code string) string {
	return strings.ToUpper(strings.Join(strings.Fields(code), ""))
}

// createSpecial is the "create" action of any game: newGame decodes the
// request and builds the initial state for the game id (derived from the
// creator and action id, so a retried create returns the same game) and says
// whether to reserve a room code and which seed to use.
func createSpecial[S any](s *Server, rules domain.Rules[S],
	newGame func(ctx context.Context, c Call, id string) (S, store.Create, error)) special {
	return func(ctx context.Context, c Call) (any, error) {
		if c.Envelope.ActionID == "" {
			return nil, domain.Errorf(domain.EINVALID, "actionId is required")
		}
		id := store.CreateID(c.Actor.ID, c.Envelope.ActionID)
		state, opts, err := newGame(ctx, c, id)
		if err != nil {
			return nil, err
		}
		opts.ID = id
		created, err := store.CreateGame(ctx, s.Store, rules, opts, state)
		if err != nil {
			return nil, err
		}
		return store.Reply{GameID: created.GameID, Version: created.Version, Events: []domain.Event{}, Result: created}, nil
	}
}

// joinSpecial is the "join" action of any game: by gameId, or by the room
// code the creator shared, which resolves to the game.
func joinSpecial[S any](s *Server, rules domain.Rules[S]) special {
	return func(ctx context.Context, c Call) (any, error) {
		if c.Envelope.GameID == "" {
			var req struct {
				RoomCode string `json:"roomCode"`
			}
			if err := decodeObject(c.Body, &req); err != nil {
				return nil, err
			}
			if req.RoomCode == "" {
				return nil, domain.Errorf(domain.EINVALID, "join needs a gameId or a roomCode")
			}
			id, err := s.Store.ResolveRoom(ctx, normalizeRoomCode(req.RoomCode))
			if err != nil {
				return nil, err
			}
			c.Envelope.GameID = id
		}
		return act(ctx, s.Store, rules, c)
	}
}
