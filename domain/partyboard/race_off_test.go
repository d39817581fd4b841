//go:build !race

package partyboard

const raceEnabled = false
