package domain

import (
	"reflect"
	"strings"
)

// ActionDoc describes one action of a game for the API reference
// (docs/reference.md, generated from the registry by cmd/apidoc). Payload is
// a zero value of the very struct the action decodes with DecodePayload, so
// the reference lists what the code reads; the conformance kit
// (rulestest) sends every action it plays again with an unknown field and
// checks that the refusal names exactly these fields.
type ActionDoc struct {
	Type string
	// Payload is the request struct (nil: the action takes no fields of
	// its own besides the envelope).
	Payload any
	// Who may call it, in a few words ("a player of the match", "an admin").
	Who string
	// Summary says what it does, in one line.
	Summary string
	// Platform lists fields the platform reads itself before the game sees
	// the request (a create's seed, a join's roomCode, a password).
	Platform []Field
}

// ActionDocer is implemented by every game: its actions as the API reference
// documents them. A test holds them equal to ActionTypes.
type ActionDocer interface {
	ActionDocs() []ActionDoc
}

// Field is one request field as the reference shows it.
type Field struct {
	Name string
	// Type is what the field holds: its declared kind (id, one of …,
	// integer 0 to 600, https URL, text ≤ 80, array ≤ 12 of …) or, for a
	// boolean or an object, its JSON type.
	Type string
}

// Fields lists the fields of an action's request, the platform's first.
func (d ActionDoc) Fields() []Field {
	out := append([]Field(nil), d.Platform...)
	return append(out, FieldsOf(d.Payload)...)
}

// ProbeField is a field no request takes: the conformance kit adds it to
// played actions to check that the refusal names the documented fields.
const ProbeField = "zzProbe"

// ProbeMessage is the refusal DecodePayload gives for ProbeField when the
// action decodes payload (nil: no fields).
func ProbeMessage(payload any) string {
	known := FieldNames(payload)
	if len(known) == 0 {
		return `unknown field "` + ProbeField + `": this action takes no fields`
	}
	return `unknown field "` + ProbeField + `": this action takes ` + strings.Join(known, ", ")
}

// FieldsOf lists the JSON fields of a request struct with what each holds
// (its declared kind, or its JSON type: fields.go), sorted by name
// (embedded structs' included).
func FieldsOf(v any) []Field {
	spec := specOf(reflect.TypeOf(v))
	if spec == nil {
		return nil
	}
	out := make([]Field, 0, len(spec.fields))
	for _, f := range spec.fields {
		out = append(out, Field{Name: f.name, Type: f.describe()})
	}
	return out
}

// PlatformRequest declares the request fields the platform reads itself,
// with their kinds (fields.go): the functions layer checks every request's
// with these tags before anything else, and the API reference shows them
// (PlatformField).
type PlatformRequest struct {
	GameID   string `json:"gameId" field:"id"`
	ActionID string `json:"actionId" field:"id"`
	// Version is the game version the client acted on.
	Version *int64 `json:"version" field:"int,min=0,max=9007199254740991"`
	// Seed is a create's chosen seed (the local stack only).
	Seed string `json:"seed" field:"text,max=128"`
	// RoomCode is a join's room code, typed by a person: case and spaces
	// are ignored, and what is left must be an id (CheckKey).
	RoomCode string `json:"roomCode" field:"text,max=32"`
	// Password is checked for length by the action (Passworder).
	Password string `json:"password" field:"text,max=72"`
	// BotAfter is a quickMatch's wait, in seconds, after which a strong
	// bot takes the other seat (games with bots: docs/bots.md).
	BotAfter *int64 `json:"botAfter" field:"int,min=1,max=600"`
}

// PlatformField is the reference's entry for a field the platform reads
// itself (a PlatformRequest field: seed, roomCode, password); note, when not
// empty, says when it applies.
func PlatformField(name, note string) Field {
	for _, f := range FieldsOf(PlatformRequest{}) {
		if f.Name == name {
			if note != "" {
				f.Type += " (" + note + ")"
			}
			return f
		}
	}
	panic("domain.PlatformField: no platform field " + name)
}

func jsonType(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.String() == "json.RawMessage" {
		return "any JSON"
	}
	if t.String() == "time.Time" {
		return "string (RFC 3339 time)"
	}
	switch t.Kind() {
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "integer"
	case reflect.Float32, reflect.Float64:
		return "number"
	case reflect.Slice, reflect.Array:
		return "array of " + jsonType(t.Elem())
	case reflect.Map:
		return "object of " + jsonType(t.Elem())
	case reflect.Interface:
		return "any JSON"
	}
	return "object"
}
