package functions

import (
	"context"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/meeple-games/meeple/domain"
)

// DefaultSessionCache is how long a platform player's session generation is
// trusted once read: signing out everywhere takes effect within it on every
// instance (docs/security.md).
const DefaultSessionCache = 30 * time.Second

// genCache keeps platform players' session generations for a while, so an
// action costs no extra read for them.
type genCache struct {
	mu sync.Mutex
	m  map[string]genEntry
}

type genEntry struct {
	gen int64
	at  time.Time
}

// checkSession refuses a platform player's token from an ended session
// generation (after signOutAll). Scoped principals (a Tile Race team or
// admin) are checked by their game, against its roster, in the action's own
// transaction.
//
// Errors: EUNAUTHORIZED.
func (s *Server) checkSession(ctx context.Context, a domain.Actor) error {
	if a.Game != "" {
		return nil
	}
	ttl := s.SessionCache
	if ttl == 0 {
		ttl = DefaultSessionCache
	}
	now := time.Now()
	s.gens.mu.Lock()
	e, ok := s.gens.m[a.ID]
	s.gens.mu.Unlock()
	if !ok || ttl < 0 || now.Sub(e.at) >= ttl {
		gen, err := s.Store.SessionGen(ctx, a.ID)
		if err != nil {
			return err
		}
		e = genEntry{gen: gen, at: now}
		s.gens.mu.Lock()
		if s.gens.m == nil {
			s.gens.m = map[string]genEntry{}
		}
		s.gens.m[a.ID] = e
		s.gens.mu.Unlock()
	}
	if a.Gen != e.gen {
		return domain.Errorf(domain.EUNAUTHORIZED, "this session has ended (signed out everywhere); sign in again")
	}
	return nil
}

// signOutAll ends every session of the caller (a platform player): every
// token issued so far, this one included, stops working.
//
// Errors: EUNAUTHORIZED, EINVALID (a session scoped to a game: its game ends
// its sessions).
func (s *Server) signOutAll(r *http.Request) (any, error) {
	a, err := s.Sessions.Authenticate(r)
	if err != nil {
		return nil, err
	}
	if a.Game != "" {
		return nil, domain.Errorf(domain.EINVALID, "a session for one game is ended by that game (a changed password, a removal)")
	}
	if err := s.checkSession(r.Context(), a); err != nil {
		return nil, err
	}
	gen, err := s.Store.EndSessions(r.Context(), a.ID)
	if err != nil {
		return nil, err
	}
	s.gens.mu.Lock()
	if s.gens.m == nil {
		s.gens.m = map[string]genEntry{}
	}
	s.gens.m[a.ID] = genEntry{gen: gen, at: time.Now()}
	s.gens.mu.Unlock()
	return map[string]any{"signedOut": true}, nil
}

// source is the caller's address, for the sign-in throttle: the address the
// last TrustedProxies proxies saw (X-Forwarded-For, from the right: each
// proxy appends the address it was called from, so the entries a client
// writes itself come before them and cannot pose as its address), or the
// connection's peer without proxies.
func (s *Server) source(r *http.Request) string {
	if s.TrustedProxies > 0 {
		var hops []string
		for _, h := range r.Header.Values("X-Forwarded-For") {
			for _, part := range strings.Split(h, ",") {
				if p := strings.TrimSpace(part); p != "" {
					hops = append(hops, p)
				}
			}
		}
		if i := len(hops) - s.TrustedProxies; i >= 0 && i < len(hops) {
			return hops[i]
		}
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}
