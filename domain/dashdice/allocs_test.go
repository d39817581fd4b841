package dashdice

import (
	"encoding/json"
	"testing"

	"github.com/meeple-games/meeple/domain"
)

// rollAllocBudget is what one roll through Apply may allocate (README's
// Measuring table publishes it; BenchmarkRoll reports the same roll). Most
// of it is decoding the payload (domain.DecodePayload). Raise it only on
// purpose, in the same change as README's figure; lower it when a change
// allocates less.
const rollAllocBudget = 29

// oneRoll is the roll BenchmarkRoll and TestRollAllocations time and count:
// alice rolls in a Classic match, the dice cycling over a fixed sequence
// (a bust now and then), the match unchanged between calls.
func oneRoll(tb testing.TB) func() error {
	m := playing(tb, "classic", SeatHost)
	a := domain.Action{ID: "r", Type: ActionRoll, Actor: alice, Payload: json.RawMessage(`{"gameId":"m1","actionId":"r","type":"roll"}`)}
	env := domain.Env{Now: t0, Dice: &cycleDice{values: []int{2, 3, 4, 6, 5, 5, 1, 3}}}
	return func() error {
		_, _, err := (Rules{}).Apply(m, a, env)
		return err
	}
}

// TestRollAllocations holds the allocations of one roll through Apply at
// rollAllocBudget (allocation counts do not depend on machine load, so this
// is not a timed test). Under -race (as ./scripts/test.sh runs it) the race
// detector adds raceAllocs of its own.
func TestRollAllocations(t *testing.T) {
	budget := rollAllocBudget + raceAllocs
	roll := oneRoll(t)
	var err error
	got := testing.AllocsPerRun(200, func() {
		if e := roll(); e != nil {
			err = e
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if got > float64(budget) {
		t.Errorf("one roll through Apply allocates %.0f times, budget %d: allocate less, or raise rollAllocBudget and README's figure on purpose", got, budget)
	}
	t.Logf("one roll through Apply: %.0f allocations (budget %d)", got, budget)
}
