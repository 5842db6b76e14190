package par_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/weftgo/weft/par"
)

func fibJoin2(w *par.Worker, n int) int {
	if n < 2 {
		return n
	}
	a, b := par.Join2(w, fibJoin2, n-1, fibJoin2, n-2)
	return a + b
}

// TestJoin2DoesNotAllocatePerFork shows that Join2 allocates on every fork,
// though its doc says that with top-level functions nothing escapes to the
// heap and the task record comes from the worker's cache. fib(20) forks
// 10,945 times; a call should cost a few allocations, not one per fork.
func TestJoin2DoesNotAllocatePerFork(t *testing.T) {
	p := par.NewPool(par.Workers(1))
	defer p.Close()
	var r int
	allocs := testing.AllocsPerRun(20, func() {
		par.Do(func(w *par.Worker) { r = fibJoin2(w, 20) }, par.OnPool(p))
	})
	assert.Equal(t, 6765, r)
	assert.Less(t, allocs, 100.0, "fib(20) with Join2 made %.0f allocations for 10,945 forks", allocs)
}
