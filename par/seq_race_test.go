//go:build race

package par_test

// seqRace shrinks the largest sequences, which run about ten times slower
// under the race detector.
const seqRace = true
