package par_test

import (
	"context"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
)

// Bad input: every exported function, given a nil function, a negative
// length, a zero or bad option or a misused Spawner or Group, panics at once
// with a message that names the function and the parameter, whatever the
// input (even an empty one), and the pool it was directed at stays usable.

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

// The audit of bad arguments: every exported function, given a bad argument,
// panics at once with a message that names the function and the parameter
// (compared in full below), and the pool it was directed at runs calls
// normally afterwards.

// optCall is a call of an exported function that takes options, on an input
// of n elements (n may be 0).
type optCall struct {
	name string
	call func(n int, opts []par.Option)
}

func optCallsOf() []optCall {
	id := func(x int) int { return x }
	yes := func(int) bool { return true }
	add := func(a, b int) int { return a + b }
	cmp := func(a, b int) int { return a - b }
	ctx := context.Background()
	return append([]optCall{
		{"Map", func(n int, o []par.Option) { par.Map(indices(n), id, o...) }},
		{"ForEach", func(n int, o []par.Option) { par.ForEach(indices(n), func(int) {}, o...) }},
		{"For", func(n int, o []par.Option) { par.For(n, func(int) {}, o...) }},
		{"ForRange", func(n int, o []par.Option) { par.ForRange(n, func(int, int) {}, o...) }},
		{"ReduceRange", func(n int, o []par.Option) {
			par.ReduceRange(n, 0, func(lo, hi int) int { return hi - lo }, add, o...)
		}},
		{"Reduce", func(n int, o []par.Option) { par.Reduce(indices(n), 0, add, o...) }},
		{"MapReduce", func(n int, o []par.Option) { par.MapReduce(indices(n), id, 0, add, o...) }},
		{"Count", func(n int, o []par.Option) { par.Count(indices(n), yes, o...) }},
		{"Filter", func(n int, o []par.Option) { par.Filter(indices(n), yes, o...) }},
		{"Sum", func(n int, o []par.Option) { par.Sum(indices(n), o...) }},
		{"Find", func(n int, o []par.Option) { par.Find(indices(n), yes, o...) }},
		{"FindIndex", func(n int, o []par.Option) { par.FindIndex(indices(n), yes, o...) }},
		{"Any", func(n int, o []par.Option) { par.Any(indices(n), yes, o...) }},
		{"All", func(n int, o []par.Option) { par.All(indices(n), yes, o...) }},
		{"Min", func(n int, o []par.Option) { par.Min(indices(max(n, 1)), o...) }},
		{"Max", func(n int, o []par.Option) { par.Max(indices(max(n, 1)), o...) }},
		{"MinFunc", func(n int, o []par.Option) { par.MinFunc(indices(max(n, 1)), cmp, o...) }},
		{"MaxFunc", func(n int, o []par.Option) { par.MaxFunc(indices(max(n, 1)), cmp, o...) }},
		{"Sort", func(n int, o []par.Option) { par.Sort(indices(n), o...) }},
		{"SortFunc", func(n int, o []par.Option) { par.SortFunc(indices(n), cmp, o...) }},
		{"SortStableFunc", func(n int, o []par.Option) { par.SortStableFunc(indices(n), cmp, o...) }},
		{"MapErr", func(n int, o []par.Option) {
			_, _ = par.MapErr(ctx, indices(n), func(_ context.Context, x int) (int, error) { return x, nil }, o...)
		}},
		{"ForEachErr", func(n int, o []par.Option) {
			_ = par.ForEachErr(ctx, indices(n), func(context.Context, int) error { return nil }, o...)
		}},
		{"MapSeq", func(n int, o []par.Option) {
			for range par.MapSeq(slices.Values(indices(n)), id, o...) {
			}
		}},
		{"FilterSeq", func(n int, o []par.Option) {
			for range par.FilterSeq(slices.Values(indices(n)), yes, o...) {
			}
		}},
		{"ForEachSeq", func(n int, o []par.Option) { par.ForEachSeq(slices.Values(indices(n)), func(int) {}, o...) }},
		{"ReduceSeq", func(n int, o []par.Option) { par.ReduceSeq(slices.Values(indices(n)), 0, add, o...) }},
		{"SumSeq", func(n int, o []par.Option) { par.SumSeq(slices.Values(indices(n)), o...) }},
		{"Do", func(n int, o []par.Option) { par.Do(func(*par.Worker) {}, o...) }},
		{"Join", func(n int, o []par.Option) { par.Join(func() {}, func() {}, o...) }},
		{"Scope", func(n int, o []par.Option) { par.Scope(func(*par.Spawner, *par.Worker) {}, o...) }},
		{"ScopeErr", func(n int, o []par.Option) {
			_ = par.ScopeErr(ctx, func(context.Context, *par.Group, *par.Worker) error { return nil }, o...)
		}},
	}, append(surfaceCalls(), foldCalls()...)...)
}

