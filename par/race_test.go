//go:build race

package par_test

// raceEnabled shrinks the largest inputs and the stress loops, which run
// about ten times slower under the race detector.
const raceEnabled = true

// seqRace shrinks the largest sequences, which run about ten times slower
// under the race detector.
const seqRace = true

// raceBuild tells the sort tests to keep their inputs small: the race
// detector slows memory-bound loops down some tenfold.
const raceBuild = true
