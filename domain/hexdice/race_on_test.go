//go:build race

package hexdice

// raceEnabled: the race detector slows the games down about ten times, so
// the long tests play fewer games under it (randomGames).
const raceEnabled = true
