package stack

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"

	"github.com/meeple-games/meeple/domain"
)

// Post calls a function of the local stack the way any client does and
// returns its decoded JSON reply; a non-200 reply is an error.
func Post(ctx context.Context, url, token string, body any) (map[string]any, error) {
	b, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var out map[string]any
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, fmt.Errorf("%s: %s", resp.Status, raw)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s: %s", resp.Status, raw)
	}
	return out, nil
}

// Caller is the stack's domain.Caller: HTTP to its own functions.
func (s *Stack) Caller() domain.Caller { return caller{s} }

type caller struct{ s *Stack }

func (c caller) Call(ctx context.Context, function, token string, body any) (map[string]any, error) {
	return Post(ctx, c.URL(function), token, body)
}

func (c caller) Guest(ctx context.Context, nickname string) (map[string]any, error) {
	return Post(ctx, c.URL("Auth"), "", map[string]any{"type": "guest", "nickname": nickname})
}

func (c caller) URL(function string) string { return c.s.FunctionsURL + "/" + function }

func (c caller) FirestoreHost() string { return c.s.FirestoreHost }
