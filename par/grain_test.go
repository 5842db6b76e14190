package par_test

import (
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/internal/fakeclock"
	"github.com/weftgo/weft/par"
	"github.com/weftgo/weft/split"
)

// How a call cuts its range: never below WithMinLen, leaves bounded by the
// pace of the timed prefix, running leaves that give half of what they have
// left to a hungry participant, and no more cuts once the result is settled.

// TestPacedLeaves: the bridge cuts a long call's leaves as split.ForRange
// says (package split's tests hold the rule): pieces of two steps or more
// are cut, pieces of less are not, and where a step holds less than
// split.MinStep at the prefix's pace, leaves hold up to that.
func TestPacedLeaves(t *testing.T) {
	p := par.NewPool(par.Workers(1)) // two participants with the caller
	t.Cleanup(p.Close)
	const n = 1 << 20
	step := split.StepOf(n, 2)
	for _, pace := range []int{0, step / 2, 3 * step} { // MinStep's worth at the prefix's pace
		t.Run(fmt.Sprint("pace ", pace), func(t *testing.T) {
			var mu sync.Mutex
			var pieces [][2]int // what the leaves were called with: checked afterwards, so that the calls stay cheap
			par.ForRangePaced(n, pace, func(lo, hi int) {
				mu.Lock()
				pieces = append(pieces, [2]int{lo, hi})
				mu.Unlock()
			}, par.OnPool(p))
			slices.SortFunc(pieces, func(a, b [2]int) int { return a[0] - b[0] })
			var lens []int
			next := 0
			for _, pc := range pieces {
				require.Equal(t, next, pc[0], "the leaves cover the range once")
				next = pc[1]
				lens = append(lens, pc[1]-pc[0])
			}
			require.Equal(t, n, next)
			maxLeaf := max(2*step, pace)
			require.LessOrEqual(t, slices.Max(lens), maxLeaf, "no step longer than a leaf")
			require.GreaterOrEqual(t, len(lens), n/maxLeaf)
		})
	}
}

// TestMinLenShortPieces: WithMinLen(n) never makes a piece shorter than n
// elements, the sequential prefix of an adaptive call included: ForRange hands
// its callback pieces of at least 100 elements under WithMinLen(100).
// Once caught: ForRange(1000, f, WithMinLen(100)) got [0,1) [1,9) [9,73) from the prefix.
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

// TestBridgeSplitsAfterStop: once a call has settled its result (here
// FindIndex, whose first element matches), the rest of its range is not cut
// any further: a handful of forks, not one per grain.
// Once caught: with WithGrain(1) every leaf was skipped, yet the call still made about a million forks (some 400 ms on 2 cores).
func TestBridgeSplitsAfterStop(t *testing.T) {
	p := par.NewPool(par.Workers(2))
	defer p.Close()
	const n = 100_000 // enough to tell a handful of forks from n, quick under -race
	s := make([]int, n)
	before := p.Stats().Total()
	require.Equal(t, 0, par.FindIndex(s, func(int) bool { return true }, par.WithGrain(1), par.OnPool(p)))
	after := p.Stats().Total()
	forks := (after.Inline - before.Inline) + (after.Tasks - before.Tasks)
	require.Less(t, forks, uint64(n/100), "the range was still cut into pieces after the call had stopped")
}

// A leaf that is running gives part of what it has left to a participant with
// nothing to do. Here the pool's worker is searching or parked, hence hungry,
// when the leaf starts on the caller; the leaf's elements before the half it can give away
// wait until an element of that half has started on another goroutine. A leaf
// that ran its piece to the end alone would wait forever (the watchdog fails
// the test after 30 s: it checks that the split happens, not how fast).
func TestRunningLeafGivesHalfToHungryWorker(t *testing.T) {
	for _, fixed := range []bool{false, true} {
		name := "halves"
		if fixed {
			name = "fixed-tree"
		}
		t.Run(name, func(t *testing.T) {
			p := par.NewPool(par.Workers(1))
			defer p.Close()
			const n = 64
			var started atomic.Int64 // the first element of the far half to start, plus one
			var ran [n]atomic.Int32
			deadline := time.Now().Add(30 * time.Second)
			par.RunLeaf(p, n, fixed, func(i int) {
				ran[i].Add(1)
				if i >= n/2 {
					started.CompareAndSwap(0, int64(i)+1)
					return
				}
				if i < 4 {
					// The first step, before the leaf looks for hunger: dear
					// enough that the rest is worth halving (split.MinPiece).
					time.Sleep(10 * time.Microsecond)
					return
				}
				for started.Load() == 0 {
					if time.Now().After(deadline) {
						panic("watchdog: no element of the far half started within 30 s")
					}
					runtime.Gosched()
				}
			})
			for i := range ran {
				require.EqualValues(t, 1, ran[i].Load(), "element %d", i)
			}
		})
	}
}

