package par_test

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
	"github.com/weftgo/weft/split"
)

// The folds (Fold, FoldRange, ReduceBy) give the result of the sequential
// fold, in order, whatever the timing; and their accumulators follow the
// runs of adjacent pieces, so that a call of elements that cost the same
// makes a few per participant however long it runs.

// span is a non-commutative fold of indices: the range it covers, which
// merges only with the range right after it, and a checksum that depends on
// the order of the elements.
type span struct {
	lo, hi int // [lo, hi), or lo == hi == -1 for none yet
	hash   uint64
	// user counts the goroutines folding into it at once, to catch two.
	users *atomic.Int32
}

func newSpan() span { return span{lo: -1, hi: -1, users: new(atomic.Int32)} }

func (s span) add(t *testing.T, i int) span { return s.addRange(t, i, i+1) }

// addRange folds the elements [lo, hi) into s.
func (s span) addRange(t *testing.T, lo, hi int) span {
	if s.users.Add(1) != 1 {
		t.Error("an accumulator is folded into by two goroutines at once")
	}
	defer s.users.Add(-1)
	if s.lo < 0 {
		s.lo, s.hi = lo, lo
	}
	if lo != s.hi {
		t.Errorf("elements [%d, %d) folded into the accumulator of [%d, %d)", lo, hi, s.lo, s.hi)
	}
	s.hi = hi
	for i := lo; i < hi; i++ {
		s.hash = s.hash*1099511628211 ^ uint64(i)
	}
	return s
}

func mergeSpans(t *testing.T) func(a, b span) span {
	return func(a, b span) span {
		if a.lo < 0 {
			return b
		}
		if b.lo < 0 {
			return a
		}
		if a.hi != b.lo {
			t.Errorf("merge of [%d, %d) with [%d, %d), not adjacent", a.lo, a.hi, b.lo, b.hi)
		}
		h := a.hash
		for i := b.lo; i < b.hi; i++ {
			h = h*1099511628211 ^ uint64(i)
		}
		return span{lo: a.lo, hi: b.hi, hash: h, users: a.users}
	}
}

func seqSpan(n int) span {
	s := newSpan()
	if n == 0 {
		return s
	}
	s.lo, s.hi = 0, n
	for i := range n {
		s.hash = s.hash*1099511628211 ^ uint64(i)
	}
	return s
}

func sameSpan(t *testing.T, want, got span, what string) {
	t.Helper()
	require.Equal(t, [3]uint64{uint64(want.lo), uint64(want.hi), want.hash}, [3]uint64{uint64(got.lo), uint64(got.hi), got.hash}, what)
}

func TestFoldKeepsOrder(t *testing.T) {
	eachCase(t, noInput, func(t *testing.T, n int, _ struct{}, s setup) {
		want := seqSpan(n)
		got := par.Fold(indices(n), newSpan, func(a span, i int) span { return a.add(t, i) }, mergeSpans(t), s.opts...)
		sameSpan(t, want, got, "Fold")
		got = par.FoldRange(n, newSpan, func(a span, lo, hi int) span { return a.addRange(t, lo, hi) }, mergeSpans(t), s.opts...)
		sameSpan(t, want, got, "FoldRange")
	})
}

// TestFoldEmpty: an empty input gives init(), made once.
func TestFoldEmpty(t *testing.T) {
	inits := 0
	init := func() []int { inits++; return []int{42} }
	got := par.Fold([]int(nil), init, func(a []int, x int) []int { return append(a, x) }, func(a, b []int) []int { return append(a, b...) })
	require.Equal(t, []int{42}, got)
	require.Equal(t, 1, inits)
	got = par.FoldRange(0, init, func(a []int, lo, hi int) []int { return a }, func(a, b []int) []int { return a })
	require.Equal(t, []int{42}, got)
	require.Equal(t, 2, inits)
}

