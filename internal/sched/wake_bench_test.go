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
// the moment that worker starts the forked half: what a call pays before a
// second core helps, which the sequential thresholds (par's seqBudget, the
// Seq engine's batch time) are set against. The forking half spins until the
// other starts, so only a thief can run it. Reports the median and the 90th
// percentile.
func BenchmarkWake(b *testing.B) {
	if runtime.GOMAXPROCS(0) < 2 {
		b.Skip("needs two threads: the forking half spins while a thief wakes")
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
		var started atomic.Int64
		p.Run(func(w *sched.Worker) {
			t0 := time.Now()
			w.Join(
				func(*sched.Worker) {
					for started.Load() == 0 {
					}
				},
				func(*sched.Worker) { started.Store(int64(time.Since(t0)) | 1) })
		})
		lat = append(lat, time.Duration(started.Load()))
	}
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Nanoseconds()), "p50-ns/wake")
	b.ReportMetric(float64(lat[len(lat)*9/10].Nanoseconds()), "p90-ns/wake")
}
