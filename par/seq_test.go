package par_test

import (
	"bytes"
	"fmt"
	"iter"
	"math"
	"math/bits"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
)

// MapSeq, FilterSeq, ForEachSeq, ReduceSeq and SumSeq: the results of the
// sequential loop, in order, with the sequence pulled on the consumer's
// goroutine; passes are lazy, repeatable and nestable, and stay correct as
// they move between working alone and on the pool.

// seqBig is the largest sequence of the table tests.
func seqBig() int {
	if short() || seqRace {
		return 100_000
	}
	return 1_000_000
}

func seqSizes() []int { return []int{0, 1, 2, 3, 17, 1000, seqBig()} }

func seqRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x9E3779B97F4A7C15)) }

func seqInts(r *rand.Rand, n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = r.IntN(1 << 20)
	}
	return s
}

// seqPool starts a pool closed at the end of the test.
func seqPool(t testing.TB, workers int) *par.Pool {
	p := par.NewPool(par.Workers(workers))
	t.Cleanup(p.Close)
	return p
}

// seqSetup is a pool and options to run a case with.
type seqSetup struct {
	name string
	opts []par.Option
}

// seqSetups runs on the default pool and on pools of 1, 2 and 8 workers, with
// the default batching, a fixed grain (no prefix: even short sequences go
// through batches) and a minimum length.
func seqSetups(t testing.TB, n int) []seqSetup {
	grain := 7
	if n > 1000 {
		grain = 4099
	}
	out := []seqSetup{{name: "default"}}
	for _, w := range []int{1, 2, 8} {
		p := seqPool(t, w)
		out = append(out,
			seqSetup{fmt.Sprintf("p%d", w), []par.Option{par.OnPool(p)}},
			seqSetup{fmt.Sprintf("p%d/grain%d", w, grain), []par.Option{par.OnPool(p), par.WithGrain(grain)}},
			seqSetup{fmt.Sprintf("p%d/minlen300", w), []par.Option{par.OnPool(p), par.WithMinLen(300)}},
		)
	}
	return out
}

// seqEachCase runs check for every size and setup.
func seqEachCase(t *testing.T, check func(t *testing.T, xs []int, opts []par.Option)) {
	for _, n := range seqSizes() {
		xs := seqInts(seqRand(uint64(n)), n)
		for _, s := range seqSetups(t, n) {
			t.Run(fmt.Sprintf("n=%d/%s", n, s.name), func(t *testing.T) { check(t, xs, s.opts) })
		}
	}
}

// seqWatched is a sequence of xs that counts in *pulled, a plain variable the
// consumer reads too, so that the race detector sees if the sequence ever runs
// on another goroutine than the consumer's; it also compares goroutine numbers,
// without the race detector.
func seqWatched(t *testing.T, xs []int, pulled *int) iter.Seq[int] {
	g := goid()
	return func(yield func(int) bool) {
		assert.Equal(t, g, goid(), "the sequence runs on the consumer's goroutine")
		for _, x := range xs {
			*pulled++
			if !yield(x) {
				return
			}
		}
	}
}

func TestMapSeq(t *testing.T) {
	f := func(x int) int { return 3*x + 1 }
	seqEachCase(t, func(t *testing.T, xs []int, opts []par.Option) {
		pulled, behind := 0, 0
		got := []int{}
		for y := range par.MapSeq(seqWatched(t, xs, &pulled), f, opts...) {
			got = append(got, y)
			if pulled < len(got) {
				behind++
			}
		}
		want := make([]int, 0, len(xs))
		for _, x := range xs {
			want = append(want, f(x))
		}
		require.Equal(t, want, got)
		require.Equal(t, len(xs), pulled)
		require.Zero(t, behind, "a result came before its element was pulled")
	})
}

func TestFilterSeq(t *testing.T) {
	keep := func(x int) bool { return x%3 == 0 }
	seqEachCase(t, func(t *testing.T, xs []int, opts []par.Option) {
		pulled := 0
		got := []int{}
		for y := range par.FilterSeq(seqWatched(t, xs, &pulled), keep, opts...) {
			got = append(got, y)
		}
		want := []int{}
		for _, x := range xs {
			if keep(x) {
				want = append(want, x)
			}
		}
		require.Equal(t, want, got)
		require.Equal(t, len(xs), pulled)
	})
}

