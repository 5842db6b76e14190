package par_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/weftgo/weft/par"
)

var errBenchSink error

// errInterleaved times the plain loop, the call without errors and the call
// with them in turn within each iteration, rotating their order, so that the
// three share whatever else the machine is doing; it reports the time of the
// error call over each of the others.
func errInterleaved(b *testing.B, loop, plain, withErr func()) {
	fs := [3]func(){loop, plain, withErr}
	var t [3]time.Duration
	r := 0
	for b.Loop() {
		for k := range 3 {
			j := (r + k) % 3
			start := time.Now()
			fs[j]()
			t[j] += time.Since(start)
		}
		r++
	}
	b.ReportMetric(float64(t[2])/float64(t[0]), "err/loop")
	b.ReportMetric(float64(t[2])/float64(t[1]), "err/plain")
	b.ReportMetric(0, "ns/op") // an iteration runs all three
}

// errBenchRuns runs the sub-benchmarks of n elements: each of the plain
// loop, the call without errors and the call with them (fs, named by names)
// alone, then the three interleaved, then the loop and the two calls made
// with WithGrain(n), plainCaller and errCaller, interleaved: WithGrain(n) runs
// both calls on the caller alone, so what is left over the loop is the cost
// per element of each path, without the pool.
func errBenchRuns(b *testing.B, n int, names [3]string, fs [3]func(), plainCaller, errCaller func()) {
	for i, f := range fs {
		b.Run(fmt.Sprintf("n=%d/%s", n, names[i]), func(b *testing.B) {
			for b.Loop() {
				f()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/elem")
		})
	}
	b.Run(fmt.Sprintf("n=%d/interleaved", n), func(b *testing.B) { errInterleaved(b, fs[0], fs[1], fs[2]) })
	b.Run(fmt.Sprintf("n=%d/interleaved-caller", n), func(b *testing.B) { errInterleaved(b, fs[0], plainCaller, errCaller) })
}

// BenchmarkForEachErr compares ForEachErr with the plain loop and with
// ForEach, all calling the same cheap f through a func value, to show what the
// error path (the stop flag, the poll of ctx', the error result) costs. The
// interleaved sub-benchmarks report the ratios measured in one loop, which a
// busy machine disturbs less than it does separate runs.
func BenchmarkForEachErr(b *testing.B) {
	errNeg := errors.New("negative")
	f := func(_ context.Context, x int) error {
		if x < 0 {
			return errNeg
		}
		return nil
	}
	g := func(x int) {
		if x < 0 {
			errBenchSink = errNeg
		}
	}
	ctx := context.Background()
	for _, n := range []int{1000, 1_000_000} {
		s := errInput(n)
		loop := func() {
			var err error
			for _, x := range s {
				if err = f(ctx, x); err != nil {
					break
				}
			}
			errBenchSink = err
		}
		plain := func() { par.ForEach(s, g) }
		withErr := func() { errBenchSink = par.ForEachErr(ctx, s, f) }
		errBenchRuns(b, n, [3]string{"loop", "ForEach", "ForEachErr"}, [3]func(){loop, plain, withErr},
			func() { par.ForEach(s, g, par.WithGrain(n)) },
			func() { errBenchSink = par.ForEachErr(ctx, s, f, par.WithGrain(n)) })
	}
}

// BenchmarkMapErr compares MapErr with the plain loop and with Map, as
// BenchmarkForEachErr does.
func BenchmarkMapErr(b *testing.B) {
	errNeg := errors.New("negative")
	f := func(_ context.Context, x int) (int, error) {
		if x < 0 {
			return 0, errNeg
		}
		return x * 2, nil
	}
	g := func(x int) int { return x * 2 }
	ctx := context.Background()
	for _, n := range []int{1000, 1_000_000} {
		s := errInput(n)
		var sink []int
		loop := func() {
			out := make([]int, n)
			var err error
			for i, x := range s {
				if out[i], err = f(ctx, x); err != nil {
					out = nil
					break
				}
			}
			sink, errBenchSink = out, err
		}
		plain := func() { sink = par.Map(s, g) }
		withErr := func() { sink, errBenchSink = par.MapErr(ctx, s, f) }
		errBenchRuns(b, n, [3]string{"loop", "Map", "MapErr"}, [3]func(){loop, plain, withErr},
			func() { sink = par.Map(s, g, par.WithGrain(n)) },
			func() { sink, errBenchSink = par.MapErr(ctx, s, f, par.WithGrain(n)) })
		_ = sink
	}
}
