package par_test

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"sync/atomic"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
)

// Sort, SortFunc and SortStableFunc: the result of the slices package on
// every input shape and size, bits of floats included; a panic in cmp reaches
// the caller.

// pattern makes n raw 64-bit values of one input shape; element types take
// their low bits (and floats their bits, see floatsOf).
type pattern struct {
	name string
	gen  func(n int, r *rand.Rand) []uint64
}

var patterns = []pattern{
	{"random", func(n int, r *rand.Rand) []uint64 {
		s := make([]uint64, n)
		for i := range s {
			s[i] = r.Uint64()
		}
		return s
	}},
	{"sorted", func(n int, r *rand.Rand) []uint64 {
		s := make([]uint64, n)
		for i := range s {
			s[i] = uint64(i)
		}
		return s
	}},
	{"reversed", func(n int, r *rand.Rand) []uint64 {
		s := make([]uint64, n)
		for i := range s {
			s[i] = uint64(n - i)
		}
		return s
	}},
	{"equal", func(n int, r *rand.Rand) []uint64 {
		s := make([]uint64, n)
		for i := range s {
			s[i] = 0xDEADBEEF_CAFEF00D
		}
		return s
	}},
	{"few", func(n int, r *rand.Rand) []uint64 {
		s := make([]uint64, n)
		for i := range s {
			s[i] = uint64(r.IntN(5)) * 0x0101_0101_0101_0101
		}
		return s
	}},
	{"organpipe", func(n int, r *rand.Rand) []uint64 {
		s := make([]uint64, n)
		for i := range s {
			s[i] = uint64(min(i, n-1-i))
		}
		return s
	}},
	{"sawtooth", func(n int, r *rand.Rand) []uint64 {
		s := make([]uint64, n)
		for i := range s {
			s[i] = uint64(i % 97)
		}
		return s
	}},
	// Keys that differ only in their top byte, or only in their low bits, or
	// all but one in one radix bucket: each defeats a naive radix split.
	{"highbyte", func(n int, r *rand.Rand) []uint64 {
		s := make([]uint64, n)
		for i := range s {
			s[i] = r.Uint64() & 0xFF00_0000_0000_0000
		}
		return s
	}},
	{"lowbits", func(n int, r *rand.Rand) []uint64 {
		s := make([]uint64, n)
		for i := range s {
			s[i] = 0x1234_5678_9ABC_0000 | uint64(r.IntN(1<<12))
		}
		return s
	}},
	{"skewed", func(n int, r *rand.Rand) []uint64 {
		s := make([]uint64, n)
		for i := range s {
			s[i] = r.Uint64() >> 9
		}
		if n > 0 {
			s[r.IntN(n)] = math.MaxUint64
		}
		return s
	}},
	{"signs", func(n int, r *rand.Rand) []uint64 {
		s := make([]uint64, n)
		for i := range s {
			v := int64(r.IntN(2001) - 1000)
			s[i] = uint64(v)
		}
		return s
	}},
	// The median-of-three killer of Musser (1997): pivots picked from the
	// first, middle and last elements are always near the minimum.
	{"m3killer", func(n int, r *rand.Rand) []uint64 {
		s := make([]uint64, n)
		k := n / 2
		for i := 0; i < k; i++ {
			if i%2 == 0 {
				s[i] = uint64(i + 1)
			} else {
				s[i] = uint64(k + i + k%2)
			}
			s[k+i] = uint64(2 * (i + 1))
		}
		if n%2 == 1 {
			s[n-1] = uint64(n)
		}
		return s
	}},
}

// sortSizes returns the lengths to test: around the thresholds of the
// sequential fallbacks and of the radix sort's split (1<<14); with tier 1
// past its cache leaf (1<<16), with tier 2 past the length at which its
// passes run in parallel blocks (1<<17).
func sortSizes(tier int) []int {
	s := []int{0, 1, 2, 3, 17, 100, 1000, 4096, 4097, 8193, 20_000}
	if raceBuild {
		tier = 0
	}
	if tier >= 1 {
		s = append(s, 70_000)
	}
	if tier >= 2 {
		s = append(s, 200_000)
		if !short() {
			s = append(s, 1_000_000)
		}
	}
	return s
}

// testPatterns returns the patterns, fewer under the race detector.
func testPatterns() []pattern {
	if !raceBuild {
		return patterns
	}
	var ps []pattern
	for _, p := range patterns {
		switch p.name {
		case "random", "equal", "few", "skewed", "signs":
			ps = append(ps, p)
		}
	}
	return ps
}

func convert[E any](raw []uint64, f func(uint64) E) []E {
	s := make([]E, len(raw))
	for i, x := range raw {
		s[i] = f(x)
	}
	return s
}

