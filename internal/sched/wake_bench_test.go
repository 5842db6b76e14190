package sched_test

import (
	"runtime"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/weftgo/weft/internal/sched"
)

// BenchmarkWake is the time from a fork on a pool whose worker is parked to
// the moment both halves run at once: what a call pays before a second core
// helps, which the sequential thresholds (split.PrefixBudget, the Seq engine's
// batch time) are set against. Each half spins until the other has started,
// so they must run on two processors. Reports the median and the 90th
// percentile, and the pool's own measure of its wake-ups (Pool.Load's Wake),
// which split.LongRest weighs a hand-over against.
func BenchmarkWake(b *testing.B) {
	if runtime.GOMAXPROCS(0) < 2 {
		b.Skip("needs two threads: each half spins until the other starts")
	}
	p := sched.New(1)
	defer p.Close()
	var lat []time.Duration
	for b.Loop() {
		b.StopTimer()
		for p.Sleeping() < 1 {
			time.Sleep(20 * time.Microsecond)
		}
		b.StartTimer()
		var left, right atomic.Int64
		p.Run(func(w *sched.Worker) {
			t0 := time.Now()
			w.Join(
				func(*sched.Worker) { meet(&left, &right, t0) },
				func(*sched.Worker) { meet(&right, &left, t0) })
		})
		lat = append(lat, bothRun(&left, &right))
	}
	reportWakes(b, lat)
	b.ReportMetric(float64(p.Load().Wake.Nanoseconds()), "pool-ns/wake") // what the pool measured itself
}

// BenchmarkWakeGoStatement is BenchmarkWake for a go statement: the time
// from `go f()` on an idle machine to the moment f and its caller run at
// once. The caller keeps its processor, as a fork's left half does, so f
// needs the other one, which the Go runtime wakes as the pool wakes its
// worker: here a median of 103-110 µs, against 100-101 µs for
// BenchmarkWake. A goroutine-per-core loop does not start its helpers
// sooner than a pool; an execution trace of one (go tool trace) shows the
// caller's own processor running the goroutine made last as soon as the
// caller blocks in its WaitGroup, and the other goroutine starting about
// 90 µs after its go statement, as a parked worker does.
func BenchmarkWakeGoStatement(b *testing.B) {
	if runtime.GOMAXPROCS(0) < 2 {
		b.Skip("needs two threads: each side spins until the other starts")
	}
	var lat []time.Duration
	for b.Loop() {
		b.StopTimer()
		time.Sleep(time.Millisecond) // the other processor's thread goes to sleep
		b.StartTimer()
		var left, right atomic.Int64
		t0 := time.Now()
		go meet(&right, &left, t0)
		meet(&left, &right, t0)
		lat = append(lat, bothRun(&left, &right))
	}
	reportWakes(b, lat)
}

// meet records in mine when it started, as time since t0 (never 0), and
// spins until other has started too.
func meet(mine, other *atomic.Int64, t0 time.Time) {
	mine.Store(int64(time.Since(t0)) | 1)
	for other.Load() == 0 {
	}
}

// bothRun returns when the later of two sides that met started.
func bothRun(left, right *atomic.Int64) time.Duration {
	return time.Duration(max(left.Load(), right.Load()))
}

// reportWakes reports the median and the 90th percentile of lat.
func reportWakes(b *testing.B, lat []time.Duration) {
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Nanoseconds()), "p50-ns/wake")
	b.ReportMetric(float64(lat[len(lat)*9/10].Nanoseconds()), "p90-ns/wake")
}
