package functions_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/store"
)

func TestGuestSignIn(t *testing.T) {
	s := newStack(t)
	code, out := s.post("", "Auth", map[string]any{"type": "guest", "nickname": "  Ann  "})
	require.Equal(t, http.StatusOK, code, "%v", out)
	p := out["player"].(map[string]any)
	if got, want := p["name"], "Ann"; got != want {
		t.Fatalf("name = %v, want %v", got, want)
	}
	require.Equal(t, "guest", p["role"])
	require.True(t, strings.HasPrefix(p["id"].(string), "g_"))
	actor, err := s.srv.Sessions.Verify(out["token"].(string))
	require.NoError(t, err)
	require.Equal(t, p["id"], actor.ID)
	require.Len(t, strings.Split(out["firebaseToken"].(string), "."), 3, "the local stack's Firebase token is an unsigned JWT")
}

func TestRegisterLoginAndThrottle(t *testing.T) {
	s := newStack(t)
	reg := map[string]any{"type": "register", "username": "Coach_1", "password": "correct horse", "nickname": "Coach"}
	code, out := s.post("", "Auth", reg)
	require.Equal(t, http.StatusOK, code, "%v", out)
	uid := out["player"].(map[string]any)["id"].(string)

	code, out = s.post("", "Auth", reg)
	require.Equal(t, http.StatusConflict, code)
	require.Equal(t, domain.EEXISTS, errCode(out))

	code, out = s.post("", "Auth", map[string]any{"type": "login", "username": "coach_1", "password": "correct horse"})
	require.Equal(t, http.StatusOK, code, "%v", out)
	require.Equal(t, uid, out["player"].(map[string]any)["id"], "usernames are case-insensitive")
	require.Equal(t, "player", out["player"].(map[string]any)["role"])

	for i := 0; i < store.MaxLoginFailures; i++ {
		code, out = s.post("", "Auth", map[string]any{"type": "login", "username": "coach_1", "password": "wrong password"})
		require.Equal(t, http.StatusUnauthorized, code, "attempt %d: %v", i+1, out)
	}
	code, out = s.post("", "Auth", map[string]any{"type": "login", "username": "coach_1", "password": "correct horse"})
	require.Equal(t, http.StatusTooManyRequests, code, "throttled even with the right password: %v", out)
	require.Equal(t, domain.ELIMIT, errCode(out))

	s.advance(store.LoginWindow)
	code, out = s.post("", "Auth", map[string]any{"type": "login", "username": "coach_1", "password": "correct horse"})
	require.Equal(t, http.StatusOK, code, "the window passed: %v", out)
}

func TestAuthBadRequests(t *testing.T) {
	s := newStack(t)
	tests := []struct {
		name   string
		body   any
		status int
		code   string
	}{
		{"empty body", "", http.StatusBadRequest, domain.EINVALID},
		{"not json", "hello", http.StatusBadRequest, domain.EINVALID},
		{"array", "[1,2]", http.StatusBadRequest, domain.EINVALID},
		{"no type", map[string]any{"nickname": "x"}, http.StatusBadRequest, domain.EINVALID},
		{"unknown type", map[string]any{"type": "magic"}, http.StatusBadRequest, domain.EINVALID},
		{"nickname wrong type", `{"type":"guest","nickname":7}`, http.StatusBadRequest, domain.EINVALID},
		{"empty nickname", map[string]any{"type": "guest", "nickname": "  "}, http.StatusBadRequest, domain.EINVALID},
		{"long nickname", map[string]any{"type": "guest", "nickname": strings.Repeat("n", 25)}, http.StatusBadRequest, domain.EINVALID},
		{"bad username", map[string]any{"type": "register", "username": "a b", "password": "long enough"}, http.StatusBadRequest, domain.EINVALID},
		{"short password", map[string]any{"type": "register", "username": "abc", "password": "short"}, http.StatusBadRequest, domain.EINVALID},
		{"unknown user", map[string]any{"type": "login", "username": "nobody", "password": "whatever1"}, http.StatusUnauthorized, domain.EUNAUTHORIZED},
		{"oversized", `{"type":"guest","nickname":"` + strings.Repeat("x", 70<<10) + `"}`, http.StatusRequestEntityTooLarge, domain.ETOOLARGE},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out := s.post("", "Auth", tt.body)
			if code != tt.status || errCode(out) != tt.code {
				t.Fatalf("got %d %q (%v), want %d %q", code, errCode(out), out, tt.status, tt.code)
			}
		})
	}
}