func TestForEachSeq(t *testing.T) {
	seqEachCase(t, func(t *testing.T, xs []int, opts []par.Option) {
		hits := make([]atomic.Int32, len(xs))
		idx := make([]int, len(xs))
		for i := range idx {
			idx[i] = i
		}
		pulled := 0
		par.ForEachSeq(seqWatched(t, idx, &pulled), func(i int) { hits[i].Add(1) }, opts...)
		bad := 0
		for i := range hits {
			if hits[i].Load() != 1 { // ForEachSeq's return hands over every call's write
				bad++
			}
		}
		require.Zero(t, bad, "elements not called exactly once")
		require.Equal(t, len(xs), pulled)
	})
}

// seqAffine is the map x -> a*x + b; composition is associative and not
// commutative, so a reduction that reorders or regroups wrongly shows.
type seqAffine struct{ a, b uint64 }

func seqThen(f, g seqAffine) seqAffine { return seqAffine{g.a * f.a, g.a*f.b + g.b} }

func TestReduceSeq(t *testing.T) {
	require.NotEqual(t, seqThen(seqAffine{2, 3}, seqAffine{5, 7}), seqThen(seqAffine{5, 7}, seqAffine{2, 3}))
	seqEachCase(t, func(t *testing.T, xs []int, opts []par.Option) {
		maps := func(yield func(seqAffine) bool) {
			for _, x := range xs {
				if !yield(seqAffine{uint64(x) | 1, uint64(x) >> 3}) {
					return
				}
			}
		}
		want := seqAffine{1, 0}
		for m := range maps {
			want = seqThen(want, m)
		}
		require.Equal(t, want, par.ReduceSeq(maps, seqAffine{1, 0}, seqThen, opts...))
	})
}

func TestSumSeqInts(t *testing.T) {
	seqEachCase(t, func(t *testing.T, xs []int, opts []par.Option) {
		pulled := 0
		want := 0
		for _, x := range xs {
			want += x
		}
		require.Equal(t, want, par.SumSeq(seqWatched(t, xs, &pulled), opts...))
		require.Equal(t, len(xs), pulled)
		// Wrapping arithmetic, and a narrow type.
		var w8 uint8
		for _, x := range xs {
			w8 += uint8(x)
		}
		require.Equal(t, w8, par.SumSeq(func(yield func(uint8) bool) {
			for _, x := range xs {
				if !yield(uint8(x)) {
					return
				}
			}
		}, opts...))
	})
}

// seqWildFloats returns floats of both signs over forty orders of magnitude,
// so that the order of the additions shows in the last bits of a sum.
func seqWildFloats(r *rand.Rand, n int) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = (r.Float64() - 0.5) * math.Pow(10, float64(r.IntN(40)-20))
	}
	return s
}

// seqSumTree is SumSeq's tree computed another way: the length, counted in
// blocks of 128, is cut into pieces of 128 times a power of two, largest
// first, each summed by Sum (whose tree over such a length is the balanced
// one), then the remainder; the pieces are added from the right.
func seqSumTree(xs []float64) float64 {
	var pieces []float64
	rest := xs
	for blocks := len(xs) / 128; blocks > 0; {
		size := 128 << (bits.Len(uint(blocks)) - 1)
		pieces = append(pieces, par.Sum(rest[:size]))
		rest = rest[size:]
		blocks -= size / 128
	}
	if len(rest) > 0 {
		pieces = append(pieces, par.Sum(rest))
	}
	if len(pieces) == 0 {
		return 0
	}
	t := pieces[len(pieces)-1]
	for i := len(pieces) - 2; i >= 0; i-- {
		t = pieces[i] + t
	}
	return t
}

