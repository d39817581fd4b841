package functions

import (
	"context"
	"net/http"
	"regexp"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"golang.org/x/crypto/bcrypt"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/store"
)

// bcryptCost is the password hash cost: about 50–100 ms per hash here.
const bcryptCost = 11

// hashPassword hashes a new password with the server's bcrypt cost.
func (s *Server) hashPassword(pw string) (string, error) {
	cost := s.PasswordCost
	if cost == 0 {
		cost = bcryptCost
	}
	hash, err := bcrypt.GenerateFromPassword([]byte(pw), cost)
	return string(hash), err
}

// AuthRequest is the body of the Auth function. A game's own sign-ins
// (domain.SignIn, such as Tile Race's teamLogin) read their fields from the
// whole body.
type AuthRequest struct {
	Type     string `json:"type"` // guest | register | login | a game's sign-in
	Nickname string `json:"nickname"`
	Username string `json:"username"`
	Password string `json:"password"`
}

// strictAuth refuses fields a platform sign-in type does not take (a game's
// own sign-ins decode theirs strictly themselves).
//
// Errors: EINVALID, naming the field.
func strictAuth(typ string, body []byte) error {
	var v any
	switch typ {
	case "guest":
		v = &struct {
			Nickname string `json:"nickname"`
		}{}
	case "register":
		v = &struct {
			Username string `json:"username"`
			Password string `json:"password"`
			Nickname string `json:"nickname"`
		}{}
	case "login":
		v = &struct {
			Username string `json:"username"`
			Password string `json:"password"`
		}{}
	case "signOutAll":
		v = nil
	default:
		return nil
	}
	return domain.DecodePayload(body, v)
}

// Password lengths of accounts (bcrypt's limit is 72 bytes).
const (
	minPassword = 8
	maxPassword = 72
)

// checkPassword checks a new password's length.
//
// Errors: EINVALID.
func checkPassword(field, pw string, min int) error {
	if n := len(pw); n < min || n > maxPassword {
		return domain.Errorf(domain.EINVALID, "%s must be %d to %d bytes", field, min, maxPassword)
	}
	return nil
}

// AuthReply is what a successful sign-in returns.
type AuthReply struct {
	Token         string       `json:"token"`         // session JWT for the HTTP functions
	ExpiresAt     time.Time    `json:"expiresAt"`     // when the session token expires
	FirebaseToken string       `json:"firebaseToken"` // custom token (local stack: unsigned mock token)
	Player        domain.Actor `json:"player"`
}

var usernameRE = regexp.MustCompile(`^[A-Za-z0-9_]{3,20}$`)

// cleanName checks a display name: 1–24 printable characters.
//
// Errors: EINVALID.
func cleanName(field, s string) (string, error) {
	s = strings.TrimSpace(s)
	n := utf8.RuneCountInString(s)
	if n < 1 || n > 24 {
		return "", domain.Errorf(domain.EINVALID, "%s must be 1 to 24 characters", field)
	}
	for _, r := range s {
		if !unicode.IsPrint(r) {
			return "", domain.Errorf(domain.EINVALID, "%s has a character that cannot be shown", field)
		}
	}
	return s, nil
}

// auth serves POST /Auth: guest nicknames, account registration and login.
func (s *Server) auth(w http.ResponseWriter, r *http.Request) {
	if !s.allow(w, r) {
		return
	}
	r, cancel := s.withTimeout(r)
	defer cancel()
	body, err := readBody(r, MaxBody)
	if err != nil {
		writeError(w, r, err)
		return
	}
	var req AuthRequest
	if err := decodeObject(body, &req); err != nil {
		writeError(w, r, err)
		return
	}
	if err := strictAuth(req.Type, body); err != nil {
		writeError(w, r, err)
		return
	}
	if req.Type == "signOutAll" {
		out, err := s.signOutAll(r)
		if err != nil {
			writeError(w, r, err)
			return
		}
		writeJSON(w, http.StatusOK, out)
		return
	}
	actor, err := s.signIn(r.Context(), req, body, s.source(r))
	if err != nil {
		writeError(w, r, err)
		return
	}
	reply, err := s.sessionFor(r.Context(), actor)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, reply)
}