// TestRunningLeafKeepsACheapRest: a running leaf gives nothing away when
// half of what it has left holds less than split.MinPiece of work at the
// pace of its last step, however hungry the pool (a fork, its steal and its
// join would cost more than the half), and gives half away when it holds
// more.
func TestRunningLeafKeepsACheapRest(t *testing.T) {
	p := par.NewPool(par.Workers(1))
	defer p.Close()
	const n = 1500
	forks := func(perElem time.Duration) uint64 {
		c := fakeclock.New()
		var mu sync.Mutex // a forked half runs on the worker, and charges the clock there
		read := func() time.Time { mu.Lock(); defer mu.Unlock(); return c.Read() }
		charge := func(lo, hi int) { mu.Lock(); defer mu.Unlock(); c.Charge(lo, hi, fakeclock.Uniform(perElem)) }
		before := p.Stats().Total()
		par.RunLeafHungry(p, n, read, charge)
		after := p.Stats().Total()
		return after.Inline - before.Inline + after.Tasks - before.Tasks
	}
	assert.Zero(t, forks(time.Nanosecond), "1.5 µs in all: nothing worth giving away")
	assert.NotZero(t, forks(10*time.Nanosecond), "15 µs in all: half of the rest given away")
}

// TestPrefixRunsItsPlan: the prefix of a call runs alone the chunks that
// split.Prefix plans, reading the clock once a chunk (and once at the end),
// and stops where the plan does (package split's tests hold the plan to its budget).
func TestPrefixRunsItsPlan(t *testing.T) {
	for _, tc := range []struct {
		name string
		n    int
		cost func(i int) time.Duration
	}{
		{"long, uniform", 10_000_000, fakeclock.Uniform(1)},
		{"60 µs uniform", 60_000, fakeclock.Uniform(1)},
		{"W3 quick", 20_000, fakeclock.W3(20_000)},
		{"short", 1000, fakeclock.Uniform(1)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// A pool of the test's own, which has not yet woken a worker for
			// work: its wake-up unmeasured, the prefix follows the plan below,
			// made without one. On the default pool it followed the wake-up
			// that earlier tests left measured (split.Prefix.Meet).
			pool := par.NewPool(par.Workers(1))
			defer pool.Close()
			c := fakeclock.New()
			var got [][2]int
			hi := par.Prefix(tc.n, c.Read, func(lo, hi int) {
				got = append(got, [2]int{lo, hi})
				c.Charge(lo, hi, tc.cost)
			}, par.OnPool(pool))
			plan := fakeclock.New()
			pf := split.NewPrefix(tc.n, 1, plan.Read())
			want := [][2]int{{0, pf.End()}}
			plan.Charge(0, pf.End(), tc.cost)
			for lo := pf.End(); lo < tc.n && pf.Next(plan.Read()); lo = pf.End() {
				want = append(want, [2]int{lo, pf.End()})
				plan.Charge(lo, pf.End(), tc.cost)
			}
			require.Equal(t, want, got)
			require.Equal(t, pf.End(), hi)
			if hi == tc.n {
				plan.Read() // the end of the last chunk, for the site's pace
			}
			require.Equal(t, plan.Reads, c.Reads, "clock reads")
		})
	}
}

