package par_test

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
	"github.com/weftgo/weft/par/pipe"
)

// Sum: integer sums that wrap as the loop's do, float sums that are exact
// where the loop's is, more accurate than the loop otherwise, and the same
// bits for the same input whatever the grain, the workers and the timing.

// sumCase checks Sum against a sequential loop on inputs from gen, whose
// values must make every order of addition exact, or wrap as integers do.
func sumCase[E par.Number](t *testing.T, gen func(r *rand.Rand) E) {
	type input struct {
		in   []E
		want E
	}
	eachCase(t, func(r *rand.Rand, n int) input {
		in := make([]E, n)
		var want E
		for i := range in {
			in[i] = gen(r)
			want += in[i]
		}
		return input{in, want}
	}, func(t *testing.T, n int, c input, s setup) {
		require.Equal(t, c.want, par.Sum(c.in, s.opts...))
	})
}

func TestSumInt(t *testing.T) {
	sumCase(t, func(r *rand.Rand) int { return int(r.Uint64()) }) // the sum wraps many times
}

func TestSumUint8Wraps(t *testing.T) {
	sumCase(t, func(r *rand.Rand) uint8 { return uint8(r.Uint32()) })
}

func TestSumInt8Wraps(t *testing.T) {
	require.Equal(t, int8(-128), par.Sum([]int8{127, 1}))
	require.Equal(t, uint8(4), par.Sum([]uint8{255, 255, 255, 255, 8}))
}

// TestSumFloat64Exact sums multiples of 1/8 whose partial sums all fit in a
// float64's mantissa, so that every order of addition gives the exact sum.
func TestSumFloat64Exact(t *testing.T) {
	sumCase(t, func(r *rand.Rand) float64 { return float64(r.IntN(2001)-1000) / 8 })
}

// TestSumFloat32Exact does the same within a float32's 24 bits: integers in
// [-8, 8], whose partial sums stay below 2^24 in magnitude for n <= 10^6.
func TestSumFloat32Exact(t *testing.T) {
	sumCase(t, func(r *rand.Rand) float32 { return float32(r.IntN(17) - 8) })
}

// spreadFloats returns values of both signs whose magnitudes span twelve
// decimal orders, so that a change in the order of additions almost surely
// changes the rounded result.
func spreadFloats(r *rand.Rand, n int) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = (r.Float64()*2 - 1) * math.Ldexp(1, r.IntN(40)-20)
	}
	return s
}

// exactSum returns the sum of s rounded once to float64. 2200 bits hold any
// sum of a million float64 values exactly.
func exactSum[E float32 | float64](s []E) float64 {
	acc := new(big.Float).SetPrec(2200)
	var x big.Float
	for _, v := range s {
		acc.Add(acc, x.SetFloat64(float64(v)))
	}
	f, _ := acc.Float64()
	return f
}

// TestSumFloatErrorBound checks that float sums stay within the error bound of
// pairwise summation over blocks of 128 added with four accumulators:
// (32 + 2 + log2 n) units of roundoff times the sum of the magnitudes, where a
// sequential loop's bound grows with n.
func TestSumFloatErrorBound(t *testing.T) {
	type input struct {
		in             []float64
		in32           []float32
		exact, exact32 float64
		bound, bound32 float64
	}
	eachCase(t, func(r *rand.Rand, n int) input {
		c := input{in: spreadFloats(r, n), in32: make([]float32, n)}
		abs, abs32 := 0.0, 0.0
		for i, x := range c.in {
			c.in32[i] = float32(x)
			abs += math.Abs(x)
			abs32 += math.Abs(float64(c.in32[i]))
		}
		c.exact, c.exact32 = exactSum(c.in), exactSum(c.in32)
		steps := 34 + math.Log2(float64(n)+1)
		c.bound, c.bound32 = steps*0x1p-53*abs, steps*0x1p-24*abs32
		return c
	}, func(t *testing.T, n int, c input, s setup) {
		require.LessOrEqual(t, math.Abs(par.Sum(c.in, s.opts...)-c.exact), c.bound)
		require.LessOrEqual(t, math.Abs(float64(par.Sum(c.in32, s.opts...))-c.exact32), c.bound32)
	})
}