func (s *Server) signIn(ctx context.Context, req AuthRequest, body []byte, source string) (domain.Actor, error) {
	switch req.Type {
	case "guest":
		name, err := cleanName("nickname", req.Nickname)
		if err != nil {
			return domain.Actor{}, err
		}
		a := domain.Actor{ID: "g_" + store.NewID(), Name: name, Role: domain.RoleGuest}
		return a, s.Store.CreateGuest(ctx, a.ID, a.Name)
	case "register":
		if !usernameRE.MatchString(req.Username) || domain.CheckID("username", req.Username) != nil {
			return domain.Actor{}, domain.Errorf(domain.EINVALID, "username must be 3 to 20 letters, digits or underscores")
		}
		if err := checkPassword("password", req.Password, minPassword); err != nil {
			return domain.Actor{}, err
		}
		nick := req.Nickname
		if nick == "" {
			nick = req.Username
		}
		name, err := cleanName("nickname", nick)
		if err != nil {
			return domain.Actor{}, err
		}
		hash, err := s.hashPassword(req.Password)
		if err != nil {
			return domain.Actor{}, err
		}
		a := domain.Actor{ID: "u_" + store.NewID(), Name: name, Role: domain.RolePlayer}
		return a, s.Store.Register(ctx, a.ID, req.Username, name, hash)
	case "login":
		if req.Username == "" || req.Password == "" {
			return domain.Actor{}, domain.Errorf(domain.EINVALID, "username and password are required")
		}
		acct, err := s.Store.Login(ctx, req.Username, source, func(hash string) bool {
			return bcrypt.CompareHashAndPassword([]byte(hash), []byte(req.Password)) == nil
		})
		if err != nil {
			return domain.Actor{}, err
		}
		gen, err := s.Store.SessionGen(ctx, acct.UID)
		if err != nil {
			return domain.Actor{}, err
		}
		return domain.Actor{ID: acct.UID, Name: acct.Name, Role: domain.RolePlayer, Gen: gen}, nil
	}
	for _, e := range s.Store.Games.Registry() {
		for _, si := range e.SignIns {
			if si.Type != req.Type {
				continue
			}
			if req.Password == "" {
				return domain.Actor{}, domain.Errorf(domain.EINVALID, "password is required")
			}
			return s.Store.SignIn(ctx, e, si, body, source, func(hash string) bool {
				return bcrypt.CompareHashAndPassword([]byte(hash), []byte(req.Password)) == nil
			})
		}
	}
	types := strings.Join(s.signInTypes(), ", ")
	if req.Type == "" {
		return domain.Actor{}, domain.Errorf(domain.EINVALID, "type is required: %s", types)
	}
	return domain.Actor{}, domain.Errorf(domain.EINVALID, "unknown type %q: use %s", req.Type, types)
}

// signInTypes lists every type Auth takes.
func (s *Server) signInTypes() []string {
	types := []string{"guest", "register", "login", "signOutAll"}
	for _, e := range s.Store.Games.Registry() {
		for _, si := range e.SignIns {
			types = append(types, si.Type)
		}
	}
	return types
}

func (s *Server) sessionFor(ctx context.Context, a domain.Actor) (AuthReply, error) {
	tok, exp, err := s.Sessions.Issue(a)
	if err != nil {
		return AuthReply{}, err
	}
	// The Firebase uid is the actor id: a scoped principal's already names
	// its game ("{gameId}:{id}"). Rules go by the claims (role, game).
	fb, err := s.FirebaseToken(ctx, a)
	if err != nil {
		return AuthReply{}, err
	}
	return AuthReply{Token: tok, ExpiresAt: exp, FirebaseToken: fb, Player: a}, nil
}
