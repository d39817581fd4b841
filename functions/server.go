package functions

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/store"
)

// Server holds what every HTTP function needs.
type Server struct {
	Store    *store.Store
	Sessions *Sessions
	// FirebaseToken mints the Firebase custom token returned with a session:
	// the Admin SDK in production, an unsigned mock token in the local stack.
	FirebaseToken func(ctx context.Context, a domain.Actor) (string, error)
	// AllowOrigin is the CORS origin web clients call from ("*" when empty).
	AllowOrigin string
	// PasswordCost is the bcrypt cost of new password hashes (0: 11). Tests
	// lower it; existing hashes keep the cost they were made with.
	PasswordCost int
}

// Routes returns every HTTP function by its deployed name.
func (s *Server) Routes() map[string]http.HandlerFunc {
	return map[string]http.HandlerFunc{
		"Auth":       s.auth,
		"DashDice":   s.dashDice(),
		"PartyBoard": s.partyBoard(),
		"TileRace":   s.tileRace(),
	}
}

// allow handles CORS and refuses anything but POST; it reports whether the
// request should go on.
func (s *Server) allow(w http.ResponseWriter, r *http.Request) bool {
	origin := s.AllowOrigin
	if origin == "" {
		origin = "*"
	}
	w.Header().Set("Access-Control-Allow-Origin", origin)
	w.Header().Set("Access-Control-Allow-Headers", "Authorization, Content-Type")
	w.Header().Set("Access-Control-Allow-Methods", "POST, OPTIONS")
	switch r.Method {
	case http.MethodOptions:
		w.WriteHeader(http.StatusNoContent)
		return false
	case http.MethodPost:
		return true
	}
	w.Header().Set("Allow", "POST, OPTIONS")
	writeError(w, r, domain.Errorf(domain.EINVALID, "use POST with a JSON body"))
	return false
}

// Call is one decoded, authenticated action request.
type Call struct {
	Actor    domain.Actor
	Envelope Envelope
	Body     []byte
}

// Action is the domain action a call asks for.
func (c Call) Action() domain.Action {
	return domain.Action{ID: c.Envelope.ActionID, Type: c.Envelope.Type, Actor: c.Actor, Payload: c.Body}
}

// special handles an action type that is not a step of an existing game
// (create, join by room code, quick match). It returns the reply body.
type special func(ctx context.Context, c Call) (any, error)

// endpoint configures a game's function.
type endpoint struct {
	maxBody  int                // request cap; MaxBody when 0
	specials map[string]special // action types that are not a step of an existing game
}

// gameEndpoint is the shared pipeline every game's function runs: check the
// method, read the capped body, authenticate, decode the envelope, then either
// a special handler or the action transaction on the game.
func gameEndpoint[S any](s *Server, rules domain.Rules[S], e endpoint) http.HandlerFunc {
	return s.serve(e, func(ctx context.Context, c Call) (any, error) { return act(ctx, s.Store, rules, c) })
}

// serve is gameEndpoint's pipeline with what to do for action types that are
// not specials.
func (s *Server) serve(e endpoint, other special) http.HandlerFunc {
	if e.maxBody == 0 {
		e.maxBody = MaxBody
	}
	return func(w http.ResponseWriter, r *http.Request) {
		if !s.allow(w, r) {
			return
		}
		reply, err := func() (any, error) {
			body, err := readBody(r, e.maxBody)
			if err != nil {
				return nil, err
			}
			actor, err := s.Sessions.Authenticate(r)
			if err != nil {
				return nil, err
			}
			env, err := DecodeEnvelope(body)
			if err != nil {
				return nil, err
			}
			c := Call{Actor: actor, Envelope: env, Body: body}
			if h, ok := e.specials[env.Type]; ok {
				return h(r.Context(), c)
			}
			return other(r.Context(), c)
		}()
		if err != nil {
			writeError(w, r, err)
			return
		}
		writeJSON(w, http.StatusOK, reply)
	}
}

// act runs c as a step of the game it names.
func act[S any](ctx context.Context, st *store.Store, rules domain.Rules[S], c Call) (json.RawMessage, error) {
	if c.Envelope.GameID == "" {
		return nil, domain.Errorf(domain.EINVALID, "gameId is required")
	}
	return store.Act(ctx, st, rules, store.Request{GameID: c.Envelope.GameID, Action: c.Action(), ExpectVersion: c.Envelope.Version})
}
