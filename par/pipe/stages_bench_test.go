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
	pFilter := pipe.From(xs).Filter(even)
	pMap := pipe.Map(pipe.From(xs), sq)
	pStages := pipe.Map(pipe.From(xs), sq).Filter(even).Inspect(func(int) {})
	pIndex := pipe.MapIndex(pipe.From(xs).Filter(even), func(i, x int) int { return i + x }).Filter(even).Inspect(func(int) {})
	for _, c := range []struct {
		name string
		run  func()
	}{
		{"op=par.Sum", func() { stageSinkF = par.Sum(fs) }},
		{"op=pipe.Sum", func() { stageSinkF = pipe.Sum(pipe.From(fs)) }},
		{"op=par.Sum/n=2000", func() { stageSinkF = par.Sum(small) }},
		{"op=pipe.Sum/n=2000", func() { stageSinkF = pipe.Sum(pipe.From(small)) }},
		{"op=par.Product", func() { stageSinkF = par.Product(fs) }},
		{"op=pipe.Product", func() { stageSinkF = pipe.Product(pipe.From(fs)) }},
		{"op=pipe.Sum/stages=map", func() { stageSinkI = pipe.Sum(pMap) }},
		{"op=par.FindIndex", func() { stageSinkI = par.FindIndex(xs, late) }},
		{"op=par.FindLastIndex", func() { stageSinkI = par.FindLastIndex(xs, early) }},
		{"op=pipe.Find", func() { stageSinkI, _ = pipe.From(xs).Find(late) }},
		{"op=pipe.IndexFunc/stages=filter", func() { stageSinkI = pFilter.IndexFunc(late) }},
		{"op=pipe.LastIndexFunc/stages=filter", func() { stageSinkI = pFilter.LastIndexFunc(early) }},
		{"op=pipe.Count/stages=map,filter,inspect", func() { stageSinkI = pStages.Count() }},
		{"op=pipe.Sum/stages=filter,mapindex,filter,inspect", func() { stageSinkI = pipe.Sum(pIndex) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				c.run()
			}
		})
	}
}
