package sched_test

import (
	"slices"
	"testing"
	"time"

	"github.com/weftgo/weft/internal/sched"
)

// BenchmarkYield is a participant's timed yield (contend.go) with nothing
// else runnable, its worker parked: what a searching worker pays every
// split.LookEvery fruitless rounds, and how often such a yield alone looks
// held up. Reports the median yield and the yields per million that took
// YieldStall or longer.
func BenchmarkYield(b *testing.B) {
	p := sched.New(1)
	defer p.Close()
	for p.Sleeping() < 1 {
		time.Sleep(20 * time.Microsecond)
	}
	ds := make([]time.Duration, 0, 1<<16) // the first yields, for the median; no allocation while timing
	stalls, yields := 0, 0
	p.Run(func(w *sched.Worker) {
		for b.Loop() {
			t0 := time.Now()
			w.Yield()
			d := time.Since(t0)
			if len(ds) < cap(ds) {
				ds = append(ds, d)
			}
			if d >= sched.YieldStall {
				stalls++
			}
			yields++
		}
	})
	slices.Sort(ds)
	b.ReportMetric(float64(ds[len(ds)/2].Nanoseconds()), "ns/median")
	b.ReportMetric(float64(stalls)*1e6/float64(yields), "stalls/M")
}