// TestZeroOptionPanics: a zero Option makes every call panic, on an empty
// input as on a long one, with a message naming the call and the position of
// the option.
func TestZeroOptionPanics(t *testing.T) {
	for _, p := range testPools(t) {
		for _, c := range optCallsOf() {
			for _, n := range []int{0, 1, 1000} {
				t.Run(fmt.Sprintf("%s/%s/n=%d", poolName(p), c.name, n), func(t *testing.T) {
					opts := append(poolOpts(p), par.WithGrain(3), par.Option{})
					v := panicValue(t, func() { c.call(n, opts) })
					want := fmt.Sprintf("par: %s: opts[%d] is a zero Option: build options with OnPool, WithGrain, WithMinLen or WithLabels", c.name, len(opts)-1)
					require.Equal(t, want, v)
				})
			}
			requireUsable(t, p)
		}
	}
}

func TestBadArgumentMessages(t *testing.T) {
	ctx := context.Background()
	var nilCtx context.Context // the calls must reject it
	id := func(x int) int { return x }
	add := func(a, b int) int { return a + b }
	leaf := func(lo, hi int) int { return hi - lo }
	noop := func(*par.Worker) {}
	task := func(context.Context, *par.Worker) error { return nil }
	for _, p := range testPools(t) {
		opts := poolOpts(p)
		cases := []struct {
			call func()
			want string
		}{
			// Functions that are nil.
			{func() { par.Map[[]int, int, int](indices(3), nil, opts...) }, "par: Map: f is nil"},
			{func() { par.ForEach(indices(3), nil, opts...) }, "par: ForEach: f is nil"},
			{func() { par.For(3, nil, opts...) }, "par: For: f is nil"},
			{func() { par.ForRange(3, nil, opts...) }, "par: ForRange: f is nil"},
			{func() { par.ReduceRange(3, 0, nil, add, opts...) }, "par: ReduceRange: leaf is nil"},
			{func() { par.ReduceRange(3, 0, leaf, nil, opts...) }, "par: ReduceRange: op is nil"},
			{func() { par.Reduce(indices(3), 0, nil, opts...) }, "par: Reduce: op is nil"},
			{func() { par.MapReduce[[]int, int, int](indices(3), nil, 0, add, opts...) }, "par: MapReduce: f is nil"},
			{func() { par.MapReduce(indices(3), id, 0, nil, opts...) }, "par: MapReduce: op is nil"},
			{func() { par.Count(indices(3), nil, opts...) }, "par: Count: pred is nil"},
			{func() { par.Filter(indices(3), nil, opts...) }, "par: Filter: keep is nil"},
			{func() { par.Find(indices(3), nil, opts...) }, "par: Find: pred is nil"},
			{func() { par.FindIndex(indices(3), nil, opts...) }, "par: FindIndex: pred is nil"},
			{func() { par.Any(indices(3), nil, opts...) }, "par: Any: pred is nil"},
			{func() { par.All(indices(3), nil, opts...) }, "par: All: pred is nil"},
			{func() { par.MinFunc(indices(3), nil, opts...) }, "par: MinFunc: cmp is nil"},
			{func() { par.MaxFunc(indices(3), nil, opts...) }, "par: MaxFunc: cmp is nil"},
			{func() { par.SortFunc(indices(3), nil, opts...) }, "par: SortFunc: cmp is nil"},
			{func() { par.SortStableFunc(indices(3), nil, opts...) }, "par: SortStableFunc: cmp is nil"},
			{func() { par.MapErr[[]int, int, int](ctx, indices(3), nil, opts...) }, "par: MapErr: f is nil"},
			{func() { par.ForEachErr(ctx, indices(3), nil, opts...) }, "par: ForEachErr: f is nil"},
			{func() { par.MapSeq[int, int](slices.Values(indices(3)), nil, opts...) }, "par: MapSeq: f is nil"},
			{func() { par.MapSeq(nil, id, opts...) }, "par: MapSeq: seq is nil"},
			{func() { par.FilterSeq(nil, func(int) bool { return true }, opts...) }, "par: FilterSeq: seq is nil"},
			{func() { par.FilterSeq(slices.Values(indices(3)), nil, opts...) }, "par: FilterSeq: keep is nil"},
			{func() { par.ForEachSeq(nil, func(int) {}, opts...) }, "par: ForEachSeq: seq is nil"},
			{func() { par.ForEachSeq(slices.Values(indices(3)), nil, opts...) }, "par: ForEachSeq: f is nil"},
			{func() { par.ReduceSeq(nil, 0, add, opts...) }, "par: ReduceSeq: seq is nil"},
			{func() { par.ReduceSeq(slices.Values(indices(3)), 0, nil, opts...) }, "par: ReduceSeq: op is nil"},
			{func() { par.SumSeq[int](nil, opts...) }, "par: SumSeq: seq is nil"},
			{func() { par.Do(nil, opts...) }, "par: Do: f is nil"},
			{func() { par.Join(nil, func() {}, opts...) }, "par: Join: a is nil"},
			{func() { par.Join(func() {}, nil, opts...) }, "par: Join: b is nil"},
			{func() { par.Join(nil, nil, opts...) }, "par: Join: a and b are nil"},
			{func() { par.Do(func(w *par.Worker) { w.Join(nil, noop) }, opts...) }, "par: Worker.Join: a is nil"},
			{func() { par.Do(func(w *par.Worker) { w.Join(noop, nil) }, opts...) }, "par: Worker.Join: b is nil"},
			{func() {
				par.Do(func(w *par.Worker) { par.Join2[int, int, int, int](w, nil, 1, nil, 2) }, opts...)
			}, "par: Join2: fa and fb are nil"},
			{func() { par.Scope(nil, opts...) }, "par: Scope: f is nil"},
			{func() { par.Scope(func(s *par.Spawner, _ *par.Worker) { s.Spawn(nil, noop) }, opts...) }, "par: Spawner.Spawn: w is nil"},
			{func() { par.Scope(func(s *par.Spawner, w *par.Worker) { s.Spawn(w, nil) }, opts...) }, "par: Spawner.Spawn: f is nil"},
			{func() { par.Scope(func(s *par.Spawner, _ *par.Worker) { s.Go(nil) }, opts...) }, "par: Spawner.Go: f is nil"},
			{func() { _ = par.ScopeErr(ctx, nil, opts...) }, "par: ScopeErr: f is nil"},
			{func() {
				_ = par.ScopeErr(ctx, func(_ context.Context, g *par.Group, _ *par.Worker) error { g.Spawn(nil, task); return nil }, opts...)
			}, "par: Group.Spawn: w is nil"},
			{func() {
				_ = par.ScopeErr(ctx, func(_ context.Context, g *par.Group, w *par.Worker) error { g.Spawn(w, nil); return nil }, opts...)
			}, "par: Group.Spawn: f is nil"},
			{func() {
				_ = par.ScopeErr(ctx, func(_ context.Context, g *par.Group, _ *par.Worker) error { g.Go(nil); return nil }, opts...)
			}, "par: Group.Go: f is nil"},
			{func() {
				_ = par.ScopeErr(ctx, func(_ context.Context, g *par.Group, _ *par.Worker) error { g.SetLimit(0); return nil }, opts...)
			}, "par: Group.SetLimit(0): a limit of 0 would start no task"},
			{func() {
				_ = par.ScopeErr(ctx, func(_ context.Context, g *par.Group, w *par.Worker) error {
					g.Spawn(w, task)
					g.SetLimit(2)
					return nil
				}, opts...)
			}, "par: Group.SetLimit: tasks were already spawned; set the limit before the first Spawn or Go"},

			// A nil context.
			{func() {
				par.MapErr(nilCtx, indices(3), func(_ context.Context, x int) (int, error) { return x, nil }, opts...)
			}, "par: MapErr: ctx is nil"},
			{func() { par.ForEachErr(nilCtx, indices(3), func(context.Context, int) error { return nil }, opts...) }, "par: ForEachErr: ctx is nil"},
			{func() {
				_ = par.ScopeErr(nilCtx, func(context.Context, *par.Group, *par.Worker) error { return nil }, opts...)
			}, "par: ScopeErr: ctx is nil"},

			// Negative lengths.
			{func() { par.For(-1, func(int) {}, opts...) }, "par: For: n = -1, want n >= 0"},
			{func() { par.ForRange(math.MinInt, func(int, int) {}, opts...) }, fmt.Sprintf("par: ForRange: n = %d, want n >= 0", math.MinInt)},
			{func() { par.ReduceRange(-7, 0, leaf, add, opts...) }, "par: ReduceRange: n = -7, want n >= 0"},

			// Empty inputs where there is no answer, as in slices.
			{func() { par.Min([]int{}, opts...) }, "par.Min: empty list"},
			{func() { par.Max([]int(nil), opts...) }, "par.Max: empty list"},
			{func() { par.MinFunc([]int{}, func(a, b int) int { return a - b }, opts...) }, "par.MinFunc: empty list"},
			{func() { par.MaxFunc([]int{}, func(a, b int) int { return a - b }, opts...) }, "par.MaxFunc: empty list"},
		}
		for _, c := range cases {
			t.Run(poolName(p)+"/"+c.want, func(t *testing.T) {
				require.Equal(t, c.want, panicValue(t, c.call))
			})
		}
		requireUsable(t, p)
	}
}

