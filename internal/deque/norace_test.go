//go:build !race

package deque_test

const raceEnabled = false