// bitsOf returns the bit patterns of the elements of s, which are 1, 2, 4 or
// 8 bytes long.
func bitsOf[E any](s []E) []uint64 {
	out := make([]uint64, len(s))
	p := unsafe.Pointer(unsafe.SliceData(s))
	var z E
	for i := range s {
		switch unsafe.Sizeof(z) {
		case 1:
			out[i] = uint64(*(*uint8)(unsafe.Add(p, i)))
		case 2:
			out[i] = uint64(*(*uint16)(unsafe.Add(p, 2*i)))
		case 4:
			out[i] = uint64(*(*uint32)(unsafe.Add(p, 4*i)))
		case 8:
			out[i] = *(*uint64)(unsafe.Add(p, 8*i))
		}
	}
	return out
}

// requireSorted checks that got, the result of sorting in, matches
// slices.Sort: the same element at every position up to cmp.Compare (which
// holds NaNs equal, and -0 equal to +0), and, for floats, the same multiset
// of bit patterns (for other types, equal means identical).
func requireSorted[E cmp.Ordered](t *testing.T, in, got []E, floats bool) {
	t.Helper()
	want := slices.Clone(in)
	slices.Sort(want)
	require.Equal(t, len(want), len(got))
	for i := range want {
		if cmp.Compare(got[i], want[i]) != 0 {
			require.Failf(t, "not sorted as slices.Sort", "index %d of %d: got %v, want %v", i, len(got), got[i], want[i])
		}
	}
	if !floats {
		return
	}
	// Run by run of equal elements, the bit patterns must be those of want.
	gb, wb := bitsOf(got), bitsOf(want)
	for i := 0; i < len(want); {
		j := i + 1
		for j < len(want) && cmp.Compare(want[j], want[i]) == 0 {
			j++
		}
		if j-i > 1 {
			slices.Sort(gb[i:j])
			slices.Sort(wb[i:j])
		}
		if !slices.Equal(gb[i:j], wb[i:j]) {
			require.Failf(t, "bit patterns not preserved", "run [%d, %d) of %v", i, j, want[i])
		}
		i = j
	}
}

type myInt int64
type myFloat float64
type myString string

func testSortType[E cmp.Ordered](t *testing.T, f func(uint64) E, floats bool, tier int) {
	r := rand.New(rand.NewPCG(1, 2))
	optsets := [][]par.Option{nil, {par.WithMinLen(1)}, {par.WithGrain(300)}}
	for _, n := range sortSizes(tier) {
		for _, p := range testPatterns() {
			for oi, opts := range optsets {
				if oi > 0 && n > 20_000 {
					continue
				}
				in := convert(p.gen(n, r), f)
				got := slices.Clone(in)
				par.Sort(got, opts...)
				t.Run(fmt.Sprintf("%s/%d/opts%d", p.name, n, oi), func(t *testing.T) {
					requireSorted(t, in, got, floats)
				})
			}
		}
	}
}

func TestSortInts(t *testing.T) {
	t.Run("int8", func(t *testing.T) { testSortType(t, func(x uint64) int8 { return int8(x) }, false, 0) })
	t.Run("uint8", func(t *testing.T) { testSortType(t, func(x uint64) uint8 { return uint8(x) }, false, 1) })
	t.Run("int16", func(t *testing.T) { testSortType(t, func(x uint64) int16 { return int16(x) }, false, 1) })
	t.Run("uint16", func(t *testing.T) { testSortType(t, func(x uint64) uint16 { return uint16(x) }, false, 0) })
	t.Run("int32", func(t *testing.T) { testSortType(t, func(x uint64) int32 { return int32(x) }, false, 1) })
	t.Run("uint32", func(t *testing.T) { testSortType(t, func(x uint64) uint32 { return uint32(x) }, false, 0) })
	t.Run("int64", func(t *testing.T) { testSortType(t, func(x uint64) int64 { return int64(x) }, false, 0) })
	t.Run("uint64", func(t *testing.T) { testSortType(t, func(x uint64) uint64 { return x }, false, 2) })
	t.Run("int", func(t *testing.T) { testSortType(t, func(x uint64) int { return int(x) }, false, 0) })
	t.Run("uint", func(t *testing.T) { testSortType(t, func(x uint64) uint { return uint(x) }, false, 0) })
	t.Run("uintptr", func(t *testing.T) { testSortType(t, func(x uint64) uintptr { return uintptr(x) }, false, 0) })
	t.Run("myInt", func(t *testing.T) { testSortType(t, func(x uint64) myInt { return myInt(x) }, false, 0) })
	// Signed keys centred on zero, whose top bits all agree but the sign's.
	t.Run("int64small", func(t *testing.T) {
		testSortType(t, func(x uint64) int64 { return int64(x%2001) - 1000 }, false, 1)
	})
}

