package par_test

import (
	"math"
	"runtime"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
)

// Memory of the passes over a sequence: bounded however long the sequence is,
// with batches that grow as they fill instead of being allocated at the
// length a grain or a minimum length asks for.

// TestSeqBoundedMemory runs 100 million elements through MapSeq, FilterSeq and
// SumSeq and checks that the live heap and the total allocated stay far below
// what holding the sequence would take (800 MB).
func TestSeqBoundedMemory(t *testing.T) {
	if short() || seqRace {
		t.Skip("100 million elements: WEFT_THOROUGH=1 runs it")
	}
	const n = 100_000_000
	const limit = 64 << 20
	// The sums of [0, n) in int arithmetic, which wraps on 32-bit platforms.
	u := uint64(n)
	sum, sum2 := int(u*(u-1)/2), int(u*(u-1))
	var peak uint64
	var ms runtime.MemStats
	gen := func(yield func(int) bool) {
		for i := range n {
			if i&(1<<21-1) == 0 {
				runtime.ReadMemStats(&ms)
				peak = max(peak, ms.HeapInuse)
			}
			if !yield(i) {
				return
			}
		}
	}
	check := func(name string, pass func()) {
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		peak = 0
		pass()
		runtime.ReadMemStats(&after)
		t.Logf("%s: heap in use peak %.1f MiB (%.1f before), allocated %.1f MiB", name,
			float64(peak)/(1<<20), float64(before.HeapInuse)/(1<<20), float64(after.TotalAlloc-before.TotalAlloc)/(1<<20))
		assert.Less(t, peak-min(peak, before.HeapInuse), uint64(limit), name+": live heap")
		assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(limit), name+": allocated")
	}
	check("MapSeq", func() {
		s := 0
		for y := range par.MapSeq(gen, func(x int) int { return 2 * x }) {
			s += y
		}
		require.Equal(t, sum2, s)
	})
	check("FilterSeq", func() {
		c := 0
		for range par.FilterSeq(gen, func(x int) bool { return x%3 == 0 }) {
			c++
		}
		require.Equal(t, (n+2)/3, c)
	})
	check("SumSeq", func() { require.Equal(t, sum, par.SumSeq(gen)) })
}

func TestSeqGrainLongerThanBatchCap(t *testing.T) {
	// A grain beyond what a batch holds by default (16384 ints with their
	// results): the batch buffer grows as it fills.
	p := seqPool(t, 2)
	xs := seqInts(seqRand(24), 250_000)
	for _, grain := range []int{40_000, 1_000_000} {
		got := slices.Collect(par.MapSeq(slices.Values(xs), func(x int) int { return x ^ 5 }, par.OnPool(p), par.WithGrain(grain)))
		require.Len(t, got, len(xs))
		bad := 0
		for i, x := range xs {
			if got[i] != x^5 {
				bad++
			}
		}
		require.Zero(t, bad, "grain %d", grain)
		want := 0
		for _, x := range xs {
			want += x
		}
		require.Equal(t, want, par.SumSeq(slices.Values(xs), par.OnPool(p), par.WithGrain(grain)))
		require.Equal(t, want, par.ReduceSeq(slices.Values(xs), 0, func(a, b int) int { return a + b }, par.OnPool(p), par.WithMinLen(grain)))
	}
}