func TestSumSeqFloatDeterministic(t *testing.T) {
	sizes := []int{0, 1, 127, 128, 129, 1000, 128 << 7, 128<<7 + 1, 3*(128<<7) + 77, 128 << 13, 1_234_567}
	if short() || seqRace {
		sizes = []int{0, 1, 127, 128, 129, 1000, 128 << 7, 3*(128<<7) + 77, 128 << 10, 200_003}
	}
	var setups []seqSetup
	for _, w := range []int{1, 2, 3, 8} {
		p := seqPool(t, w)
		setups = append(setups,
			seqSetup{fmt.Sprintf("p%d", w), []par.Option{par.OnPool(p)}},
			seqSetup{fmt.Sprintf("p%d/grain1000", w), []par.Option{par.OnPool(p), par.WithGrain(1000)}},
			seqSetup{fmt.Sprintf("p%d/grain7", w), []par.Option{par.OnPool(p), par.WithGrain(7)}},
			seqSetup{fmt.Sprintf("p%d/minlen300", w), []par.Option{par.OnPool(p), par.WithMinLen(300)}},
		)
	}
	differs := 0 // sizes where a plain loop gives another result: the test has teeth
	for _, n := range sizes {
		xs := seqWildFloats(seqRand(uint64(n)+7), n)
		want := seqSumTree(xs)
		plain := 0.0
		for _, x := range xs {
			plain += x
		}
		if plain != want {
			differs++
		}
		if n <= 128 || (n%128 == 0 && (n/128)&(n/128-1) == 0) {
			require.Equal(t, math.Float64bits(par.Sum(xs)), math.Float64bits(want), "n=%d: Sum and SumSeq share the tree", n)
		}
		for _, s := range setups {
			for rep := 0; rep < 3; rep++ {
				got := par.SumSeq(slices.Values(xs), s.opts...)
				require.Equal(t, math.Float64bits(want), math.Float64bits(got), "n=%d %s run %d: %v, want %v", n, s.name, rep, got, want)
			}
		}
	}
	require.Positive(t, differs)
}

// TestSumSeqFloatSlowStart checks that where the prefix ends (here, after a
// slow first stretch) does not change the tree.
func TestSumSeqFloatSlowStart(t *testing.T) {
	n := 5*(128<<7) + 333
	xs := seqWildFloats(seqRand(99), n)
	want := seqSumTree(xs)
	p := seqPool(t, 2)
	for _, slowFor := range []int{0, 1, 500, 20_000} {
		got := par.SumSeq(func(yield func(float64) bool) {
			for i, x := range xs {
				if i < slowFor && i%100 == 0 {
					time.Sleep(time.Microsecond)
				}
				if !yield(x) {
					return
				}
			}
		}, par.OnPool(p))
		require.Equal(t, math.Float64bits(want), math.Float64bits(got), "slow for %d", slowFor)
	}
}

func TestSeqNilArguments(t *testing.T) {
	s := slices.Values([]int{1})
	id := func(x int) int { return x }
	keep := func(int) bool { return true }
	add := func(a, b int) int { return a + b }
	require.PanicsWithValue(t, "par: MapSeq: seq is nil", func() { par.MapSeq(nil, id) })
	require.PanicsWithValue(t, "par: MapSeq: f is nil", func() { par.MapSeq[int, int](s, nil) })
	require.PanicsWithValue(t, "par: FilterSeq: seq is nil", func() { par.FilterSeq(nil, keep) })
	require.PanicsWithValue(t, "par: FilterSeq: keep is nil", func() { par.FilterSeq(s, nil) })
	require.PanicsWithValue(t, "par: ForEachSeq: seq is nil", func() { par.ForEachSeq(nil, func(int) {}) })
	require.PanicsWithValue(t, "par: ForEachSeq: f is nil", func() { par.ForEachSeq(s, nil) })
	require.PanicsWithValue(t, "par: ReduceSeq: seq is nil", func() { par.ReduceSeq(nil, 0, add) })
	require.PanicsWithValue(t, "par: ReduceSeq: op is nil", func() { par.ReduceSeq(s, 0, nil) })
	require.PanicsWithValue(t, "par: SumSeq: seq is nil", func() { par.SumSeq[int](nil) })
}

