// Package discordtest is a fake Discord: a real HTTP server on loopback that
// takes webhook executions (POST …/webhooks/{id}/{token}), records the
// messages it accepted and can be told to answer 429 (with retry_after and
// Discord's rate-limit headers), 5xx, 404 or to hang, and to enforce a rate
// limit per webhook as Discord does. Tests and the load generator use it;
// point the sender at it with its URL as the allowed base
// (MEEPLE_DISCORD_BASE).
package discordtest

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Message is one accepted webhook execution.
type Message struct {
	Webhook string          // the webhook id
	Token   string          // its token
	Body    json.RawMessage // the JSON posted
	At      time.Time       // when it arrived
}

// Reply is a scripted answer to one request.
type Reply struct {
	Status     int     // 429, 500, 404, …; 0 with Hang
	RetryAfter float64 // seconds, for 429
	Hang       bool    // never answer (until the client gives up or the server closes)
}

// Server is the fake Discord.
type Server struct {
	URL string // http://127.0.0.1:PORT: the base webhooks are under ({URL}/api/webhooks/{id}/{token})

	srv    *http.Server
	closed chan struct{}

	mu       sync.Mutex
	messages []Message
	script   map[string][]Reply // by webhook id ("" for any)
	requests int
	limited  int
	limit    int
	window   time.Duration
	windows  map[string]*window
	notify   chan struct{}
}

type window struct {
	start time.Time
	used  int
}

// Start starts a fake Discord on a free loopback port.
func Start() (*Server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s := &Server{URL: "http://" + ln.Addr().String(), closed: make(chan struct{}), script: map[string][]Reply{},
		windows: map[string]*window{}, notify: make(chan struct{}, 1)}
	s.srv = &http.Server{Handler: s, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = s.srv.Serve(ln) }()
	return s, nil
}

// Close stops the server; hanging requests end.
func (s *Server) Close() {
	close(s.closed)
	_ = s.srv.Close()
}

// WebhookURL is the URL of a webhook on this server.
func (s *Server) WebhookURL(id, token string) string {
	return s.URL + "/api/webhooks/" + id + "/" + token
}

// Script queues replies for the next requests to webhook id ("" for any
// webhook); once used up, requests are accepted (subject to the limit).
func (s *Server) Script(id string, replies ...Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.script[id] = append(s.script[id], replies...)
}

// Limit makes every webhook accept at most n messages per window, announced
// in the X-RateLimit headers of every reply; one more gets a 429 with the
// rest of the window as retry_after. n = 0 lifts the limit.
func (s *Server) Limit(n int, per time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.limit, s.window = n, per
	s.windows = map[string]*window{}
}

// Messages returns the accepted messages so far, in arrival order.
func (s *Server) Messages() []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Message(nil), s.messages...)
}

// Counts returns the requests received and those answered 429 by the limit.
func (s *Server) Counts() (requests, limited int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.requests, s.limited
}

// Arrived is signalled (without blocking) whenever a message is accepted.
func (s *Server) Arrived() <-chan struct{} { return s.notify }

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	parts := strings.Split(strings.Trim(r.URL.Path, "/"), "/")
	if r.Method != http.MethodPost || len(parts) < 3 || parts[len(parts)-3] != "webhooks" {
		writeJSON(w, http.StatusNotFound, map[string]any{"message": "404: Not Found", "code": 0})
		return
	}
	id, token := parts[len(parts)-2], parts[len(parts)-1]
	body, _ := io.ReadAll(r.Body)
	now := time.Now()

	s.mu.Lock()
	s.requests++
	var reply *Reply
	for _, k := range []string{id, ""} {
		if q := s.script[k]; len(q) > 0 {
			reply, s.script[k] = &q[0], q[1:]
			break
		}
	}
	var (
		limit     = s.limit
		remaining int
		resetIn   time.Duration
		over      bool
	)
	if reply == nil && limit > 0 {
		win := s.windows[id]
		if win == nil || now.Sub(win.start) >= s.window {
			win = &window{start: now}
			s.windows[id] = win
		}
		resetIn = s.window - now.Sub(win.start)
		if win.used >= limit {
			over = true
			s.limited++
		} else {
			win.used++
		}
		remaining = limit - win.used
	}
	if reply == nil && !over {
		var js json.RawMessage
		if json.Valid(body) {
			js = body
		}
		s.messages = append(s.messages, Message{Webhook: id, Token: token, Body: js, At: now})
	}
	s.mu.Unlock()

	// Discord announces the bucket on every reply; without a limit set,
	// a generous one.
	if limit == 0 {
		limit, remaining, resetIn = 1000, 999, time.Second
	}
	h := w.Header()
	h.Set("Via", "1.1 google") // Discord's; without it disgo takes a 429 for a Cloudflare ban
	h.Set("X-RateLimit-Bucket", "webhook-"+id)
	h.Set("X-RateLimit-Limit", fmt.Sprint(limit))
	h.Set("X-RateLimit-Remaining", fmt.Sprint(remaining))
	// Rounded up to the millisecond, as Discord's own headers must be for
	// a client that waits them out to never arrive early.
	resetIn = (resetIn + time.Millisecond - 1).Truncate(time.Millisecond)
	h.Set("X-RateLimit-Reset-After", fmt.Sprintf("%.3f", resetIn.Seconds()))
	h.Set("X-RateLimit-Reset", fmt.Sprintf("%.3f", float64(now.Add(resetIn).UnixNano())/1e9))
	switch {
	case reply != nil && reply.Hang:
		select {
		case <-r.Context().Done():
		case <-s.closed:
		}
		return
	case reply != nil && reply.Status == http.StatusTooManyRequests:
		tooMany(w, reply.RetryAfter)
	case reply != nil && reply.Status == http.StatusNotFound:
		writeJSON(w, http.StatusNotFound, map[string]any{"message": "Unknown Webhook", "code": 10015})
	case reply != nil:
		writeJSON(w, reply.Status, map[string]any{"message": http.StatusText(reply.Status), "code": 0})
	case over:
		tooMany(w, resetIn.Seconds())
	default:
		w.WriteHeader(http.StatusNoContent)
		select {
		case s.notify <- struct{}{}:
		default:
		}
	}
}

// tooMany answers 429 as Discord does: retry_after in the body (seconds,
// fractional) and Retry-After in whole seconds.
func tooMany(w http.ResponseWriter, after float64) {
	h := w.Header()
	h.Set("Retry-After", fmt.Sprint(int(math.Max(1, math.Ceil(after)))))
	h.Set("X-RateLimit-Remaining", "0")
	h.Set("X-RateLimit-Reset-After", fmt.Sprintf("%.3f", after))
	h.Set("X-RateLimit-Reset", fmt.Sprintf("%.3f", float64(time.Now().Add(time.Duration(after*float64(time.Second))).UnixNano())/1e9))
	h.Set("X-RateLimit-Scope", "user")
	writeJSON(w, http.StatusTooManyRequests, map[string]any{"message": "You are being rate limited.", "retry_after": after, "global": false})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
