package domain

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strconv"
	"strings"
)

// Envelope are the fields of every request the platform reads itself; a
// payload may hold them and games never see them as fields.
var Envelope = []string{"gameId", "actionId", "type", "version"}

// DecodePayload fills v from an action's payload (the request body; the
// envelope's fields are skipped, and the platform has already taken out
// what it handles itself: a create's seed, a join's roomCode, a password).
// It is strict: a field v does not name is refused, naming it and the fields
// the action takes, so a typo surfaces instead of being ignored. Then every
// field sent is checked against the kind its `field` tag declares (an id, an
// enum, a bounded number, an https URL, text, a bounded list: fields.go). A
// nil v takes no fields. An empty payload counts as {}. Every game's rules
// decode with it. A message echoes at most 64 characters of what was sent.
//
// Errors: EINVALID, naming the field at fault.
func DecodePayload(p json.RawMessage, v any) error {
	p = bytes.TrimSpace(p)
	if len(p) == 0 {
		return nil
	}
	if p[0] != '{' || !json.Valid(p) {
		return Errorf(EINVALID, "malformed payload: the request body must be a JSON object")
	}
	if v == nil {
		v = &struct{}{}
	}
	// Strictly, without the envelope, into a scratch value: to find unknown
	// fields. Then into v from the bytes as sent, so raw fields (an uploaded
	// file) keep them exactly.
	strict := p
	var m map[string]json.RawMessage
	if err := json.Unmarshal(p, &m); err != nil {
		return Errorf(EINVALID, "malformed payload: the request body must be a JSON object")
	}
	n := len(m)
	for _, f := range Envelope {
		delete(m, f)
	}
	if len(m) != n {
		strict, _ = json.Marshal(m)
	}
	scratch := reflect.New(reflect.TypeOf(v).Elem()).Interface()
	dec := json.NewDecoder(bytes.NewReader(strict))
	dec.DisallowUnknownFields()
	err := dec.Decode(scratch)
	if err == nil {
		err = json.Unmarshal(p, v)
	}
	if err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			return Errorf(EINVALID, "field %s must be %s", Quote(te.Field), jsonKind(te.Type.Kind().String()))
		}
		if field, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
			if f, err := strconv.Unquote(field); err == nil {
				field = Quote(f) // a name sent is echoed cut short
			}
			known := FieldNames(v)
			if len(known) == 0 {
				return Errorf(EINVALID, "unknown field %s: this action takes no fields", field)
			}
			return Errorf(EINVALID, "unknown field %s: this action takes %s", field, strings.Join(known, ", "))
		}
		return Errorf(EINVALID, "malformed payload: the request body must be a JSON object")
	}
	// Then what each field holds, by the kind its tag declares (fields.go).
	if s := specOf(reflect.TypeOf(v)); s != nil {
		return s.check("", m)
	}
	return nil
}

// CheckPayload checks a payload as the action documented with payload (a
// zero value of its request struct, nil for none) decodes it, into a value
// of its own: the platform runs it before any game code, so a field's kind
// is enforced whichever code reads it, and when.
//
// Errors: as DecodePayload.
func CheckPayload(p json.RawMessage, payload any) error {
	if payload == nil {
		return DecodePayload(p, nil)
	}
	t := reflect.TypeOf(payload)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return DecodePayload(p, reflect.New(t).Interface())
}

// FieldNames lists the JSON field names a struct (or pointer to one) decodes,
// embedded structs' included, sorted.
func FieldNames(v any) []string {
	var out []string
	for _, f := range FieldsOf(v) {
		out = append(out, f.Name)
	}
	return out
}

func jsonKind(goKind string) string {
	switch goKind {
	case "string":
		return "a string"
	case "bool":
		return "true or false"
	case "struct", "map":
		return "an object"
	case "slice", "array":
		return "an array"
	case "float32", "float64":
		return "a number"
	}
	return "a whole number"
}
