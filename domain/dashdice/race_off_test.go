//go:build !race

package dashdice

// raceAllocs: no race detector, no allocations of its own.
const raceAllocs = 0
