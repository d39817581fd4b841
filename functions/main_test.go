package functions_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"golang.org/x/crypto/bcrypt"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/functions"
	"github.com/meeple-games/meeple/games"
	"github.com/meeple-games/meeple/store"
	"github.com/meeple-games/meeple/store/storetest"
)

func TestMain(m *testing.M) { os.Exit(storetest.Main(m)) }

// Every test makes its own stack (newStack: its own emulator project, its
// own clock), so most tests run in parallel (t.Parallel) against the one
// emulator; the package sets no global a test depends on. These stay serial,
// and so run before the parallel ones, alone: the tests that fire requests
// at once and hold what contention does (concurrent rolls, submissions,
// completions, sign-ins, the quick-match crowd, hostile fields, the
// simulation's compute bound), and those where a strong bot plays a whole
// game — a bot thinks within a wall-clock budget, so on a machine busier
// with other tests it plays weaker and the game lasts much longer (a Hex &
// Dice game went from 33 bot moves to 318).

// stack is the HTTP functions served over a real socket against the emulator.
type stack struct {
	t     *testing.T
	url   string
	store *store.Store
	srv   *functions.Server
	mu    sync.Mutex
	now   time.Time
}

func newStack(t *testing.T) *stack {
	t.Helper()
	s := &stack{t: t, now: time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)}
	project := storetest.Project(t)
	s.store = store.New(storetest.ClientFor(t, project), games.All())
	s.store.FixedSeeds = true
	s.store.Now = s.clock
	s.srv = &functions.Server{
		Store:    s.store,
		Sessions: &functions.Sessions{Secret: []byte("test-secret-test-secret-test-secret!"), Now: s.clock},
		FirebaseToken: func(_ context.Context, a domain.Actor) (string, error) {
			return functions.UnsignedFirebaseToken(project, a, s.clock()), nil
		},
		PasswordCost:   bcrypt.MinCost, // hashing is not what these tests measure
		TrustedProxies: 1,              // requests may say where they come from (postFrom)
		SessionCache:   -1,             // every call reads the session generation
	}
	mux := http.NewServeMux()
	for name, h := range s.srv.Routes() {
		mux.Handle("/"+name, h)
	}
	hs := httptest.NewServer(mux)
	t.Cleanup(hs.Close)
	s.url = hs.URL
	return s
}

func (s *stack) clock() time.Time { s.mu.Lock(); defer s.mu.Unlock(); return s.now }

func (s *stack) advance(d time.Duration) { s.mu.Lock(); s.now = s.now.Add(d); s.mu.Unlock() }

// post sends body (a value or raw bytes) to function fn and decodes the reply.
func (s *stack) post(token, fn string, body any) (int, map[string]any) {
	s.t.Helper()
	return s.postFrom("", token, fn, body)
}

// postFrom is post from a client at address source (X-Forwarded-For, as
// the front end in production sets it; "" for none).
func (s *stack) postFrom(source, token, fn string, body any) (int, map[string]any) {
	s.t.Helper()
	var raw []byte
	switch b := body.(type) {
	case []byte:
		raw = b
	case string:
		raw = []byte(b)
	default:
		var err error
		raw, err = json.Marshal(body)
		require.NoError(s.t, err)
	}
	req, err := http.NewRequest(http.MethodPost, s.url+"/"+fn, bytes.NewReader(raw))
	require.NoError(s.t, err)
	req.Header.Set("Content-Type", "application/json")
	if source != "" {
		req.Header.Set("X-Forwarded-For", source)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(s.t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(s.t, err)
	var out map[string]any
	if len(b) > 0 {
		require.NoError(s.t, json.Unmarshal(b, &out), "reply: %s", b)
	}
	return resp.StatusCode, out
}

// player is a signed-in guest.
type player struct {
	ID, Name, Token string
}

func (s *stack) guest(name string) player {
	s.t.Helper()
	code, out := s.post("", "Auth", map[string]any{"type": "guest", "nickname": name})
	require.Equal(s.t, http.StatusOK, code, "guest sign-in: %v", out)
	p := out["player"].(map[string]any)
	return player{ID: p["id"].(string), Name: p["name"].(string), Token: out["token"].(string)}
}

func errCode(out map[string]any) string {
	e, _ := out["error"].(map[string]any)
	c, _ := e["code"].(string)
	return c
}

// session is the actor a session token stands for.
func (s *stack) session(token string) domain.Actor {
	s.t.Helper()
	a, err := s.srv.Sessions.Verify(token)
	require.NoError(s.t, err)
	return a
}

// resultOf is the result a finished two-player game gives player (its
// ledger entry's, store.Result.Result): a draw, or a win for the winner and
// a loss for the other.
func resultOf(draw bool, winner, player string) string {
	switch {
	case draw:
		return store.ResultDraw
	case winner == player:
		return store.ResultWin
	}
	return store.ResultLoss
}