// TestFoldSharedAccumulator: an init that hands out one accumulator to
// every run, here a map guarded by a mutex, gives merge that map as both left
// and right, which counted the elements of a call of 100,000 several times
// over (and crashed with "concurrent map writes" without the mutex), while a
// call that makes one run merges nothing and is right, so small inputs pass.
// A call whose merge would get one accumulator twice panics, naming init.
// Whether a call makes two runs depends on steals: on a pool of 4 workers
// most calls of this size do; the test tries calls until one has. Its
// functions yield now and then, since on one processor a worker runs, and
// steals, only when the caller's goroutine lets it.
func TestFoldSharedAccumulator(t *testing.T) {
	p := par.NewPool(par.Workers(4))
	defer p.Close()
	const n = 100_000
	var (
		mu     sync.Mutex
		shared = map[int]int{}
		inits  atomic.Int64
	)
	init := func() map[int]int { inits.Add(1); return shared }
	add := func(m map[int]int, k, v int) map[int]int {
		mu.Lock()
		defer mu.Unlock()
		m[k] += v
		return m
	}
	merge := func(a, b map[int]int) map[int]int {
		mu.Lock()
		defer mu.Unlock()
		for k, v := range b {
			a[k] += v
		}
		return a
	}
	for _, c := range []struct {
		name string
		call func() map[int]int
	}{
		{"Fold", func() map[int]int {
			return par.Fold(indices(n), init, func(m map[int]int, x int) map[int]int {
				if x%1024 == 0 {
					runtime.Gosched()
				}
				return add(m, x%7, 1)
			}, merge, par.OnPool(p))
		}},
		{"FoldRange", func() map[int]int {
			return par.FoldRange(n, init, func(m map[int]int, lo, hi int) map[int]int {
				runtime.Gosched()
				for i := lo; i < hi; i++ {
					add(m, i%7, 1)
				}
				return m
			}, merge, par.OnPool(p))
		}},
	} {
		merged := false
		for try := 0; try < 200 && !merged; try++ {
			clear(shared)
			inits.Store(0)
			var got map[int]int
			how, v := runOn(func() { got = c.call() })
			if inits.Load() < 2 {
				require.Equal(t, returned, how, "%s with one run: %v", c.name, v)
				total := 0
				for _, k := range got {
					total += k
				}
				require.Equal(t, n, total, "%s with one run", c.name)
				continue
			}
			merged = true
			require.Equal(t, panicked, how, "%s whose %d runs share one map returned %v", c.name, inits.Load(), got)
			require.Equal(t, "par: "+c.name+": init returned the same map for two runs of the call, "+
				"so merge would get it as both left and right: init must return a new accumulator at each call", v)
		}
		require.True(t, merged, "no call of %s made two runs in 200", c.name)
	}
}

// maxAccumulatorsPerParticipant bounds the accumulators of a call of
// uniform elements, per participant of its pool (its workers and the caller).
// A call makes one per run of adjacent pieces, and a run begins only at the
// call's first piece and where a stolen piece starts before the piece on its
// left is done, so the accumulators are at most the steals plus one, which
// the test checks exactly. On this project's 2-core machine, with pools of
// 1, 2 and 8 workers, most calls make 1 to 5 in all; the most per
// participant over 10 runs of this test was 12 (108 for the 9 participants
// of 8 workers), and 14 with GOMAXPROCS=8 over 5 runs (114 for 8). The race
// detector slows the pieces tenfold and spreads the steals: 31 (276 for 9)
// over 30 runs, so the bound is twice as high under it. A fold that made one
// per step of its pieces made hundreds.
const maxAccumulatorsPerParticipant = 24

