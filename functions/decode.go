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

// DecodeEnvelope checks that body is one JSON object and reads its envelope;
// every field the platform reads itself (domain.PlatformRequest: gameId,
// actionId, version, seed, roomCode, password) is checked by its declared
// kind, whichever action it comes with.
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
	if err := domain.CheckFields(body, domain.PlatformRequest{}); err != nil {
		return e, err
	}
	return e, nil
}

// payloads are a game's actions by type, each with the request struct its
// ActionDoc declares (domain.ActionDocer): what checkPayload checks a
// request's payload against.
type payloads map[string]domain.ActionDoc

// payloadsOf reads a game's ActionDocs once, when its function is made.
func payloadsOf(g domain.Game) payloads {
	out := payloads{}
	if docer, ok := g.(domain.ActionDocer); ok {
		for _, d := range docer.ActionDocs() {
			out[d.Type] = d
		}
	}
	return out
}

// check decodes payload (the body without what the platform takes out of
// it) as action typ's documented request, with every field's declared kind
// (domain.CheckPayload), before anything is read and before any game code
// runs: a malformed field is a 400 naming it whichever code reads it later,
// and nothing is stored. A type the game does not document (legal, advance,
// an unknown type) is left to the game.
//
// Errors: EINVALID naming the field.
func (p payloads) check(typ string, payload json.RawMessage) error {
	d, ok := p[typ]
	if !ok {
		return nil
	}
	return domain.CheckPayload(payload, d.Payload)
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
		// Value is the JSON kind sent, and for a number its digits too,
		// which are not echoed (a number may be 60 KiB long).
		got, _, _ := strings.Cut(typeErr.Value, " ")
		if want == "a whole number" && got == "number" {
			return domain.Errorf(domain.EINVALID, "field %s must be a whole number", domain.Quote(typeErr.Field))
		}
		return domain.Errorf(domain.EINVALID, "field %s must be %s, not %s", domain.Quote(typeErr.Field), want, got)
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
