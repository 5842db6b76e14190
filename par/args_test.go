package par_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
)

// TestNilFunctionPanics: a nil function panics at once, whatever the input
// (even an empty one), with a message that names the function and the
// parameter.
func TestNilFunctionPanics(t *testing.T) {
	s := indices(1000)
	for _, in := range [][]int{nil, s} {
		cases := []struct {
			call func()
			want string
		}{
			{func() { par.Map[[]int, int, int](in, nil) }, "Map: f is nil"},
			{func() { par.ForEach(in, nil) }, "ForEach: f is nil"},
			{func() { par.For(len(in), nil) }, "For: f is nil"},
			{func() { par.ForRange(len(in), nil) }, "ForRange: f is nil"},
			{func() { par.Reduce(in, 0, nil) }, "Reduce: op is nil"},
			{func() { par.MapReduce[[]int, int, int](in, nil, 0, func(a, b int) int { return a + b }) }, "MapReduce: f is nil"},
			{func() { par.MapReduce(in, func(x int) int { return x }, 0, nil) }, "MapReduce: op is nil"},
			{func() { par.Count(in, nil) }, "Count: pred is nil"},
			{func() { par.Filter(in, nil) }, "Filter: keep is nil"},
			{func() { par.Find(in, nil) }, "Find: pred is nil"},
			{func() { par.FindIndex(in, nil) }, "FindIndex: pred is nil"},
			{func() { par.Any(in, nil) }, "Any: pred is nil"},
			{func() { par.All(in, nil) }, "All: pred is nil"},
			{func() { par.MinFunc(in, nil) }, "MinFunc: cmp is nil"},
			{func() { par.MaxFunc(in, nil) }, "MaxFunc: cmp is nil"},
			{func() { par.Do(nil) }, "Do: f is nil"},
			{func() { par.Join(nil, func() {}) }, "Join: a is nil"},
			{func() { par.Join(func() {}, nil) }, "Join: b is nil"},
			{func() { par.Join(nil, nil) }, "Join: a and b are nil"},
			{func() { par.Do(func(w *par.Worker) { w.Join(nil, func(*par.Worker) {}) }) }, "Worker.Join: a is nil"},
			{func() { par.Do(func(w *par.Worker) { w.Join(func(*par.Worker) {}, nil) }) }, "Worker.Join: b is nil"},
		}
		for _, c := range cases {
			t.Run(fmt.Sprintf("%s/len%d", c.want, len(in)), func(t *testing.T) {
				v := panicValue(t, c.call)
				require.IsType(t, "", v)
				require.Contains(t, v, c.want)
			})
		}
	}
}

func TestNegativeLengthPanics(t *testing.T) {
	for _, n := range []int{-1, -1000} {
		v := panicValue(t, func() { par.For(n, func(int) {}) })
		require.Contains(t, v, fmt.Sprintf("For: n = %d", n))
		v = panicValue(t, func() { par.ForRange(n, func(int, int) {}) })
		require.Contains(t, v, fmt.Sprintf("ForRange: n = %d", n))
	}
}

func TestBadOptionPanics(t *testing.T) {
	for name, c := range map[string]struct {
		call func()
		want string
	}{
		"WithGrain(0)":   {func() { par.WithGrain(0) }, "WithGrain(0)"},
		"WithGrain(-3)":  {func() { par.WithGrain(-3) }, "WithGrain(-3)"},
		"WithMinLen(0)":  {func() { par.WithMinLen(0) }, "WithMinLen(0)"},
		"OnPool(nil)":    {func() { par.OnPool(nil) }, "OnPool(nil)"},
		"Workers(0)":     {func() { par.Workers(0) }, "Workers(0)"},
		"zero Option":    {func() { par.For(10, func(int) {}, par.Option{}) }, "zero Option"},
		"zero PoolOpt":   {func() { par.NewPool(par.PoolOption{}) }, "zero PoolOption"},
		"zero on Sum":    {func() { par.Sum([]int{1}, par.Option{}) }, "zero Option"},
		"zero on Find":   {func() { par.FindIndex([]int{1}, func(int) bool { return true }, par.Option{}) }, "zero Option"},
		"zero on Join":   {func() { par.Join(func() {}, func() {}, par.Option{}) }, "zero Option"},
		"zero on MinFun": {func() { par.MinFunc([]int{1}, func(a, b int) int { return a - b }, par.Option{}) }, "zero Option"},
	} {
		t.Run(name, func(t *testing.T) {
			require.Contains(t, panicValue(t, c.call), c.want)
		})
	}
}

// TestEmptyAndOne covers the empty and one-element inputs of every function
// with a result.
func TestEmptyAndOne(t *testing.T) {
	for _, p := range testPools(t) {
		opts := poolOpts(p)
		t.Run(poolName(p), func(t *testing.T) {
			add := func(a, b int) int { return a + b }
			var empty []int
			require.Empty(t, par.Map(empty, func(x int) int { return x }, opts...))
			require.Empty(t, par.Filter(empty, func(int) bool { return true }, opts...))
			require.Equal(t, 42, par.Reduce(empty, 42, add, opts...), "Reduce of nothing is the identity")
			require.Equal(t, 42, par.MapReduce(empty, func(x int) int { return x }, 42, add, opts...))
			require.Zero(t, par.Count(empty, func(int) bool { return true }, opts...))
			require.Zero(t, par.Sum(empty, opts...))
			par.ForEach(empty, func(int) { t.Error("f called on an empty slice") }, opts...)

			one := []int{7}
			require.Equal(t, []int{8}, par.Map(one, func(x int) int { return x + 1 }, opts...))
			require.Equal(t, []int{7}, par.Filter(one, func(int) bool { return true }, opts...))
			require.Empty(t, par.Filter(one, func(int) bool { return false }, opts...))
			require.Equal(t, 7, par.Reduce(one, 0, add, opts...))
			require.Equal(t, 14, par.MapReduce(one, func(x int) int { return 2 * x }, 0, add, opts...))
			require.Equal(t, 1, par.Count(one, func(x int) bool { return x == 7 }, opts...))
			require.Equal(t, 7, par.Sum(one, opts...))
			require.Equal(t, 0, par.FindIndex(one, func(x int) bool { return x == 7 }, opts...))
			require.Equal(t, -1, par.FindIndex(one, func(x int) bool { return x == 8 }, opts...))
			require.True(t, par.All(one, func(x int) bool { return x == 7 }, opts...))
			require.False(t, par.Any(one, func(x int) bool { return x == 8 }, opts...))
			var seen []int
			par.ForEach(one, func(x int) { seen = append(seen, x) }, opts...)
			require.Equal(t, []int{7}, seen)
		})
	}
}