// Floats are made from the raw values three ways: their bits as they are
// (random bits include NaNs of both signs and every exponent), small
// integers with fractions, and a mix of the special values.
var specials64 = []float64{
	math.NaN(), -math.NaN(), math.Float64frombits(0x7FF0_0000_0000_0001), math.Float64frombits(0xFFF8_0000_0000_0042),
	math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), 1, -1,
	math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64, math.MaxFloat64, -math.MaxFloat64, 0.5, -0.5,
}

func TestSortFloats(t *testing.T) {
	t.Run("float64/bits", func(t *testing.T) { testSortType(t, math.Float64frombits, true, 2) })
	t.Run("float32/bits", func(t *testing.T) {
		testSortType(t, func(x uint64) float32 { return math.Float32frombits(uint32(x)) }, true, 1)
	})
	t.Run("float32/highbits", func(t *testing.T) {
		testSortType(t, func(x uint64) float32 { return math.Float32frombits(uint32(x >> 32)) }, true, 0)
	})
	t.Run("float64/values", func(t *testing.T) {
		testSortType(t, func(x uint64) float64 { return float64(int64(x%2001)-1000) / 8 }, true, 0)
	})
	t.Run("float64/specials", func(t *testing.T) {
		testSortType(t, func(x uint64) float64 { return specials64[x%uint64(len(specials64))] }, true, 1)
	})
	t.Run("float32/specials", func(t *testing.T) {
		testSortType(t, func(x uint64) float32 { return float32(specials64[(x*7)%uint64(len(specials64))]) }, true, 0)
	})
	t.Run("myFloat/specials", func(t *testing.T) {
		testSortType(t, func(x uint64) myFloat { return myFloat(specials64[x%uint64(len(specials64))]) }, true, 0)
	})
}

func TestSortStrings(t *testing.T) {
	t.Run("string", func(t *testing.T) {
		testSortType(t, func(x uint64) string { return strconv.FormatUint(x, 36) }, false, 1)
	})
	t.Run("myString", func(t *testing.T) {
		testSortType(t, func(x uint64) myString { return myString(strconv.FormatUint(x%1000, 10)) }, false, 0)
	})
}

// TestSortOrderedQuick runs the comparison path for numbers too, NaNs
// included.
func TestSortOrderedQuick(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{0, 1, 2, 3, 17, 1000, 20_000} {
		for _, p := range testPatterns() {
			for _, opts := range [][]par.Option{nil, {par.WithMinLen(1)}} {
				if n > 1000 && opts != nil {
					continue
				}
				raw := p.gen(n, r)
				in := convert(raw, func(x uint64) float64 { return specials64[x%uint64(len(specials64))] })
				got := slices.Clone(in)
				par.SortOrderedQuick(got, opts...)
				requireSorted(t, in, got, true)
				ins := convert(raw, func(x uint64) int64 { return int64(x) })
				gots := slices.Clone(ins)
				par.SortOrderedQuick(gots, opts...)
				requireSorted(t, ins, gots, true)
			}
		}
	}
}

// rec is a record sorted by key; seq tells the stable order apart.
type rec struct {
	key uint64
	seq int
}

func cmpRec(a, b rec) int { return cmp.Compare(a.key, b.key) }

func TestSortFunc(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	optsets := [][]par.Option{nil, {par.WithMinLen(1)}, {par.WithGrain(300)}}
	for _, n := range sortSizes(1) {
		for _, p := range testPatterns() {
			for oi, opts := range optsets {
				if oi == 1 && n > 1000 || oi == 2 && n > 20_000 {
					continue
				}
				in := convert(p.gen(n, r), func(x uint64) rec { return rec{key: x % 1000} })
				for i := range in {
					in[i].seq = i
				}
				name := fmt.Sprintf("%s/%d/opts%d", p.name, n, oi)

				// Unstable: sorted by key, and a permutation of the input.
				got := slices.Clone(in)
				par.SortFunc(got, cmpRec, opts...)
				require.True(t, slices.IsSortedFunc(got, cmpRec), name)
				seen := make([]bool, n)
				for _, e := range got {
					if seen[e.seq] || in[e.seq].key != e.key {
						require.Failf(t, "not a permutation", "%s: element %v", name, e)
					}
					seen[e.seq] = true
				}

				// Stable: exactly slices.SortStableFunc.
				want := slices.Clone(in)
				slices.SortStableFunc(want, cmpRec)
				got = slices.Clone(in)
				par.SortStableFunc(got, cmpRec, opts...)
				if !slices.Equal(want, got) {
					require.Equal(t, want, got, name)
				}

				got = slices.Clone(in)
				par.SortFuncMerge(got, cmpRec, opts...)
				if !slices.Equal(want, got) {
					require.Equal(t, want, got, name)
				}
			}
		}
	}
}

