//go:build !race

package par_test

// Without the race detector, the tests run at full size (see race_test.go).
const (
	raceEnabled = false
	seqRace     = false
	raceBuild   = false
)