// TestSumFloatDeterministic sums the same million floats on pools of several
// sizes, many times, and with options that change how the range is cut, from
// one block of the canonical tree per piece up: the bits of the result must
// never change. The 64-worker pool makes thieves cut pieces as finely as the
// splitter allows.
func TestSumFloatDeterministic(t *testing.T) {
	in := spreadFloats(newRand(42), 1_000_000)
	reps := 20
	if !full() {
		reps = 2
	}
	var pools []*par.Pool
	for _, w := range []int{1, 2, 3, 8, 64} {
		p := par.NewPool(par.Workers(w))
		t.Cleanup(p.Close)
		pools = append(pools, p)
	}
	want := math.Float64bits(par.Sum(in, par.OnPool(pools[0])))
	variants := []struct {
		name string
		opts []par.Option
	}{
		{"adaptive", nil},
		{"minlen1", []par.Option{par.WithMinLen(1)}},
		{"minlen100", []par.Option{par.WithMinLen(100)}},
		{"minlen5000", []par.Option{par.WithMinLen(5000)}},
		{"grain1", []par.Option{par.WithGrain(1)}},
		{"grain7", []par.Option{par.WithGrain(7)}},
		{"grain100", []par.Option{par.WithGrain(100)}},
		{"grain1000", []par.Option{par.WithGrain(1000)}},
		{"grain65536", []par.Option{par.WithGrain(65_536)}},
	}
	for _, p := range append(pools, nil) {
		for _, v := range variants {
			opts := append(append([]par.Option(nil), v.opts...), poolOpts(p)...)
			t.Run(fmt.Sprintf("%s/%s", poolName(p), v.name), func(t *testing.T) {
				for range reps {
					got := math.Float64bits(par.Sum(in, opts...))
					require.Equal(t, want, got, "Sum bits differ from the 1-worker pool's")
				}
			})
		}
	}
	// The same holds for float32.
	in32 := make([]float32, len(in))
	for i, x := range in {
		in32[i] = float32(x)
	}
	want32 := math.Float32bits(par.Sum(in32, par.OnPool(pools[0])))
	for _, p := range pools {
		for range reps {
			got := math.Float32bits(par.Sum(in32, par.OnPool(p)))
			require.Equal(t, want32, got, "%s", poolName(p))
		}
	}
}

// TestSumMoreAccurateThanLoop sums inputs crafted so that a sequential loop
// loses every small term against a large one, and checks that Sum's error
// against the exact sum is no worse, and here much better.
func TestSumMoreAccurateThanLoop(t *testing.T) {
	n := bigN()
	tiny := make([]float64, n) // 1 then terms below half an ulp of 1
	tiny[0] = 1
	for i := 1; i < n; i++ {
		tiny[i] = 0x1p-54
	}
	mixed := spreadFloats(newRand(7), n) // a large term first, then small ones
	mixed[0] = 1e12
	cancel := make([]float64, n) // large terms that cancel, with small ones between
	for i := range cancel {
		switch i % 4 {
		case 0:
			cancel[i] = 1e15
		case 2:
			cancel[i] = -1e15
		default:
			cancel[i] = 0.1 * float64(i%7+1)
		}
	}
	cases := []struct {
		name string
		in   []float64
		// noWorse says Sum's error must not exceed the loop's; far, that it
		// must be smaller by a wide margin: where the loop drops every term,
		// pairwise blocks keep them. Pairwise summation has the better bound,
		// not a smaller error on every input: on "cancel", whose period of
		// four matches the four accumulators of a block, two accumulators
		// collect the large terms and two the small ones, and joining them
		// rounds each block's small sum to the large sum's ulp, so Sum's
		// error exceeds the loop's (1250 against 536 for n = 10^5).
		noWorse, far bool
	}{{"tiny", tiny, true, true}, {"mixed", mixed, true, false}, {"cancel", cancel, false, false}}
	for _, c := range cases {
		in := c.in
		t.Run(c.name, func(t *testing.T) {
			exact := exactSum(in)
			loop := 0.0
			for _, x := range in {
				loop += x
			}
			loopErr := math.Abs(loop - exact)
			require.Positive(t, loopErr, "the crafted input must make the loop lose precision")
			abs := 0.0
			for _, x := range in {
				abs += math.Abs(x)
			}
			bound := (34 + math.Log2(float64(n))) * 0x1p-53 * abs
			for _, p := range testPools(t) {
				got := par.Sum(in, poolOpts(p)...)
				sumErr := math.Abs(got - exact)
				msg := fmt.Sprintf("%s: Sum %v, loop %v, exact %v", poolName(p), got, loop, exact)
				require.LessOrEqual(t, sumErr, bound, msg)
				if c.noWorse {
					require.LessOrEqual(t, sumErr, loopErr, msg)
				}
				if c.far {
					require.Less(t, sumErr, loopErr/1000, "pairwise summation should beat the loop by far here: "+msg)
				}
			}
		})
	}
}

