//go:build race

package sched_test

// raceEnabled shrinks the torture test, which runs several times slower under
// the race detector.
const raceEnabled = true
