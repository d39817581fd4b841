package functions_test

import (
	"encoding/json"
	"strings"
)

// logSteps is a game document's log as steps, as Firestore holds it: a JSON
// string (store/log.go), or an array in a document written before. Whole
// numbers come out as int64, as Firestore gives them.
func logSteps(v any) []any {
	var list []any
	switch x := v.(type) {
	case string:
		d := json.NewDecoder(strings.NewReader(x))
		d.UseNumber()
		if d.Decode(&list) != nil {
			return nil
		}
		return normalized(list).([]any)
	case []any:
		return x
	}
	return nil
}

func normalized(v any) any {
	switch x := v.(type) {
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return i
		}
		f, _ := x.Float64()
		return f
	case []any:
		for i := range x {
			x[i] = normalized(x[i])
		}
	case map[string]any:
		for k := range x {
			x[k] = normalized(x[k])
		}
	}
	return v
}
