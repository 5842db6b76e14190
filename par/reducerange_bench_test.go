package par_test

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/weftgo/weft/par"
)

// keyCount is a count per key: the map a leaf makes when it aggregates by
// key (the 1BRC's stations).
type keyCount map[uint32]int

// countKeys is a leaf that counts the keys of [lo, hi) in a map of its own:
// a few hundred keys, as the 1BRC's 413 stations. climb makes element i cost
// about i/n times a uniform element's 64 more, W3's shape.
func countKeys(n int, climb bool) func(lo, hi int) keyCount {
	return func(lo, hi int) keyCount {
		m := make(keyCount, 512)
		for i := lo; i < hi; i++ {
			x := uint64(i) * 0x9E3779B97F4A7C15
			if climb {
				for range int(int64(i) * 64 / int64(n)) {
					x = x*31 + 7
				}
			}
			m[uint32(x>>32)%413]++
		}
		return m
	}
}

// mergeCounts adds right's counts into left.
func mergeCounts(left, right keyCount) keyCount {
	if len(left) < len(right) {
		left, right = right, left
	}
	for k, v := range right {
		left[k] += v
	}
	return left
}

var keySink int

// BenchmarkReduceRangeMapLeaf is ReduceRange whose leaf makes a map, over
// 4M elements, beside the loop (one leaf over the whole range) and the
// program written by hand: a goroutine per processor over an equal part
// each, merged. The leaf's calls (leaves/op) are what the engine bounds.
func BenchmarkReduceRangeMapLeaf(b *testing.B) {
	const n = 1 << 22
	for _, climb := range []bool{false, true} {
		leaf := countKeys(n, climb)
		name := fmt.Sprintf("climb=%v", climb)
		b.Run(name+"/impl=loop", func(b *testing.B) {
			for b.Loop() {
				keySink = len(leaf(0, n))
			}
		})
		b.Run(name+"/impl=goroutines", func(b *testing.B) {
			p := runtime.GOMAXPROCS(0)
			parts := make([]keyCount, p)
			for b.Loop() {
				var wg sync.WaitGroup
				for k := range p {
					wg.Add(1)
					go func() {
						defer wg.Done()
						parts[k] = leaf(k*n/p, (k+1)*n/p)
					}()
				}
				wg.Wait()
				m := parts[0]
				for _, q := range parts[1:] {
					m = mergeCounts(m, q)
				}
				keySink = len(m)
			}
		})
		b.Run(name+"/impl=ReduceRange", func(b *testing.B) {
			var calls atomic.Int64
			for b.Loop() {
				keySink = len(par.ReduceRange(n, nil, func(lo, hi int) keyCount {
					calls.Add(1)
					return leaf(lo, hi)
				}, mergeCounts))
			}
			b.ReportMetric(float64(calls.Load())/float64(b.N), "leaves/op")
		})
	}
}