// TestPrefixStaysAloneWhileCallersFillTheProcessors: a call made while its
// pool has as many calls in progress as processors hands no rest over, since
// no processor is left to run it sooner than the caller: it runs its range
// alone, in chunks of its budget's worth (split.Budget) at its pace and then twice as
// long each up to four budgets' (split.Prefix.Stay), looking again once a chunk
// whether one is free. A call that fills the processors itself runs a
// rest of PrefixBudget or less alone, and hands a longer one over. The same
// calls with processors to spare hand their rests over once their budget is
// spent.
func TestPrefixStaysAloneWhileCallersFillTheProcessors(t *testing.T) {
	procs := runtime.GOMAXPROCS(0)
	pool := par.NewPool(par.Workers(1))
	defer pool.Close()
	run := func(n int) (hi, reads int) { // a microsecond an element
		c := fakeclock.New()
		hi = par.Prefix(n, c.Read, func(lo, hi int) { c.Charge(lo, hi, fakeclock.Uniform(time.Microsecond)) }, par.OnPool(pool))
		return hi, c.Reads
	}
	const long, short = 10_000, 30 // rests of about 10 ms and 10 µs
	hi, _ := run(long)
	require.Less(t, hi, long, "with processors to spare, the prefix hands its rest over")
	end := par.Crowd(pool, procs)
	hi, reads := run(long)
	end()
	require.Equal(t, long, hi, "with every processor taken, the prefix runs the whole call")
	looks, budget := 0, par.Budget(pool)
	for left, look := long*time.Microsecond-budget, budget; left > 0; looks++ {
		left -= look
		look = min(2*look, 4*budget)
	}
	assert.InDelta(t, looks, reads, 10, "clock reads: one a chunk, the chunks growing to four budgets")
	hi, _ = run(long)
	require.Less(t, hi, long, "once the other calls ended, the prefix hands its rest over again")

	end = par.Crowd(pool, procs-1)
	hi, _ = run(short)
	require.Equal(t, short, hi, "a call that fills the processors runs a short rest alone")
	hi, _ = run(long)
	end()
	require.Less(t, hi, long, "a call that fills the processors hands a long rest over")
	if procs > 1 {
		hi, _ = run(short)
		require.Less(t, hi, short, "with a processor to spare, the prefix hands a short rest over")
	}
}

// TestPrefixStaysAloneWhileOtherGoroutinesWantTheProcessors: goroutines
// that keep every processor busy without calling the pool (handlers between
// two calls, or work of their own) are not calls in progress, but the
// pool's worker finds its yields held up by them and marks the pool
// contended (sched.Pool.Load); a call made meanwhile hands no rest
// over and runs its range alone, unless the rest is long enough to gain
// from a processor that they leave free before it is done. Once they stop,
// the mark lapses and the prefix hands its rest over again.
func TestPrefixStaysAloneWhileOtherGoroutinesWantTheProcessors(t *testing.T) {
	pool := par.NewPool(par.Workers(1))
	defer pool.Close()
	run := func(n int) int { // a microsecond an element
		c := fakeclock.New()
		return par.PrefixAgain(n, c.Read, func(lo, hi int) { c.Charge(lo, hi, fakeclock.Uniform(time.Microsecond)) }, par.OnPool(pool))
	}
	const mid, long = 100, 10_000 // rests of about 80 µs and 10 ms
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) + 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				for t0 := time.Now(); time.Since(t0) < 50*time.Microsecond; {
				}
				runtime.Gosched()
			}
		}()
	}
	spin := func() {
		for t0 := time.Now(); time.Since(t0) < 20*time.Microsecond; {
		}
	}
	alone, longHandedOver := false, false
	for try := 0; try < 100_000 && !(alone && longHandedOver); try++ { // gives up after seconds
		par.Join(spin, spin, par.OnPool(pool)) // a fork: wakes the pool's worker, which then searches and yields
		if !par.Contended(pool) {
			continue
		}
		if !alone {
			alone = run(mid) == mid && par.Contended(pool)
		} else if !longHandedOver {
			longHandedOver = run(long) < long && par.Contended(pool)
		}
	}
	close(stop)
	wg.Wait()
	require.True(t, alone, "while other goroutines want the processors, the prefix runs the whole call")
	require.True(t, longHandedOver, "a rest of 10 ms is handed over all the same")
	for i := 0; par.Contended(pool); i++ {
		require.Less(t, i, 10_000, "the mark never lapsed")
		time.Sleep(100 * time.Microsecond)
	}
	require.Less(t, run(mid), mid, "once they stopped, the prefix hands its rest over")
}