func TestSumEmpty(t *testing.T) {
	require.Equal(t, 0, par.Sum([]int(nil)))
	require.Equal(t, 0.0, par.Sum([]float64{}))
	require.Equal(t, math.Float64bits(0), math.Float64bits(par.Sum([]float64{})), "the empty sum is +0")
	require.Equal(t, 2.5, par.Sum([]float64{2.5}))
}

// A float sum is computed over a tree that depends only on len(s), so the
// same input gives the same bits whatever the grain, the number of workers
// and the timing: no cut goes below the 128-element blocks that blockSum adds
// with four strided accumulators. The inputs are longer than the length up
// to which Sum runs sequentially whatever the options (split.StreamLen: 65536
// float64).

// TestSumBitsIgnoreGrain: a fixed grain gives the bits of the default one.
// Once caught: for sin(i), i < 2^18, WithGrain(7) gave 0x3ffde8a54f357cdf and WithGrain(100) 0x3ffde8a54f357c64, not 0x3ffde8a54f357c22.
func TestSumBitsIgnoreGrain(t *testing.T) {
	s := make([]float64, 1<<18)
	for i := range s {
		s[i] = math.Sin(float64(i))
	}
	want := math.Float64bits(par.Sum(s))
	for _, g := range []int{7, 100} {
		t.Run(fmt.Sprintf("grain%d", g), func(t *testing.T) {
			got := math.Float64bits(par.Sum(s, par.WithGrain(g)))
			assert.Equal(t, fmt.Sprintf("%#x", want), fmt.Sprintf("%#x", got))
		})
	}
}

// TestSumBitsIgnoreTiming: on a pool of many workers, where thieves keep
// refilling the adaptive splitter's budget, every run gives the bits of the
// sum on a pool of one worker.
func TestSumBitsIgnoreTiming(t *testing.T) {
	for _, c := range []struct {
		name      string
		in        []float64
		workers   int
		runs      int
		shortRuns int // under -short
		stopAfter int // differing runs after which the loop stops; 0: never
		require   bool
	}{
		// Once caught: a different last bit in about one run in ten (18 of 200) on a 2-core machine.
		{"spread floats on 64 workers", spreadFloats(newRand(42), 1<<17), 64, 2000, 2000, 3, false},
		// Once caught: about one run in 100 differed (one in 15 under -race).
		{"wild floats on 32 workers", seqWildFloats(seqRand(77), 200_000), 32, 2000, 200, 0, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			one := par.NewPool(par.Workers(1))
			t.Cleanup(one.Close)
			want := math.Float64bits(par.Sum(c.in, par.OnPool(one)))
			p := par.NewPool(par.Workers(c.workers))
			t.Cleanup(p.Close)
			runs := c.runs
			if short() {
				runs = c.shortRuns
			}
			differ := 0
			for range runs {
				if math.Float64bits(par.Sum(c.in, par.OnPool(p))) != want {
					differ++
					if differ == c.stopAfter {
						break
					}
				}
			}
			if c.require {
				require.Zero(t, differ, "runs of %d whose bits differ from the one-worker sum", runs)
			} else {
				assert.Zero(t, differ, "runs whose bits differ from the 1-worker pool's")
			}
		})
	}
}

// TestSumsAgree: the three deterministic float sums follow one tree: Sum
// over a slice, SumSeq over the same values as a sequence, and pipe.Sum over
// the slice give the same bits for every length.
func TestSumsAgree(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	lengths := []int{0, 1, 2, 127, 128, 129, 255, 256, 257, 383, 1000, 4097, 16384 + 130, 100_003}
	if !short() {
		lengths = append(lengths, 1_000_003, 3*16384*128+77)
	}
	for _, n := range lengths {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = r.NormFloat64() * math.Pow(2, float64(r.IntN(40)-20))
		}
		want := math.Float64bits(par.Sum(xs))
		require.Equal(t, want, math.Float64bits(par.SumSeq(slices.Values(xs))), "SumSeq, n=%d", n)
		require.Equal(t, want, math.Float64bits(pipe.Sum(pipe.From(xs))), "pipe.Sum, n=%d", n)
	}
}
