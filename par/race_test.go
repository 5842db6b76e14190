//go:build race

package par_test

// raceEnabled shrinks the largest inputs and the stress loops, which run
// about ten times slower under the race detector.
const raceEnabled = true
