//go:build race

package functions_test

// raceEnabled: the race detector slows whole games through the functions
// down several times, so the tests that play many random games play fewer
// under it (see randomGames).
const raceEnabled = true
