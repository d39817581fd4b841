package functions

import (
	"context"
	"net/http"
	"time"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/dashdice"
	"github.com/meeple-games/meeple/store"
)

// dashDiceCreate is the payload of a DashDice "create" or "quickMatch".
type dashDiceCreate struct {
	Mode        string `json:"mode"`
	Private     bool   `json:"private"`     // reserve a room code for a friend
	TurnSeconds *int   `json:"turnSeconds"` // absent: 30 s; 0: no timer
	Seed        string `json:"seed"`        // local stack only: replay a game exactly
}

// dashDice serves POST /DashDice. Besides the match actions the rules define
// (call, roll, bank, forfeit, rematch, join by gameId), it handles create,
// join by room code, quickMatch and leaveQueue.
func (s *Server) dashDice() http.HandlerFunc {
	rules := dashdice.Rules{}
	return gameEndpoint(s, rules, endpoint{specials: map[string]special{
		"create": createSpecial(s, rules, func(ctx context.Context, c Call, id string) (dashdice.Match, store.Create, error) {
			var req dashDiceCreate
			if err := decodeObject(c.Body, &req); err != nil {
				return dashdice.Match{}, store.Create{}, err
			}
			m, err := s.newDashDiceMatch(ctx, id, c.Actor, req)
			return m, store.Create{RoomCode: req.Private, Seed: req.Seed}, err
		}),
		"join": joinSpecial(s, rules),
		"quickMatch": func(ctx context.Context, c Call) (any, error) {
			var req dashDiceCreate
			if err := decodeObject(c.Body, &req); err != nil {
				return nil, err
			}
			if c.Envelope.ActionID == "" {
				return nil, domain.Errorf(domain.EINVALID, "actionId is required")
			}
			if req.Seed != "" || req.Private {
				return nil, domain.Errorf(domain.EINVALID, "quickMatch takes only a mode")
			}
			req.TurnSeconds = nil // quick matches always use the default timer
			if _, err := s.dashDiceMode(ctx, req.Mode); err != nil {
				return nil, err
			}
			t, err := store.QuickMatch(ctx, s.Store, rules, "dashdice-"+req.Mode, c.Actor, c.Envelope.ActionID,
				func(id string, host, guest domain.Actor) (dashdice.Match, error) {
					m, err := s.newDashDiceMatch(ctx, id, host, req)
					if err != nil {
						return m, err
					}
					m, _, err = rules.Apply(m, domain.Action{ID: c.Envelope.ActionID, Type: "join", Actor: guest, Payload: []byte("{}")},
						domain.Env{Now: s.now(), Dice: noDice{}})
					return m, err
				})
			if err != nil {
				return nil, err
			}
			return store.Reply{GameID: t.GameID, Events: []domain.Event{}, Result: t}, nil
		},
		"leaveQueue": func(ctx context.Context, c Call) (any, error) {
			var req dashDiceCreate
			if err := decodeObject(c.Body, &req); err != nil {
				return nil, err
			}
			if _, err := s.dashDiceMode(ctx, req.Mode); err != nil {
				return nil, err
			}
			t, err := s.Store.LeaveQueue(ctx, "dashdice-"+req.Mode, c.Actor)
			if err != nil {
				return nil, err
			}
			return store.Reply{GameID: t.GameID, Events: []domain.Event{}, Result: t}, nil
		},
	}})
}

// dashDiceMode finds a mode: an operator's configuration document
// config/dashdice/modes/{id} overrides or adds to the built-in modes.
//
// Errors: EINVALID (unknown or invalid mode).
func (s *Server) dashDiceMode(ctx context.Context, id string) (dashdice.Mode, error) {
	if id == "" {
		return dashdice.Mode{}, domain.Errorf(domain.EINVALID, "mode is required")
	}
	var m dashdice.Mode
	found, err := s.Store.Config(ctx, "dashdice", "modes", id, &m)
	if err != nil {
		return m, err
	}
	if found {
		m.ID = id
		if err := m.Validate(); err != nil {
			return m, domain.Errorf(domain.EINTERNAL, "mode %q is misconfigured: %v", id, err)
		}
		return m, nil
	}
	for _, b := range dashdice.BuiltinModes() {
		if b.ID == id {
			return b, nil
		}
	}
	return m, domain.Errorf(domain.EINVALID, "unknown mode %q", id)
}

func (s *Server) newDashDiceMatch(ctx context.Context, id string, host domain.Actor, req dashDiceCreate) (dashdice.Match, error) {
	mode, err := s.dashDiceMode(ctx, req.Mode)
	if err != nil {
		return dashdice.Match{}, err
	}
	opts := dashdice.Options{Private: req.Private}
	if req.TurnSeconds != nil {
		opts.TurnSeconds = *req.TurnSeconds
		if opts.TurnSeconds == 0 {
			opts.TurnSeconds = dashdice.NoTimer
		}
	}
	return dashdice.NewMatch(id, host, mode, opts, s.now())
}

func (s *Server) now() time.Time {
	if s.Store.Now == nil {
		return time.Now()
	}
	return s.Store.Now()
}

// noDice is for rule calls that must not roll (seating a quick-match opponent).
type noDice struct{}

func (noDice) Roll(int) int { panic("functions: no dice here") }
