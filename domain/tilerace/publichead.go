package tilerace

import (
	"bytes"
	"encoding/json"
	"strconv"
)

// readPublicHead reads the head of the public board's JSON: how far the fog
// is lifted, and where each tile's JSON lies, no tile decoded. Every
// completion reads it, and encoding/json took about 80 µs of a completion's
// processor time to cut a 10 KB board into its tiles (it checks the whole
// text, then scans it again and copies every tile); this walks it once
// (BenchmarkReadPublicHead). The one tile a completion uses is decoded, and
// so checked, by encoding/json (tileOfCompletion). Anything the walk does
// not expect (a key spelt with escapes or in another case, a number that is
// not a whole one, text that is not JSON) goes to encoding/json, which has
// the last word.
//
// Errors: what json.Unmarshal returns.
func readPublicHead(raw []byte) (publicHead, error) {
	if h, ok := walkPublicHead(raw); ok {
		return h, nil
	}
	var h publicHead
	err := json.Unmarshal(raw, &h)
	return h, err
}

// walkPublicHead is readPublicHead's walk; false when b is not what it
// expects.
func walkPublicHead(b []byte) (h publicHead, ok bool) {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return h, false
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return h, skipSpace(b, i+1) == len(b)
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return h, false
		}
		end, ok := skipString(b, i)
		if !ok {
			return h, false
		}
		key := b[i+1 : end-1]
		if bytes.IndexByte(key, '\\') >= 0 {
			return h, false
		}
		i = skipSpace(b, end)
		if i >= len(b) || b[i] != ':' {
			return h, false
		}
		i = skipSpace(b, i+1)
		switch {
		case string(key) == "revealedUpTo":
			j := i
			for j < len(b) && (b[j] == '-' || (b[j] >= '0' && b[j] <= '9')) {
				j++
			}
			n, err := strconv.Atoi(string(b[i:j]))
			if err != nil {
				return h, false
			}
			h.RevealedUpTo, i = n, j
		case string(key) == "tiles":
			var tiles []json.RawMessage
			if i, tiles, ok = walkTiles(b, i); !ok {
				return h, false
			}
			h.Tiles = tiles
		case bytes.EqualFold(key, []byte("revealedUpTo")), bytes.EqualFold(key, []byte("tiles")):
			return h, false // encoding/json matches names in any case
		default:
			if i, ok = skipValue(b, i); !ok {
				return h, false
			}
		}
		i = skipSpace(b, i)
		switch {
		case i < len(b) && b[i] == ',':
			i = skipSpace(b, i+1)
		case i < len(b) && b[i] == '}':
			return h, skipSpace(b, i+1) == len(b)
		default:
			return h, false
		}
	}
}

// walkTiles cuts the array at b[i:] (or null) into its elements' JSON, and
// returns the index after it.
func walkTiles(b []byte, i int) (int, []json.RawMessage, bool) {
	if bytes.HasPrefix(b[i:], []byte("null")) {
		return i + len("null"), nil, true
	}
	if i >= len(b) || b[i] != '[' {
		return i, nil, false
	}
	tiles := []json.RawMessage{}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == ']' {
		return i + 1, tiles, true
	}
	for {
		end, ok := skipValue(b, i)
		if !ok {
			return i, nil, false
		}
		tiles = append(tiles, b[i:end])
		i = skipSpace(b, end)
		switch {
		case i < len(b) && b[i] == ',':
			i = skipSpace(b, i+1)
		case i < len(b) && b[i] == ']':
			return i + 1, tiles, true
		default:
			return i, nil, false
		}
	}
}

// skipValue returns the index just after the JSON value that starts at
// b[i]. Only strings and nesting are followed: the value is not checked.
func skipValue(b []byte, i int) (int, bool) {
	if i >= len(b) {
		return i, false
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				end, ok := skipString(b, j)
				if !ok {
					return j, false
				}
				j = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1, true
				}
			}
		}
		return len(b), false
	}
	j := i
	for ; j < len(b); j++ {
		switch b[j] {
		case ',', '}', ']', ' ', '\t', '\r', '\n':
			return j, j > i
		}
	}
	return j, j > i
}

// skipString returns the index just after the string that starts at b[i]
// (a double quote).
func skipString(b []byte, i int) (int, bool) {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1, true
		}
	}
	return len(b), false
}

// skipSpace returns the index of the first byte at or after i that is not
// JSON white space.
func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}
