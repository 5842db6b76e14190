//go:build unix

package sched_test

import (
	"runtime"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/weftgo/weft/internal/sched"
)

func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkIdleCPU reports the CPU time the process spends during one second
// of idleness after a burst of work: a parked pool must burn nothing. Run it
// with -benchtime 1x; the metric is CPU nanoseconds per idle second.
func BenchmarkIdleCPU(b *testing.B) {
	p := sched.New(max(1, runtime.GOMAXPROCS(0)-1))
	defer p.Close()
	for b.Loop() {
		p.Run(func(w *sched.Worker) { fib(w, 25) })
		time.Sleep(10 * time.Millisecond) // the search rounds end and every worker parks
		before := cpuTime(b)
		time.Sleep(time.Second)
		b.ReportMetric(float64(cpuTime(b)-before), "cpu-ns/idle-s")
	}
}

// BenchmarkParkDelay is the time from the end of a call to the moment every
// worker of the pool is parked: what the search after a worker's last task
// (linger, TestLingerBound) costs in wall time at the end of a stream of
// calls. Reports the median and the largest.
func BenchmarkParkDelay(b *testing.B) {
	p := sched.New(max(1, runtime.GOMAXPROCS(0)-1))
	defer p.Close()
	var lat []time.Duration
	for b.Loop() {
		p.Run(func(w *sched.Worker) { fib(w, 20) })
		t0 := time.Now()
		for p.Sleeping() < p.Workers() {
			runtime.Gosched()
		}
		lat = append(lat, time.Since(t0))
	}
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Nanoseconds()), "p50-ns/park")
	b.ReportMetric(float64(lat[len(lat)-1].Nanoseconds()), "max-ns/park")
}
