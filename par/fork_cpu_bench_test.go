//go:build unix

package par_test

import (
	"syscall"
	"testing"
	"time"

	"github.com/weftgo/weft/par"
)

// BenchmarkForkCPU is the CPU time one fork adds to fib(27) with Join2 at
// every level (317,810 forks), over the sequential recursion, as the process's
// CPU time (getrusage) rather than wall time: run with -cpu 1 it is the cost of
// a fork that nobody steals, and it stays readable on a machine busy with
// other work, where wall times are not.
func BenchmarkForkCPU(b *testing.B) {
	const n, forks = 27, 317_810
	var seq, forked time.Duration
	for b.Loop() {
		c0 := cpuTime()
		sink = fibSeq(n)
		c1 := cpuTime()
		par.Do(func(w *par.Worker) { sink = fibJoin2(w, n) })
		c2 := cpuTime()
		seq += c1 - c0
		forked += c2 - c1
	}
	b.ReportMetric(float64((forked-seq).Nanoseconds())/float64(b.N)/forks, "cpu-ns/fork")
	b.ReportMetric(float64(forked)/float64(seq), "x-seq")
}

// cpuTime is the CPU time the process has used, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