// TestCoveredStretchIsOneStep: where the work of a step has covered a
// stretch after it (the positions of a long line that the piece where it
// starts read to its end: engine.Config.Covered), the bridge folds the stretch as
// one step. A call whose first element reads the whole range ends alone in
// its prefix, in two folds and the one clock read that starts it, where it
// would otherwise time that element as the pace of the rest and hand the rest
// to the pool; a leaf takes the stretch after a step in one fold, where it
// would otherwise step through it at its pace.
func TestCoveredStretchIsOneStep(t *testing.T) {
	const n = 1 << 20
	type fold struct{ lo, hi int }
	t.Run("prefix", func(t *testing.T) {
		firstReadsAll := func(i int) time.Duration {
			if i == 0 {
				return 50 * time.Microsecond
			}
			return 0
		}
		coveredFrom1 := func(pos int) int {
			if pos >= 1 {
				return n
			}
			return pos
		}
		for _, covered := range []bool{true, false} {
			c := fakeclock.New()
			var folds []fold
			var cov func(pos int) int
			if covered {
				cov = coveredFrom1
			}
			hi := par.PrefixCovered(n, c.Read, cov, func(lo, hi int) {
				folds = append(folds, fold{lo, hi})
				c.Charge(lo, hi, firstReadsAll)
			})
			if covered {
				require.Equal(t, n, hi, "the prefix ends the call")
				require.Equal(t, []fold{{0, 1}, {1, n}}, folds)
				require.Equal(t, 1, c.Reads, "clock reads")
			} else {
				require.Less(t, hi, n, "without the cover, the rest goes to the pool")
			}
		}
	})
	t.Run("leaf", func(t *testing.T) {
		p, release, g1Done := busyPool(t) // nobody hungry: the leaf only steps
		defer func() { close(release); <-g1Done }()
		const from, to = n / 16, n / 2 // a step that ends in [from, to) has covered to `to`
		coveredInside := func(pos int) int {
			if from <= pos && pos < to {
				return to
			}
			return pos
		}
		for _, covered := range []bool{true, false} {
			c := fakeclock.New()
			var folds []fold
			f := func(lo, hi int) {
				folds = append(folds, fold{lo, hi})
				c.Charge(lo, hi, fakeclock.Uniform(1))
			}
			if covered {
				par.RunLeafCovered(p, n, c.Read, coveredInside, f)
			} else {
				par.RunLeafClocked(p, n, c.Read, f)
			}
			inside, at := 0, 0
			for _, f := range folds {
				require.Equal(t, at, f.lo, "the folds follow each other: %v", folds)
				at = f.hi
				if f.hi > from && f.lo < to {
					inside++
				}
			}
			require.Equal(t, n, at, "the folds cover the leaf")
			if covered {
				require.LessOrEqual(t, inside, 2, "the step that enters the stretch, then the stretch: %v", folds)
			} else {
				require.Greater(t, inside, 2, "without the cover, steps through the stretch: %v", folds)
			}
		}
	})
}

// TestPrefixLearnsItsSitesPace: a call leaves the pace its prefix measured in
// the record of its site (the function it was given), and the next call with
// that function sizes its first chunk by it: a short call runs in one chunk
// and reads the clock twice. Two calls whose elements became ten times dearer
// run their first chunk at the old pace (here the whole call, 40 µs, within
// the bound of a quarter of split.PrefixBudget): the first makes the record suspect (a
// stalled call measures the same), the second unsettles it; the call after
// them runs blind, and the one after that starts from the new pace. Each
// call here is one that times itself (TestShortCallsTimeThemselvesNowAndThen).
func TestPrefixLearnsItsSitesPace(t *testing.T) {
	defer par.SetDrawTimed(func() uint32 { return 0 })()
	pool := par.NewPool(par.Workers(1)) // its wake-up unmeasured: see TestPrefixRunsItsPlan
	defer pool.Close()
	c := fakeclock.New()
	cost := 40 * time.Nanosecond
	var chunks [][2]int
	f := chunkRecorder(c, &cost, &chunks)
	call := func(n int, prefix func(int, func() time.Time, func(lo, hi int), ...par.Option) int) (hi, reads int) {
		chunks = nil
		r0 := c.Reads
		hi = prefix(n, c.Read, f, par.OnPool(pool))
		return hi, c.Reads - r0
	}
	hi, reads := call(1, par.Prefix)
	require.Equal(t, 1, hi)
	assert.Zero(t, reads, "a call of one element is one chunk whatever the pace: nothing to time")
	assert.Zero(t, par.SitePace(f), "nor to learn")

	hi, reads = call(100, par.Prefix)
	require.Equal(t, 100, hi)
	assert.Greater(t, len(chunks), 2, "a site with no record starts blind")
	assert.Equal(t, len(chunks)+1, reads)
	assert.Equal(t, 1000*cost, par.SitePace(f), "the pace learned, for 1000 elements")

	hi, reads = call(100, par.PrefixAgain)
	require.Equal(t, 100, hi)
	assert.Equal(t, [][2]int{{0, 100}}, chunks, "one chunk")
	assert.Equal(t, 2, reads)

	cost = 400 * time.Nanosecond
	_, _ = call(100, par.PrefixAgain)
	assert.Equal(t, [][2]int{{0, 100}}, chunks, "sized at the old pace")
	assert.Equal(t, 1000*40*time.Nanosecond, par.SitePace(f), "a pace ten times dearer makes the record suspect only")
	_, _ = call(100, par.PrefixAgain)
	assert.Equal(t, [][2]int{{0, 100}}, chunks, "sized at the old pace again")
	assert.Zero(t, par.SitePace(f), "a second one unsettles it")
	_, _ = call(100, par.PrefixAgain)
	assert.Equal(t, [2]int{0, 1}, chunks[0], "an unsettled record predicts nothing")
	assert.Greater(t, len(chunks), 2)
	assert.Equal(t, 1000*cost, par.SitePace(f), "a call that confirms the new pace settles it")
	_, _ = call(100, par.PrefixAgain)
	assert.Equal(t, [2]int{0, int(split.PrefixBudget / 4 / cost)}, chunks[0], "a quarter of the budget at the new pace")
}

