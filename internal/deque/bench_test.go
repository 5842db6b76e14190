package deque_test

import (
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/weftgo/weft/internal/deque"
)

// BenchmarkPushPop measures one Push followed by one Pop (ns/op is per pair).
// With depth 0 the Pop takes the last element and pays a CAS on top; deeper,
// it does not.
func BenchmarkPushPop(b *testing.B) {
	for _, depth := range []int{0, 1000} {
		b.Run(fmt.Sprintf("depth=%d", depth), func(b *testing.B) {
			w := deque.New[int]()
			x := new(int)
			for range depth {
				w.Push(x)
			}
			for b.Loop() {
				w.Push(x)
				if w.Pop() == nil {
					b.Fatal("Pop returned nil")
				}
			}
		})
	}
}

// BenchmarkSteal measures uncontended successful steals. Each iteration pushes
// a batch and steals it back, so ns/op is per batch; ns/steal times the steals
// alone, with one clock read per batch.
func BenchmarkSteal(b *testing.B) {
	for _, batch := range []int{64, 1024} {
		b.Run(fmt.Sprintf("batch=%d", batch), func(b *testing.B) {
			w := deque.New[int]()
			s := w.Stealer()
			x := new(int)
			var stealing time.Duration
			for b.Loop() {
				for range batch {
					w.Push(x)
				}
				start := time.Now()
				for range batch {
					if _, st := s.Steal(); st != deque.Success {
						b.Fatalf("Steal: status %d", st)
					}
				}
				stealing += time.Since(start)
			}
			b.ReportMetric(float64(stealing.Nanoseconds())/float64(b.N*batch), "ns/steal")
		})
	}
}

// BenchmarkStealContended runs GOMAXPROCS thieves against an owner that keeps
// the deque topped up; ns/op is per successful steal, and retries/steal counts
// the races lost to other thieves.
func BenchmarkStealContended(b *testing.B) {
	w := deque.New[int]()
	s := w.Stealer()
	x := new(int)
	var stop atomic.Bool
	ownerDone := make(chan struct{})
	go func() {
		defer close(ownerDone)
		for !stop.Load() {
			if w.Len() < deque.MinCap/2 {
				w.Push(x)
			} else {
				runtime.Gosched()
			}
		}
	}()
	var retries atomic.Int64
	b.RunParallel(func(pb *testing.PB) {
		var r int64
		for pb.Next() {
			for {
				_, st := s.Steal()
				if st == deque.Success {
					break
				}
				if st == deque.Retry {
					r++
				} else {
					runtime.Gosched()
				}
			}
		}
		retries.Add(r)
	})
	stop.Store(true)
	<-ownerDone
	b.ReportMetric(float64(retries.Load())/float64(b.N), "retries/steal")
}