// TestSeqHugeMinLen: a batch longer than the memory cap, by WithMinLen or
// WithGrain up to math.MaxInt, grows as it fills instead of being allocated
// at once, and every pass over a sequence still gives the loop's result.
// Once caught (by FuzzOptions): WithMinLen(math.MaxInt) panicked with "makeslice: len out of range".
func TestSeqHugeMinLen(t *testing.T) {
	xs := indices(1000)
	want := make([]int, len(xs))
	for i, x := range xs {
		want[i] = 2 * x
	}
	for _, opts := range [][]par.Option{
		{par.WithMinLen(math.MaxInt)},
		{par.WithMinLen(1 << 30)},
		{par.WithMinLen(math.MaxInt), par.WithGrain(math.MaxInt)},
		{par.WithGrain(math.MaxInt), par.WithMinLen(math.MaxInt)},
	} {
		var got []int
		for y := range par.MapSeq(slices.Values(xs), func(x int) int { return 2 * x }, opts...) {
			got = append(got, y)
		}
		require.Equal(t, want, got, "MapSeq")
		got = got[:0]
		for y := range par.FilterSeq(slices.Values(xs), func(x int) bool { return x%2 == 0 }, opts...) {
			got = append(got, y)
		}
		require.Len(t, got, len(xs)/2, "FilterSeq")
		require.Equal(t, len(xs)*(len(xs)-1)/2, par.ReduceSeq(slices.Values(xs), 0, func(a, b int) int { return a + b }, opts...), "ReduceSeq")
		require.Equal(t, len(xs)*(len(xs)-1)/2, par.SumSeq(slices.Values(xs), opts...), "SumSeq")
		var n atomic.Int64
		par.ForEachSeq(slices.Values(xs), func(int) { n.Add(1) }, opts...)
		require.Equal(t, int64(len(xs)), n.Load(), "ForEachSeq")
	}
}

// TestSeqShortPassMemory checks that a pass that stays on the caller, as one
// over a few elements does, allocates a few hundred bytes: its state alone,
// without what the pool's stints need (the ring of pieces, the counters the
// workers share, each on a cache line of its own), which the pass allocates
// only when it first tries the pool. The median over passes of the bytes
// allocated, so that a pass that a stall sent to the pool does not count.
func TestSeqShortPassMemory(t *testing.T) {
	// Bytes a pass, the test's own closures included: 168-352 (MapSeq2);
	// 488-568 for MapSeq, FilterSeq and MapSeq2 when a pass and MapSeq's
	// result each held a copy of the options (72 bytes) and the body the
	// function values that its state holds; 930-1,560 when a pass
	// allocated the pool's state at its start.
	const most = 384
	xs := indices(10)
	seq := func(yield func(int) bool) {
		for _, x := range xs {
			if !yield(x) {
				return
			}
		}
	}
	add := func(a, b int) int { return a + b }
	s := 0
	for _, c := range []struct {
		name string
		pass func()
	}{
		{"MapSeq", func() {
			for y := range par.MapSeq(seq, func(x int) int { return x + 1 }) {
				s += y
			}
		}},
		{"FilterSeq", func() {
			for y := range par.FilterSeq(seq, func(x int) bool { return x&1 == 0 }) {
				s += y
			}
		}},
		{"ForEachSeq", func() { par.ForEachSeq(seq, func(x int) { s += x }) }},
		{"ReduceSeq", func() { s += par.ReduceSeq(seq, 0, add) }},
		{"SumSeq", func() { s += par.SumSeq(seq) }},
		{"SumSeq float64", func() {
			s += int(par.SumSeq(func(yield func(float64) bool) {
				for _, x := range xs {
					if !yield(float64(x)) {
						return
					}
				}
			}))
		}},
		{"MapSeq2", func() {
			for y := range par.MapSeq2(slices.All(xs), func(i, x int) int { return i + x }) {
				s += y
			}
		}},
		{"ForEachSeq2", func() { par.ForEachSeq2(slices.All(xs), func(i, x int) { s += i + x }) }},
	} {
		bytes := make([]uint64, 51)
		var before, after runtime.MemStats
		for i := range bytes {
			runtime.ReadMemStats(&before)
			c.pass()
			runtime.ReadMemStats(&after)
			bytes[i] = after.TotalAlloc - before.TotalAlloc
		}
		slices.Sort(bytes)
		assert.LessOrEqual(t, bytes[len(bytes)/2], uint64(most), "%s: bytes allocated by a pass over 10 elements", c.name)
	}
}
