package domain

import (
	"bytes"
	"encoding/json"
	"errors"
)

// DecodePayload fills v from an action's payload (the whole request body),
// taking only the fields v names; a nil v only checks the payload is a JSON
// object. An empty payload counts as {}. Every game's rules decode with it.
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
	if v == nil { // no fields needed
		return nil
	}
	if err := json.Unmarshal(p, v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			return Errorf(EINVALID, "field %q must be %s", te.Field, jsonKind(te.Type.Kind().String()))
		}
		return Errorf(EINVALID, "malformed payload: the request body must be a JSON object")
	}
	return nil
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
