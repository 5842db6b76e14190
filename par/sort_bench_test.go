package par_test

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/weftgo/weft/par"
)

// w6 returns the W6 input: n uint64 from xorshift64* (docs/DESIGN.md).
func w6(n int) []uint64 {
	s := make([]uint64, n)
	x := uint64(0x9E3779B97F4A7C15)
	for i := range s {
		x ^= x >> 12
		x ^= x << 25
		x ^= x >> 27
		s[i] = x * 0x2545F4914F6CDD1D
	}
	return s
}

// checksum is the sum of (i+1)*s[i], which changes with any misplaced
// element.
func checksum(s []uint64) uint64 {
	var h uint64
	for i, x := range s {
		h += uint64(i+1) * x
	}
	return h
}

var (
	refMu sync.Mutex
	refNs = map[string]float64{}
)

// reference returns the time of one call of f, the median of three, measured
// once per process and name: the sequential baseline of a speedup metric.
func reference(name string, f func()) float64 {
	refMu.Lock()
	defer refMu.Unlock()
	if t, ok := refNs[name]; ok {
		return t
	}
	var ts []float64
	for range 3 {
		t0 := time.Now()
		f()
		ts = append(ts, float64(time.Since(t0).Nanoseconds()))
	}
	slices.Sort(ts)
	refNs[name] = ts[1]
	return ts[1]
}

// benchSort times sort on fresh copies of in; the copy is outside the timer
// for large inputs. If seq is not nil, it reports the speedup over seq.
func benchSort[E any](b *testing.B, in []E, sort func([]E), seq func([]E), refName string) {
	s := make([]E, len(in))
	large := len(in) >= 100_000
	var ref float64
	if seq != nil {
		ref = reference(refName, func() {
			copy(s, in)
			seq(s)
		})
	}
	b.ReportAllocs()
	for b.Loop() {
		if large {
			b.StopTimer()
			copy(s, in)
			b.StartTimer()
		} else {
			copy(s, in)
		}
		sort(s)
	}
	if seq != nil {
		b.ReportMetric(ref/(float64(b.Elapsed().Nanoseconds())/float64(b.N)), "speedup")
	}
}

// benchSortOrdered runs the sub-benchmarks slices (slices.Sort, the
// sequential baseline) and par (par.Sort, with its speedup over slices.Sort
// measured as the reference refName) on in.
func benchSortOrdered[E cmp.Ordered](b *testing.B, in []E, refName string) {
	seq := func(s []E) { slices.Sort(s) }
	b.Run("slices", func(b *testing.B) { benchSort(b, in, seq, nil, "") })
	b.Run("par", func(b *testing.B) { benchSort(b, in, func(s []E) { par.Sort(s) }, seq, refName) })
}

// BenchmarkSortW6 is workload W6: 10 million xorshift64* uint64. slices is
// the sequential baseline; par is Sort (radix); quick is the parallel
// comparison path (the one strings take); func is SortFunc with cmp.Compare
// against slices.SortFunc.
func BenchmarkSortW6(b *testing.B) {
	in := w6(10_000_000)
	want := slices.Clone(in)
	slices.Sort(want)
	got := slices.Clone(in)
	par.Sort(got)
	if !slices.Equal(got, want) {
		b.Fatal("par.Sort differs from slices.Sort")
	}
	b.Logf("W6 checksum %d", checksum(want))
	benchSortOrdered(b, in, "w6")
	seq := func(s []uint64) { slices.Sort(s) }
	b.Run("quick", func(b *testing.B) {
		benchSort(b, in, func(s []uint64) { par.SortOrderedQuick(s) }, seq, "w6")
	})
	seqf := func(s []uint64) { slices.SortFunc(s, cmp.Compare[uint64]) }
	b.Run("slicesFunc", func(b *testing.B) { benchSort(b, in, seqf, nil, "") })
	b.Run("func", func(b *testing.B) {
		benchSort(b, in, func(s []uint64) { par.SortFunc(s, cmp.Compare[uint64]) }, seqf, "w6func")
	})
}

func BenchmarkSortFloat64(b *testing.B) {
	u := w6(10_000_000)
	in := make([]float64, len(u))
	for i, x := range u {
		in[i] = float64(int64(x)) / (1 << 20)
	}
	benchSortOrdered(b, in, "f64")
}

func BenchmarkSortInt32(b *testing.B) {
	u := w6(10_000_000)
	in := make([]int32, len(u))
	for i, x := range u {
		in[i] = int32(x >> 32)
	}
	benchSortOrdered(b, in, "i32")
}

func BenchmarkSortString(b *testing.B) {
	u := w6(1_000_000)
	in := make([]string, len(u))
	for i, x := range u {
		in[i] = strconv.FormatUint(x, 36)
	}
	benchSortOrdered(b, in, "str")
}

// item is a struct with a key and some payload, as records to sort are.
type item struct {
	key uint64
	_   string // payload, never compared: a record of 32 bytes
	val float64
}

func cmpItem(a, b item) int { return cmp.Compare(a.key, b.key) }

func items(n int, mod uint64) []item {
	u := w6(n)
	in := make([]item, n)
	for i, x := range u {
		in[i] = item{key: x % mod, val: float64(i)}
	}
	return in
}

