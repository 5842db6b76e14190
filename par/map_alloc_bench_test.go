package par_test

import (
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/weftgo/weft/par"
)

// BenchmarkMapAlloc is W7 of docs/DESIGN.md (strconv.Itoa over [0, n) into an
// ordered []string): a map whose every element allocates, so that the
// garbage collector runs during the call. Beside it, the sequential loop and
// blocks taken from an atomic counter by one goroutine per core.
func BenchmarkMapAlloc(b *testing.B) {
	for _, n := range []int{200_000, 1_000_000} {
		in := make([]int, n)
		for i := range in {
			in[i] = i
		}
		b.Run(fmt.Sprintf("n=%d/impl=seq", n), func(b *testing.B) {
			for b.Loop() {
				out := make([]string, n)
				for i, x := range in {
					out[i] = strconv.Itoa(x)
				}
			}
		})
		b.Run(fmt.Sprintf("n=%d/impl=weft", n), func(b *testing.B) {
			for b.Loop() {
				par.Map(in, strconv.Itoa)
			}
		})
		b.Run(fmt.Sprintf("n=%d/impl=blocks", n), func(b *testing.B) {
			for b.Loop() {
				blocksMap(in, strconv.Itoa)
			}
		})
	}
}

// blocksMap is W7 as `go run ./bench`'s dynamic strategy writes it: 128
// blocks taken from an atomic counter by two goroutines, f called through a
// function value as the bench's strategies and par.Map call it.
//
//go:noinline
func blocksMap(in []int, f func(int) string) []string {
	out := make([]string, len(in))
	blocks(len(in), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			out[i] = f(in[i])
		}
	})
	return out
}

// BenchmarkMapAllocAfterGC is W7 at the full size with a collection just
// before each call, as `go run ./bench` times its runs: the call's result,
// allocated first, starts the next collection, which then marks during the
// call. It reports the median and the 90th percentile of the calls, since a
// call that leaves the collector no processor shows in the tail, and the
// page faults a call takes (memory the runtime had returned to the system).
func BenchmarkMapAllocAfterGC(b *testing.B) {
	in := make([]int, 1_000_000)
	for i := range in {
		in[i] = i
	}
	for _, impl := range []struct {
		name string
		f    func([]int) []string
	}{{"weft", func(in []int) []string { return par.Map(in, strconv.Itoa) }}, {"blocks", func(in []int) []string { return blocksMap(in, strconv.Itoa) }}} {
		b.Run("impl="+impl.name, func(b *testing.B) {
			var lat []time.Duration
			var faults int64
			var kept []string // the last result stays live, as a caller's would
			for b.Loop() {
				b.StopTimer()
				kept = nil
				runtime.GC()
				b.StartTimer()
				f0, t0 := minorFaults(), time.Now()
				kept = impl.f(in)
				lat = append(lat, time.Since(t0))
				faults += minorFaults() - f0
			}
			_ = kept
			slices.Sort(lat)
			b.ReportMetric(float64(lat[len(lat)/2].Nanoseconds()), "p50-ns")
			b.ReportMetric(float64(lat[len(lat)*9/10].Nanoseconds()), "p90-ns")
			b.ReportMetric(float64(faults)/float64(len(lat)), "faults/op")
		})
	}
}

// BenchmarkMapAllocSecondStart is W7 at the full size written with ForRange,
// each call after a collection, which the call's result, allocated first,
// starts again: it reports how long after the first piece of the range's
// first half the first piece of its second half began (a thief's: the first
// steal takes the right half), median and 90th percentile over the calls.
// That is how long a call runs on one core when a collection starts with it.
func BenchmarkMapAllocSecondStart(b *testing.B) {
	const n = 1_000_000
	in := make([]int, n)
	for i := range in {
		in[i] = i
	}
	var lags []time.Duration
	var kept []string
	for b.Loop() {
		b.StopTimer()
		kept = nil
		runtime.GC()
		b.StartTimer()
		out := make([]string, n)
		var first, second atomic.Int64
		t0 := time.Now()
		par.ForRange(n, func(lo, hi int) {
			now := int64(time.Since(t0)) | 1
			if lo < n/2 {
				first.CompareAndSwap(0, now)
			} else {
				second.CompareAndSwap(0, now)
			}
			for i := lo; i < hi; i++ {
				out[i] = strconv.Itoa(in[i])
			}
		})
		kept = out
		lags = append(lags, time.Duration(second.Load()-first.Load()))
	}
	_ = kept
	slices.Sort(lags)
	b.ReportMetric(float64(lags[len(lags)/2].Nanoseconds()), "p50-ns/lag")
	b.ReportMetric(float64(lags[len(lags)*9/10].Nanoseconds()), "p90-ns/lag")
}
