//go:build race

package par_test

// raceBuild tells the sort tests to keep their inputs small: the race
// detector slows memory-bound loops down some tenfold.
const raceBuild = true
