package functions

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"regexp"
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

// typeRE is what an action type looks like.
var typeRE = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_-]{0,63}$`)

// readBody reads a request body of at most max bytes.
//
// Errors: ETOOLARGE, EINVALID (unreadable).
func readBody(r *http.Request, max int) ([]byte, error) {
	body, err := io.ReadAll(io.LimitReader(r.Body, int64(max)+1))
	if err != nil {
		return nil, domain.Errorf(domain.EINVALID, "cannot read request body")
	}
	if len(body) > max {
		return nil, domain.Errorf(domain.ETOOLARGE, "request body over %d bytes", max)
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
	if !typeRE.MatchString(e.Type) {
		return e, domain.Errorf(domain.EINVALID, "type %s is not an action type: a name of up to 64 letters and digits", domain.Quote(e.Type))
	}
	if e.GameID != "" {
		if err := domain.CheckID("gameId", e.GameID); err != nil {
			return e, err
		}
	}
	if e.ActionID != "" {
		if err := domain.CheckID("actionId", e.ActionID); err != nil {
			return e, err
		}
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
		want := kindName(typeErr.Type.Kind().String())
		if want == "a whole number" && strings.HasPrefix(typeErr.Value, "number") {
			return domain.Errorf(domain.EINVALID, "field %q must be a whole number", typeErr.Field)
		}
		return domain.Errorf(domain.EINVALID, "field %q must be %s, not %s", typeErr.Field, want, typeErr.Value)
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
	case "int", "int64", "int32", "uint", "uint64", "ptr":
		return "a whole number"
	case "float64", "float32":
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
