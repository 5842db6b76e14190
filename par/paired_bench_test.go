package par_test

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/weftgo/weft/par"
)

// The paired benchmarks time weft beside hand-written loops call by call,
// in turn, and report each one's median and the median over rounds of its
// time over weft's in the same round. This machine's speed drifts by tens of
// percent between runs (the median W7 call of blocks from a counter took
// 14.3, 15.1, 19.6 and 22.9 ms in four runs of `go test -run '^$' -bench
// PairedMapAlloc -benchtime 150x ./par`), so medians taken one after the
// other, as sub-benchmarks are, cannot tell 2% apart; ratios within a round
// come closer. Identical code still differs by a percent or two with the
// arrangement of the round: read less than that as no difference.

// contender is one implementation in a paired benchmark.
type contender struct {
	name string
	run  func()
}

// paired runs one round of every contender per iteration of b, in an order
// drawn anew each round, after a collection if gc is set, and reports the
// median time of each and the median of its time over the first one's in the
// same round (ratio-<name>: below 1, faster than the first), with the 10th
// and 90th percentiles of that ratio (ratio-p10-<name>, ratio-p90-<name>):
// their spread is how far one round can mislead.
func paired(b *testing.B, gc bool, cs ...contender) {
	ts := make([][]time.Duration, len(cs))
	rng := rand.New(rand.NewPCG(1, 2))
	for b.Loop() {
		for _, i := range rng.Perm(len(cs)) {
			if gc {
				b.StopTimer()
				runtime.GC()
				b.StartTimer()
			}
			t0 := time.Now()
			cs[i].run()
			ts[i] = append(ts[i], time.Since(t0))
		}
	}
	for i, c := range cs {
		s := slices.Clone(ts[i])
		slices.Sort(s)
		b.ReportMetric(float64(s[len(s)/2].Nanoseconds()), "p50-ns-"+c.name)
		if i == 0 {
			continue
		}
		ratios := make([]float64, len(ts[i]))
		for r := range ratios {
			ratios[r] = float64(ts[i][r]) / float64(ts[0][r])
		}
		slices.Sort(ratios)
		b.ReportMetric(ratios[len(ratios)/2], "ratio-"+c.name)
		b.ReportMetric(ratios[len(ratios)/10], "ratio-p10-"+c.name)
		b.ReportMetric(ratios[len(ratios)*9/10], "ratio-p90-"+c.name)
	}
	b.ReportMetric(0, "ns/op") // the per-round total mixes every contender
}

// BenchmarkPairedRangeSum is W1..W3 at the quick sizes of `go run ./bench`,
// and cheap elements with rare dear ones (spikes), (ForRange, a local sum
// per piece added to an atomic) against static halves
// on two goroutines, blocks from an atomic counter, and the best fixed grain
// of the bench's sweep, each call after a collection as the bench times them:
//
//	go test -run '^$' -bench PairedRangeSum -benchtime 300x ./par
func BenchmarkPairedRangeSum(b *testing.B) {
	for _, l := range []struct {
		name  string
		n     int
		leaf  func(lo, hi int) uint64
		grain int
	}{
		{"W1", 10_000_000, squares, 1 << 16},
		{"W2", 400_000, varmap, 1 << 10},
		{"W3", 20_000, climbing(20_000), 1 << 8},
		// Cheap elements and rare dear ones: 20 µs spikes (every 4,096th
		// element on average) or 300 µs ones (every 65,536th), some 8 ms
		// of calls at 2M, 1 ms at 200k. At 200k blocks lead by about 5%:
		// a call just after a collection, as here, starts while the other
		// processor's thread still spins, which a go statement at the
		// call's start catches and a hand-over after the prefix misses by
		// a wake-up; after an idle millisecond or back to back weft is
		// level or ahead.
		{"spikes20us", 2_000_000, spikes(1<<12, 30_000), 1 << 12},
		{"spikes300us", 2_000_000, spikes(1<<16, 450_000), 1 << 12},
		{"spikes20us", 200_000, spikes(1<<12, 30_000), 1 << 10},
	} {
		n, leaf := l.n, l.leaf
		want := leaf(0, n)
		check := func(got uint64) {
			if got != want {
				panic("wrong sum")
			}
		}
		b.Run(fmt.Sprintf("%s/n=%d", l.name, n), func(b *testing.B) {
			paired(b, true,
				contender{"weft", func() { check(rangeSum(n, leaf)) }},
				contender{"halves", func() { check(halvesSum(n, leaf)) }},
				contender{"blocks", func() { check(blocksSum(n, leaf)) }},
				contender{"grain", func() { check(rangeSum(n, leaf, par.WithGrain(l.grain))) }},
			)
		})
	}
}

// BenchmarkPairedMapAlloc is W7 at the full size (strconv.Itoa over 1M ints
// into an ordered []string), each call after a collection as `go run ./bench`
// times it, against blocks from an atomic counter (calling strconv.Itoa
// through a function value, as par.Map does):
//
//	go test -run '^$' -bench PairedMapAlloc -benchtime 150x ./par
func BenchmarkPairedMapAlloc(b *testing.B) {
	in := make([]int, 1_000_000)
	for i := range in {
		in[i] = i
	}
	var kept []string // the last result stays live, as a caller's would
	paired(b, true,
		contender{"weft", func() { kept = par.Map(in, strconv.Itoa) }},
		contender{"blocks", func() { kept = blocksMap(in, strconv.Itoa) }},
	)
	_ = kept
}

// BenchmarkRangeSumIdle is W1 at the quick size of `go run ./bench`, each
// call after a collection, by weft's default, by the best fixed grain of the
// bench's sweep and by blocks from an atomic counter, in an order drawn anew
// each round. It reports, median over the calls, each one's idle core time
// per call: the cores times the wall time, less the time spent in pieces
// of the range (ns-idle-<name>), where a call loses to another that does the
// same work: a core that starts late, waits at the end, or spends time
// between pieces. Two cores only, as blocks uses two goroutines:
//
//	go test -run '^$' -bench RangeSumIdle -benchtime 300x ./par
func BenchmarkRangeSumIdle(b *testing.B) {
	if runtime.GOMAXPROCS(0) != 2 {
		b.Skip("blocks runs on two goroutines: needs GOMAXPROCS=2")
	}
	const n = 10_000_000
	want := squares(0, n)
	type way struct {
		name string
		run  func(body func(lo, hi int))
		idle []float64
	}
	ways := []*way{
		{name: "weft", run: func(body func(lo, hi int)) { par.ForRange(n, body) }},
		{name: "grain", run: func(body func(lo, hi int)) { par.ForRange(n, body, par.WithGrain(1<<16)) }},
		{name: "blocks", run: func(body func(lo, hi int)) { blocks(n, body) }},
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for b.Loop() {
		for _, i := range rng.Perm(len(ways)) {
			wy := ways[i]
			b.StopTimer()
			runtime.GC()
			b.StartTimer()
			var total atomic.Uint64
			var work atomic.Int64
			t0 := time.Now()
			wy.run(func(lo, hi int) {
				s := time.Now()
				total.Add(squares(lo, hi))
				work.Add(int64(time.Since(s)))
			})
			wall := time.Since(t0)
			if total.Load() != want {
				panic("wrong sum")
			}
			wy.idle = append(wy.idle, float64(2*int64(wall)-work.Load()))
		}
	}
	for _, wy := range ways {
		slices.Sort(wy.idle)
		b.ReportMetric(wy.idle[len(wy.idle)/2], "ns-idle-"+wy.name)
	}
	b.ReportMetric(0, "ns/op") // the per-round total mixes every way
}
