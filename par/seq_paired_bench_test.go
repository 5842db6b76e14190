package par_test

import (
	"fmt"
	"iter"
	"runtime"
	"sync"
	"testing"

	"github.com/weftgo/weft/par"
)

// BenchmarkPairedSeq times every Seq function beside the two forms a user
// would otherwise write, in paired rounds (see paired): the plain loop over
// the sequence (impl loop) and the hand-written batch loop (impl hand:
// batches of 4,096 elements pulled in order, each cut into GOMAXPROCS static
// parts run by goroutines and a sync.WaitGroup, the results consumed in
// order), and the loop making the same calls (impl calls, see seqFn). The
// element is workload W13's: k steps of a linear congruential generator,
// about k ns here, over 10,000,000/k elements; src=slow is the
// sequence that costs k/2 steps per element to pull. ratio-hand is the hand
// loop's time over weft's (at least 0.95 is the goal), ratio-loop the loop's
// (weft's speedup over it):
//
//	go test ./par -run '^$' -bench PairedSeq -benchtime 20x
func BenchmarkPairedSeq(b *testing.B) {
	for _, c := range []struct{ k, slow int }{
		{50, 0}, {100, 0}, {1000, 0}, {10_000, 0}, {100_000, 0}, {1000, 500},
	} {
		n := 10_000_000 / c.k
		src := "fast"
		if c.slow > 0 {
			src = "slow"
		}
		for _, fn := range seqFns {
			b.Run(fmt.Sprintf("k=%d/src=%s/fn=%s", c.k, src, fn.name), func(b *testing.B) {
				w := seqWork{k: c.k, slow: c.slow, n: n}
				fn.paired(b, &w, true)
			})
		}
	}
}

// BenchmarkSeqCheap is the Seq functions where no parallel form can pay: f
// of a few steps, and short sequences, beside the plain loop (ratio-loop is
// the loop's time over weft's; at least 0.97 is the goal) and the loop that
// makes the same calls through function values (ratio-calls: for MapSeq, a
// sequential adaptor, whose yield is a call that the plain loop inlines).
// A round runs passes of fewer than 10,000 steps in all again up to about
// that many (n=10 of a step is 1,000 passes), so that the clock's reads do
// not swamp what a pass's own setup costs:
//
//	go test ./par -run '^$' -bench 'SeqCheap$' -benchtime 200x
func BenchmarkSeqCheap(b *testing.B) {
	for _, c := range []struct{ k, n int }{
		{1, 1_000_000}, {4, 1_000_000}, {10, 1_000_000}, {1000, 20}, {100, 200}, {10, 2000},
		{1, 10}, {1, 100}, {1, 1000},
	} {
		cheapRows(b, c.k, c.n)
	}
}

// BenchmarkSeqCheapLong is SeqCheap's cheapest f over a sequence long enough
// (50M elements, some 75 ms) that a pass spends most of it in stints alone
// of split.SeqMaxStint between tries of the pool that fail:
//
//	go test ./par -run '^$' -bench SeqCheapLong -benchtime 10x
func BenchmarkSeqCheapLong(b *testing.B) { cheapRows(b, 1, 50_000_000) }

// cheapRows times every Seq function over n elements of k steps beside the
// loop and the loop making the same calls.
func cheapRows(b *testing.B, k, n int) {
	for _, fn := range seqFns {
		b.Run(fmt.Sprintf("k=%d/n=%d/fn=%s", k, n, fn.name), func(b *testing.B) {
			fn.paired(b, &seqWork{k: k, n: n, reps: max(1, 10_000/(k*n))}, false)
		})
	}
}

// seqWork is one case of the paired benchmarks: n elements, each of k steps,
// pulled at slow steps each, and reps passes a round (0: one). Its fields are
// read through a pointer, so that the loops call the sequence and the
// function through values, as a user's loop over a sequence from elsewhere
// does.
type seqWork struct {
	k, slow, n, reps int
	out              []uint64 // ForEachSeq's results
}

// w13Mix is one step of workload W13's linear congruential generator.
func w13Mix(x uint64) uint64 { return x*6364136223846793005 + 1442695040888963407 }