// TestFoldAccumulatorsPerParticipant counts the accumulators (the calls of
// init) of FoldRange and Fold over uniform elements, for calls from about
// 0.1 ms to about 100 ms long, on pools of 1 to 8 workers: their number
// follows the steals, and so the participants, not the call's length, the
// steps of its pieces or the machine's speed.
func TestFoldAccumulatorsPerParticipant(t *testing.T) {
	lengths := countLengths()
	for _, p := range testPools(t) {
		opts := poolOpts(p)
		parts, stats := poolCounts(p)
		bound := maxAccumulatorsPerParticipant * parts
		if raceEnabled {
			bound *= 2
		}
		// check runs one call that made inits accumulators, and requires
		// them within the bound and within the steals of the call plus one.
		check := func(what string, call func(inits *atomic.Int64)) (int, int) {
			before := stats().Total().Steals
			var inits atomic.Int64
			call(&inits)
			made := int(inits.Load())
			require.LessOrEqual(t, made, bound, "accumulators of %s", what)
			steals := stealsUntil(stats, before, func(steals int) bool { return made <= steals+1 })
			require.LessOrEqual(t, made, steals+1, "accumulators of %s, against its steals", what)
			return made, steals
		}
		for _, n := range lengths {
			t.Run(fmt.Sprintf("%s/n=%d", poolName(p), n), func(t *testing.T) {
				most, steps := 0, int64(0)
				for range 4 {
					made, _ := check("FoldRange", func(inits *atomic.Int64) {
						var calls atomic.Int64
						sum := par.FoldRange(n, func() uint64 { inits.Add(1); return 0 }, func(acc uint64, lo, hi int) uint64 {
							calls.Add(1)
							return acc + uniform(lo, hi)
						}, func(a, b uint64) uint64 { return a + b }, opts...)
						require.Equal(t, uniform(0, n), sum)
						steps = max(steps, calls.Load())
					})
					most = max(most, made)
				}
				t.Logf("at most %d accumulators for %d participants; fold called up to %d times", most, parts, steps)
			})
		}
		// Fold, and ReduceBy, whose maps are its accumulators, share
		// FoldRange's runs: one length.
		in := indices(lengths[1])
		check("Fold", func(inits *atomic.Int64) {
			par.Fold(in, func() int { inits.Add(1); return 0 }, func(a, x int) int { return a + x%3 }, func(a, b int) int { return a + b }, opts...)
		})
	}
}

// maxLeavesPerParticipant bounds ReduceRange's leaf calls per participant:
// split.RecordDepth pieces, up to twice as many where halving the range
// overshoots, and the prefix's chunks, whatever the steals.
const maxLeavesPerParticipant = 4 * split.RecordDepth

// TestReduceRangeLeafCallsPerParticipant counts ReduceRange's leaf calls
// over uniform elements for calls from about 0.1 ms to about 100 ms long, on
// pools of 1 to 8 workers: a leaf cannot be cut once it has started, so the
// engine calls it per piece, and the pieces follow the participants, not
// the call's length nor its steals (a leaf per 50 µs step called one that
// makes a map thousands of times over a large file).
func TestReduceRangeLeafCallsPerParticipant(t *testing.T) {
	lengths := countLengths()
	for _, p := range testPools(t) {
		opts := poolOpts(p)
		parts, _ := poolCounts(p)
		for _, n := range lengths {
			t.Run(fmt.Sprintf("%s/n=%d", poolName(p), n), func(t *testing.T) {
				most := 0
				for range 4 {
					var calls atomic.Int64
					sum := par.ReduceRange(n, 0, func(lo, hi int) uint64 {
						calls.Add(1)
						return uniform(lo, hi)
					}, func(a, b uint64) uint64 { return a + b }, opts...)
					require.Equal(t, uniform(0, n), sum)
					made := int(calls.Load())
					require.LessOrEqual(t, made, maxLeavesPerParticipant*parts, "leaf calls over %d elements", n)
					most = max(most, made)
				}
				t.Logf("at most %d leaf calls for %d participants", most, parts)
			})
		}
	}
}