func TestSortOnPool(t *testing.T) {
	p := par.NewPool(par.Workers(4))
	defer p.Close()
	r := rand.New(rand.NewPCG(7, 8))
	rounds := 20
	if short() || raceBuild {
		rounds = 3
	}
	for range rounds {
		n := 50_000 + r.IntN(200_000)
		raw := patterns[r.IntN(len(patterns))].gen(n, r)
		in := convert(raw, func(x uint64) int32 { return int32(x) })
		got := slices.Clone(in)
		par.Sort(got, par.OnPool(p))
		requireSorted(t, in, got, true)
		fin := convert(raw, math.Float64frombits)
		fgot := slices.Clone(fin)
		par.Sort(fgot, par.OnPool(p))
		requireSorted(t, fin, fgot, true)
		recs := convert(raw, func(x uint64) rec { return rec{key: x % 100, seq: int(x)} })
		want := slices.Clone(recs)
		slices.SortStableFunc(want, cmpRec)
		par.SortStableFunc(recs, cmpRec, par.OnPool(p))
		require.True(t, slices.Equal(want, recs))
	}
}

// TestSortFuncPanic checks that a panic in cmp reaches the caller with its
// value; SortFunc leaves a permutation of the input behind.
func TestSortFuncPanic(t *testing.T) {
	for _, stable := range []bool{false, true} {
		n := 200_000
		s := make([]int, n)
		for i := range s {
			s[i] = (i * 7919) % n
		}
		var calls atomic.Int64
		bad := func(a, b int) int {
			if calls.Add(1) == 300_000 {
				panic("boom")
			}
			return cmp.Compare(a, b)
		}
		require.PanicsWithValue(t, "boom", func() {
			if stable {
				par.SortStableFunc(s, bad)
			} else {
				par.SortFunc(s, bad)
			}
		})
		if !stable {
			got := slices.Clone(s)
			slices.Sort(got)
			for i := range got {
				require.Equal(t, i, got[i])
			}
		}
		par.SortFunc(s, cmp.Compare[int]) // the pool still works
		require.True(t, slices.IsSorted(s))
	}
}

func TestSortNilCmp(t *testing.T) {
	require.PanicsWithValue(t, "par: SortFunc: cmp is nil", func() { par.SortFunc([]int{1}, nil) })
	require.PanicsWithValue(t, "par: SortStableFunc: cmp is nil", func() { par.SortStableFunc([]int{1}, nil) })
}

// FuzzSort sorts the bytes read as int16 and as float32 (every bit pattern,
// NaNs of both signs and all payloads included) with Sort, on the caller and
// forced parallel, and compares with slices.Sort. When the first byte is a
// multiple of 8, the values are also tiled, with a shift per copy, to a length
// past the radix sort's cache leaf, so that its distribution passes run too
// (not under the race detector, where that is slow and other tests cover it).
func FuzzSort(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add([]byte{0x00, 0x80, 0xFF, 0x7F, 0x00, 0x00, 0xC0, 0x7F, 0x01, 0x00, 0xC0, 0xFF, 0x00, 0x00, 0x80, 0x80})
	f.Add([]byte{8, 0, 0, 0x80, 0x7F, 0x80, 0xFF, 0x00, 0x00, 0x80, 0x3F, 0x00, 0x00, 0x80, 0xBF})
	f.Fuzz(func(t *testing.T, data []byte) {
		ints := make([]int16, len(data)/2)
		for i := range ints {
			ints[i] = int16(binary.LittleEndian.Uint16(data[2*i:]))
		}
		floats := make([]float32, len(data)/4)
		for i := range floats {
			floats[i] = math.Float32frombits(binary.LittleEndian.Uint32(data[4*i:]))
		}
		if !raceBuild && len(data) > 0 && data[0]%8 == 0 && len(ints) > 0 {
			const tiled = 1<<16 + 1000
			ti := make([]int16, tiled)
			for i := range ti {
				ti[i] = ints[i%len(ints)] + int16(i/len(ints))
			}
			ints = ti
			if len(floats) > 0 {
				tf := make([]float32, tiled)
				for i := range tf {
					tf[i] = math.Float32frombits(math.Float32bits(floats[i%len(floats)]) ^ uint32(i/len(floats)))
				}
				floats = tf
			}
		}
		for _, opts := range [][]par.Option{nil, {par.WithMinLen(1)}} {
			got := slices.Clone(ints)
			par.Sort(got, opts...)
			requireSorted(t, ints, got, true)
			gotf := slices.Clone(floats)
			par.Sort(gotf, opts...)
			requireSorted(t, floats, gotf, true)
		}
	})
}
