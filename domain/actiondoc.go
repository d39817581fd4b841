package domain

import (
	"reflect"
	"sort"
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
	Type string // JSON type: string, integer, number, boolean, array of …, object
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

// FieldsOf lists the JSON fields of a request struct with their JSON types,
// sorted by name (embedded structs' included).
func FieldsOf(v any) []Field {
	t := reflect.TypeOf(v)
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil || t.Kind() != reflect.Struct {
		return nil
	}
	var out []Field
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || (!f.IsExported() && !f.Anonymous) {
			continue
		}
		if f.Anonymous && name == "" {
			out = append(out, FieldsOf(reflect.New(f.Type).Interface())...)
			continue
		}
		if name == "" {
			name = f.Name
		}
		out = append(out, Field{Name: name, Type: jsonType(f.Type)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
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
