package main

import (
	"strings"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// docSize is a document's storage size by Firestore's documented rules: the
// name (each path segment's bytes + 1, plus 16), plus each field's name
// (bytes + 1) and value (string: bytes + 1; bytes: their length; number,
// timestamp: 8; bool, null: 1; map: its fields; array: its values), plus 32.
func docSize(path string, data map[string]any) int {
	n := 16
	for _, seg := range strings.Split(path[strings.Index(path, "/documents/")+len("/documents/"):], "/") {
		n += len(seg) + 1
	}
	return n + mapSize(data) + 32
}

func mapSize(m map[string]any) int {
	n := 0
	for k, v := range m {
		n += len(k) + 1 + valueSize(v)
	}
	return n
}

func valueSize(v any) int {
	switch t := v.(type) {
	case string:
		return len(t) + 1
	case []byte: // a deflated log or packed field
		return len(t)
	case int64, float64, time.Time:
		return 8
	case bool, nil:
		return 1
	case map[string]any:
		return mapSize(t)
	case []any:
		n := 0
		for _, x := range t {
			n += valueSize(x)
		}
		return n
	}
	return 8
}

func isNotFound(err error) bool { return status.Code(err) == codes.NotFound }
