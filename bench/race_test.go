//go:build race

package main

// raceEnabled shrinks the soak of the tests, which runs about ten times
// slower under the race detector.
const raceEnabled = true
