package sched_test

import (
	"runtime"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/weftgo/weft/internal/sched"
)

// BenchmarkComeUp is the time from the start of a call on a pool whose
// workers are all parked to the moment every participant (each worker and
// the caller's seat) has begun a piece of it: the ramp-up that the sleep
// protocol's wake per job brings to about log2(P) wake-ups. The call cuts
// 256 pieces of 20 µs each by halving (Join), as a range is cut. Reports the
// median come-up, and the workers' parks per call, each of which a wake-up
// ends. Run it at several GOMAXPROCS: go test ./internal/sched -run '^$'
// -bench ComeUp -cpu 2,8.
func BenchmarkComeUp(b *testing.B) {
	p := sched.New(max(1, runtime.GOMAXPROCS(0)-1))
	defer p.Close()
	parts := p.Workers() + 1
	var ups []time.Duration
	parks := p.Stats().Total().Parks
	for b.Loop() {
		b.StopTimer()
		time.Sleep(time.Millisecond)
		for p.Sleeping() < p.Workers() {
			time.Sleep(50 * time.Microsecond)
		}
		b.StartTimer()
		var seen sync64
		var up atomic.Int64
		t0 := time.Now()
		p.Run(func(w *sched.Worker) {
			spread(w, 0, 256, func(w *sched.Worker) {
				if seen.first(w.Index()) == parts {
					up.Store(int64(time.Since(t0)))
				}
				for d := time.Now(); time.Since(d) < 20*time.Microsecond; {
				}
			})
		})
		if u := up.Load(); u > 0 {
			ups = append(ups, time.Duration(u))
		}
	}
	if len(ups) > 0 {
		slices.Sort(ups)
		b.ReportMetric(float64(ups[len(ups)/2].Nanoseconds()), "ns/up")
	}
	b.ReportMetric(float64(len(ups))/float64(b.N), "allup/op")
	b.ReportMetric(float64(p.Stats().Total().Parks-parks)/float64(b.N), "parks/op")
}

// spread runs leaf on each of the pieces of [lo, hi), halving it by Join.
func spread(w *sched.Worker, lo, hi int, leaf func(w *sched.Worker)) {
	if hi-lo == 1 {
		leaf(w)
		return
	}
	mid := lo + (hi-lo)/2
	w.Join(func(w *sched.Worker) { spread(w, lo, mid, leaf) }, func(w *sched.Worker) { spread(w, mid, hi, leaf) })
}

// sync64 records which participants, by index below 64, have been seen.
type sync64 struct {
	bits atomic.Uint64
	n    atomic.Int32
}

// first marks index i seen and returns how many have been seen, counting
// it, the first time; 0 after.
func (s *sync64) first(i int) int {
	bit := uint64(1) << (i % 64)
	if s.bits.Or(bit)&bit != 0 {
		return 0
	}
	return int(s.n.Add(1))
}
