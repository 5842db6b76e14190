package par_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
)

// affine is x -> m*x + c over uint64: composing two is associative but not
// commutative, so a scan that reorders or regroups wrongly gives another
// result.
type affine struct{ m, c uint64 }

var affineID = affine{1, 0}

// then is a followed by b.
func then(a, b affine) affine { return affine{b.m * a.m, b.m*a.c + b.c} }

func addInt(a, b int) int { return a + b }

// scanOracle is the sequential loop of an inclusive (or exclusive) scan.
func scanOracle[E any](s []E, identity E, op func(E, E) E, exclusive bool) []E {
	out := make([]E, len(s))
	acc := identity
	for i, x := range s {
		if exclusive {
			out[i] = acc
			acc = op(acc, x)
		} else {
			acc = op(acc, x)
			out[i] = acc
		}
	}
	return out
}

// blockedOracle is the scan as par computes it, on one goroutine: each block
// folds from the fold of the totals of the blocks before it. For an op that
// is associative bit for bit it equals scanOracle; for float addition it
// gives the bits that par must give on every run.
func blockedOracle(s []float64, exclusive bool) []float64 {
	out := make([]float64, len(s))
	bl := par.ScanBlockLen(len(s))
	offset := 0.0
	for lo := 0; lo < len(s); lo += bl {
		hi := min(len(s), lo+bl)
		acc, total := offset, 0.0
		for i := lo; i < hi; i++ {
			if exclusive {
				out[i] = acc
			}
			acc += s[i]
			total += s[i]
			if !exclusive {
				out[i] = acc
			}
		}
		offset += total
	}
	return out
}

type scanInput struct {
	ints   []int
	maps   []affine
	floats []float64
}

func genScanInput(r *rand.Rand, n int) scanInput {
	in := scanInput{ints: randInts(r, n), maps: make([]affine, n), floats: make([]float64, n)}
	for i := range n {
		in.maps[i] = affine{r.Uint64() | 1, r.Uint64()}
		in.floats[i] = r.NormFloat64() * math.Exp2(float64(r.IntN(40)-20))
	}
	return in
}

func TestScanAgainstLoops(t *testing.T) {
	eachCase(t, genScanInput, func(t *testing.T, n int, in scanInput, s setup) {
		for _, excl := range []bool{false, true} {
			wantI := scanOracle(in.ints, 0, addInt, excl)
			wantM := scanOracle(in.maps, affineID, then, excl)
			var gotI []int
			var gotM []affine
			inplaceI, inplaceM := slices.Clone(in.ints), slices.Clone(in.maps)
			if excl {
				gotI = par.ScanExclusive(in.ints, 0, addInt, s.opts...)
				gotM = par.ScanExclusive(in.maps, affineID, then, s.opts...)
				par.ScanExclusiveInPlace(inplaceI, 0, addInt, s.opts...)
				par.ScanExclusiveInPlace(inplaceM, affineID, then, s.opts...)
			} else {
				gotI = par.Scan(in.ints, 0, addInt, s.opts...)
				gotM = par.Scan(in.maps, affineID, then, s.opts...)
				par.ScanInPlace(inplaceI, 0, addInt, s.opts...)
				par.ScanInPlace(inplaceM, affineID, then, s.opts...)
				require.Equal(t, wantI, par.PrefixSum(in.ints, s.opts...), "PrefixSum")
				ps := slices.Clone(in.ints)
				par.PrefixSumInPlace(ps, s.opts...)
				require.Equal(t, wantI, ps, "PrefixSumInPlace")
			}
			require.Equal(t, wantI, gotI, "ints, exclusive %v", excl)
			require.Equal(t, wantM, gotM, "affine maps, exclusive %v", excl)
			require.Equal(t, wantI, inplaceI, "ints in place, exclusive %v", excl)
			require.Equal(t, wantM, inplaceM, "affine maps in place, exclusive %v", excl)
		}
	})
}

// TestScanFloatBits: a float scan gives the bits of the blocked oracle, which
// depends on the length alone, on every pool and grain; PrefixSum gives the
// same bits as Scan with addition.
func TestScanFloatBits(t *testing.T) {
	addF := func(a, b float64) float64 { return a + b }
	eachCase(t, genScanInput, func(t *testing.T, n int, in scanInput, s setup) {
		want := blockedOracle(in.floats, false)
		wantExcl := blockedOracle(in.floats, true)
		inplace := slices.Clone(in.floats)
		par.ScanExclusiveInPlace(inplace, 0, addF, s.opts...)
		for name, c := range map[string]struct{ got, want []float64 }{
			"Scan":                 {par.Scan(in.floats, 0, addF, s.opts...), want},
			"PrefixSum":            {par.PrefixSum(in.floats, s.opts...), want},
			"ScanExclusive":        {par.ScanExclusive(in.floats, 0, addF, s.opts...), wantExcl},
			"ScanExclusiveInPlace": {inplace, wantExcl},
		} {
			for i := range c.want {
				if math.Float64bits(c.got[i]) != math.Float64bits(c.want[i]) {
					t.Fatalf("%s: element %d = %v, want %v", name, i, c.got[i], c.want[i])
				}
			}
		}
	})
}

