// Package functions holds the HTTP Cloud Functions: decode, authenticate, run
// the action transaction, reply. Every game's endpoint goes through the same
// pipeline; only the rules differ.
package functions

import (
	"encoding/json"
	"log/slog"
	"net/http"

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
	domain.EINTERNAL:     http.StatusInternalServerError,
}

// ErrorBody is the JSON body of every error reply.
type ErrorBody struct {
	Error struct {
		Code    string `json:"code"`
		Message string `json:"message"`
		Details any    `json:"details,omitempty"`
	} `json:"error"`
}

func writeError(w http.ResponseWriter, r *http.Request, err error) {
	code := domain.ErrorCode(err)
	if code == domain.EINTERNAL {
		slog.Error("internal error", "path", r.URL.Path, "err", err)
	}
	status, ok := statusOf[code]
	if !ok {
		status = http.StatusInternalServerError
	}
	var body ErrorBody
	body.Error.Code, body.Error.Message, body.Error.Details = code, domain.ErrorMessage(err), domain.ErrorDetails(err)
	writeJSON(w, status, body)
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
