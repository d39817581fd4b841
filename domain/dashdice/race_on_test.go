//go:build race

package dashdice

// raceAllocs is what the race detector adds to one roll's allocations
// (TestRollAllocations).
const raceAllocs = 1
