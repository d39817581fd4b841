package rulestest

import (
	"encoding/json"
	"testing"

	"github.com/meeple-games/meeple/domain"
)

// JSON is v as stored: tests compare a state before and after a call with
// it to check the rules never change their input.
func JSON(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("marshal %T: %v", v, err)
	}
	return string(b)
}

// Types returns the types of evs, in order.
func Types(evs []domain.Event) []string {
	out := make([]string, len(evs))
	for i, e := range evs {
		out[i] = e.Type
	}
	return out
}
