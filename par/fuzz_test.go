package par_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/weftgo/weft/par"
)

// fuzzOpts turns two fuzzed bytes into a call's options: a grain (0 keeps the
// adaptive splitter, odd values a minimum length instead) and a pool.
func fuzzOpts(pools []*par.Pool, grain, pool uint8) []par.Option {
	var opts []par.Option
	switch {
	case grain == 0:
	case grain%2 == 1:
		opts = append(opts, par.WithMinLen(int(grain)))
	default:
		opts = append(opts, par.WithGrain(int(grain/2)))
	}
	if p := pools[int(pool)%len(pools)]; p != nil {
		opts = append(opts, par.OnPool(p))
	}
	return opts
}

func fuzzPools(f *testing.F) []*par.Pool {
	pools := []*par.Pool{nil}
	for _, n := range []int{1, 3} {
		p := par.NewPool(par.Workers(n))
		f.Cleanup(p.Close)
		pools = append(pools, p)
	}
	return pools
}

// FuzzFilter compares Filter with the sequential loop on fuzzed bytes, with a
// fuzzed predicate (keep the bytes divisible by k) and fuzzed options.
func FuzzFilter(f *testing.F) {
	f.Add([]byte{}, uint8(1), uint8(0), uint8(0))
	f.Add([]byte{0}, uint8(2), uint8(2), uint8(1))
	f.Add([]byte("the quick brown fox jumps over the lazy dog"), uint8(3), uint8(2), uint8(2))
	f.Add(make([]byte, 300), uint8(1), uint8(14), uint8(1))
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17}, uint8(2), uint8(201), uint8(2))
	pools := fuzzPools(f)
	f.Fuzz(func(t *testing.T, data []byte, k, grain, pool uint8) {
		k = max(k, 1)
		keep := func(b byte) bool { return b%k == 0 }
		want := []byte{}
		for _, b := range data {
			if keep(b) {
				want = append(want, b)
			}
		}
		got := par.Filter(data, keep, fuzzOpts(pools, grain, pool)...)
		if !slices.Equal(want, got) {
			t.Fatalf("Filter(%v, %%%d == 0) = %v, want %v", data, k, got, want)
		}
		if n := par.Count(data, keep, fuzzOpts(pools, grain, pool)...); n != len(want) {
			t.Fatalf("Count = %d, want %d", n, len(want))
		}
	})
}

// FuzzReduce compares Reduce with the sequential fold on fuzzed bytes, with
// two associative operations that do not commute: string concatenation, and
// the product of 2x2 matrices made from pairs of bytes.
func FuzzReduce(f *testing.F) {
	f.Add([]byte{}, uint8(0), uint8(0))
	f.Add([]byte{7}, uint8(2), uint8(1))
	f.Add([]byte("abcdefghijklmnopqrstuvwxyz"), uint8(2), uint8(2))
	f.Add([]byte{1, 1, 1, 0, 0, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233}, uint8(7), uint8(1))
	f.Add(make([]byte, 1000), uint8(0), uint8(2))
	pools := fuzzPools(f)
	f.Fuzz(func(t *testing.T, data []byte, grain, pool uint8) {
		opts := fuzzOpts(pools, grain, pool)
		strs := make([]string, len(data))
		for i, b := range data {
			strs[i] = string(rune('a' + b%26))
		}
		want := strings.Join(strs, "")
		if got := par.Reduce(strs, "", func(a, b string) string { return a + b }, opts...); got != want {
			t.Fatalf("Reduce(concatenation) = %q, want %q", got, want)
		}

		mats := make([]mat, len(data)/2)
		for i := range mats {
			x, y := uint64(data[2*i]), uint64(data[2*i+1])
			mats[i] = mat{x, y, (x * y) % matP, x ^ y}
		}
		wantMat := matI
		for _, m := range mats {
			wantMat = matMul(wantMat, m)
		}
		if got := par.Reduce(mats, matI, matMul, opts...); got != wantMat {
			t.Fatalf("Reduce(matMul) = %v, want %v", got, wantMat)
		}
		wantFib := matI
		for _, b := range data {
			wantFib = matMul(wantFib, fibMat(int(b)))
		}
		if got := par.MapReduce(data, func(b byte) mat { return fibMat(int(b)) }, matI, matMul, opts...); got != wantFib {
			t.Fatalf("MapReduce(fibMat, matMul) = %v, want %v", got, wantFib)
		}
	})
}
