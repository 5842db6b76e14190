package pipe_test

import (
	"errors"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par/pipe"
)

// A call gets the state the call ending at its lo gave back, else one given
// back, else a new one; and put clears the accumulator.
func TestLeavesPreferTheStepBefore(t *testing.T) {
	ls := pipe.NewLeaves()
	a, b, c := ls.Get(0), ls.Get(100), ls.Get(200)
	require.Equal(t, 3, ls.Opens())
	a.SetAcc(7)
	ls.Put(a, 100)
	ls.Put(b, 200)
	ls.Put(c, 300)
	require.Same(t, a, ls.Get(100), "the state of the call that ended at 100")
	require.Same(t, c, ls.Get(300))
	require.Same(t, b, ls.Get(5000), "no call ended at 5000: the one left")
	require.Equal(t, 3, ls.Opens())
	require.Zero(t, a.Acc(), "put clears the accumulator")
	require.NotSame(t, a, ls.Get(100), "a state is handed out once")
	require.Equal(t, 4, ls.Opens())
}

// More states given back than the leaves keeps: the rest are dropped, and
// the states kept are handed out again, each once.
func TestLeavesDropWhatTheyCannotKeep(t *testing.T) {
	ls := pipe.NewLeaves()
	const k = 40 // more than the slots
	var sts []*pipe.LeafState
	for i := range k {
		sts = append(sts, ls.Get(i*10))
	}
	for i, st := range sts {
		ls.Put(st, i*10+10)
	}
	seen := map[*pipe.LeafState]bool{}
	for i := range k {
		st := ls.Get(i*10 + 10)
		require.False(t, seen[st], "a state handed out twice")
		seen[st] = true
	}
	kept := 2*k - ls.Opens()
	require.Positive(t, kept, "no state was kept")
	require.Less(t, kept, k, "every state was kept")
}

// Many goroutines getting and putting states never hold the same one at
// once, and make no more than there are goroutines.
func TestLeavesExclusive(t *testing.T) {
	ls := pipe.NewLeaves()
	const g = 8
	rounds := 2000
	if testing.Short() {
		rounds = 200
	}
	var inUse sync.Map
	var wg sync.WaitGroup
	for w := range g {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range rounds {
				lo := (w*rounds + i) * 10
				st := ls.Get(lo)
				if _, dup := inUse.LoadOrStore(st, w); dup {
					t.Errorf("a state was handed out twice")
					return
				}
				st.SetAcc(st.Acc() + 1)
				inUse.Delete(st)
				ls.Put(st, lo+10)
			}
		}()
	}
	wg.Wait()
	require.LessOrEqual(t, ls.Opens(), g)
}

// A terminal's leaf function is called several times per leaf; the pipe's
// buffers are opened once per goroutine that runs a leaf, not per call.
// Range, Map and Filter each allocate a batch buffer and closures per open,
// so the allocations of a call stay far below the number of steps.
func TestTerminalsReuseTheirPipe(t *testing.T) {
	if underRace {
		t.Skip("the race detector's allocations")
	}
	const n = 1_000_000
	p := pipe.Map(pipe.Range(0, n), func(x int) int { return x * 3 }).Filter(func(x int) bool { return x%2 == 0 })
	calls := map[string]func(){
		"Reduce":  func() { p.Reduce(0, func(a, b int) int { return a + b }) },
		"Count":   func() { p.Count() },
		"ForEach": func() { p.ForEach(func(int) {}) },
		"Any":     func() { p.Any(func(x int) bool { return x < 0 }) },
		"Find":    func() { p.Find(func(x int) bool { return x < 0 }) },
		"Fold":    func() { pipe.Fold(p, zero, func(a, x int) int { return a + x }, func(a, b int) int { return a + b }) },
		"Max":     func() { pipe.Max(p) },
		"Sum":     func() { pipe.Sum(p) },
		"Product": func() { pipe.Product(p) },
		"IndexFunc": func() {
			pipe.MapIndex(pipe.Range(0, n), func(i, x int) int { return x }).IndexFunc(func(x int) bool { return x < 0 })
		},
	}
	for name, call := range calls {
		t.Run(name, func(t *testing.T) {
			call()
			allocs := testing.AllocsPerRun(5, call)
			t.Logf("%.0f allocations a call", allocs)
			// Before the cache, each of the about 1,000 calls of the leaf
			// function opened three stages: over 3,000 allocations.
			assert.Less(t, allocs, 600.0)
		})
	}
}

// A callback that panics in one step leaves its state out of the cache:
// the calls after it on other goroutines see whole results, and the next
// terminal call on the same pipe agrees with the loop.
func TestLeavesAfterPanic(t *testing.T) {
	for _, po := range surfacePools(t) {
		t.Run(po.name, func(t *testing.T) {
			n := 300_000
			boom := errors.New("boom")
			var calls atomic.Int64
			bad := pipe.Map(pipe.Range(0, n), func(x int) int {
				if x == n/3 && calls.Add(1) == 1 {
					panic(boom)
				}
				return x
			})
			require.PanicsWithValue(t, boom, func() { bad.Reduce(0, func(a, b int) int { return a + b }, po.opts...) })
			require.Equal(t, n*(n-1)/2, bad.Reduce(0, func(a, b int) int { return a + b }, po.opts...))
			x, ok := bad.Find(func(x int) bool { return x >= n/3 }, po.opts...)
			require.True(t, ok)
			require.Equal(t, n/3, x)
		})
	}
}