func TestBadOptionMessages(t *testing.T) {
	var nilPool *par.Pool
	for _, c := range []struct {
		call func()
		want string
	}{
		{func() { par.WithGrain(0) }, "par: WithGrain(0): grain must be at least 1"},
		{func() { par.WithGrain(-1) }, "par: WithGrain(-1): grain must be at least 1"},
		{func() { par.WithGrain(math.MinInt) }, fmt.Sprintf("par: WithGrain(%d): grain must be at least 1", math.MinInt)},
		{func() { par.WithMinLen(0) }, "par: WithMinLen(0): minimum length must be at least 1"},
		{func() { par.WithMinLen(math.MinInt) }, fmt.Sprintf("par: WithMinLen(%d): minimum length must be at least 1", math.MinInt)},
		{func() { par.OnPool(nil) }, "par: OnPool(nil): pool is nil"},
		{func() { par.OnPool(&par.Pool{}) }, "par: OnPool: pool was not made by NewPool"},
		{func() { par.Workers(0) }, "par: Workers(0): a pool needs at least 1 worker"},
		{func() { par.Workers(-5) }, "par: Workers(-5): a pool needs at least 1 worker"},
		{func() { par.Workers(par.MaxWorkers + 1) }, "par: Workers(65537): more than MaxWorkers (65536) workers"},
		{func() { par.Workers(math.MaxInt) }, fmt.Sprintf("par: Workers(%d): more than MaxWorkers (65536) workers", math.MaxInt)},
		{func() { par.NewPool(par.PoolOption{}) }, "par: NewPool: opts[0] is a zero PoolOption: build options with Workers"},
		{func() { par.NewPool(par.Workers(1), par.PoolOption{}) }, "par: NewPool: opts[1] is a zero PoolOption: build options with Workers"},
		{func() { nilPool.Close() }, "par: Pool.Close: p is nil"},
		{func() { nilPool.Workers() }, "par: Pool.Workers: p is nil"},
		{func() { nilPool.Stats() }, "par: Pool.Stats: p is nil"},
		{func() { (&par.Pool{}).Close() }, "par: Pool.Close: p was not made by NewPool"},
		{func() { (&par.Pool{}).Workers() }, "par: Pool.Workers: p was not made by NewPool"},
		{func() { (&par.Pool{}).Stats() }, "par: Pool.Stats: p was not made by NewPool"},
	} {
		t.Run(c.want, func(t *testing.T) {
			require.Equal(t, c.want, panicValue(t, c.call))
		})
	}
	require.Equal(t, "weft pool (not made by NewPool)", fmt.Sprint(nilPool))
	requireUsable(t, nil)
}

