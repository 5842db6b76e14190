package par_test

import (
	"encoding/binary"
	"hash/crc32"
	"slices"
	"sync"
	"testing"

	"github.com/weftgo/weft/par"
)

// Benchmarks of the per-worker state of MapInit, and of FindAny against
// FindIndex. Compare the impls of one benchmark with benchstat:
//
//	go test ./par -run '^$' -bench 'ScratchMap|FindAnyVsFirst|Product' -benchmem -count 6 > new.txt
//	go run golang.org/x/perf/cmd/benchstat@latest -col /impl new.txt

var (
	scratchSink []uint32
	findSink    int
	productSink float64
)

// scratchLen is the scratch space the body of BenchmarkScratchMap needs.
const scratchLen = 4096

// scratchWork fills buf with a stream drawn from x and returns its checksum:
// an element's work that needs 4 KiB of scratch space. It is a function value,
// as a body handed to a library is, so that a buffer allocated per element
// escapes to the heap as it does in real code.
var scratchWork = func(buf *[scratchLen]byte, x uint64) uint32 {
	s := x | 1
	for i := 0; i < scratchLen; i += 8 {
		s ^= s << 13
		s ^= s >> 7
		s ^= s << 17
		binary.LittleEndian.PutUint64(buf[i:], s)
	}
	return crc32.ChecksumIEEE(buf[:])
}

// BenchmarkScratchMap maps 4096 elements with a body that needs a 4 KiB
// scratch buffer: the plain loop with one buffer, MapInit with a buffer per
// worker, Map taking the buffer from a sync.Pool inside the body, and Map
// allocating a buffer per element.
func BenchmarkScratchMap(b *testing.B) {
	in := make([]uint64, 4096)
	for i := range in {
		in[i] = uint64(i) * 0x9E3779B97F4A7C15
	}
	newBuf := func() *[scratchLen]byte { return new([scratchLen]byte) }
	b.Run("impl=loop", func(b *testing.B) {
		for b.Loop() {
			buf := newBuf()
			out := make([]uint32, len(in))
			for i, x := range in {
				out[i] = scratchWork(buf, x)
			}
			scratchSink = out
		}
	})
	b.Run("impl=MapInit", func(b *testing.B) {
		for b.Loop() {
			scratchSink = par.MapInit(in, newBuf, scratchWork)
		}
	})
	b.Run("impl=syncPool", func(b *testing.B) {
		pool := sync.Pool{New: func() any { return newBuf() }}
		for b.Loop() {
			scratchSink = par.Map(in, func(x uint64) uint32 {
				buf := pool.Get().(*[scratchLen]byte)
				defer pool.Put(buf)
				return scratchWork(buf, x)
			})
		}
	})
	b.Run("impl=alloc", func(b *testing.B) {
		for b.Loop() {
			scratchSink = par.Map(in, func(x uint64) uint32 { return scratchWork(newBuf(), x) })
		}
	})
}

// BenchmarkFindAnyVsFirst searches 4M ints whose matches are many but all in
// the second half, so that the first in order is late: FindIndex must search
// the whole first half, while FindAny stops at whichever match a worker sees
// first. "dense" has every element of the second half match, "sparse" one in
// 4096 of them; "none" has no match, where both search everything.
func BenchmarkFindAnyVsFirst(b *testing.B) {
	const n = 1 << 22
	layouts := map[string]func(i int) bool{
		"dense":  func(i int) bool { return i >= n/2 },
		"sparse": func(i int) bool { return i >= n/2 && i%4096 == 4095 },
		"none":   func(int) bool { return false },
	}
	for _, name := range []string{"dense", "sparse", "none"} {
		in := make([]int, n)
		for i := range in {
			in[i] = i
			if layouts[name](i) {
				in[i] = -i
			}
		}
		isNeg := func(x int) bool { return x < 0 }
		b.Run("matches="+name+"/impl=FindIndex", func(b *testing.B) {
			for b.Loop() {
				findSink = par.FindIndex(in, isNeg)
			}
		})
		b.Run("matches="+name+"/impl=FindAnyIndex", func(b *testing.B) {
			for b.Loop() {
				findSink = par.FindAnyIndex(in, isNeg)
			}
		})
	}
}

// BenchmarkProduct compares Product with Sum over 1M float64: they walk the
// same tree.
func BenchmarkProduct(b *testing.B) {
	in := nearOne(newRand(9), 1<<20)
	b.Run("impl=Sum", func(b *testing.B) {
		for b.Loop() {
			productSink = par.Sum(in)
		}
	})
	b.Run("impl=Product", func(b *testing.B) {
		for b.Loop() {
			productSink = par.Product(in)
		}
	})
}

var seq2Sink int

// BenchmarkSeq2Cost is what carrying a pair costs: MapSeq2 over
// slices.All(xs) against MapSeq over slices.Values(xs), with a function as
// cheap as x*2 (so that the passes mostly work alone on the caller) and the
// plain range loop over slices.All.
func BenchmarkSeq2Cost(b *testing.B) {
	xs := make([]int, 1000)
	for i := range xs {
		xs[i] = i
	}
	b.Run("impl=loop", func(b *testing.B) {
		for b.Loop() {
			s := 0
			for i, x := range slices.All(xs) {
				s += i + 2*x
			}
			seq2Sink = s
		}
	})
	b.Run("impl=MapSeq", func(b *testing.B) {
		for b.Loop() {
			s := 0
			for y := range par.MapSeq(slices.Values(xs), func(x int) int { return 2 * x }) {
				s += y
			}
			seq2Sink = s
		}
	})
	b.Run("impl=MapSeq2", func(b *testing.B) {
		for b.Loop() {
			s := 0
			for y := range par.MapSeq2(slices.All(xs), func(i, x int) int { return i + 2*x }) {
				s += y
			}
			seq2Sink = s
		}
	})
}