// TestScanNested runs scans inside the elements of another call.
func TestScanNested(t *testing.T) {
	inner := genScanInput(newRand(5), 3*par.ScanBlockLen(0)+17)
	want := scanOracle(inner.maps, affineID, then, false)
	for _, p := range testPools(t) {
		var opts []par.Option
		if p != nil {
			opts = append(opts, par.OnPool(p))
		}
		ok := par.Map(indices(12), func(int) bool {
			return slices.Equal(want, par.Scan(inner.maps, affineID, then, opts...))
		}, opts...)
		require.NotContains(t, ok, false, poolName(p))
	}
}

// TestScanInPlaceOpPanics: a panic in op reaches the caller with its value,
// and every element is then either untouched or holds its final value; the
// pool runs the next call normally. The panic is placed in the first block
// (the first pass sees it: nothing is written), in the middle, and in the
// last block (which only the second pass reads).
func TestScanInPlaceOpPanics(t *testing.T) {
	n := 8*par.ScanBlockLen(0) + 5
	orig := indices(n)
	for i := range orig {
		orig[i]++ // positive: a negative value marks where op panics
	}
	const mark = -7
	for _, p := range testPools(t) {
		var opts []par.Option
		if p != nil {
			opts = append(opts, par.OnPool(p))
		}
		for _, at := range []int{0, n / 2, n - 3} {
			for _, excl := range []bool{false, true} {
				s := slices.Clone(orig)
				s[at] = mark
				want := scanOracle(s, 0, addInt, excl)
				boom := fmt.Sprintf("op at %d", at)
				op := func(a, x int) int {
					if x == mark {
						panic(boom)
					}
					return a + x
				}
				var v any
				if excl {
					v = panicValue(t, func() { par.ScanExclusiveInPlace(s, 0, op, opts...) })
				} else {
					v = panicValue(t, func() { par.ScanInPlace(s, 0, op, opts...) })
				}
				require.Equal(t, boom, v)
				for i, x := range s {
					orig := orig[i]
					if i == at {
						orig = mark
					}
					if x != orig && x != want[i] {
						t.Fatalf("%s, panic at %d, exclusive %v: element %d = %d: neither its original value %d nor its scan %d",
							poolName(p), at, excl, i, x, orig, want[i])
					}
				}
			}
		}
		s := slices.Clone(orig)
		par.ScanInPlace(s, 0, addInt, opts...)
		require.Equal(t, scanOracle(orig, 0, addInt, false), s, "after the panics, %s", poolName(p))
	}
}

func TestScanNilOpPanics(t *testing.T) {
	for _, in := range [][]int{nil, indices(100)} {
		for name, call := range map[string]func(){
			"Scan":                 func() { par.Scan(in, 0, nil) },
			"ScanExclusive":        func() { par.ScanExclusive(in, 0, nil) },
			"ScanInPlace":          func() { par.ScanInPlace(in, 0, nil) },
			"ScanExclusiveInPlace": func() { par.ScanExclusiveInPlace(in, 0, nil) },
		} {
			require.Equal(t, "par: "+name+": op is nil", panicValue(t, call), "len %d", len(in))
		}
	}
}

// TestScanBlocksDependOnLengthOnly: the block length grows with n only past
// the block count bound, and never depends on the machine.
func TestScanBlocksDependOnLengthOnly(t *testing.T) {
	b := par.ScanBlockLen(0)
	require.Equal(t, b, par.ScanBlockLen(1_000_000))
	require.Equal(t, b, par.ScanBlockLen(b*b))
	require.Equal(t, b+1, par.ScanBlockLen(b*b+1))
	require.Equal(t, 12208, par.ScanBlockLen(50_000_000))
	// ceil(n/4,096) up to math.MaxInt, where n+4,095 would wrap around.
	require.Equal(t, math.MaxInt/b+1, par.ScanBlockLen(math.MaxInt))
}

// TestScanOpPanicsReachCaller: a panic in op of the scans into a new slice
// reaches the caller with its value, wherever it happens, and the pool runs
// the next call normally.
func TestScanOpPanicsReachCaller(t *testing.T) {
	n := 5*par.ScanBlockLen(0) + 3
	for _, p := range testPools(t) {
		var opts []par.Option
		if p != nil {
			opts = append(opts, par.OnPool(p))
		}
		for _, at := range []int{0, n / 2, n - 1} {
			s := indices(n)
			boom := fmt.Errorf("op at %d", at)
			op := func(a, x int) int {
				if x == at {
					panic(boom)
				}
				return a + x
			}
			require.Equal(t, boom, panicValue(t, func() { par.Scan(s, 0, op, opts...) }), "Scan, %s", poolName(p))
			require.Equal(t, boom, panicValue(t, func() { par.ScanExclusive(s, 0, op, opts...) }), "ScanExclusive, %s", poolName(p))
		}
		s := indices(n)
		require.Equal(t, scanOracle(s, 0, addInt, false), par.Scan(s, 0, addInt, opts...), "after the panics, %s", poolName(p))
	}
}
