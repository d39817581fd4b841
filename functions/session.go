package functions

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/meeple-games/meeple/domain"
)

// Sessions issues and checks the session tokens HTTP functions accept: HS256
// JWTs signed with a secret from the environment (Secret Manager in production).
type Sessions struct {
	Secret []byte
	TTL    time.Duration
	Now    func() time.Time

	verified verifiedTokens
}

// verifiedTokens are the tokens Verify accepted lately, by their text: a
// player sends the same token with every action, and parsing and checking it
// again was about 40 µs of a Tile Race completion's processor time. A token
// is taken from here only while it has not expired and the secret is the
// one it was checked with; at verifiedMax tokens the memory starts again.
type verifiedTokens struct {
	mu sync.Mutex
	m  map[string]verifiedToken
}

type verifiedToken struct {
	actor  domain.Actor
	exp    time.Time
	secret string
}

// verifiedMax bounds verifiedTokens: some 2 MB at most.
const verifiedMax = 4096

// Claims are a session token's claims. Firebase custom tokens carry the same
// role, name, game and team so firestore.rules can use them.
type Claims struct {
	Name string      `json:"name"`
	Role domain.Role `json:"role"`
	Game string      `json:"game,omitempty"`
	Gen  int64       `json:"gen,omitempty"`
	jwt.RegisteredClaims
}

const issuer = "meeple"

func (s *Sessions) now() time.Time {
	if s.Now == nil {
		return time.Now()
	}
	return s.Now()
}

// Issue returns a signed session token for actor.
func (s *Sessions) Issue(a domain.Actor) (string, time.Time, error) {
	ttl := s.TTL
	if ttl == 0 {
		ttl = 24 * time.Hour
	}
	now := s.now()
	exp := now.Add(ttl)
	c := Claims{Name: a.Name, Role: a.Role, Game: a.Game, Gen: a.Gen, RegisteredClaims: jwt.RegisteredClaims{
		Issuer: issuer, Subject: a.ID, IssuedAt: jwt.NewNumericDate(now), ExpiresAt: jwt.NewNumericDate(exp),
	}}
	tok, err := jwt.NewWithClaims(jwt.SigningMethodHS256, c).SignedString(s.Secret)
	return tok, exp, err
}

// Verify checks a token and returns its actor.
//
// Errors: EUNAUTHORIZED.
func (s *Sessions) Verify(token string) (domain.Actor, error) {
	s.verified.mu.Lock()
	v, ok := s.verified.m[token]
	s.verified.mu.Unlock()
	if ok && s.now().Before(v.exp) && v.secret == string(s.Secret) {
		return v.actor, nil
	}
	var c Claims
	_, err := jwt.ParseWithClaims(token, &c, func(*jwt.Token) (any, error) { return s.Secret, nil },
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}), jwt.WithIssuer(issuer),
		jwt.WithExpirationRequired(), jwt.WithTimeFunc(s.now))
	if err != nil || c.Subject == "" {
		return domain.Actor{}, domain.Errorf(domain.EUNAUTHORIZED, "invalid or expired session token; sign in again")
	}
	a := domain.Actor{ID: c.Subject, Name: c.Name, Role: c.Role, Game: c.Game, Gen: c.Gen}
	if c.ExpiresAt != nil && c.NotBefore == nil {
		s.verified.mu.Lock()
		if s.verified.m == nil || len(s.verified.m) >= verifiedMax {
			s.verified.m = map[string]verifiedToken{}
		}
		s.verified.m[token] = verifiedToken{actor: a, exp: c.ExpiresAt.Time, secret: string(s.Secret)}
		s.verified.mu.Unlock()
	}
	return a, nil
}

// Authenticate reads the bearer token of r.
//
// Errors: EUNAUTHORIZED.
func (s *Sessions) Authenticate(r *http.Request) (domain.Actor, error) {
	h := r.Header.Get("Authorization")
	token, ok := strings.CutPrefix(h, "Bearer ")
	if !ok || token == "" {
		return domain.Actor{}, domain.Errorf(domain.EUNAUTHORIZED, "missing bearer token; get one from the Auth function")
	}
	return s.Verify(strings.TrimSpace(token))
}

// UnsignedFirebaseToken is what the local stack hands out instead of a Firebase
// custom token: the emulator has no Auth, so a web client passes these claims
// to the Firestore emulator as mockUserToken (an unsigned JWT it accepts).
func UnsignedFirebaseToken(project string, a domain.Actor, now time.Time) string {
	claims := map[string]any{
		"iss": "https://securetoken.google.com/" + project, "aud": project,
		"sub": a.ID, "user_id": a.ID, "iat": now.Unix(), "exp": now.Add(time.Hour).Unix(),
		"auth_time": now.Unix(), "name": a.Name, "role": string(a.Role),
	}
	if a.Game != "" {
		claims["game"] = a.Game
	}
	enc := base64.RawURLEncoding
	head, _ := json.Marshal(map[string]string{"alg": "none", "typ": "JWT"})
	body, _ := json.Marshal(claims)
	return enc.EncodeToString(head) + "." + enc.EncodeToString(body) + "."
}
