//go:build race

package tilerace

// raceEnabled: the race detector slows the random races down about ten
// times, so the tests that play many of them play fewer under it (see
// randomGames).
const raceEnabled = true
