package par_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/weftgo/weft/par"
)

// FuzzGroupBy compares CountBy and GroupBy with the sequential loops on
// fuzzed bytes, keyed by the byte modulo a fuzzed k, with fuzzed options.
func FuzzGroupBy(f *testing.F) {
	f.Add([]byte{}, uint8(1), uint8(0), uint8(0))
	f.Add([]byte{0}, uint8(2), uint8(2), uint8(1))
	f.Add([]byte("the quick brown fox jumps over the lazy dog"), uint8(5), uint8(2), uint8(2))
	f.Add(make([]byte, 500), uint8(1), uint8(3), uint8(1))
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17}, uint8(255), uint8(2), uint8(2))
	pools := fuzzPools(f)
	f.Fuzz(func(t *testing.T, data []byte, k, grain, pool uint8) {
		k = max(k, 1)
		key := func(b byte) byte { return b % k }
		wantC, wantG := countOracle(data, key), groupOracle(data, key)
		gotC := par.CountBy(data, key, fuzzOpts(pools, grain, pool)...)
		gotG := par.GroupBy(data, key, fuzzOpts(pools, grain, pool)...)
		if len(gotC) != len(wantC) || len(gotG) != len(wantG) {
			t.Fatalf("%d and %d keys, want %d", len(gotC), len(gotG), len(wantC))
		}
		for key, n := range wantC {
			if gotC[key] != n {
				t.Fatalf("CountBy: key %d: %d, want %d", key, gotC[key], n)
			}
			if !slices.Equal(gotG[key], wantG[key]) {
				t.Fatalf("GroupBy: key %d: %v, want %v", key, gotG[key], wantG[key])
			}
		}
	})
}

// FuzzScan compares the scans with the sequential loop on a fuzzed length
// (up to a few dozen blocks, so that both passes cut for real) of values
// drawn from a fuzzed seed, with a non-commutative op and fuzzed options;
// and requires a float scan to give the blocked oracle's bits.
func FuzzScan(f *testing.F) {
	f.Add(uint64(0), uint32(0), uint8(0), uint8(0))
	f.Add(uint64(1), uint32(1), uint8(2), uint8(1))
	f.Add(uint64(2), uint32(4096), uint8(2), uint8(2))
	f.Add(uint64(3), uint32(4097), uint8(9), uint8(1))
	f.Add(uint64(4), uint32(3*4096+17), uint8(0), uint8(2))
	f.Add(uint64(5), uint32(100_000), uint8(200), uint8(1))
	pools := fuzzPools(f)
	f.Fuzz(func(t *testing.T, seed uint64, n32 uint32, grain, pool uint8) {
		n := int(n32 % 150_000)
		r := rand.New(rand.NewPCG(seed, 3))
		maps := make([]affine, n)
		floats := make([]float64, n)
		for i := range n {
			maps[i] = affine{r.Uint64(), r.Uint64()}
			floats[i] = r.NormFloat64() * math.Exp2(float64(r.IntN(60)-30))
		}
		for _, excl := range []bool{false, true} {
			want := scanOracle(maps, affineID, then, excl)
			var got []affine
			inplace := slices.Clone(maps)
			if excl {
				got = par.ScanExclusive(maps, affineID, then, fuzzOpts(pools, grain, pool)...)
				par.ScanExclusiveInPlace(inplace, affineID, then, fuzzOpts(pools, grain, pool)...)
			} else {
				got = par.Scan(maps, affineID, then, fuzzOpts(pools, grain, pool)...)
				par.ScanInPlace(inplace, affineID, then, fuzzOpts(pools, grain, pool)...)
			}
			if i := firstDiff(want, got); i >= 0 {
				t.Fatalf("exclusive %v: element %d = %v, want %v", excl, i, got[i], want[i])
			}
			if i := firstDiff(want, inplace); i >= 0 {
				t.Fatalf("in place, exclusive %v: element %d = %v, want %v", excl, i, inplace[i], want[i])
			}
		}
		want := blockedOracle(floats, false)
		got := par.PrefixSum(floats, fuzzOpts(pools, grain, pool)...)
		for i := range want {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				t.Fatalf("PrefixSum: element %d = %v, want %v", i, got[i], want[i])
			}
		}
	})
}

func firstDiff[E comparable](a, b []E) int {
	if len(a) != len(b) {
		return min(len(a), len(b))
	}
	for i := range a {
		if a[i] != b[i] {
			return i
		}
	}
	return -1
}
