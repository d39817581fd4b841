//go:build !race

package functions_test

const raceEnabled = false