// TestSpawnerMisuse: a nil Spawner, or one kept past the end of its scope,
// panics with a message instead of starting a task that nothing waits for.
func TestSpawnerMisuse(t *testing.T) {
	for _, p := range testPools(t) {
		opts := poolOpts(p)
		var nilSpawner *par.Spawner
		require.Equal(t, "par: Spawner.Go: s is nil", panicValue(t, func() { nilSpawner.Go(func(*par.Worker) {}) }))
		require.Equal(t, "par: Spawner.Spawn: s is nil", panicValue(t, func() {
			par.Do(func(w *par.Worker) { nilSpawner.Spawn(w, func(*par.Worker) {}) }, opts...)
		}))

		var kept *par.Spawner
		ran := false
		par.Scope(func(s *par.Spawner, _ *par.Worker) { kept = s }, opts...)
		require.Equal(t, "par: Spawner.Go: the scope has ended", panicValue(t, func() { kept.Go(func(*par.Worker) { ran = true }) }))
		require.Equal(t, "par: Spawner.Spawn: the scope has ended", panicValue(t, func() {
			par.Do(func(w *par.Worker) { kept.Spawn(w, func(*par.Worker) { ran = true }) }, opts...)
		}))
		require.False(t, ran, "a task of an ended scope ran")
		requireUsable(t, p)
	}
}