// chunkRecorder returns a range body that appends each chunk it is given to
// *chunks and charges c *cost an element.
func chunkRecorder(c *fakeclock.Clock, cost *time.Duration, chunks *[][2]int) func(lo, hi int) {
	return func(lo, hi int) {
		*chunks = append(*chunks, [2]int{lo, hi})
		c.Charge(lo, hi, fakeclock.Uniform(*cost))
	}
}

// TestShortCallsTimeThemselvesNowAndThen: a call that its site's pace says
// ends in one chunk reads the clock only when the draw says so, one call in
// eight, and learns only then: the others run the one chunk untimed and leave
// the record as it was, even when their elements have become dearer. A call
// longer than its first chunk times itself whatever the draw.
func TestShortCallsTimeThemselvesNowAndThen(t *testing.T) {
	var draws uint32
	defer par.SetDrawTimed(func() uint32 { draws++; return draws })()
	pool := par.NewPool(par.Workers(1)) // its wake-up unmeasured: see TestPrefixRunsItsPlan
	defer pool.Close()
	on := par.OnPool(pool)
	c := fakeclock.New()
	cost := 40 * time.Nanosecond
	var chunks [][2]int
	f := chunkRecorder(c, &cost, &chunks)
	par.Prefix(100, c.Read, f, on) // blind: timed, and it learns
	require.Equal(t, 1000*cost, par.SitePace(f))

	draws = 0
	r0 := c.Reads
	for range 16 {
		chunks = nil
		require.Equal(t, 100, par.PrefixAgain(100, c.Read, f, on))
		require.Equal(t, [][2]int{{0, 100}}, chunks, "one chunk, timed or not")
	}
	assert.Equal(t, 2*2, c.Reads-r0, "two of 16 calls timed, two reads each")

	cost = 60 * time.Nanosecond // dearer, within twofold: a timed call rewrites the record
	draws = 0
	for range 7 {
		par.PrefixAgain(100, c.Read, f, on)
	}
	assert.Equal(t, 1000*40*time.Nanosecond, par.SitePace(f), "untimed calls learn nothing")
	par.PrefixAgain(100, c.Read, f, on)
	assert.Equal(t, 1000*cost, par.SitePace(f), "the eighth, timed, learns the new pace")

	draws = 0
	r0 = c.Reads
	chunks = nil
	require.Equal(t, 300, par.PrefixAgain(300, c.Read, f, on)) // 18 µs: alone, in chunks
	assert.Greater(t, len(chunks), 1)
	assert.Equal(t, len(chunks)+1, c.Reads-r0, "a call of more than one chunk is timed whatever the draw")
}

