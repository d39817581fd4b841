// Package functions holds the HTTP Cloud Functions: decode, authenticate, run
// the action transaction, reply. Every game's endpoint goes through the same
// pipeline; only the rules differ.
package functions

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/meeple-games/meeple/domain"
)

// statusOf is the one table from domain error codes to HTTP status.
var statusOf = map[string]int{
	domain.EINVALID:      http.StatusBadRequest,
	domain.ECONFLICT:     http.StatusConflict,
	domain.ENOTFOUND:     http.StatusNotFound,
	domain.EUNAUTHORIZED: http.StatusUnauthorized,
	domain.EFORBIDDEN:    http.StatusForbidden,
	domain.EEXISTS:       http.StatusConflict,
	domain.ELIMIT:        http.StatusTooManyRequests,
	domain.ETOOLARGE:     http.StatusRequestEntityTooLarge,
	domain.EUNAVAILABLE:  http.StatusServiceUnavailable,
	domain.EINTERNAL:     http.StatusInternalServerError,
}

// RetryAfter is what a 503 tells a client to wait before sending the same
// request (same actionId) again.
const RetryAfter = "1"

// ErrorBody is the JSON body of every error reply.
type ErrorBody struct {
	Error struct {
		Code    string `json:"code"`
		Message string `json:"message"`
		Details any    `json:"details,omitempty"`
		// RequestID names a 500 in the log (the message says nothing more).
		RequestID string `json:"requestId,omitempty"`
	} `json:"error"`
}

func writeError(w http.ResponseWriter, r *http.Request, err error) {
	err = unavailable(err)
	code := domain.ErrorCode(err)
	status, ok := statusOf[code]
	if !ok {
		status = http.StatusInternalServerError
	}
	var body ErrorBody
	body.Error.Code, body.Error.Message, body.Error.Details = code, domain.ErrorMessage(err), domain.ErrorDetails(err)
	switch code {
	case domain.EINTERNAL:
		id := requestID()
		slog.Error("internal error", "requestId", id, "path", r.URL.Path, "err", err)
		body.Error.RequestID = id
		body.Error.Message = "internal error; quote request id " + id
		w.Header().Set("X-Request-Id", id)
	case domain.EUNAVAILABLE:
		slog.Warn("unavailable", "path", r.URL.Path, "err", err)
		w.Header().Set("Retry-After", RetryAfter)
	}
	writeJSON(w, status, body)
}

// unavailable turns what a retry can clear — Firestore contention (Aborted),
// an outage, a deadline — into EUNAVAILABLE: a 503 with Retry-After, never a
// 500. The store has already retried within its budget.
func unavailable(err error) error {
	if err == nil || errors.As(err, new(*domain.Error)) {
		return err
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return domain.Errorf(domain.EUNAVAILABLE, "the request took too long; send it again (same actionId)")
	}
	switch status.Code(err) {
	case codes.Aborted:
		// Contention: other requests wrote the same documents (a game's, a
		// player's, a sign-in's throttle) first, for the whole retry budget.
		return domain.Errorf(domain.EUNAVAILABLE, "busy: other requests are changing the same documents; send the same request again (same actionId)")
	case codes.Unavailable, codes.DeadlineExceeded, codes.ResourceExhausted:
		return domain.Errorf(domain.EUNAVAILABLE, "the database is unavailable or overloaded; send the same request again (same actionId)")
	}
	return err
}

func requestID() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	switch b := v.(type) {
	case json.RawMessage:
		w.Write(b)
	default:
		json.NewEncoder(w).Encode(v)
	}
}