// seqBurn keeps the generator's own steps from being optimized away.
var seqBurn uint64

//go:noinline
func (w *seqWork) f() func(uint64) uint64 {
	k := w.k
	return func(x uint64) uint64 {
		for range k {
			x = w13Mix(x)
		}
		return x
	}
}

//go:noinline
func (w *seqWork) seq() iter.Seq[uint64] {
	n, slow := uint64(w.n), w.slow
	return func(yield func(uint64) bool) {
		var burn uint64
		for i := range n {
			for range slow {
				burn = w13Mix(burn + i)
			}
			if !yield(i) {
				break
			}
		}
		seqBurn += burn
	}
}

func (w *seqWork) seq2() iter.Seq2[int, uint64] {
	seq := w.seq()
	return func(yield func(int, uint64) bool) {
		i := 0
		for x := range seq {
			if !yield(i, x) {
				return
			}
			i++
		}
	}
}

func (w *seqWork) sink() []uint64 {
	if len(w.out) < w.n {
		w.out = make([]uint64, w.n)
	}
	return w.out
}

func seqSumOf(xs []uint64) uint64 {
	var s uint64
	for _, x := range xs {
		s += x
	}
	return s
}

// seqFn is one Seq function with its loop and hand-written forms, each
// returning the same checksum.
type seqFn struct {
	name             string
	weft, hand, loop func(w *seqWork) uint64
	// calls is the loop that makes the calls the Seq function makes, through
	// the same function values: a sequential adaptor for the functions that
	// return a sequence (MapSeq's yield is one more call than the plain
	// loop's body, which the compiler inlines), the user's function called
	// from the range body for the others.
	calls func(w *seqWork) uint64
}

// paired times fn's weft form beside the plain loop and the loop making the
// same calls (and the hand-written form if hand) over w, in paired rounds of
// w.reps passes each, each result checked against the plain loop's.
func (fn seqFn) paired(b *testing.B, w *seqWork, hand bool) {
	want := fn.loop(w)
	form := func(name string, f func(w *seqWork) uint64) contender {
		return contender{name, func() {
			for range max(1, w.reps) {
				if got := f(w); got != want {
					b.Fatalf("%s %s: got %d, want %d", fn.name, name, got, want)
				}
			}
		}}
	}
	cs := []contender{form("weft", fn.weft)}
	if hand {
		cs = append(cs, form("hand", fn.hand))
	}
	paired(b, false, append(cs, form("loop", fn.loop), form("calls", fn.calls))...)
}

// opaque returns v, hiding from the compiler where it came from, so that a
// closure is called through its value as the Seq functions call it.
//
//go:noinline
func opaque[T any](v T) T { return v }

// seqMap, seqFilter and seqMap2 are the sequential adaptors.
//
//go:noinline
func seqMap[E, R any](seq iter.Seq[E], f func(E) R) iter.Seq[R] {
	return func(yield func(R) bool) {
		seq(func(e E) bool { return yield(f(e)) })
	}
}

//go:noinline
func seqFilter[E any](seq iter.Seq[E], keep func(E) bool) iter.Seq[E] {
	return func(yield func(E) bool) {
		seq(func(e E) bool { return !keep(e) || yield(e) })
	}
}

//go:noinline
func seqMap2[K, V, R any](seq iter.Seq2[K, V], f func(K, V) R) iter.Seq[R] {
	return func(yield func(R) bool) {
		seq(func(k K, v V) bool { return yield(f(k, v)) })
	}
}

