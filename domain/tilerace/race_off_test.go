//go:build !race

package tilerace

const raceEnabled = false