func TestMapSeqIsLazyAndRepeatable(t *testing.T) {
	xs := seqInts(seqRand(5), 50_000)
	pulled := 0
	s := par.MapSeq(seqWatched(t, xs, &pulled), func(x int) int { return x + 1 }, par.WithGrain(1000))
	require.Zero(t, pulled, "nothing is pulled before the range")
	first := slices.Collect(s)
	second := slices.Collect(s)
	require.Equal(t, first, second)
	require.Len(t, first, len(xs))
	require.Equal(t, 2*len(xs), pulled)
}

// TestSeqTimeAloneTakesTheDryPieces: a ReduceSeq or SumSeq over a MapSeq
// timed its stint alone while the inner pass was alone, at the inner's 37 ns
// an element and more; its dry piece, once the inner pass delivered from the
// pool, measured 25 ns of pulling and 0.4 of its own work. Judged against
// the stint, or against its pieces' fill, which the inner pass's jobs
// slowed, the pool seemed to pay for an f of a third of a nanosecond.
func TestSeqTimeAloneTakesTheDryPieces(t *testing.T) {
	assert.InDelta(t, 25.4, par.SeqTimeAlone(52, 36.3, 0, 0.6, 25, 0.4, 1), 1e-9)
	assert.InDelta(t, 36.9, par.SeqTimeAlone(52, 36.3, 0, 0.6, 0, 0, 0), 1e-9, "no dry piece in the try")
	assert.InDelta(t, 37.0, par.SeqTimeAlone(37, 4, 5, 35, 7, 34, 1), 1e-9, "the stint alone, where the sums are dearer")
}

func TestSeqNested(t *testing.T) {
	// On one worker, an outer call's task that ranges over MapSeq has no other
	// worker to run its batches: it must take them back and run them itself.
	p := seqPool(t, 1)
	xs := seqInts(seqRand(15), 20_000)
	want := 0
	for _, x := range xs {
		want += 2 * x
	}
	sums := par.Map([]int{0, 1, 2, 3}, func(int) int {
		s := 0
		for y := range par.MapSeq(slices.Values(xs), func(x int) int {
			return par.SumSeq(slices.Values([]int{x, x}), par.OnPool(p))
		}, par.OnPool(p), par.WithGrain(100)) {
			s += y
		}
		return s
	}, par.OnPool(p))
	require.Equal(t, []int{want, want, want, want}, sums)
}

