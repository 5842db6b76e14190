//go:build unix

package par_test

import (
	"fmt"
	"iter"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/weftgo/weft/par"
)

// Compare the ...Seq functions with the plain loop over the same sequence
// (impl=loop, where the compiler inlines the sequence and the function) and
// with the same loop behind a call it cannot inline (impl=adaptor, as when the
// sequence comes from elsewhere):
//
//	go test ./par -run '^$' -bench 'Seq' -count 10 > seq.txt
//	go run golang.org/x/perf/cmd/benchstat@latest -col /impl seq.txt

// seqW2 is the element of workload W2: x%100+1 rounds of acc = acc*31 + 7.
func seqW2(x uint64) uint64 {
	acc := x
	for r := x%100 + 1; r > 0; r-- {
		acc = acc*31 + 7
	}
	return acc
}

func seqCheap(x uint64) uint64 { return 2*x + 1 }

// seqAdaptMap is the sequential MapSeq as an adaptor the compiler does not
// inline: the plain loop as it runs when the sequence and the function come
// from elsewhere, with a call per element for each.
//
//go:noinline
func seqAdaptMap[E, R any](seq iter.Seq[E], f func(E) R) iter.Seq[R] {
	return func(yield func(R) bool) {
		for e := range seq {
			if !yield(f(e)) {
				return
			}
		}
	}
}

// seqAdaptSum is the plain sum over a sequence the compiler does not see.
//
//go:noinline
func seqAdaptSum[E par.Number](seq iter.Seq[E]) E {
	var s E
	for x := range seq {
		s += x
	}
	return s
}

var seqSink uint64

// seqLoop runs body b.N times and reports, beside the wall time, the CPU time
// of the whole process per call: on a shared machine it shows the work done
// even when the wall time is disturbed, and for a parallel call it shows what
// the parallelism costs in total.
func seqLoop(b *testing.B, body func()) {
	var before, after syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &before)
	n := 0
	for b.Loop() {
		body()
		n++
	}
	syscall.Getrusage(syscall.RUSAGE_SELF, &after)
	cpu := time.Duration(after.Utime.Nano() + after.Stime.Nano() - before.Utime.Nano() - before.Stime.Nano())
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(n), "cpu-ns/op")
}

func BenchmarkMapSeq(b *testing.B) {
	for _, n := range []int{1000, 1_000_000} {
		xs := make([]uint64, n)
		for i := range xs {
			xs[i] = uint64(i)
		}
		for _, fn := range []struct {
			name string
			f    func(uint64) uint64
		}{{"cheap", seqCheap}, {"w2", seqW2}} {
			f := fn.f
			b.Run(fmt.Sprintf("f=%s/n=%d/impl=loop", fn.name, n), func(b *testing.B) {
				seqLoop(b, func() {
					var s uint64
					for x := range slices.Values(xs) {
						s += f(x)
					}
					seqSink = s
				})
			})
			b.Run(fmt.Sprintf("f=%s/n=%d/impl=adaptor", fn.name, n), func(b *testing.B) {
				seqLoop(b, func() {
					var s uint64
					for y := range seqAdaptMap(slices.Values(xs), f) {
						s += y
					}
					seqSink = s
				})
			})
			b.Run(fmt.Sprintf("f=%s/n=%d/impl=par", fn.name, n), func(b *testing.B) {
				seqLoop(b, func() {
					var s uint64
					for y := range par.MapSeq(slices.Values(xs), f) {
						s += y
					}
					seqSink = s
				})
			})
		}
	}
}

func BenchmarkFilterSeq(b *testing.B) {
	const n = 1_000_000
	xs := make([]uint64, n)
	for i := range xs {
		xs[i] = uint64(i)
	}
	keep := func(x uint64) bool { return seqW2(x)&1 == 0 }
	b.Run(fmt.Sprintf("f=w2/n=%d/impl=loop", n), func(b *testing.B) {
		seqLoop(b, func() {
			c := 0
			for x := range slices.Values(xs) {
				if keep(x) {
					c++
				}
			}
			seqSink = uint64(c)
		})
	})
	b.Run(fmt.Sprintf("f=w2/n=%d/impl=par", n), func(b *testing.B) {
		seqLoop(b, func() {
			c := 0
			for range par.FilterSeq(slices.Values(xs), keep) {
				c++
			}
			seqSink = uint64(c)
		})
	})
}

func BenchmarkForEachSeq(b *testing.B) {
	const n = 1_000_000
	xs := make([]uint64, n)
	for i := range xs {
		xs[i] = uint64(i)
	}
	out := make([]uint64, n)
	f := func(x uint64) { out[x] = seqW2(x) }
	b.Run(fmt.Sprintf("f=w2/n=%d/impl=loop", n), func(b *testing.B) {
		seqLoop(b, func() {
			for x := range slices.Values(xs) {
				f(x)
			}
		})
	})
	b.Run(fmt.Sprintf("f=w2/n=%d/impl=par", n), func(b *testing.B) {
		seqLoop(b, func() {
			par.ForEachSeq(slices.Values(xs), f)
		})
	})
}

func BenchmarkReduceSeq(b *testing.B) {
	const n = 1_000_000
	xs := make([]uint64, n)
	for i := range xs {
		xs[i] = uint64(i)
	}
	add := func(a, b uint64) uint64 { return a + b }
	b.Run(fmt.Sprintf("op=add/n=%d/impl=loop", n), func(b *testing.B) {
		seqLoop(b, func() {
			var s uint64
			for x := range slices.Values(xs) {
				s = add(s, x)
			}
			seqSink = s
		})
	})
	b.Run(fmt.Sprintf("op=add/n=%d/impl=par", n), func(b *testing.B) {
		seqLoop(b, func() {
			seqSink = par.ReduceSeq(slices.Values(xs), 0, add)
		})
	})
}

func BenchmarkSumSeq(b *testing.B) {
	for _, n := range []int{2000, 1_000_000} {
		fs := make([]float64, n)
		is := make([]uint64, n)
		for i := range fs {
			fs[i] = float64(i) * 0.5
			is[i] = uint64(i) * uint64(i)
		}
		benchSumSeq(b, "float64", n, slices.Values(fs))
		benchSumSeq(b, "uint64", n, slices.Values(is))
	}
}

func benchSumSeq[E par.Number](b *testing.B, typ string, n int, seq iter.Seq[E]) {
	var sink E
	b.Run(fmt.Sprintf("type=%s/n=%d/impl=loop", typ, n), func(b *testing.B) {
		seqLoop(b, func() {
			var s E
			for x := range seq {
				s += x
			}
			sink = s
		})
	})
	b.Run(fmt.Sprintf("type=%s/n=%d/impl=adaptor", typ, n), func(b *testing.B) {
		seqLoop(b, func() {
			sink = seqAdaptSum(seq)
		})
	})
	b.Run(fmt.Sprintf("type=%s/n=%d/impl=par", typ, n), func(b *testing.B) {
		seqLoop(b, func() {
			sink = par.SumSeq(seq)
		})
	})
	_ = sink
}
