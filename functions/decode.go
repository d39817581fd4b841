package functions

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/meeple-games/meeple/domain"
)

// MaxBody caps a request body. Actions are small; anything bigger is refused
// before it is parsed. A function that takes uploads (a board file) sets its
// own, larger cap.
const MaxBody = 64 << 10

// Envelope is the part of every action request the shared pipeline reads; the
// rest of the body is the game's payload.
type Envelope struct {
	GameID   string `json:"gameId"`
	ActionID string `json:"actionId"`
	Type     string `json:"type"`
	// Version, when sent, is the game version the client acted on; the action
	// is refused as stale if the game has moved on.
	Version *int64 `json:"version"`
	// Seed is a create's chosen seed, so a whole game replays: the local
	// stack only.
	Seed string `json:"seed"`
}

// readBody reads a request body of at most max bytes.
//
// Errors: ELIMIT (too large), EINVALID (unreadable).
func readBody(r *http.Request, max int) ([]byte, error) {
	body, err := io.ReadAll(io.LimitReader(r.Body, int64(max)+1))
	if err != nil {
		return nil, domain.Errorf(domain.EINVALID, "cannot read request body")
	}
	if len(body) > max {
		return nil, domain.Errorf(domain.ELIMIT, "request body over %d bytes", max)
	}
	return body, nil
}

// DecodeEnvelope checks that body is one JSON object and reads its envelope.
//
// Errors: EINVALID, naming the field at fault.
func DecodeEnvelope(body []byte) (Envelope, error) {
	var e Envelope
	if err := decodeObject(body, &e); err != nil {
		return e, err
	}
	if e.Type == "" {
		return e, domain.Errorf(domain.EINVALID, "type is required")
	}
	if len(e.ActionID) > 128 || len(e.GameID) > 128 {
		return e, domain.Errorf(domain.EINVALID, "gameId and actionId are at most 128 characters")
	}
	if strings.Contains(e.ActionID, "/") || strings.Contains(e.GameID, "/") {
		return e, domain.Errorf(domain.EINVALID, "gameId and actionId may not contain '/'")
	}
	return e, nil
}

// decodeObject decodes body, which must be exactly one JSON object, into v and
// explains what is wrong in terms a client can fix.
//
// Errors: EINVALID.
func decodeObject(body []byte, v any) error {
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 {
		return domain.Errorf(domain.EINVALID, "request body is empty; send a JSON object")
	}
	if trimmed[0] != '{' {
		return domain.Errorf(domain.EINVALID, "request body must be a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	if err := dec.Decode(v); err != nil {
		return jsonError(err)
	}
	if dec.More() {
		return domain.Errorf(domain.EINVALID, "request body must hold one JSON object")
	}
	return nil
}

func jsonError(err error) error {
	var typeErr *json.UnmarshalTypeError
	var syntaxErr *json.SyntaxError
	switch {
	case errors.As(err, &typeErr):
		return domain.Errorf(domain.EINVALID, "field %q must be %s, not %s", typeErr.Field, kindName(typeErr.Type.Kind().String()), typeErr.Value)
	case errors.As(err, &syntaxErr):
		return domain.Errorf(domain.EINVALID, "malformed JSON at byte %d: %v", syntaxErr.Offset, syntaxErr)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return domain.Errorf(domain.EINVALID, "malformed JSON: unexpected end of input")
	default:
		return domain.Errorf(domain.EINVALID, "malformed JSON: %v", err)
	}
}

func kindName(k string) string {
	switch k {
	case "int", "int64", "int32", "uint", "uint64", "float64":
		return "a number"
	case "ptr":
		return "a number"
	case "string":
		return "a string"
	case "bool":
		return "a boolean"
	case "slice":
		return "an array"
	case "struct", "map":
		return "an object"
	}
	return fmt.Sprintf("a %s", k)
}
