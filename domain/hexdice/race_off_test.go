//go:build !race

package hexdice

const raceEnabled = false
