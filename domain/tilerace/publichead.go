package tilerace

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/meeple-games/meeple/domain"
)

// read fills h from the public board's JSON: how far the fog is lifted, and
// each tile's JSON, no tile decoded. Every completion reads it, and
// encoding/json took about 80 µs of a completion's processor time to cut a
// 10 KB board into its tiles (it checks the whole text, then scans it again
// and copies every tile); split in one pass (domain.SplitObject,
// domain.SplitArray) it takes about a third of that (32 µs against 12 on the
// test race's 4 KB board, BenchmarkReadPublicHead). The one tile
// a completion uses is decoded, and so checked, by encoding/json
// (tileOfCompletion). Anything the split does not expect (a name spelt with
// escapes or in another case, a frontier that is not a whole number, text
// that is not JSON) goes to encoding/json, which has the last word.
//
// Errors: what json.Unmarshal returns.
func (h *publicHead) read(raw json.RawMessage) error {
	if s, ok := splitPublicHead(raw); ok {
		*h = s
		return nil
	}
	*h = publicHead{}
	return json.Unmarshal(raw, h)
}

// splitPublicHead is publicHead.read's split; false when raw is not what it
// expects.
func splitPublicHead(raw []byte) (h publicHead, ok bool) {
	fields, ok := domain.SplitObject(raw)
	if !ok {
		return h, false
	}
	for name := range fields {
		if (name != "revealedUpTo" && bytes.EqualFold([]byte(name), []byte("revealedUpTo"))) ||
			(name != "tiles" && bytes.EqualFold([]byte(name), []byte("tiles"))) {
			return h, false // encoding/json matches names in any case
		}
	}
	if v, found := fields["revealedUpTo"]; found {
		n, err := strconv.Atoi(string(v))
		if err != nil {
			return h, false
		}
		h.RevealedUpTo = n
	}
	if v, found := fields["tiles"]; found && string(v) != "null" {
		if h.Tiles, ok = domain.SplitArray(v); !ok {
			return h, false
		}
		if h.Tiles == nil {
			h.Tiles = []json.RawMessage{} // [] decodes to an empty list, not nil
		}
	}
	return h, true
}