// TestReduceRangeLeafCallsWhateverTheLength: ReduceRange's leaf that makes a
// map is called about as often over 4M elements as over 100,000 (where
// leaves are long enough to cut already), give or take the steals,
// at GOMAXPROCS 2 and 8 on a pool of a worker per processor less the
// caller's. A stolen piece that was cut again for its thief made up to two
// leaves per participant a steal, and the steals grow with the call where
// processors outnumber the CPUs: at GOMAXPROCS 8 on 2 cores, about 300 leaf
// calls over 100,000 elements and 850-1,000 over 4M.
func TestReduceRangeLeafCallsWhateverTheLength(t *testing.T) {
	small, large := 100_000, 4<<20
	if raceEnabled {
		small, large = 25_000, 1<<20
	}
	for _, procs := range []int{2, 8} {
		t.Run(fmt.Sprintf("GOMAXPROCS=%d", procs), func(t *testing.T) {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
			p := par.NewPool(par.Workers(procs - 1))
			defer p.Close()
			// count calls ReduceRange over n elements and returns its leaf
			// calls, and p's steals before it.
			count := func(n int) (made int, before uint64) {
				before = p.Stats().Total().Steals
				var calls atomic.Int64
				leaf := countKeys(n, false)
				m := par.ReduceRange(n, nil, func(lo, hi int) keyCount {
					calls.Add(1)
					return leaf(lo, hi)
				}, mergeCounts, par.OnPool(p))
				total := 0
				for _, c := range m {
					total += c
				}
				require.Equal(t, n, total)
				return int(calls.Load()), before
			}
			most := 0
			for range 4 {
				made, _ := count(small)
				most = max(most, made)
			}
			for range 4 {
				made, before := count(large)
				// procs: the prefix may time the larger call in a few more
				// chunks, each a call of the leaf.
				steals := stealsUntil(p.Stats, before, func(steals int) bool { return made <= most+procs+steals })
				require.LessOrEqual(t, made, most+procs+steals, "leaf calls over %d elements, against at most %d over %d", large, most, small)
				t.Logf("%d leaf calls over %d elements with %d steals, at most %d over %d", made, large, steals, most, small)
			}
		})
	}
}

// countLengths returns the lengths of the tests that count calls per
// participant: calls from about 0.1 ms to about 100 ms, shorter under the
// race detector and in a short run.
func countLengths() []int {
	switch {
	case raceEnabled:
		return []int{1 << 16, 1 << 19, 1 << 21}
	case !full():
		return []int{1 << 16, 1 << 20, 1 << 22}
	}
	return []int{1 << 16, 1 << 20, 1 << 24}
}

// poolCounts returns the participants of a call on p (nil: the default
// pool), its workers and the caller, and p's counters.
func poolCounts(p *par.Pool) (int, func() par.Stats) {
	if p == nil {
		return par.DefaultWorkers() + 1, par.DefaultStats
	}
	return p.Workers() + 1, p.Stats
}

// stealsUntil returns the steals of stats since before once ok accepts
// them, or after about two seconds: a worker publishes its steals when it
// runs out of work, a moment after the call returns.
func stealsUntil(stats func() par.Stats, before uint64, ok func(steals int) bool) int {
	steals := 0
	for range 2000 {
		if steals = int(stats().Total().Steals - before); ok(steals) {
			break
		}
		time.Sleep(time.Millisecond)
	}
	return steals
}

// uniform is a body of elements that cost the same, a few nanoseconds each:
// the sum over [lo, hi) of a hash of i.
func uniform(lo, hi int) uint64 {
	var s uint64
	for i := lo; i < hi; i++ {
		x := uint64(i) * 0x9E3779B97F4A7C15
		s += x ^ x>>29
	}
	return s
}

// ordered is an associative, non-commutative value: the polynomial hash of
// a sequence of indices, with the power of its length, so that the result
// of a ReduceBy tells whether the values of a key were combined in order.
type ordered struct{ hash, pow uint64 }

const orderedBase = 1099511628211

func orderedOf(i int) ordered { return ordered{uint64(i) + 1, orderedBase} }

func (a ordered) then(b ordered) ordered { return ordered{a.hash*b.pow + b.hash, a.pow * b.pow} }

func TestReduceByMatchesSequential(t *testing.T) {
	eachCase(t, func(r *rand.Rand, n int) []int { return smallInts(r, n, 50) }, func(t *testing.T, n int, in []int, s setup) {
		want := map[int]ordered{}
		for i, x := range in {
			if o, ok := want[x%13]; ok {
				want[x%13] = o.then(orderedOf(i))
			} else {
				want[x%13] = orderedOf(i)
			}
		}
		got := par.ReduceBy(indices(n), func(i int) (int, ordered) { return in[i] % 13, orderedOf(i) }, ordered.then, s.opts...)
		require.Equal(t, want, got)
		counts := par.ReduceBy(in, func(x int) (int, int) { return x, 1 }, func(a, b int) int { return a + b }, s.opts...)
		require.Equal(t, par.CountBy(in, func(x int) int { return x }, s.opts...), counts, "ReduceBy of ones is CountBy")
	})
}

