package functions

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"time"

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
	// TrustedProxies is how many proxies in front of the functions append
	// the caller's address to X-Forwarded-For (Cloud Run's front end: 1; the
	// local stack: 0, the connection's peer). The sign-in throttle counts by
	// that address.
	TrustedProxies int
	// SessionCache is how long a platform player's session generation is
	// trusted once read (0: DefaultSessionCache; negative: read every time).
	SessionCache time.Duration
	// RequestTimeout bounds one request's work (0: DefaultRequestTimeout):
	// past it the request answers 503 and may be sent again (same actionId).
	RequestTimeout time.Duration
	gens           genCache
}

// DefaultRequestTimeout is how long a request may take, Firestore outages
// included, before it answers 503: well under Cloud Functions' 60 s.
const DefaultRequestTimeout = 20 * time.Second

// withTimeout bounds r's work.
func (s *Server) withTimeout(r *http.Request) (*http.Request, context.CancelFunc) {
	d := s.RequestTimeout
	if d == 0 {
		d = DefaultRequestTimeout
	}
	ctx, cancel := context.WithTimeout(r.Context(), d)
	return r.WithContext(ctx), cancel
}

// AuthFunction is the name of the sign-in function.
const AuthFunction = "Auth"

// Names returns the names of the HTTP functions of a registry: Auth, then
// each game's function in registry order. They are the deployed functions'
// entry points (docs/deploy.md).
func Names(reg domain.Registry) []string {
	names := []string{AuthFunction}
	for _, e := range reg {
		names = append(names, e.Function)
	}
	return names
}

// Routes returns every HTTP function by its deployed name.
func (s *Server) Routes() map[string]http.HandlerFunc {
	routes := map[string]http.HandlerFunc{AuthFunction: s.auth}
	for _, e := range s.Store.Games.Registry() {
		routes[e.Function] = s.gameEndpoint(e)
	}
	return routes
}

