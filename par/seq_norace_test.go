//go:build !race

package par_test

const seqRace = false
