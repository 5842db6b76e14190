package par_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/weftgo/weft/par"
)

// TestClosedPoolEmptyCallPanics checks a fixed bug left over from the one that
// pool_regress_test.go checks: Pool.Close says "calls made after Close panic",
// and a call on a closed pool now panics however small its input, except
// when the input is empty: most functions return before they read their
// options, so the closed pool goes unnoticed.
//
// Input: p := par.NewPool(); p.Close(); par.Sum([]int{}, par.OnPool(p)).
// Expected: a panic with the "used after Close" error. Got: 0. The soak of
// `go run ./bench -soak` found it (its own-pool operation checks a call after
// Close, with an input that is sometimes empty).
func TestClosedPoolEmptyCallPanics(t *testing.T) {
	p := par.NewPool(par.Workers(1))
	p.Close()
	on := par.OnPool(p)
	var s []int
	for name, call := range map[string]func(){
		"Sum":      func() { par.Sum(s, on) },
		"Map":      func() { par.Map(s, func(x int) int { return x }, on) },
		"For":      func() { par.For(0, func(int) {}, on) },
		"ForRange": func() { par.ForRange(0, func(int, int) {}, on) },
		"ForEach":  func() { par.ForEach(s, func(int) {}, on) },
		"Filter":   func() { par.Filter(s, func(int) bool { return true }, on) },
		"Reduce":   func() { par.Reduce(s, 0, func(a, b int) int { return a + b }, on) },
		"Count":    func() { par.Count(s, func(int) bool { return true }, on) },
		"Find":     func() { par.Find(s, func(int) bool { return true }, on) },
		"Any":      func() { par.Any(s, func(int) bool { return true }, on) },
		"Sort":     func() { par.Sort(s, on) },
		"MapErr": func() {
			par.MapErr(context.Background(), s, func(context.Context, int) (int, error) { return 0, nil }, on)
		},
		"ForEachErr": func() {
			par.ForEachErr(context.Background(), s, func(context.Context, int) error { return nil }, on)
		},
	} {
		t.Run(name, func(t *testing.T) {
			how, v := runOn(call)
			if assert.Equal(t, panicked, how, "%s of an empty input on a closed pool", name) {
				err, ok := v.(error)
				if assert.True(t, ok) {
					assert.Contains(t, err.Error(), "Close")
				}
			}
		})
	}
}
