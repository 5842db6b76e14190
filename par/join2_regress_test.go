package par_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/weftgo/weft/par"
)

// TestJoin2NilFunctionMessage checks a fixed bug: a small one: every other function
// of the package checks its function parameters and panics with a message that
// names the parameter ("par: Worker.Join: a is nil"), but Join2 calls a nil fa
// or fb as it is, so the caller gets a runtime error (a nil pointer
// dereference) raised from inside the scheduler, possibly on another worker.
//
// Input: par.Join2(w, nil, 1, fib, 2) inside par.Do. Expected: a panic whose
// message contains "Join2: fa is nil". Got: "runtime error: invalid memory
// address or nil pointer dereference". Likewise for fb.
func TestJoin2NilFunctionMessage(t *testing.T) {
	for name, c := range map[string]struct {
		call func(w *par.Worker)
		want string
	}{
		"fa": {func(w *par.Worker) { par.Join2[int, int, int, int](w, nil, 1, fib, 2) }, "Join2: fa is nil"},
		"fb": {func(w *par.Worker) { par.Join2[int, int, int, int](w, fib, 1, nil, 2) }, "Join2: fb is nil"},
	} {
		t.Run(name, func(t *testing.T) {
			how, v := runOn(func() { par.Do(c.call) })
			if assert.Equal(t, panicked, how) {
				assert.Contains(t, fmt.Sprint(v), c.want)
			}
		})
	}
}
