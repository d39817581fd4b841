package functions_test

import (
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/store"
)

func TestGuestSignIn(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
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

	// A stranger guessing from one address slows only himself: after the
	// free failures each attempt from there must wait, growing; the owner
	// signs in from elsewhere at once.
	login := func(source, pw string) (int, map[string]any) {
		return s.postFrom(source, "", "Auth", map[string]any{"type": "login", "username": "coach_1", "password": pw})
	}
	for i := 0; i < store.FreeFailures; i++ {
		code, out = login("203.0.113.7", "wrong password")
		require.Equal(t, http.StatusUnauthorized, code, "attempt %d: %v", i+1, out)
	}
	code, out = login("203.0.113.7", "correct horse")
	require.Equal(t, http.StatusTooManyRequests, code, "the guesser's address waits, even with the right password: %v", out)
	require.Equal(t, domain.ELIMIT, errCode(out))
	code, out = login("198.51.100.2", "correct horse")
	require.Equal(t, http.StatusOK, code, "the owner, from another address, is not locked out: %v", out)
	s.advance(2 * time.Second)
	code, out = login("203.0.113.7", "wrong password")
	require.Equal(t, http.StatusUnauthorized, code, "after the wait, one more guess: %v", out)
	code, out = login("203.0.113.7", "wrong password")
	require.Equal(t, http.StatusTooManyRequests, code, "and the wait grows: %v", out)
	s.advance(4 * time.Second)
	code, out = login("203.0.113.7", "correct horse")
	require.Equal(t, http.StatusOK, code, "the wait passed: %v", out)
}

// TestSignInUnderContention: many wrong passwords at once for one account
// from one address each get an answer a client can act on, never a 500.
func TestSignInUnderContention(t *testing.T) {
	s := newStack(t)
	code, out := s.post("", "Auth", map[string]any{"type": "register", "username": "busy", "password": "correct horse"})
	require.Equal(t, http.StatusOK, code, "%v", out)
	const n = 30
	codes := make([]int, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			codes[i], _ = s.postFrom("203.0.113.9", "", "Auth", map[string]any{"type": "login", "username": "busy", "password": "wrong"})
		}()
	}
	wg.Wait()
	count := map[int]int{}
	for _, c := range codes {
		count[c]++
		require.Contains(t, []int{http.StatusUnauthorized, http.StatusTooManyRequests, http.StatusServiceUnavailable}, c)
	}
	t.Logf("%d concurrent wrong logins: %v", n, count)
}

// TestSignOutAll: signing out everywhere ends every session of the player;
// signing in again gives a working one.
func TestSignOutAll(t *testing.T) {
	t.Parallel()
	s := newStack(t)
	code, out := s.post("", "Auth", map[string]any{"type": "register", "username": "leaver", "password": "correct horse"})
	require.Equal(t, http.StatusOK, code, "%v", out)
	old := out["token"].(string)
	code, out = s.post("", "Auth", map[string]any{"type": "login", "username": "leaver", "password": "correct horse"})
	require.Equal(t, http.StatusOK, code, "%v", out)
	other := out["token"].(string)
	create := func(tok, id string) int {
		code, _ := s.post(tok, "DashDice", map[string]any{"actionId": id, "type": "create", "mode": "classic"})
		return code
	}
	require.Equal(t, http.StatusOK, create(old, "c1"))
	code, out = s.post(old, "Auth", map[string]any{"type": "signOutAll"})
	require.Equal(t, http.StatusOK, code, "%v", out)
	require.Equal(t, http.StatusUnauthorized, create(old, "c2"), "the session that signed out")
	require.Equal(t, http.StatusUnauthorized, create(other, "c3"), "every other session")
	code, out = s.post("", "Auth", map[string]any{"type": "login", "username": "leaver", "password": "correct horse"})
	require.Equal(t, http.StatusOK, code, "%v", out)
	require.Equal(t, http.StatusOK, create(out["token"].(string), "c4"), "a new session works")
}

func TestAuthBadRequests(t *testing.T) {
	t.Parallel()
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
