//go:build !race

package pipe_test

const underRace = false
