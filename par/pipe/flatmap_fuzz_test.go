package pipe_test

import (
	"slices"
	"testing"

	"github.com/weftgo/weft/par"
	"github.com/weftgo/weft/par/pipe"
)

// fuzzFan is how many items FuzzFlatMap makes from byte b: mostly 0 to 4,
// and 100 to 600 for the bytes from 250 on, more than a batch of 256.
func fuzzFan(b byte) int {
	if b >= 250 {
		return int(b-249) * 100
	}
	return int(b % 5)
}

// FuzzFlatMap compares FlatMap, and the positions it hands on, with the
// sequential loop on fuzzed output lengths per item, behind a fuzzed Filter
// and under fuzzed options.
func FuzzFlatMap(f *testing.F) {
	f.Add([]byte{}, uint8(0), uint8(1), uint8(0))
	f.Add([]byte{0}, uint8(2), uint8(1), uint8(1))
	f.Add([]byte{1, 0, 0, 255, 0, 3}, uint8(3), uint8(2), uint8(2))
	f.Add([]byte("the quick brown fox jumps over the lazy dog"), uint8(2), uint8(3), uint8(2))
	f.Add(slices.Repeat([]byte{4, 0, 250}, 200), uint8(14), uint8(1), uint8(1))
	pools := []*par.Pool{nil}
	for _, n := range []int{1, 3} {
		p := par.NewPool(par.Workers(n))
		f.Cleanup(p.Close)
		pools = append(pools, p)
	}
	f.Fuzz(func(t *testing.T, data []byte, grain, keepMod, pool uint8) {
		var opts []par.Option
		if grain > 0 {
			opts = append(opts, par.WithGrain(int(grain)))
		}
		if p := pools[int(pool)%len(pools)]; p != nil {
			opts = append(opts, par.OnPool(p))
		}
		m := int(max(keepMod, 1))
		keep := func(b byte) bool { return int(b)%m != 1 }
		expand := func(b byte, out []int) []int {
			for k := range fuzzFan(b) {
				out = append(out, int(b)*1000+k)
			}
			return out
		}
		var want []int
		var wantPos []at
		for i, b := range data {
			if !keep(b) {
				continue
			}
			for _, y := range expand(b, nil) {
				want = append(want, y)
				wantPos = append(wantPos, at{i, y})
			}
		}
		p := pipe.FlatMap(pipe.From(data).Filter(keep), expand)
		if got := p.Collect(opts...); !slices.Equal(want, got) {
			t.Fatalf("FlatMap over %v: %d items, want %d (or in another order)", data, len(got), len(want))
		}
		if got := pipe.MapIndex(p, pair).Collect(opts...); !slices.Equal(wantPos, got) {
			t.Fatalf("positions after FlatMap over %v differ from the loop's", data)
		}
		if got := p.Count(opts...); got != len(want) {
			t.Fatalf("Count = %d, want %d", got, len(want))
		}
	})
}