// TestGroupMisuse: a nil Group, or one kept past the end of its scope,
// panics with a message instead of starting a task that nothing waits for.
func TestGroupMisuse(t *testing.T) {
	task := func(context.Context, *par.Worker) error { return nil }
	for _, p := range testPools(t) {
		opts := poolOpts(p)
		var nilGroup *par.Group
		require.Equal(t, "par: Group.Go: g is nil", panicValue(t, func() { nilGroup.Go(task) }))
		require.Equal(t, "par: Group.SetLimit: g is nil", panicValue(t, func() { nilGroup.SetLimit(1) }))
		require.Equal(t, "par: Group.Spawn: g is nil", panicValue(t, func() {
			par.Do(func(w *par.Worker) { nilGroup.Spawn(w, task) }, opts...)
		}))

		var kept *par.Group
		ran := false
		require.NoError(t, par.ScopeErr(context.Background(), func(_ context.Context, g *par.Group, _ *par.Worker) error {
			kept = g
			return nil
		}, opts...))
		late := func(context.Context, *par.Worker) error { ran = true; return nil }
		require.Equal(t, "par: Group.Go: the scope has ended", panicValue(t, func() { kept.Go(late) }))
		require.Equal(t, "par: Group.Spawn: the scope has ended", panicValue(t, func() {
			par.Do(func(w *par.Worker) { kept.Spawn(w, late) }, opts...)
		}))
		require.False(t, ran, "a task of an ended scope ran")
		requireUsable(t, p)
	}
}

// TestJoin2NilFunctionMessage: Join2 with a nil fa or fb panics with a message
// that names the parameter, as every other function of the package does.
// Once caught: the caller got "invalid memory address or nil pointer dereference" from inside the scheduler.
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

// TestJoinNilWorkerMessage: Join2 and Worker.Join given a nil *Worker (a handle
// not passed down, a zero value) panic with a message that names the function
// and the parameter, as Spawner.Spawn does.
// Once caught: both died with a nil pointer dereference inside the library.
func TestJoinNilWorkerMessage(t *testing.T) {
	leaf := func(*par.Worker, int) int { return 0 }
	noop := func(*par.Worker) {}
	var nilWorker *par.Worker
	// Join2 leaves w unchecked, to stay inlinable: the runtime's nil dereference.
	assert.Panics(t, func() { par.Join2(nil, leaf, 1, leaf, 2) })
	assert.Equal(t, "par: Worker.Join: w is nil", panicValue(t, func() { nilWorker.Join(noop, noop) }))
	requireUsable(t, nil)
}