var seqFns = []seqFn{
	{"MapSeq",
		func(w *seqWork) uint64 {
			var s uint64
			for y := range par.MapSeq(w.seq(), w.f()) {
				s += y
			}
			return s
		},
		func(w *seqWork) uint64 {
			var s uint64
			handMap(w.seq(), w.f(), func(y uint64) { s += y })
			return s
		},
		func(w *seqWork) uint64 {
			f, s := w.f(), uint64(0)
			for x := range w.seq() {
				s += f(x)
			}
			return s
		},
		func(w *seqWork) uint64 {
			var s uint64
			for y := range seqMap(w.seq(), w.f()) {
				s += y
			}
			return s
		}},
	{"FilterSeq",
		func(w *seqWork) uint64 {
			keep := seqKeep(w.f())
			var s uint64
			for x := range par.FilterSeq(w.seq(), keep) {
				s += x
			}
			return s
		},
		func(w *seqWork) uint64 {
			keep := seqKeep(w.f())
			var s uint64
			handBatches(w.seq(), func(in []uint64, out []bool) {
				for i, x := range in {
					out[i] = keep(x)
				}
			}, func(in []uint64, out []bool) {
				for i, ok := range out {
					if ok {
						s += in[i]
					}
				}
			})
			return s
		},
		func(w *seqWork) uint64 {
			keep, s := seqKeep(w.f()), uint64(0)
			for x := range w.seq() {
				if keep(x) {
					s += x
				}
			}
			return s
		},
		func(w *seqWork) uint64 {
			var s uint64
			for x := range seqFilter(w.seq(), seqKeep(w.f())) {
				s += x
			}
			return s
		}},
	{"ForEachSeq",
		func(w *seqWork) uint64 {
			f, out := w.f(), w.sink()
			par.ForEachSeq(w.seq(), func(x uint64) { out[x] = f(x) })
			return seqSumOf(out[:w.n])
		},
		func(w *seqWork) uint64 {
			f, out := w.f(), w.sink()
			handBatches(w.seq(), func(in []uint64, _ []struct{}) {
				for _, x := range in {
					out[x] = f(x)
				}
			}, func([]uint64, []struct{}) {})
			return seqSumOf(out[:w.n])
		},
		func(w *seqWork) uint64 {
			f, out := w.f(), w.sink()
			for x := range w.seq() {
				out[x] = f(x)
			}
			return seqSumOf(out[:w.n])
		},
		func(w *seqWork) uint64 {
			f, out := w.f(), w.sink()
			g := opaque(func(x uint64) { out[x] = f(x) })
			for x := range w.seq() {
				g(x)
			}
			return seqSumOf(out[:w.n])
		}},
	{"ReduceSeq",
		func(w *seqWork) uint64 {
			return par.ReduceSeq(par.MapSeq(w.seq(), w.f()), 0, func(a, b uint64) uint64 { return a + b })
		},
		func(w *seqWork) uint64 {
			var s uint64
			handMap(w.seq(), w.f(), func(y uint64) { s += y })
			return s
		},
		func(w *seqWork) uint64 {
			f, s := w.f(), uint64(0)
			for x := range w.seq() {
				s += f(x)
			}
			return s
		},
		func(w *seqWork) uint64 {
			op := opaque(func(a, b uint64) uint64 { return a + b })
			var s uint64
			for y := range seqMap(w.seq(), w.f()) {
				s = op(s, y)
			}
			return s
		}},
	{"SumSeq",
		func(w *seqWork) uint64 { return par.SumSeq(par.MapSeq(w.seq(), w.f())) },
		func(w *seqWork) uint64 {
			var s uint64
			handMap(w.seq(), w.f(), func(y uint64) { s += y })
			return s
		},
		func(w *seqWork) uint64 {
			f, s := w.f(), uint64(0)
			for x := range w.seq() {
				s += f(x)
			}
			return s
		},
		func(w *seqWork) uint64 {
			var s uint64
			for y := range seqMap(w.seq(), w.f()) {
				s += y
			}
			return s
		}},
	{"MapSeq2",
		func(w *seqWork) uint64 {
			f := w.f()
			var s uint64
			for y := range par.MapSeq2(w.seq2(), func(i int, x uint64) uint64 { return f(x) + uint64(i) }) {
				s += y
			}
			return s
		},
		func(w *seqWork) uint64 {
			f := w.f()
			var s uint64
			handBatches2(w.seq2(), func(is []int, xs []uint64, out []uint64) {
				for j, x := range xs {
					out[j] = f(x) + uint64(is[j])
				}
			}, func(out []uint64) { s += seqSumOf(out) })
			return s
		},
		func(w *seqWork) uint64 {
			f, s := w.f(), uint64(0)
			for i, x := range w.seq2() {
				s += f(x) + uint64(i)
			}
			return s
		},
		func(w *seqWork) uint64 {
			f := w.f()
			var s uint64
			for y := range seqMap2(w.seq2(), opaque(func(i int, x uint64) uint64 { return f(x) + uint64(i) })) {
				s += y
			}
			return s
		}},
	{"ForEachSeq2",
		func(w *seqWork) uint64 {
			f, out := w.f(), w.sink()
			par.ForEachSeq2(w.seq2(), func(i int, x uint64) { out[i] = f(x) })
			return seqSumOf(out[:w.n])
		},
		func(w *seqWork) uint64 {
			f, out := w.f(), w.sink()
			handBatches2(w.seq2(), func(is []int, xs []uint64, _ []uint64) {
				for j, x := range xs {
					out[is[j]] = f(x)
				}
			}, func([]uint64) {})
			return seqSumOf(out[:w.n])
		},
		func(w *seqWork) uint64 {
			f, out := w.f(), w.sink()
			for i, x := range w.seq2() {
				out[i] = f(x)
			}
			return seqSumOf(out[:w.n])
		},
		func(w *seqWork) uint64 {
			f, out := w.f(), w.sink()
			g := opaque(func(i int, x uint64) { out[i] = f(x) })
			for i, x := range w.seq2() {
				g(i, x)
			}
			return seqSumOf(out[:w.n])
		}},
}

