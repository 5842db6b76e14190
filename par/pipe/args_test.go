package pipe_test

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
	"github.com/weftgo/weft/par/pipe"
)

// The audit of bad arguments for pipe: each panics at once with a message
// that names the function and the parameter, compared in full, and the pool
// runs calls normally afterwards.

// panicValue calls f and returns what it panicked with, failing t if it did
// not panic.
func panicValue(t *testing.T, f func()) (v any) {
	t.Helper()
	panicked := true
	func() {
		defer func() {
			if panicked {
				v = recover()
			}
		}()
		f()
		panicked = false
	}()
	require.True(t, panicked, "want a panic")
	return v
}

// requireUsable checks that the pool of opts still runs a pipeline.
func requireUsable(t *testing.T, opts []par.Option) {
	t.Helper()
	p := pipe.Range(0, 100_000).Filter(func(x int) bool { return x%2 == 0 })
	require.Equal(t, 50_000, p.Count(opts...))
	require.Equal(t, 10_000*9_999/2, pipe.Sum(pipe.Range(0, 10_000), opts...)) // fits a 32-bit int
}

func TestNilFunctionMessages(t *testing.T) {
	for name, opts := range pools(t) {
		p := pipe.Range(0, 10)
		cases := []struct {
			call func()
			want string
		}{
			{func() { pipe.Map[int, int](p, nil) }, "pipe: Map: f is nil"},
			{func() { p.Filter(nil) }, "pipe: Filter: keep is nil"},
			{func() { p.Inspect(nil) }, "pipe: Inspect: f is nil"},
			{func() { p.ForEach(nil, opts...) }, "pipe: ForEach: f is nil"},
			{func() { p.Reduce(0, nil, opts...) }, "pipe: Reduce: op is nil"},
			{func() { pipe.Fold(p, zero, nil, func(a, b int) int { return a + b }, opts...) }, "pipe: Fold: fold is nil"},
			{func() { pipe.Fold(p, zero, func(a, x int) int { return a + x }, nil, opts...) }, "pipe: Fold: merge is nil"},
			{func() { p.Find(nil, opts...) }, "pipe: Find: pred is nil"},
			{func() { p.Any(nil, opts...) }, "pipe: Any: pred is nil"},
			{func() { p.All(nil, opts...) }, "pipe: All: pred is nil"},
			{func() { pipe.Range(math.MinInt, math.MaxInt) }, fmt.Sprintf("pipe: Range(%d, %d): more than math.MaxInt items", math.MinInt, math.MaxInt)},
			{func() { pipe.Range(-1, math.MaxInt) }, fmt.Sprintf("pipe: Range(-1, %d): more than math.MaxInt items", math.MaxInt)},
		}
		for _, c := range cases {
			t.Run(name+"/"+c.want, func(t *testing.T) {
				require.Equal(t, c.want, panicValue(t, c.call))
			})
		}
		requireUsable(t, opts)
	}
}

// TestRangeBounds: a range whose end is not above its start is empty, and the
// widest ranges that fit in an int keep their length.
func TestRangeBounds(t *testing.T) {
	for _, c := range []struct{ lo, hi, n int }{
		{0, 0, 0}, {5, 3, 0}, {math.MaxInt, math.MinInt, 0}, {3, 3, 0}, {-3, 4, 7},
		{0, math.MaxInt, math.MaxInt}, {math.MinInt, -1, math.MaxInt}, {math.MinInt + 1, 0, math.MaxInt},
	} {
		require.Equal(t, c.n, pipe.Range(c.lo, c.hi).Len(), "Range(%d, %d)", c.lo, c.hi)
	}
	require.Empty(t, pipe.Range(5, 3).Collect())
	require.Equal(t, []int{math.MaxInt - 2, math.MaxInt - 1}, pipe.Range(math.MaxInt-2, math.MaxInt).Collect())
	require.Equal(t, []int{math.MinInt, math.MinInt + 1}, pipe.Range(math.MinInt, math.MinInt+2).Collect())
}

// terminals are the calls of pipe that take options, on a pipe of n items,
// with a Filter among the stages or not.
var terminals = []struct {
	name string
	call func(p pipe.Pipe[int], opts []par.Option)
}{
	{"Collect", func(p pipe.Pipe[int], o []par.Option) { p.Collect(o...) }},
	{"ForEach", func(p pipe.Pipe[int], o []par.Option) { p.ForEach(func(int) {}, o...) }},
	{"Count", func(p pipe.Pipe[int], o []par.Option) { p.Count(o...) }},
	{"Reduce", func(p pipe.Pipe[int], o []par.Option) { p.Reduce(0, func(a, b int) int { return a + b }, o...) }},
	{"Fold", func(p pipe.Pipe[int], o []par.Option) {
		pipe.Fold(p, zero, func(a, x int) int { return a + x }, func(a, b int) int { return a + b }, o...)
	}},
	{"Sum", func(p pipe.Pipe[int], o []par.Option) { pipe.Sum(p, o...) }},
	{"Find", func(p pipe.Pipe[int], o []par.Option) { p.Find(func(x int) bool { return x < 0 }, o...) }},
	{"Any", func(p pipe.Pipe[int], o []par.Option) { p.Any(func(x int) bool { return x < 0 }, o...) }},
	{"All", func(p pipe.Pipe[int], o []par.Option) { p.All(func(x int) bool { return x >= 0 }, o...) }},
	{"Min", func(p pipe.Pipe[int], o []par.Option) { pipe.Min(p, o...) }},
	{"Max", func(p pipe.Pipe[int], o []par.Option) { pipe.Max(p, o...) }},
}

// sources are the pipes the terminals are tried on: empty, short and long,
// without and with a Filter.
func sources() map[string]pipe.Pipe[int] {
	even := func(x int) bool { return x%2 == 0 }
	return map[string]pipe.Pipe[int]{
		"empty":         pipe.Range(0, 0),
		"short":         pipe.Range(0, 3),
		"long":          pipe.Range(0, 100_000),
		"empty/filter":  pipe.Range(0, 0).Filter(even),
		"short/filter":  pipe.Range(0, 3).Filter(even),
		"long/filter":   pipe.Range(0, 100_000).Filter(even),
		"From/nil":      pipe.From([]int(nil)),
		"zero Pipe/Map": pipe.Map(pipe.Pipe[int]{}, func(x int) int { return x }),
	}
}

func TestTerminalBadOptions(t *testing.T) {
	closed := par.NewPool(par.Workers(2))
	closed.Close()
	for src, p := range sources() {
		for _, term := range terminals {
			t.Run(src+"/"+term.name, func(t *testing.T) {
				v := panicValue(t, func() { term.call(p, []par.Option{par.WithGrain(5), {}}) })
				require.Equal(t, "pipe: "+term.name+": opts[1] is a zero Option: build options with OnPool, WithGrain, WithMinLen or WithLabels", v)

				v = panicValue(t, func() { term.call(p, []par.Option{par.OnPool(closed)}) })
				err, ok := v.(error)
				require.True(t, ok, "the panic value is an error, got %T", v)
				require.True(t, errors.Is(err, par.ErrClosed))
				require.EqualError(t, err, "pipe: "+term.name+": OnPool in opts[0]: weft: pool used after Close")
			})
		}
	}
	for _, opts := range pools(t) {
		requireUsable(t, opts)
	}
}