// TestFoldByMatchesSequential: FoldBy's accumulators, updated in place,
// hold what the sequential fold of each key's values gives, in order, and
// each is used by one goroutine at a time.
func TestFoldByMatchesSequential(t *testing.T) {
	eachCase(t, func(r *rand.Rand, n int) []int { return smallInts(r, n, 50) }, func(t *testing.T, n int, in []int, s setup) {
		want := map[int][]int{}
		hists := map[int][8]uint32{}
		for i, x := range in {
			want[x%13] = append(want[x%13], i)
			h := hists[x%7]
			h[x%8]++
			hists[x%7] = h
		}
		type seen struct {
			is    []int
			users *atomic.Int32
		}
		use := func(a *seen) func() {
			if a.users.Add(1) != 1 {
				t.Error("an accumulator is updated by two goroutines at once")
			}
			return func() { a.users.Add(-1) }
		}
		got := par.FoldBy(indices(n), func(i int) (int, int) { return in[i] % 13, i },
			func() seen { return seen{users: new(atomic.Int32)} },
			func(a *seen, i int) { defer use(a)(); a.is = append(a.is, i) },
			func(a, b *seen) { defer use(a)(); a.is = append(a.is, b.is...) }, s.opts...)
		require.Len(t, got, len(want))
		for k, is := range want {
			require.Equal(t, is, got[k].is, "key %d", k)
		}

		gotH := par.FoldBy(in, func(x int) (int, int) { return x % 7, x % 8 },
			func() [8]uint32 { return [8]uint32{} },
			func(h *[8]uint32, b int) { h[b]++ },
			func(h, other *[8]uint32) {
				for i := range h {
					h[i] += other[i]
				}
			}, s.opts...)
		require.Len(t, gotH, len(hists))
		for k, h := range hists {
			require.Equal(t, h, *gotH[k], "histogram of key %d", k)
		}
	})
}

// TestReduceByEmpty: no elements give an empty map, not nil.
func TestReduceByEmpty(t *testing.T) {
	got := par.ReduceBy([]int{}, func(x int) (int, int) { return x, x }, func(a, b int) int { return a + b })
	require.NotNil(t, got)
	require.Empty(t, got)
	acc := par.FoldBy([]int{}, func(x int) (int, int) { return x, x }, func() int { return 0 }, func(a *int, x int) { *a += x }, func(a, b *int) { *a += *b })
	require.NotNil(t, acc)
	require.Empty(t, acc)
}

// TestInitValuesHandedBack: ForEachInit and ForRangeInit return every value
// that init made, and every element went through one of them.
func TestInitValuesHandedBack(t *testing.T) {
	eachCase(t, noInput, func(t *testing.T, n int, _ struct{}, s setup) {
		var made atomic.Int64
		newMap := func() map[int]int { made.Add(1); return map[int]int{} }
		maps := par.ForEachInit(indices(n), newMap, func(m map[int]int, x int) { m[x%5]++ }, s.opts...)
		require.Len(t, maps, int(made.Load()))
		total := 0
		for _, m := range maps {
			for _, c := range m {
				total += c
			}
		}
		require.Equal(t, n, total)

		made.Store(0)
		ranges := par.ForRangeInit(n, func() *[]int { made.Add(1); return new([]int) }, func(r *[]int, lo, hi int) {
			*r = append(*r, lo, hi)
		}, s.opts...)
		require.Len(t, ranges, int(made.Load()))
		seen := make([]int, n)
		for _, r := range ranges {
			for k := 0; k < len(*r); k += 2 {
				for i := (*r)[k]; i < (*r)[k+1]; i++ {
					seen[i]++
				}
			}
		}
		for i, c := range seen {
			if c != 1 {
				t.Fatalf("element %d in %d pieces", i, c)
			}
		}
	})
}

