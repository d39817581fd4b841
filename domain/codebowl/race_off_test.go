//go:build !race

package codebowl

const raceEnabled = false
