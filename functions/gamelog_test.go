package functions_test

import (
	"encoding/json"

	"github.com/meeple-games/meeple/store"
)

// logSteps is a game document's log as steps, as Firestore holds it:
// deflated JSON (store/logpack.go), or a JSON string or an array in a
// document written before. Decoded
// from the string, numbers are float64.
func logSteps(v any) []any {
	if b, ok := v.([]byte); ok {
		text, err := store.LogText(b)
		if err != nil {
			return nil
		}
		v = text
	}
	switch x := v.(type) {
	case string:
		var list []any
		if json.Unmarshal([]byte(x), &list) != nil {
			return nil
		}
		return list
	case []any:
		return x
	}
	return nil
}
