package par_test

import (
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/weftgo/weft/par"
)

// TestMinLenShortPieces checks a fixed bug: WithMinLen(n) says a call "never makes a
// piece shorter than n elements", but the sequential prefix that every
// adaptive call starts with cuts pieces of 1, 8 and 64 elements regardless of
// it (bridge.go, run). ForRange hands those pieces to its callback, which is
// how a user sees them: a body that relies on at least n elements per piece
// (to vectorize, or to amortize a per-piece setup) gets one element.
//
// Input: par.ForRange(1000, f, par.WithMinLen(100)). Expected: every piece at
// least 100 long. Got: [0,1) [1,9) [9,73), then pieces of 100 or more. With
// n = 150: [0,1) [1,9) [9,73) [73,150), where [0,150) was expected.
func TestMinLenShortPieces(t *testing.T) {
	for _, n := range []int{150, 1000, 100_000} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			var mu sync.Mutex
			var short [][2]int
			par.ForRange(n, func(lo, hi int) {
				if hi-lo < 100 {
					mu.Lock()
					short = append(short, [2]int{lo, hi})
					mu.Unlock()
				}
			}, par.WithMinLen(100))
			assert.Empty(t, short, "pieces shorter than WithMinLen(100)")
		})
	}
}
