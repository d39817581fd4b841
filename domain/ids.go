package domain

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxIDLen is the longest id the API accepts (game ids, action ids, keys of
// documents such as a team, a mode, a board, a room code).
const MaxIDLen = 128

// CheckID checks an id a request names, for use as a Firestore document id
// and a path segment: 1 to MaxIDLen characters, printable, no '/', not "."
// or "..", not of the form __x__ (Firestore reserves those). field names it
// in the error.
//
// Errors: EINVALID, naming the field.
func CheckID(field, s string) error {
	switch {
	case s == "":
		return Errorf(EINVALID, "%s is required", field)
	case len(s) > MaxIDLen:
		return Errorf(EINVALID, "%s must be at most %d characters", field, MaxIDLen)
	case !utf8.ValidString(s):
		return Errorf(EINVALID, "%s must be valid UTF-8", field)
	case s == "." || s == "..":
		return Errorf(EINVALID, "%s may not be %q", field, s)
	case strings.HasPrefix(s, "__") && strings.HasSuffix(s, "__"):
		return Errorf(EINVALID, "%s may not start and end with \"__\"", field)
	case strings.ContainsRune(s, '/'):
		return Errorf(EINVALID, "%s may not contain '/'", field)
	}
	for _, r := range s {
		if !unicode.IsPrint(r) {
			return Errorf(EINVALID, "%s may hold printable characters only", field)
		}
	}
	return nil
}

// ValidID reports whether CheckID accepts s.
func ValidID(s string) bool { return CheckID("id", s) == nil }

// Quote shows a value a caller sent inside a message, quoted and cut to a
// readable length: an unknown type of 10,000 characters is not echoed whole.
func Quote(s string) string {
	const max = 64
	if utf8.RuneCountInString(s) <= max {
		return strconv.Quote(s)
	}
	return strconv.Quote(string([]rune(s)[:max])) + "…"
}