// TestFewElementsTeach: a prefix that hands its rest over teaches its site
// the pace it measured, however few elements it timed and however short
// their time (a floor on either showed no gain: go run ./bench -w W11,W8,
// alternated, at GOMAXPROCS 2 and 8, alone and beside a busy process).
func TestFewElementsTeach(t *testing.T) {
	for _, first := range []time.Duration{5 * time.Microsecond, 25 * time.Microsecond} {
		clk := fakeclock.New()
		f := func(lo, hi int) {
			clk.Charge(lo, hi, func(i int) time.Duration {
				if i == 0 {
					return first
				}
				return 10 * time.Microsecond
			})
		}
		require.Equal(t, 1, par.Prefix(100, clk.Read, f), "first %v: a blind prefix hands over after its first element", first)
		assert.Positive(t, par.SitePace(f), "first %v: learns", first)
	}
}

// TestShortCallDrawsOnce: For, Map, ForEach, MapReduce, Reduce and Count decide
// before they build their body whether a call runs as one chunk on its
// caller, and draw as the prefix would whether it times itself (config.one):
// a call draws once, and only a timed one teaches its site (its function's
// code; Reduce's, its op's) the pace it measured. Each call's site is told
// first a pace that makes it short, and
// far faster than any function runs (a picosecond an element), so that the
// pace a timed call measures differs from it.
func TestShortCallDrawsOnce(t *testing.T) {
	draws, timed := 0, false
	defer par.SetDrawTimed(func() uint32 {
		draws++
		if timed {
			return 0
		}
		return 1
	})()
	xs := make([]int, 100)
	sq := func(x int) int { return x * x }
	odd := func(x int) bool { return x%2 == 1 }
	nop := func(int) {}
	add := func(a, b int) int { return a + b }
	short := split.Pace{N: 1000, D: 1} // a picosecond an element: the least a record holds
	for _, c := range []struct {
		name string
		key  uintptr
		call func()
	}{
		{"For", par.SiteKey(nop), func() { par.For(len(xs), nop) }},
		{"Map", par.SiteKey(sq), func() { par.Map(xs, sq) }},
		{"ForEach", par.SiteKey(nop), func() { par.ForEach(xs, nop) }},
		{"MapReduce", par.SiteKey(sq), func() { par.MapReduce(xs, sq, 0, add) }},
		{"Reduce", par.SiteKey(add), func() { par.Reduce(xs, 0, add) }},
		{"Count", par.SiteKey(odd), func() { par.Count(xs, odd) }},
	} {
		for _, timed = range []bool{false, true, false} {
			par.LearnSite(c.key, split.Pace{N: 1, D: time.Hour}) // unsettles a settled record
			par.LearnSite(c.key, short)
			par.LearnSite(c.key, short)
			require.Equal(t, short, par.SiteKeyPace(c.key), "%s: the pace told", c.name)
			draws = 0
			c.call()
			require.Equal(t, 1, draws, "%s, timed %v: draws a call", c.name, timed)
			if timed {
				// A call that something stalled past a short call (the
				// race detector, the collector) only marks a settled record
				// suspect, keeping its pace (TestSiteRecords): one more
				// timed call then teaches the site either way.
				for try := 0; try < 2 && par.SiteKeyPace(c.key) == short; try++ {
					c.call()
				}
				require.NotEqual(t, short, par.SiteKeyPace(c.key), "%s: a timed call teaches its site", c.name)
			} else {
				require.Equal(t, short, par.SiteKeyPace(c.key), "%s: an untimed call leaves its site as it was", c.name)
			}
		}
	}
}

