package functions_test

import "encoding/json"

// logSteps is a game document's log as steps, as Firestore holds it: a JSON
// string (store/log.go), or an array in a document written before. Decoded
// from the string, numbers are float64.
func logSteps(v any) []any {
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
