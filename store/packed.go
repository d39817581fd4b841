package store

import (
	"encoding/json"
	"fmt"

	"github.com/meeple-games/meeple/domain"
)

// pack replaces doc's fields named in names (domain.Slot.Packed) by their
// JSON text and lists the ones it packed in the field domain.PackedField,
// so a reader (the platform, a web client) can tell without knowing the
// slot. A field the value left out (omitempty) is not listed.
func pack(doc map[string]any, names []string) error {
	if len(names) == 0 {
		return nil
	}
	if _, taken := doc[domain.PackedField]; taken {
		return fmt.Errorf("store: a document may not have a field %q (the platform's list of packed fields)", domain.PackedField)
	}
	var list []any
	for _, n := range names {
		v, ok := doc[n]
		if !ok {
			continue
		}
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		doc[n] = string(b)
		list = append(list, n)
	}
	if len(list) > 0 {
		doc[domain.PackedField] = list
	}
	return nil
}

// unpacked is a stored document's fields as the game's type reads them: the
// packed fields parsed back (as raw JSON), the list dropped. A document
// without the list is returned as it is.
func unpacked(data map[string]any) map[string]any {
	list, ok := data[domain.PackedField].([]any)
	if !ok {
		return data
	}
	out := make(map[string]any, len(data))
	for k, v := range data {
		out[k] = v
	}
	delete(out, domain.PackedField)
	for _, n := range list {
		name, _ := n.(string)
		if s, ok := out[name].(string); ok {
			out[name] = json.RawMessage(s) // checked once, where it is marshalled (docJSON)
		}
	}
	return out
}

// DecodeDoc fills v (a pointer) from a game document's stored fields as a
// game reads them: packed fields parsed (domain.Slot.Packed), timestamps as
// RFC 3339. For tests and tools that read documents directly.
func DecodeDoc(data map[string]any, v any) error {
	b, err := docJSON(data)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}