// TestSiteRecords: the records of two sites that share a slot of the table
// never give one the other's pace; a pace within an eighth of the recorded
// one leaves the record as it is (callers of one site in a stream would
// write its cache line at every call); one more than twofold off unsettles
// it, unless the call that measured it ended in its prefix and was short at
// both paces, and the next within twofold settles it again. A settled
// record that one call measures more than twofold dearer, as a stalled call
// would, is only suspect: it keeps its pace, and a second such pace
// unsettles it.
func TestSiteRecords(t *testing.T) {
	a := uintptr(0x4a1000)
	b := a + 32
	for par.SiteSlot(b) != par.SiteSlot(a) {
		b += 32 // code addresses are 32-byte aligned on amd64
	}
	par.ForgetSite(a) // the record an earlier run left (-count)
	p := split.Pace{N: 1000, D: 5000}
	par.LearnSite(a, p)
	require.Equal(t, p, par.SiteKeyPace(a))
	assert.Equal(t, split.Pace{}, par.SiteKeyPace(b), "b reads a's record")
	par.LearnSite(b, split.Pace{N: 10, D: 80})
	assert.Equal(t, split.Pace{N: 1000, D: 8000}, par.SiteKeyPace(b))
	assert.Equal(t, split.Pace{}, par.SiteKeyPace(a), "a reads b's record")

	par.LearnSite(a, p)
	par.LearnSite(a, split.Pace{N: 1000, D: 5600})
	assert.Equal(t, p, par.SiteKeyPace(a), "within an eighth")
	par.LearnSite(a, split.Pace{N: 1000, D: 5700})
	assert.Equal(t, split.Pace{N: 1000, D: 5700}, par.SiteKeyPace(a), "beyond an eighth")
	par.LearnSite(a, split.Pace{N: 1, D: 10 * time.Second})
	assert.Equal(t, split.Pace{N: 1000, D: 5700}, par.SiteKeyPace(a), "more than twofold dearer: suspect, its pace kept")
	par.LearnSite(a, split.Pace{N: 1000, D: 5800})
	assert.Equal(t, split.Pace{N: 1000, D: 5800}, par.SiteKeyPace(a), "a pace within twofold clears the suspicion, even within an eighth")
	par.LearnSite(a, split.Pace{N: 1000, D: 5200})
	require.Equal(t, split.Pace{N: 1000, D: 5800}, par.SiteKeyPace(a), "and then within an eighth is left alone")
	par.LearnSite(a, split.Pace{N: 1, D: 10 * time.Second})
	par.LearnSite(a, split.Pace{N: 1, D: 10 * time.Second})
	assert.Equal(t, split.Pace{}, par.SiteKeyPace(a), "more than twofold dearer twice: unsettled")
	par.LearnSite(a, split.Pace{N: 1, D: 2 * time.Second})
	assert.Equal(t, split.Pace{N: 1000, D: 1<<38 - 1}, par.SiteKeyPace(a), "saturated, about 0.27 s an element, and settled")
	assert.Equal(t, split.Pace{}, par.SiteKeyPace(0), "no site")

	par.ForgetSite(a)
	par.LearnSite(a, split.Pace{N: 100, D: 1000}) // 10 ns an element
	par.LearnSite(a, split.Pace{N: 100, D: 3000})
	assert.Equal(t, split.Pace{N: 1000, D: 30_000}, par.SiteKeyPace(a),
		"threefold off, measured by a call short at both paces (1 and 3 µs): settled")
	par.LearnSiteHandedOver(a, split.Pace{N: 100, D: 1000})
	assert.Equal(t, split.Pace{}, par.SiteKeyPace(a),
		"threefold off, measured by the prefix of a call that handed its rest over: unsettled")
	par.LearnSite(a, split.Pace{N: 100, D: 3000})
	require.Equal(t, split.Pace{N: 1000, D: 30_000}, par.SiteKeyPace(a))
	par.LearnSite(a, split.Pace{N: 1000, D: 100 * time.Microsecond})
	assert.Equal(t, split.Pace{N: 1000, D: 30_000}, par.SiteKeyPace(a),
		"threefold dearer, measured by a call long at the new pace (30 and 100 µs): suspect")
	par.LearnSite(a, split.Pace{N: 1000, D: 100 * time.Microsecond})
	assert.Equal(t, split.Pace{}, par.SiteKeyPace(a), "twice: unsettled")
	par.LearnSite(a, split.Pace{N: 1000, D: 100 * time.Microsecond})
	require.Equal(t, split.Pace{N: 1000, D: 100_000}, par.SiteKeyPace(a), "confirmed: settled")
	par.LearnSite(a, split.Pace{N: 1000, D: 10 * time.Microsecond})
	assert.Equal(t, split.Pace{}, par.SiteKeyPace(a),
		"tenfold off, measured by a call long at the old pace (10 and 100 µs): unsettled")
}

