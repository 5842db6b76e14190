package par_test

import (
	"slices"
	"testing"

	"github.com/weftgo/weft/par"
)

// fanOut is how many elements FuzzFlatMap makes from byte b: mostly 0 to 4,
// and 100 to 600 for the bytes from 250 on, so that one element's output can
// outgrow everything before it.
func fanOut(b byte) int {
	if b >= 250 {
		return int(b-249) * 100
	}
	return int(b % 5)
}

// FuzzFlatMap compares FlatMap with the sequential loop on fuzzed output
// lengths per element and fuzzed options.
func FuzzFlatMap(f *testing.F) {
	f.Add([]byte{}, uint8(0), uint8(0))
	f.Add([]byte{0}, uint8(2), uint8(1))
	f.Add([]byte{1, 0, 0, 255, 0, 3}, uint8(3), uint8(2))
	f.Add([]byte("the quick brown fox jumps over the lazy dog"), uint8(2), uint8(2))
	f.Add(slices.Repeat([]byte{4, 0, 250}, 200), uint8(14), uint8(1))
	pools := fuzzPools(f)
	f.Fuzz(func(t *testing.T, data []byte, grain, pool uint8) {
		type item struct{ at, k int }
		idx := make([]int, len(data))
		for i := range idx {
			idx[i] = i
		}
		expand := func(i int, out []item) []item {
			for k := range fanOut(data[i]) {
				out = append(out, item{i, k})
			}
			return out
		}
		want := []item{}
		for i := range data {
			want = expand(i, want)
		}
		got := par.FlatMap(idx, expand, fuzzOpts(pools, grain, pool)...)
		if !slices.Equal(want, got) {
			t.Fatalf("FlatMap over %v: %d elements, want %d (or in another order)", data, len(got), len(want))
		}
	})
}
