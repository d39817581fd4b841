// Package domain holds the vocabulary every game shares: error codes, actors,
// events, dice and the shape of a rule set. It imports only the standard library.
package domain

import (
	"errors"
	"fmt"
)

// Error codes. They name what went wrong from the caller's point of view; the
// functions package maps each to one HTTP status in a single table.
const (
	EINVALID      = "invalid_argument"    // the request itself is malformed or illegal
	ECONFLICT     = "failed_precondition" // legal request, wrong moment (not your turn, game over)
	ENOTFOUND     = "not_found"           // no such game, room, player
	EUNAUTHORIZED = "unauthenticated"     // no or bad credentials
	EFORBIDDEN    = "permission_denied"   // known caller, not allowed
	EEXISTS       = "already_exists"      // name taken, action id reused differently
	ELIMIT        = "resource_exhausted"  // rate limited: try again later
	ETOOLARGE     = "too_large"           // the request body is over the cap
	EUNAVAILABLE  = "unavailable"         // contention or an outage that did not clear in time: retry the same request
	EINTERNAL     = "internal"            // a bug; details are logged with a request id, not returned
)

// Error is an error the domain expects and can explain to a caller.
type Error struct {
	Code    string
	Message string
	// Details, when set, is sent to the caller with the message: for example
	// every located problem of a refused board file.
	Details any
	// Then are system actions the platform runs on the same game after
	// this refusal, each in a transaction of its own (Tile Race turns the
	// fog off after a randomiser could not meet its constraints). The
	// refused action itself still writes nothing.
	Then []Action
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

// Errorf returns an *Error with the given code and a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// ErrorDetails returns the details of an *Error, nil for anything else.
func ErrorDetails(err error) any {
	var e *Error
	if errors.As(err, &e) {
		return e.Details
	}
	return nil
}

// ErrorCode returns the code of err, EINTERNAL for an error the domain did not
// make, and "" for nil.
func ErrorCode(err error) string {
	var e *Error
	switch {
	case err == nil:
		return ""
	case errors.As(err, &e):
		return e.Code
	default:
		return EINTERNAL
	}
}

// ErrorMessage returns the caller-facing message of err. Errors the domain did not
// make are not explained: their text may hold internals.
func ErrorMessage(err error) string {
	var e *Error
	switch {
	case err == nil:
		return ""
	case errors.As(err, &e):
		return e.Message
	default:
		return "internal error"
	}
}
