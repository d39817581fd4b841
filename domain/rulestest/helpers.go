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

// Data returns the data of the first event of type typ in evs, failing t
// when there is none or its data is not a T.
func Data[T any](t testing.TB, evs []domain.Event, typ string) T {
	t.Helper()
	for _, e := range evs {
		if e.Type == typ {
			d, ok := e.Data.(T)
			if !ok {
				t.Fatalf("%s data is %T, not %T", typ, e.Data, d)
			}
			return d
		}
	}
	t.Fatalf("no %s event in %v", typ, Types(evs))
	var zero T
	return zero
}

// All returns the data of every event of type typ in evs, failing t when
// one's data is not a T.
func All[T any](t testing.TB, evs []domain.Event, typ string) []T {
	t.Helper()
	var out []T
	for _, e := range evs {
		if e.Type == typ {
			d, ok := e.Data.(T)
			if !ok {
				t.Fatalf("%s data is %T, not %T", typ, e.Data, d)
			}
			out = append(out, d)
		}
	}
	return out
}

// GameOver returns the single GameOver in evs, or nil when there is none;
// two fail t.
func GameOver(t testing.TB, evs []domain.Event) *domain.GameOver {
	t.Helper()
	overs := All[domain.GameOver](t, evs, domain.EventGameOver)
	switch len(overs) {
	case 0:
		return nil
	case 1:
		return &overs[0]
	}
	t.Fatalf("%d gameOver events", len(overs))
	return nil
}
