package pipe_test

import (
	"testing"

	"github.com/weftgo/weft/par"
	"github.com/weftgo/weft/par/pipe"
)

var (
	stageSinkF float64
	stageSinkI int
)

// BenchmarkStages covers what par and pipe share: the block sums and
// products (par.Sum against pipe.Sum over the same floats, at 1,000,000 and
// at W8's small 2,000), the find-first and find-last engine (a match three
// quarters of the way, or a quarter of the way for the find-lasts, so that
// settling has pieces to skip), and the stages with and without positions
// (Map, Filter and Inspect into Count; MapIndex and IndexFunc past a Filter,
// where positions travel as one int per item).
//
//	go test ./par/pipe -run '^$' -bench 'Stages' -benchmem -count 10 -benchtime 0.2s
func BenchmarkStages(b *testing.B) {
	const n = 1_000_000
	xs := make([]int, n)
	fs := make([]float64, n)
	for i := range xs {
		xs[i] = i
		fs[i] = 1 + float64(i%1000)*1e-9
	}
	small := fs[:2000]
	sq := func(x int) int { return x * x % 1_000_003 }
	even := func(x int) bool { return x%2 == 0 }
	late := func(x int) bool { return x == 3*n/4 }
	early := func(x int) bool { return x == n/4 }
	b.Run("op=par.Sum", func(b *testing.B) {
		for b.Loop() {
			stageSinkF = par.Sum(fs)
		}
	})
	b.Run("op=pipe.Sum", func(b *testing.B) {
		for b.Loop() {
			stageSinkF = pipe.Sum(pipe.From(fs))
		}
	})
	b.Run("op=par.Sum/n=2000", func(b *testing.B) {
		for b.Loop() {
			stageSinkF = par.Sum(small)
		}
	})
	b.Run("op=pipe.Sum/n=2000", func(b *testing.B) {
		for b.Loop() {
			stageSinkF = pipe.Sum(pipe.From(small))
		}
	})
	b.Run("op=par.Product", func(b *testing.B) {
		for b.Loop() {
			stageSinkF = par.Product(fs)
		}
	})
	b.Run("op=pipe.Product", func(b *testing.B) {
		for b.Loop() {
			stageSinkF = pipe.Product(pipe.From(fs))
		}
	})
	b.Run("op=pipe.Sum/stages=map", func(b *testing.B) {
		p := pipe.Map(pipe.From(xs), sq)
		for b.Loop() {
			stageSinkI = pipe.Sum(p)
		}
	})
	b.Run("op=par.FindIndex", func(b *testing.B) {
		for b.Loop() {
			stageSinkI = par.FindIndex(xs, late)
		}
	})
	b.Run("op=par.FindLastIndex", func(b *testing.B) {
		for b.Loop() {
			stageSinkI = par.FindLastIndex(xs, early)
		}
	})
	b.Run("op=pipe.Find", func(b *testing.B) {
		for b.Loop() {
			stageSinkI, _ = pipe.From(xs).Find(late)
		}
	})
	b.Run("op=pipe.IndexFunc/stages=filter", func(b *testing.B) {
		p := pipe.From(xs).Filter(even)
		for b.Loop() {
			stageSinkI = p.IndexFunc(late)
		}
	})
	b.Run("op=pipe.LastIndexFunc/stages=filter", func(b *testing.B) {
		p := pipe.From(xs).Filter(even)
		for b.Loop() {
			stageSinkI = p.LastIndexFunc(early)
		}
	})
	b.Run("op=pipe.Count/stages=map,filter,inspect", func(b *testing.B) {
		p := pipe.Map(pipe.From(xs), sq).Filter(even).Inspect(func(int) {})
		for b.Loop() {
			stageSinkI = p.Count()
		}
	})
	b.Run("op=pipe.Sum/stages=filter,mapindex,filter,inspect", func(b *testing.B) {
		p := pipe.MapIndex(pipe.From(xs).Filter(even), func(i, x int) int { return i + x }).Filter(even).Inspect(func(int) {})
		for b.Loop() {
			stageSinkI = pipe.Sum(p)
		}
	})
}