func BenchmarkSortFunc(b *testing.B) {
	in := items(1_000_000, math.MaxUint64)
	seq := func(s []item) { slices.SortFunc(s, cmpItem) }
	b.Run("slices", func(b *testing.B) { benchSort(b, in, seq, nil, "") })
	b.Run("par", func(b *testing.B) { benchSort(b, in, func(s []item) { par.SortFunc(s, cmpItem) }, seq, "func") })
	b.Run("merge", func(b *testing.B) {
		benchSort(b, in, func(s []item) { par.SortFuncMerge(s, cmpItem) }, seq, "func")
	})
}

func BenchmarkSortStableFunc(b *testing.B) {
	in := items(1_000_000, 1000) // many equal keys, so stability matters
	seq := func(s []item) { slices.SortStableFunc(s, cmpItem) }
	b.Run("slices", func(b *testing.B) { benchSort(b, in, seq, nil, "") })
	b.Run("par", func(b *testing.B) {
		benchSort(b, in, func(s []item) { par.SortStableFunc(s, cmpItem) }, seq, "stable")
	})
}

// BenchmarkSortSmall shows the cost of the calls on inputs that they sort
// sequentially.
func BenchmarkSortSmall(b *testing.B) {
	for _, n := range []int{100, 1000} {
		u := w6(n)
		strs := make([]string, n)
		for i, x := range u {
			strs[i] = strconv.FormatUint(x, 36)
		}
		its := items(n, 1000)
		b.Run(fmt.Sprintf("uint64/%d/slices", n), func(b *testing.B) { benchSort(b, u, slices.Sort, nil, "") })
		b.Run(fmt.Sprintf("uint64/%d/par", n), func(b *testing.B) {
			benchSort(b, u, func(s []uint64) { par.Sort(s) }, nil, "")
		})
		b.Run(fmt.Sprintf("string/%d/slices", n), func(b *testing.B) { benchSort(b, strs, slices.Sort, nil, "") })
		b.Run(fmt.Sprintf("string/%d/par", n), func(b *testing.B) {
			benchSort(b, strs, func(s []string) { par.Sort(s) }, nil, "")
		})
		b.Run(fmt.Sprintf("func/%d/slices", n), func(b *testing.B) {
			benchSort(b, its, func(s []item) { slices.SortFunc(s, cmpItem) }, nil, "")
		})
		b.Run(fmt.Sprintf("func/%d/par", n), func(b *testing.B) {
			benchSort(b, its, func(s []item) { par.SortFunc(s, cmpItem) }, nil, "")
		})
		b.Run(fmt.Sprintf("stable/%d/slices", n), func(b *testing.B) {
			benchSort(b, its, func(s []item) { slices.SortStableFunc(s, cmpItem) }, nil, "")
		})
		b.Run(fmt.Sprintf("stable/%d/par", n), func(b *testing.B) {
			benchSort(b, its, func(s []item) { par.SortStableFunc(s, cmpItem) }, nil, "")
		})
	}
}

// BenchmarkSortCrossover runs the parallel algorithms on lengths around their
// sequential thresholds (WithMinLen(1) forces them), to place the thresholds.
func BenchmarkSortCrossover(b *testing.B) {
	force := par.WithMinLen(1)
	for _, n := range []int{256, 512, 1024, 2048, 4096, 8192, 16384, 32768} {
		u := w6(n)
		strs := make([]string, n)
		for i, x := range u {
			strs[i] = strconv.FormatUint(x, 36)
		}
		its := items(n, 1000)
		b.Run(fmt.Sprintf("uint64/%d/slices", n), func(b *testing.B) { benchSort(b, u, slices.Sort, nil, "") })
		b.Run(fmt.Sprintf("uint64/%d/radix", n), func(b *testing.B) {
			benchSort(b, u, func(s []uint64) { par.Sort(s, force) }, nil, "")
		})
		b.Run(fmt.Sprintf("string/%d/slices", n), func(b *testing.B) { benchSort(b, strs, slices.Sort, nil, "") })
		b.Run(fmt.Sprintf("string/%d/quick", n), func(b *testing.B) {
			benchSort(b, strs, func(s []string) { par.Sort(s, par.WithMinLen(n/4)) }, nil, "")
		})
		b.Run(fmt.Sprintf("func/%d/slices", n), func(b *testing.B) {
			benchSort(b, its, func(s []item) { slices.SortFunc(s, cmpItem) }, nil, "")
		})
		b.Run(fmt.Sprintf("func/%d/quick", n), func(b *testing.B) {
			benchSort(b, its, func(s []item) { par.SortFunc(s, cmpItem, par.WithMinLen(n/4)) }, nil, "")
		})
		b.Run(fmt.Sprintf("stable/%d/slices", n), func(b *testing.B) {
			benchSort(b, its, func(s []item) { slices.SortStableFunc(s, cmpItem) }, nil, "")
		})
		b.Run(fmt.Sprintf("stable/%d/merge", n), func(b *testing.B) {
			benchSort(b, its, func(s []item) { par.SortStableFunc(s, cmpItem, par.WithMinLen(n/4)) }, nil, "")
		})
	}
}
