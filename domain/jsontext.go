package domain

import (
	"bytes"
	"encoding/json"
)

// SplitArray splits a JSON array into its elements' text in one pass, as
// json.Unmarshal into []json.RawMessage would (which scans it twice, to
// check it and to decode it, and copies every element). false when raw is
// not an array it can split — a JSON string holding one (a log as an older
// release stored it), or text that is not JSON — and the caller decodes it
// instead. Each element is still checked to be whole: brackets and braces
// balanced outside strings, strings closed. The elements are raw's own
// bytes.
func SplitArray(raw []byte) ([]json.RawMessage, bool) {
	body, ok := inside(raw, '[', ']')
	if !ok {
		return nil, false
	}
	return splitTop(body)
}

// SplitObject splits a JSON object into its members' values by name in one
// pass, as SplitArray splits an array; false as SplitArray is, and for a
// name spelt with escapes (the caller decodes the object instead). A name
// given twice keeps its last value, as json.Unmarshal does.
func SplitObject(raw []byte) (map[string]json.RawMessage, bool) {
	body, ok := inside(raw, '{', '}')
	if !ok {
		return nil, false
	}
	members, ok := splitTop(body)
	if !ok {
		return nil, false
	}
	out := make(map[string]json.RawMessage, len(members))
	for _, m := range members {
		if len(m) < 2 || m[0] != '"' {
			return nil, false
		}
		end := bytes.IndexByte(m[1:], '"') + 1
		if end < 1 || bytes.IndexByte(m[1:end], '\\') >= 0 {
			return nil, false
		}
		rest := bytes.TrimSpace(m[end+1:])
		if len(rest) < 2 || rest[0] != ':' {
			return nil, false
		}
		out[string(m[1:end])] = bytes.TrimSpace(rest[1:])
	}
	return out, true
}

// inside is the text between raw's opening and closing brackets.
func inside(raw []byte, open, close byte) ([]byte, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) < 2 || raw[0] != open || raw[len(raw)-1] != close {
		return nil, false
	}
	return raw[1 : len(raw)-1], true
}

// splitTop splits a container's body at its top-level commas.
func splitTop(body []byte) ([]json.RawMessage, bool) {
	var out []json.RawMessage
	depth, start := 0, -1
	for i := 0; i < len(body); i++ {
		c := body[i]
		switch c {
		case ' ', '\t', '\n', '\r':
			continue
		case ',':
			if depth == 0 {
				if start < 0 {
					return nil, false // an empty element
				}
				out = append(out, bytes.TrimSpace(body[start:i]))
				start = -1
				continue
			}
		case '"':
			end, ok := stringEnd(body, i)
			if !ok {
				return nil, false // a string not closed
			}
			if start < 0 {
				start = i
			}
			i = end
			continue
		case '{', '[':
			depth++
		case '}', ']':
			if depth--; depth < 0 {
				return nil, false
			}
		}
		if start < 0 {
			start = i
		}
	}
	if depth != 0 {
		return nil, false
	}
	if start >= 0 {
		out = append(out, bytes.TrimSpace(body[start:]))
	} else if len(out) > 0 {
		return nil, false // a trailing comma
	}
	return out, true
}

// stringEnd is the index of the quote that closes the string opening at
// b[i]: the next quote not escaped (after an even run of backslashes).
func stringEnd(b []byte, i int) (int, bool) {
	for j := i + 1; ; j++ {
		k := bytes.IndexByte(b[j:], '"')
		if k < 0 {
			return 0, false
		}
		j += k
		n := 0
		for m := j - 1; m > i && b[m] == '\\'; m-- {
			n++
		}
		if n%2 == 0 {
			return j, true
		}
	}
}
