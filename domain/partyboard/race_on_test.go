//go:build race

package partyboard

// raceEnabled: the race detector slows the games down about ten times, so
// the long property tests play fewer games under it.
const raceEnabled = true