// TestLeafOfAStepRunsWhole: a leaf that begins where the one before it
// ended, and holds one step of its call, runs whole in one step, whether
// some participant is hungry or none is: a step is a Steps-th of a share, so
// a participant that runs out waits at most about that for its half. (Its
// steps were halved once while nobody was hungry and the seat had no job of
// its own for a thief, a rule that paid with steps of 100 µs and no longer
// does; see split.Steps.)
func TestLeafOfAStepRunsWhole(t *testing.T) {
	const cheap, half = 1_000, 40_000 // 1 µs, whose rest is never worth halving, then 40 µs, at 1 ns an element
	leaves := [][2]int{{0, cheap}, {cheap, cheap + half}}
	type step struct{ lo, hi int }
	run := func(p *par.Pool, runLeaves func(*par.Pool, [][2]int, func() time.Time, func(lo, hi int))) []step {
		c := fakeclock.New()
		var mu sync.Mutex // a forked half would run on the worker
		var steps []step
		runLeaves(p, leaves, func() time.Time { mu.Lock(); defer mu.Unlock(); return c.Read() }, func(lo, hi int) {
			mu.Lock()
			defer mu.Unlock()
			if lo >= cheap {
				steps = append(steps, step{lo, hi})
			}
			c.Charge(lo, hi, fakeclock.Uniform(1))
		})
		return steps
	}
	hungry := par.NewPool(par.Workers(1))
	defer hungry.Close()
	par.WaitParked(hungry)
	assert.Equal(t, []step{{cheap, cheap + half}}, run(hungry, par.RunLeavesHungry), "with a worker parked, one step")

	busy, release, g1Done := busyPool(t)
	defer func() { close(release); <-g1Done }()
	assert.Equal(t, []step{{cheap, cheap + half}}, run(busy, par.RunLeavesClocked), "with nobody hungry, one step")
}

// TestLeafStepsByThePaceBefore: a leaf steps by its call's step
// (split.StepOf; here the longest leaf), but one that begins where the last
// step on its worker of the same call ended (the right half of a fork whose
// left half ran there) holds at least split.MinStep at that step's pace in
// its first step (split's tests hold that), and is timed from
// the end of that step, so that a leaf of one step reads the clock once. A
// leaf elsewhere in the range, or of another call, has no pace to go by:
// its first step is the call's. Once caught: every leaf of W1 at the quick
// size took three steps, three calls of the body where one does; and two
// clock reads for each leaf showed in BenchmarkRangeSumIdle.
func TestLeafStepsByThePaceBefore(t *testing.T) {
	p, release, g1Done := busyPool(t) // nobody hungry: the leaves only step
	defer func() { close(release); <-g1Done }()
	uniform := fakeclock.Uniform(1)
	const half = 40_000 // 40 µs at 1 ns an element
	type step struct{ lo, hi int }
	reads := 0 // clock reads of the last run
	run := func(leaves [][2]int) []step {
		c := fakeclock.New()
		var steps []step
		par.RunLeavesClocked(p, leaves, c.Read, func(lo, hi int) {
			steps = append(steps, step{lo, hi})
			c.Charge(lo, hi, uniform)
		})
		reads = c.Reads
		return steps
	}
	stepsOf := func(steps []step, lo, hi int) []step {
		var in []step
		for _, s := range steps {
			if s.lo >= lo && s.hi <= hi {
				in = append(in, s)
			}
		}
		return in
	}

	t.Run("adjacent, fits a step", func(t *testing.T) {
		steps := run([][2]int{{0, half}, {half, 2 * half}})
		assert.Equal(t, []step{{0, half}}, stepsOf(steps, 0, half), "the first leaf: one step")
		assert.Equal(t, []step{{half, 2 * half}}, stepsOf(steps, half, 2*half), "the second leaf: one step")
	})
	t.Run("adjacent, one clock read a step", func(t *testing.T) {
		run([][2]int{{0, half}})
		alone := reads
		steps := run([][2]int{{0, half}, {half, 2 * half}})
		assert.Equal(t, len(stepsOf(steps, half, 2*half)), reads-alone, "the second leaf is timed from the end of the step before")
	})
	t.Run("not adjacent", func(t *testing.T) {
		steps := run([][2]int{{0, half}, {half + 1, 2 * half}})
		assert.Equal(t, []step{{half + 1, 2 * half}}, stepsOf(steps, half+1, 2*half), "a leaf elsewhere: the call's step, all of it")
	})
	t.Run("another call", func(t *testing.T) {
		run([][2]int{{0, half}})
		steps := run([][2]int{{half, 2 * half}})
		assert.Equal(t, []step{{half, 2 * half}}, steps, "a leaf of another call: the call's step, all of it")
	})
}
