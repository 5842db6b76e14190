//go:build race

package pipe_test

// underRace shrinks the largest inputs of the surface tests, which run about
// ten times slower under the race detector.
const underRace = true
