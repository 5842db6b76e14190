package par_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/weftgo/weft/par"
)

// TestClosedPoolSmallCallPanics checks a fixed bug: Pool.Close says "calls made after
// Close panic", but a call directed at a closed pool with OnPool returns
// normally when it is small enough to finish in its sequential prefix (about
// 20µs of work on the caller) without reaching the pool. Whether a call panics
// then depends on its input's length and on how fast its callback runs: the
// same Map of 1000 elements passes or panics as its f gets slower.
//
// Input: p := par.NewPool(); p.Close(); par.Map([]int{1, 2, 3}, f,
// par.OnPool(p)). Expected: a panic with the "used after Close" error. Got:
// [2 3 4]. The same holds for For, ForEach, Filter, Count, Reduce, Find,
// Any, MinFunc, and for Sum of up to split.StreamLen elements.
func TestClosedPoolSmallCallPanics(t *testing.T) {
	p := par.NewPool(par.Workers(2))
	p.Close()
	on := par.OnPool(p)
	s := []int{1, 2, 3}
	for name, call := range map[string]func(){
		"Map":   func() { par.Map(s, func(x int) int { return x + 1 }, on) },
		"For":   func() { par.For(len(s), func(int) {}, on) },
		"Sum":   func() { par.Sum(s, on) },
		"Count": func() { par.Count(s, func(int) bool { return true }, on) },
		"Any":   func() { par.Any(s, func(int) bool { return false }, on) },
	} {
		t.Run(name, func(t *testing.T) {
			how, v := runOn(call)
			if assert.Equal(t, panicked, how, "%s on a closed pool", name) {
				err, ok := v.(error)
				if assert.True(t, ok) {
					assert.Contains(t, err.Error(), "Close")
				}
			}
		})
	}
}