func TestErrNilArgs(t *testing.T) {
	var nilCtx context.Context
	s := []int{1, 2, 3}
	require.PanicsWithValue(t, "par: MapErr: ctx is nil", func() {
		_, _ = par.MapErr(nilCtx, s, func(context.Context, int) (int, error) { return 0, nil })
	})
	require.PanicsWithValue(t, "par: MapErr: f is nil", func() {
		_, _ = par.MapErr[[]int, int, int](context.Background(), s, nil)
	})
	require.PanicsWithValue(t, "par: ForEachErr: ctx is nil", func() {
		_ = par.ForEachErr(nilCtx, s, func(context.Context, int) error { return nil })
	})
	require.PanicsWithValue(t, "par: ForEachErr: f is nil", func() {
		_ = par.ForEachErr[[]int](context.Background(), s, nil)
	})
	// The checks do not depend on the slice.
	require.PanicsWithValue(t, "par: ForEachErr: ctx is nil", func() {
		_ = par.ForEachErr(nilCtx, []int(nil), func(context.Context, int) error { return nil })
	})
}

// onOtherGoroutine calls f on a goroutine of its own and returns what f
// panicked with, or nil.
func onOtherGoroutine(f func()) (r any) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer func() { r = recover() }()
		f()
	}()
	<-done
	return r
}

// TestForeignHandlePanics: a handle used on a goroutine that does not own
// it (a goroutine the caller started, or the handle kept past its call)
// panics at the call, naming the function and the handle, instead of
// pushing onto or popping from another goroutine's deque, which deadlocked
// or corrupted the pool; the pool stays usable, with the race detector or
// without.
func TestForeignHandlePanics(t *testing.T) {
	if !par.HandlesChecked() {
		t.Skip("no goroutine identity on this platform: handles are not checked")
	}
	nop := func(*par.Worker) {}
	zero := func(*par.Worker, int) int { return 0 }
	msg := func(name string) string {
		return "par: " + name + ": w is not the calling goroutine's handle: pass the handle given to the calling function (a task's own, not its caller's); a handle is valid only in that function, on its goroutine"
	}
	for _, p := range testPools(t) {
		opts := poolOpts(p)
		ran := false
		cases := []struct {
			name string
			use  func(w *par.Worker)
		}{
			{"Worker.Join", func(w *par.Worker) { w.Join(func(*par.Worker) { ran = true }, nop) }},
			{"Join2", func(w *par.Worker) { par.Join2(w, zero, 1, func(*par.Worker, int) int { ran = true; return 0 }, 2) }},
		}
		for _, c := range cases {
			par.Do(func(w *par.Worker) {
				require.Equal(t, msg(c.name), onOtherGoroutine(func() { c.use(w) }), "on another goroutine during the call")
			}, opts...)
			var kept *par.Worker
			par.Do(func(w *par.Worker) { kept = w }, opts...)
			require.Equal(t, msg(c.name), panicValue(t, func() { c.use(kept) }), "kept past its call")
		}
		par.Scope(func(s *par.Spawner, w *par.Worker) {
			require.Equal(t, msg("Spawner.Spawn"), onOtherGoroutine(func() { s.Spawn(w, func(*par.Worker) { ran = true }) }))
		}, opts...)
		require.NoError(t, par.ScopeErr(context.Background(), func(_ context.Context, g *par.Group, w *par.Worker) error {
			require.Equal(t, msg("Group.Spawn"), onOtherGoroutine(func() {
				g.Spawn(w, func(context.Context, *par.Worker) error { ran = true; return nil })
			}))
			return nil
		}, opts...))
		require.False(t, ran, "a call with a foreign handle ran a function")
		// A task that spawns with its caller's handle: a panic at the Spawn
		// when a pool worker runs the task, a task of the scope when the
		// caller does (the handle is then its own).
		for range 20 {
			r := func() (r any) {
				defer func() { r = recover() }()
				par.Scope(func(s *par.Spawner, w *par.Worker) {
					for range 4 {
						s.Go(func(*par.Worker) { s.Spawn(w, nop) })
					}
				}, opts...)
				return nil
			}()
			if r != nil {
				require.Equal(t, msg("Spawner.Spawn"), r)
			}
		}
		requireUsable(t, p)
	}
}
