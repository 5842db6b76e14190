//go:build race

package deque_test

// raceEnabled shrinks the stress tests, which run about ten times slower under
// the race detector.
const raceEnabled = true