func TestSeqManyConsumers(t *testing.T) {
	// Passes on one pool from many goroutines at once do not mix their batches.
	p := seqPool(t, 3)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			xs := seqInts(seqRand(uint64(100+g)), 30_000)
			got := slices.Collect(par.MapSeq(slices.Values(xs), func(x int) int { return x ^ g }, par.OnPool(p), par.WithGrain(97)))
			for i := range xs {
				if got[i] != xs[i]^g {
					t.Errorf("goroutine %d: element %d is %d, want %d", g, i, got[i], xs[i]^g)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// FuzzFilterSeq filters a sequence of bytes with a predicate, a grain and a
// point to stop at all drawn from the input, and compares with the loop.
func FuzzFilterSeq(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{0})
	f.Add([]byte{3, 1, 255, 7, 8, 9, 10, 11, 12, 13, 14, 15})
	f.Add(bytes.Repeat([]byte{1, 2, 3, 4, 5, 6, 7}, 300))
	pool := par.NewPool(par.Workers(3))
	f.Cleanup(pool.Close)
	f.Fuzz(func(t *testing.T, data []byte) {
		var mod, rem, grain, stop int = 2, 0, 0, -1
		if len(data) >= 3 {
			mod = 1 + int(data[0]%7)
			rem = int(data[1]) % mod
			grain = int(data[2] % 9) // 0: the default batching
			if data[2] >= 128 {
				stop = int(data[2]) % 32
			}
		}
		keep := func(b byte) bool { return int(b)%mod == rem }
		want := []byte{}
		for _, b := range data {
			if keep(b) {
				want = append(want, b)
			}
		}
		if stop >= 0 && stop < len(want) {
			want = want[:stop+1]
		} else {
			stop = -1
		}
		opts := []par.Option{par.OnPool(pool)}
		if grain > 0 {
			opts = append(opts, par.WithGrain(grain))
		}
		got := []byte{}
		for b := range par.FilterSeq(slices.Values(data), keep, opts...) {
			got = append(got, b)
			if len(got) == stop+1 {
				break
			}
		}
		require.Equal(t, want, got)
	})
}

// TestSeqModeFlips makes every pass move between working alone and on the
// pool after every batch, with batches of varied lengths, and checks results,
// order, the float tree and early breaks across all those transitions.
func TestSeqModeFlips(t *testing.T) {
	par.SetSeqFlip(true)
	defer par.SetSeqFlip(false)
	n := 50_000
	if short() || seqRace {
		n = 10_000
	}
	xs := seqInts(seqRand(21), n)
	fs := seqWildFloats(seqRand(22), 5*(128<<7)+999)
	wantF := seqSumTree(fs)
	for _, w := range []int{1, 2, 8} {
		p := seqPool(t, w)
		opts := []par.Option{par.OnPool(p)}
		t.Run(fmt.Sprintf("p%d", w), func(t *testing.T) {
			pulled := 0
			g := goid()
			var elsewhere atomic.Int64 // elements mapped off the consumer's goroutine
			got := slices.Collect(par.MapSeq(seqWatched(t, xs, &pulled), func(x int) int {
				if goid() != g {
					elsewhere.Add(1)
				}
				return x*7 + 2
			}, opts...))
			require.Len(t, got, n)
			bad := 0
			for i, x := range xs {
				if got[i] != x*7+2 {
					bad++
				}
			}
			require.Zero(t, bad)
			require.Positive(t, elsewhere.Load(), "pieces went to the pool's workers")

			keep := func(x int) bool { return x&4 == 0 }
			var wantKept []int
			sum := 0
			for _, x := range xs {
				if keep(x) {
					wantKept = append(wantKept, x)
				}
				sum += x
			}
			require.Equal(t, wantKept, slices.Collect(par.FilterSeq(slices.Values(xs), keep, opts...)))

			hits := make([]atomic.Int32, n)
			par.ForEachSeq(slices.Values(xs), func(x int) { hits[x%n].Add(1) }, opts...)
			total := 0
			for i := range hits {
				total += int(hits[i].Load())
			}
			require.Equal(t, n, total)

			maps := func(yield func(seqAffine) bool) {
				for _, x := range xs {
					if !yield(seqAffine{uint64(x) | 1, uint64(x)}) {
						return
					}
				}
			}
			wantAff := seqAffine{1, 0}
			for m := range maps {
				wantAff = seqThen(wantAff, m)
			}
			require.Equal(t, wantAff, par.ReduceSeq(maps, seqAffine{1, 0}, seqThen, opts...))
			require.Equal(t, sum, par.SumSeq(slices.Values(xs), opts...))
			for rep := 0; rep < 3; rep++ {
				require.Equal(t, math.Float64bits(wantF), math.Float64bits(par.SumSeq(slices.Values(fs), opts...)))
			}

			for _, stopAt := range []int{0, 1, 2, 50, 333, n / 3} {
				i := 0
				wrong := 0
				for y := range par.MapSeq(slices.Values(xs), func(x int) int { return x + 1 }, opts...) {
					if y != xs[i]+1 {
						wrong++
					}
					if i == stopAt {
						break
					}
					i++
				}
				require.Zero(t, wrong)
				require.Equal(t, stopAt, i)
			}
		})
	}
}

func TestSeqDefaultPoolReplaced(t *testing.T) {
	// GOMAXPROCS changes in the middle of a pass: the default pool is replaced
	// and the old one retired while batches are queued on it.
	procs := runtime.GOMAXPROCS(0)
	defer runtime.GOMAXPROCS(procs)
	xs := seqInts(seqRand(23), 200_000)
	i := 0
	wrong := 0
	for y := range par.MapSeq(slices.Values(xs), func(x int) int { return x - 1 }, par.WithGrain(500)) {
		if y != xs[i]-1 {
			wrong++
		}
		if i%20_000 == 0 {
			runtime.GOMAXPROCS(1 + (i/20_000)%3)
		}
		i++
	}
	require.Zero(t, wrong)
	require.Equal(t, len(xs), i)
}