func seqKeep(f func(uint64) uint64) func(uint64) bool {
	return func(x uint64) bool { return f(x)&1 == 0 }
}

// handBatch is the hand-written batch length.
const handBatch = 4096

// handBatches is the hand-written batch loop: batches of handBatch elements
// pulled in order, each cut into GOMAXPROCS static parts run by goroutines
// and a WaitGroup, then consumed in order.
func handBatches[E, R any](seq iter.Seq[E], work func(in []E, out []R), consume func(in []E, out []R)) {
	in := make([]E, 0, handBatch)
	out := make([]R, handBatch)
	flush := func() {
		n, p := len(in), runtime.GOMAXPROCS(0)
		var wg sync.WaitGroup
		for i := range p {
			lo, hi := i*n/p, (i+1)*n/p
			wg.Add(1)
			go func() {
				defer wg.Done()
				work(in[lo:hi], out[lo:hi])
			}()
		}
		wg.Wait()
		consume(in, out[:n])
		in = in[:0]
	}
	for x := range seq {
		if in = append(in, x); len(in) == handBatch {
			flush()
		}
	}
	if len(in) > 0 {
		flush()
	}
}

// handMap is handBatches of f, each result consumed in order.
func handMap[E, R any](seq iter.Seq[E], f func(E) R, consume func(R)) {
	handBatches(seq, func(in []E, out []R) {
		for i, x := range in {
			out[i] = f(x)
		}
	}, func(_ []E, out []R) {
		for _, y := range out {
			consume(y)
		}
	})
}

// handBatches2 is handBatches over the pairs of an iter.Seq2.
func handBatches2[K, V, R any](seq iter.Seq2[K, V], work func(ks []K, vs []V, out []R), consume func(out []R)) {
	ks, vs := make([]K, 0, handBatch), make([]V, 0, handBatch)
	out := make([]R, handBatch)
	flush := func() {
		n, p := len(ks), runtime.GOMAXPROCS(0)
		var wg sync.WaitGroup
		for i := range p {
			lo, hi := i*n/p, (i+1)*n/p
			wg.Add(1)
			go func() {
				defer wg.Done()
				work(ks[lo:hi], vs[lo:hi], out[lo:hi])
			}()
		}
		wg.Wait()
		consume(out[:n])
		ks, vs = ks[:0], vs[:0]
	}
	for k, v := range seq {
		ks, vs = append(ks, k), append(vs, v)
		if len(ks) == handBatch {
			flush()
		}
	}
	if len(ks) > 0 {
		flush()
	}
}
