package store

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/meeple-games/meeple/domain"
)

// packedFields is value v as a document's fields, those named in names
// (domain.Slot.Packed) as their JSON text, listed in the field
// domain.PackedField so a reader (the platform, a web client) can tell
// without knowing the slot; a field the value left out (omitempty) is not
// listed. v is marshalled once and only its other fields are decoded into
// Firestore values: decoding a packed field into maps and marshalling them
// back took a Tile Race board's write about 300 µs, this about 80
// (BenchmarkDocFields, on the 2-core machine of docs/firestore.md).
//
// Errors: v does not marshal to a JSON object, or has a field "packed".
func packedFields(v any, names []string) (map[string]any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(b, &top); err != nil || top == nil {
		return nil, fmt.Errorf("store: a document must marshal to a JSON object, not %.20s", b)
	}
	if _, taken := top[domain.PackedField]; taken {
		return nil, fmt.Errorf("store: a document may not have a field %q (the platform's list of packed fields)", domain.PackedField)
	}
	doc := make(map[string]any, len(top)+1)
	for k, raw := range top {
		if slices.Contains(names, k) {
			if doc[k], err = packedValue(raw); err != nil { // json.Marshal's text: compact
				return nil, err
			}
			continue
		}
		if doc[k], err = firestoreValue(raw); err != nil {
			return nil, err
		}
	}
	var list []any
	for _, n := range names {
		if _, ok := top[n]; ok {
			list = append(list, n)
		}
	}
	if len(list) > 0 {
		doc[domain.PackedField] = list
	}
	return doc, nil
}

// objectFields is value v as a document's fields (toFirestore).
//
// Errors: v does not marshal to a JSON object.
func objectFields(v any) (map[string]any, error) {
	m, err := toFirestore(v)
	if err != nil {
		return nil, err
	}
	doc, ok := m.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("store: a document must marshal to a JSON object, not %T", m)
	}
	return doc, nil
}

// unpacked is a stored document's fields as the game's type reads them: the
// packed fields' JSON text (packedText) as json.RawMessage, the list
// dropped. A document without the list is returned as it is.
//
// Errors: a deflated field that does not inflate.
func unpacked(data map[string]any) (map[string]any, error) {
	list := packedNames(data)
	if list == nil {
		return data, nil
	}
	out := make(map[string]any, len(data))
	for k, v := range data {
		out[k] = v
	}
	delete(out, domain.PackedField)
	for _, name := range list {
		text, ok, err := packedText(out[name])
		if err != nil {
			return nil, fmt.Errorf("store: packed field %q: %w", name, err)
		}
		if ok {
			out[name] = text // as stored: json.Marshal's text (docJSON)
		}
	}
	return out, nil
}

// A packed field is stored as its JSON text deflated (raw RFC 1951, at the
// log's level: logpack.go), as Firestore bytes, once the text is packMin
// bytes or more; shorter, and in documents written before, as the text
// itself (a string). Readers take either (packedText; web/src/firebase.ts
// unpack). A game state's JSON repeats its keys and ids: a Hex & Dice
// state of 3.3–6.4 KB deflates to 1.2–1.8 KB, a Tile Race public board's
// tiles (10 KB) to about 2. Every listener's snapshot of the document is
// that much smaller (Firestore bills the bytes it sends), and the game
// document's log has that much more of its budget (DocBudget): fewer
// history batches in games whose steps are large (issue 22).
const packMin = 256

// PackText, set before the store writes anything, writes packed fields as
// their text whatever their size (what releases before 2026-11-28 wrote
// and alone read): the first step of a two-step upgrade, so instances of
// the old release that still serve requests while the new one rolls out
// read what the new one writes (docs/deploy.md, "Upgrading"). Readers take
// both forms either way. Deployed functions set it from
// MEEPLE_PACK_TEXT=1 (store.Default).
var PackText bool

// packedTexts remembers the packed values this process made and read, by
// their text, and packedBytes the texts by the value: a game document
// written from one text is deflated once (its log's budget counts the
// stored size, and the write stores it), and the next action on it, which
// reads it back (or takes it from its warm copy), does not inflate it.
var (
	packedTexts = &fifo[[]byte]{max: logMemoSize}
	packedBytes = &fifo[json.RawMessage]{max: logMemoSize}
)

// packedValue is a packed field's JSON text as the store writes it: deflated
// bytes, or under packMin bytes the text as a string. The caller must not
// change the bytes returned.
func packedValue(text []byte) (any, error) {
	if len(text) < packMin || PackText {
		return string(text), nil
	}
	key := string(text)
	if b, ok := packedTexts.get(key); ok {
		return b, nil
	}
	b, err := deflate(text)
	if err != nil {
		return nil, err
	}
	packedTexts.put(key, b)
	packedBytes.put(string(b), json.RawMessage(key))
	return b, nil
}

// packedSize is how many bytes a packed field of text takes stored.
func packedSize(text []byte) (int, error) {
	v, err := packedValue(text)
	if b, ok := v.([]byte); ok {
		return len(b), err
	}
	return len(text), err
}

// packedText is the JSON text a packed field's stored value holds: a
// string's text as it is, bytes inflated; false for anything else (a field
// left out).
func packedText(v any) (json.RawMessage, bool, error) {
	switch t := v.(type) {
	case string:
		return json.RawMessage(t), true, nil
	case []byte:
		if text, ok := packedBytes.get(string(t)); ok {
			return text, true, nil
		}
		text, err := inflate(t)
		if err != nil {
			return nil, false, err
		}
		packedBytes.put(string(t), text)
		return text, true, nil
	}
	return nil, false, nil
}

// packedNames is the document's list of packed fields: as Firestore returns
// it, or as the store wrote it (a replay's documents in memory); nil when
// the document has none.
func packedNames(data map[string]any) []string {
	switch l := data[domain.PackedField].(type) {
	case []string:
		return l
	case []any:
		out := make([]string, 0, len(l))
		for _, n := range l {
			if s, ok := n.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// fieldJSON is one field of a stored document as JSON: a packed field's
// text as it is, any other marshalled (timestamps as RFC 3339).
func fieldJSON(data map[string]any, name string) (json.RawMessage, error) {
	if slices.Contains(packedNames(data), name) {
		text, ok, err := packedText(data[name])
		if err != nil {
			return nil, fmt.Errorf("store: packed field %q: %w", name, err)
		}
		if ok {
			if !json.Valid(text) {
				return nil, fmt.Errorf("store: packed field %q is not JSON", name)
			}
			return text, nil
		}
	}
	return json.Marshal(jsonable(data[name]))
}

// Unpacked is a stored document's fields with its packed fields
// (domain.Slot.Packed, a game document's state) parsed back as Firestore
// would have held them as fields: whole numbers int64, other numbers
// float64, objects map[string]any. For tests and tools that look into
// documents directly; a document without packed fields is returned as it is.
//
// A deflated log (logpack.go) comes back as the JSON text it holds, as a log
// was stored before logs were deflated.
func Unpacked(data map[string]any) (map[string]any, error) {
	out, err := unpacked(data)
	if err != nil {
		return nil, err
	}
	if b, ok := out[fLog].([]byte); ok {
		text, err := LogText(b)
		if err != nil {
			return nil, err
		}
		out = maps.Clone(out) // unpacked may return data itself
		out[fLog] = text
	}
	for name, v := range out {
		raw, ok := v.(json.RawMessage)
		if !ok {
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		var parsed any
		if err := dec.Decode(&parsed); err != nil {
			return nil, fmt.Errorf("store: packed field %q: %w", name, err)
		}
		out[name] = numbers(parsed)
	}
	return out, nil
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