func TestFoldNilArguments(t *testing.T) {
	init := func() int { return 0 }
	add := func(a, b int) int { return a + b }
	leaf := func(a, lo, hi int) int { return a }
	kv := func(x int) (int, int) { return x, x }
	addTo := func(a *int, b int) { *a += b }
	mergeInts := func(a, b *int) { *a += *b }
	newInt := func() *int { return new(int) }
	for _, c := range []struct {
		call func()
		want string
	}{
		{func() { par.Fold(indices(3), nil, add, add) }, "par: Fold: init is nil"},
		{func() { par.Fold(indices(3), init, nil, add) }, "par: Fold: fold is nil"},
		{func() { par.Fold(indices(3), init, add, nil) }, "par: Fold: merge is nil"},
		{func() { par.Fold[[]int, int, int](indices(3), nil, nil, nil) }, "par: Fold: init, fold and merge are nil"},
		{func() { par.FoldRange(3, nil, leaf, add) }, "par: FoldRange: init is nil"},
		{func() { par.FoldRange(3, init, nil, add) }, "par: FoldRange: fold is nil"},
		{func() { par.FoldRange(3, init, leaf, nil) }, "par: FoldRange: merge is nil"},
		{func() { par.FoldRange(-1, init, leaf, add) }, "par: FoldRange: n = -1, want n >= 0"},
		{func() { par.ReduceBy[[]int, int, int, int](indices(3), nil, add) }, "par: ReduceBy: f is nil"},
		{func() { par.ReduceBy(indices(3), kv, nil) }, "par: ReduceBy: op is nil"},
		{func() { par.ReduceBy[[]int, int, int, int](indices(0), nil, nil) }, "par: ReduceBy: f and op are nil"},
		{func() { par.FoldBy[[]int, int, int, int, int](indices(3), nil, init, addTo, mergeInts) }, "par: FoldBy: f is nil"},
		{func() { par.FoldBy(indices(3), kv, nil, addTo, mergeInts) }, "par: FoldBy: init is nil"},
		{func() { par.FoldBy(indices(3), kv, init, nil, mergeInts) }, "par: FoldBy: fold is nil"},
		{func() { par.FoldBy(indices(3), kv, init, addTo, nil) }, "par: FoldBy: merge is nil"},
		{func() { par.FoldBy[[]int, int, int, int, int](indices(3), nil, nil, addTo, nil) }, "par: FoldBy: f, init and merge are nil"},
		{func() { par.ForRangeInit(3, nil, func(*int, int, int) {}) }, "par: ForRangeInit: init is nil"},
		{func() { par.ForRangeInit(3, newInt, nil) }, "par: ForRangeInit: f is nil"},
		{func() { par.ForRangeInit[*int](3, nil, nil) }, "par: ForRangeInit: init and f are nil"},
		{func() { par.ForRangeInit(-2, newInt, func(*int, int, int) {}) }, "par: ForRangeInit: n = -2, want n >= 0"},
	} {
		require.Equal(t, c.want, panicValue(t, c.call))
	}
}

// foldCalls are the folds' calls for the option tables of args_test.go.
func foldCalls() []optCall {
	add := func(a, b int) int { return a + b }
	zero := func() int { return 0 }
	return []optCall{
		{"Fold", func(n int, o []par.Option) { par.Fold(indices(n), zero, add, add, o...) }},
		{"FoldRange", func(n int, o []par.Option) {
			par.FoldRange(n, zero, func(a, lo, hi int) int { return a + hi - lo }, add, o...)
		}},
		{"ReduceBy", func(n int, o []par.Option) {
			par.ReduceBy(indices(n), func(x int) (int, int) { return x % 3, x }, add, o...)
		}},
		{"FoldBy", func(n int, o []par.Option) {
			par.FoldBy(indices(n), func(x int) (int, int) { return x % 3, x }, zero, func(a *int, x int) { *a += x }, func(a, b *int) { *a += *b }, o...)
		}},
		{"ForRangeInit", func(n int, o []par.Option) {
			par.ForRangeInit(n, func() *int { return new(int) }, func(*int, int, int) {}, o...)
		}},
	}
}
