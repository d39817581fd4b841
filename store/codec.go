package store

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"
)

// toFirestore turns a JSON-marshalling value into the map Firestore stores, so
// documents carry the same camelCase names the domain's json tags give and web
// clients read. Whole numbers stay integers.
func toFirestore(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return firestoreValue(b)
}

// firestoreValue is JSON text b as the value Firestore stores (toFirestore):
// objects map[string]any, arrays []any, whole numbers int64, other numbers
// float64. json.Marshal's text is parsed in one pass (jsonvalue.go); any
// other text goes to encoding/json, as all of it did before.
func firestoreValue(b []byte) (any, error) {
	p := valueParser{b: b}
	if v, ok := p.value(); ok && p.i == len(b) {
		return v, nil
	}
	return decodeValue(b)
}

// decodeValue is firestoreValue by encoding/json.
func decodeValue(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var out any
	if err := dec.Decode(&out); err != nil {
		return nil, err
	}
	return numbers(out), nil
}

func numbers(v any) any {
	switch t := v.(type) {
	case json.Number:
		if i, err := t.Int64(); err == nil {
			return i
		}
		f, _ := t.Float64()
		return f
	case map[string]any:
		for k, x := range t {
			t[k] = numbers(x)
		}
	case []any:
		for i, x := range t {
			t[i] = numbers(x)
		}
	}
	return v
}

// fromFirestore fills v (a pointer) from a value read from Firestore.
func fromFirestore(data any, v any) error {
	b, err := json.Marshal(jsonable(data))
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("store: decode %T: %w", v, err)
	}
	return nil
}

// jsonable makes Firestore timestamps marshal as RFC 3339 like time.Time does.
func jsonable(v any) any {
	switch t := v.(type) {
	case time.Time:
		return t.UTC().Format(time.RFC3339Nano)
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, x := range t {
			out[k] = jsonable(x)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = jsonable(x)
		}
		return out
	}
	return v
}