func (s *Server) now() time.Time {
	if s.Store.Now == nil {
		return time.Now()
	}
	return s.Store.Now()
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

// gameEndpoint is the one pipeline every game's function runs: check the
// method, read the capped body, authenticate, decode the envelope, then run
// the action through the store (quick match and join by room code are the
// platform's own steps around it).
func (s *Server) gameEndpoint(e domain.Entry) http.HandlerFunc {
	max := e.MaxBody
	if max == 0 {
		max = MaxBody
	}
	docs := payloadsOf(e.Game)
	return func(w http.ResponseWriter, r *http.Request) {
		if !s.allow(w, r) {
			return
		}
		r, cancel := s.withTimeout(r)
		defer cancel()
		reply, err := func() (any, error) {
			body, err := readBody(r, max)
			if err != nil {
				return nil, err
			}
			actor, err := s.Sessions.Authenticate(r)
			if err != nil {
				return nil, err
			}
			if err := s.checkSession(r.Context(), actor); err != nil {
				return nil, err
			}
			env, err := DecodeEnvelope(body)
			if err != nil {
				return nil, err
			}
			return s.act(r.Context(), e, docs, actor, env, body)
		}()
		if err != nil {
			writeError(w, r, err)
			return
		}
		writeJSON(w, http.StatusOK, reply)
	}
}

// act runs one decoded, authenticated request of game e, whose payloads
// docs declares.
func (s *Server) act(ctx context.Context, e domain.Entry, docs payloads, actor domain.Actor, env Envelope, body []byte) (any, error) {
	kind := e.Kind()
	var drop []string // what the platform takes out of the game's payload
	switch env.Type {
	case domain.ActionCreate:
		drop = append(drop, "seed")
	case domain.ActionJoin:
		drop = append(drop, "roomCode")
	case domain.ActionQuickMatch:
		drop = append(drop, "botAfter")
	}
	if env.Type == domain.ActionAddBot {
		return s.addBot(ctx, e, actor, env, body)
	}
	pw, hasPassword := e.Game.(domain.Passworder)
	if hasPassword && pw.PasswordMin(env.Type) > 0 {
		drop = append(drop, "password")
	}
	payload, err := withoutFields(body, drop...)
	if err != nil {
		return nil, err
	}
	if err := docs.check(env.Type, payload); err != nil {
		return nil, err
	}
	a := domain.Action{ID: env.ActionID, Type: env.Type, Actor: actor, Payload: payload}
	room := ""
	switch env.Type {
	case domain.ActionQuickMatch:
		var wait struct {
			BotAfter int64 `json:"botAfter"` // its kind is checked with the envelope's
		}
		if err := decodeObject(body, &wait); err != nil {
			return nil, err
		}
		t, err := store.QuickMatchOrBot(ctx, s.Store, kind, actor, env.ActionID, payload, time.Duration(wait.BotAfter)*time.Second)
		if err != nil {
			return nil, err
		}
		return store.Reply{GameID: t.GameID, Events: []domain.Event{}, Result: t}, nil
	case domain.ActionReplay:
		return replay(ctx, s.Store, kind, actor, env, payload)
	case domain.ActionLeaveQueue:
		t, err := s.Store.LeaveQueue(ctx, kind, actor, payload)
		if err != nil {
			return nil, err
		}
		return store.Reply{GameID: t.GameID, Events: []domain.Event{}, Result: t}, nil
	case domain.ActionJoin:
		if env.GameID == "" {
			var req struct {
				RoomCode string `json:"roomCode"`
			}
			if err := decodeObject(body, &req); err != nil {
				return nil, err
			}
			if req.RoomCode == "" {
				return nil, domain.Errorf(domain.EINVALID, "join needs a gameId or a roomCode")
			}
			room = normalizeRoomCode(req.RoomCode)
			if err := domain.CheckKey("roomCode", room); err != nil {
				return nil, err
			}
			id, err := s.Store.ResolveRoom(ctx, room)
			if err != nil {
				return nil, err
			}
			env.GameID = id
		}
	}
	if hasPassword {
		if min := pw.PasswordMin(env.Type); min > 0 {
			hash, err := s.passwordOf(body, min)
			if err != nil {
				return nil, err
			}
			a.Secret = hash
		}
	}
	reply, done, err := store.Run(ctx, s.Store, store.Request{Kind: kind, GameID: env.GameID, Action: a, ExpectVersion: env.Version, Seed: env.Seed, RoomCode: room})
	if err != nil || done.Session == nil {
		return reply, err
	}
	return s.withSession(ctx, reply, *done.Session)
}

// withSession adds a session for actor to a reply's result.
func (s *Server) withSession(ctx context.Context, reply json.RawMessage, actor domain.Actor) (any, error) {
	var out map[string]any
	if err := json.Unmarshal(reply, &out); err != nil {
		return nil, err
	}
	result, ok := out["result"].(map[string]any)
	if !ok {
		result = map[string]any{}
		out["result"] = result
	}
	session, err := s.sessionFor(ctx, actor)
	if err != nil {
		return nil, err
	}
	result["session"] = session
	return out, nil
}

// passwordOf checks and hashes the optional "password" field of a request.
// It returns "" when the request has none.
//
// Errors: EINVALID (wrong length).
func (s *Server) passwordOf(body []byte, min int) (string, error) {
	var pw struct {
		Password *string `json:"password"`
	}
	if err := decodeObject(body, &pw); err != nil {
		return "", err
	}
	if pw.Password == nil {
		return "", nil
	}
	if err := checkPassword("password", *pw.Password, min); err != nil {
		return "", err
	}
	return s.hashPassword(*pw.Password)
}

// withoutFields is body (a JSON object) without the given top-level fields:
// what the platform reads itself is not the game's payload. A body without
// any of them is returned as sent.
//
// Errors: EINVALID.
func withoutFields(body []byte, fields ...string) (json.RawMessage, error) {
	var m map[string]json.RawMessage
	if err := decodeObject(body, &m); err != nil {
		return nil, err
	}
	n := len(m)
	for _, f := range fields {
		delete(m, f)
	}
	if len(m) == n {
		return body, nil
	}
	return json.Marshal(m)
}

// normalizeRoomCode lets people type a code in any case and with spaces.
func normalizeRoomCode(code string) string {
	return strings.ToUpper(strings.Join(strings.Fields(code), ""))
}
