package pipe_test

import (
	"fmt"
	"math"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
	"github.com/weftgo/weft/par/pipe"
)

// stepOf is the oracle of StepBy.
func stepOf(xs []int, k int) []int {
	var out []int
	for i := 0; i < len(xs); i += k {
		out = append(out, xs[i])
	}
	return out
}

func TestTakeSkipStepRevAgainstSlices(t *testing.T) {
	neg := func(x int) int { return -x }
	for _, po := range surfacePools(t) {
		for _, n := range surfaceSizes() {
			t.Run(fmt.Sprintf("%s/n=%d", po.name, n), func(t *testing.T) {
				xs := randInts(n, uint64(n)+21)
				ys := make([]int, n) // the oracle of the Map below
				for i, x := range xs {
					ys[i] = -x
				}
				var calls atomic.Int64
				p := pipe.Map(pipe.From(xs), neg).Inspect(func(int) { calls.Add(1) })
				for _, k := range []int{0, 1, 2, 3, 255, 256, 257, n / 2, n - 1, n, n + 1} {
					if k < 0 {
						continue
					}
					calls.Store(0)
					require.Equal(t, ys[:min(k, n)], p.Take(k).Collect(po.opts...), "Take(%d)", k)
					require.EqualValues(t, min(k, n), calls.Load(), "Take(%d): the stages run only on the items taken", k)
					calls.Store(0)
					require.Equal(t, ys[min(k, n):], p.Skip(k).Collect(po.opts...), "Skip(%d)", k)
					require.EqualValues(t, n-min(k, n), calls.Load(), "Skip(%d): the stages run only on the items kept", k)
					if k >= 1 {
						calls.Store(0)
						require.Equal(t, nilIfEmpty(stepOf(ys, k)), nilIfEmpty(p.StepBy(k).Collect(po.opts...)), "StepBy(%d)", k)
						require.EqualValues(t, len(stepOf(ys, k)), calls.Load(), "StepBy(%d): the stages run only on the items kept", k)
					}
				}
				rev := slices.Clone(ys)
				slices.Reverse(rev)
				require.Equal(t, rev, p.Rev().Collect(po.opts...))
				require.Equal(t, ys, p.Rev().Rev().Collect(po.opts...))
				// A composition, and positions counted in the view.
				comp := p.Rev().Skip(3).StepBy(5).Take(40)
				var want []at
				if n > 3 {
					for j, y := range stepOf(rev[3:], 5) {
						if j < 40 {
							want = append(want, at{j, y})
						}
					}
				}
				require.Equal(t, want, nilIfEmpty(pipe.MapIndex(comp, pair).Collect(po.opts...)))
				// Sum of a skipped pipe, whose runs straddle its source's.
				s := 0
				for _, y := range ys[min(3, n):] {
					s += y
				}
				require.Equal(t, s, pipe.Sum(p.Skip(3), po.opts...))
				require.Equal(t, s, pipe.Sum(p.Skip(3).Filter(func(int) bool { return true }), po.opts...))
			})
		}
	}
}

func TestTakeWhileSkipWhile(t *testing.T) {
	for _, po := range surfacePools(t) {
		for _, n := range surfaceSizes() {
			xs := make([]int, n)
			for i := range xs {
				xs[i] = i
			}
			for _, fail := range slices.Compact([]int{0, min(1, n), n / 2, max(n-1, 0), n}) { // the first position where pred fails; n: nowhere
				t.Run(fmt.Sprintf("%s/n=%d/fail=%d", po.name, n, fail), func(t *testing.T) {
					pred := func(x int) bool { return x < fail || (x > fail && x%3 == 0) } // fails again later: only the first counts
					require.Equal(t, nilIfEmpty(xs[:min(fail, n)]), nilIfEmpty(pipe.From(xs).TakeWhile(pred, po.opts...).Collect(po.opts...)))
					require.Equal(t, nilIfEmpty(xs[min(fail, n):]), nilIfEmpty(pipe.From(xs).SkipWhile(pred, po.opts...).Collect(po.opts...)))
					// Behind a Filter: the cut is at the first kept item that fails.
					odd := func(x int) bool { return x%2 == 1 }
					var take, skip []int
					cut := false
					for _, x := range xs {
						if !odd(x) {
							continue
						}
						cut = cut || !pred(x)
						if cut {
							skip = append(skip, x)
						} else {
							take = append(take, x)
						}
					}
					f := pipe.From(xs).Filter(odd)
					require.Equal(t, take, nilIfEmpty(f.TakeWhile(pred, po.opts...).Collect(po.opts...)))
					sw := f.SkipWhile(pred, po.opts...)
					require.Equal(t, skip, nilIfEmpty(sw.Collect(po.opts...)))
					// Positions after SkipWhile count from where it cut.
					if len(skip) > 0 {
						first := pipe.MapIndex(sw, pair).Collect(po.opts...)[0]
						require.Equal(t, at{0, skip[0]}, first)
					}
					// Behind a FlatMap.
					dup := func(x int, out []int) []int { return append(out, x, x) }
					var dtake []int
					for _, x := range xs {
						if !pred(x) {
							break
						}
						dtake = append(dtake, x, x)
					}
					require.Equal(t, dtake, nilIfEmpty(pipe.FlatMap(pipe.From(xs), dup).TakeWhile(pred, po.opts...).Collect(po.opts...)))
				})
			}
		}
	}
}

// TestTakeWhileSkipWhileCutInsideFlatMap: behind a FlatMap the items made
// from one element share its position, and the cut falls between two of
// them, not before the first: TakeWhile keeps those before the failing one,
// SkipWhile keeps it and those after.
func TestTakeWhileSkipWhileCutInsideFlatMap(t *testing.T) {
	two := func(x int, out []int) []int { return append(out, 2*x, 2*x+1) }
	fm := pipe.FlatMap(pipe.From([]int{0}), two)
	below1 := func(y int) bool { return y < 1 }
	require.Equal(t, []int{0}, fm.TakeWhile(below1).Collect())
	require.Equal(t, []int{1}, fm.SkipWhile(below1).Collect())
	require.Equal(t, []at{{0, 1}}, pipe.MapIndex(fm.SkipWhile(below1), pair).Collect())

	// 0 to 3 items per element, and 300 (past a batch) for some; the cuts
	// below fall inside an element's items.
	fan := func(x int, out []int) []int {
		k := x % 4
		if x%9 == 4 {
			k = 300
		}
		for j := range k {
			out = append(out, 1000*x+j)
		}
		return out
	}
	for _, po := range surfacePools(t) {
		for _, n := range []int{1, 3, 17, 300} {
			xs := make([]int, n)
			for i := range xs {
				xs[i] = i
			}
			var flat []int
			var pos []int
			for i, x := range xs {
				for _, y := range fan(x, nil) {
					flat = append(flat, y)
					pos = append(pos, i)
				}
			}
			for _, cut := range slices.Compact([]int{0, 1, len(flat) / 3, len(flat) / 2, len(flat) - 1, len(flat)}) {
				t.Run(fmt.Sprintf("%s/n=%d/cut=%d", po.name, n, cut), func(t *testing.T) {
					if cut < 0 || cut > len(flat) {
						return
					}
					bound := math.MaxInt
					if cut < len(flat) {
						bound = flat[cut]
					}
					pred := func(y int) bool { return y < bound }
					for _, grain := range [][]par.Option{nil, {par.WithGrain(1)}, {par.WithGrain(3)}} {
						opts := append(slices.Clone(po.opts), grain...)
						p := pipe.FlatMap(pipe.From(xs), fan)
						require.Equal(t, nilIfEmpty(flat[:cut]), nilIfEmpty(p.TakeWhile(pred, opts...).Collect(opts...)), "TakeWhile")
						require.Equal(t, cut, p.TakeWhile(pred, opts...).Count(opts...), "TakeWhile")
						sw := p.SkipWhile(pred, opts...)
						require.Equal(t, nilIfEmpty(flat[cut:]), nilIfEmpty(sw.Collect(opts...)), "SkipWhile")
						var want []at
						for k := cut; k < len(flat); k++ {
							want = append(want, at{pos[k] - pos[min(cut, len(pos)-1)], flat[k]})
						}
						require.Equal(t, want, nilIfEmpty(pipe.MapIndex(sw, pair).Collect(opts...)), "positions after SkipWhile")
					}
				})
			}
		}
	}
}

func TestLimitBadInput(t *testing.T) {
	p := pipe.Range(0, 10)
	f := p.Filter(func(int) bool { return true })
	fm := pipe.FlatMap(p, func(x int, out []int) []int { return append(out, x) })
	const notIndexed = "needs a one-to-one pipe, and a stage that drops or adds items (Filter, FlatMap) is among p's stages"
	for _, q := range []pipe.Pipe[int]{f, fm} {
		require.Equal(t, "pipe: Take: "+notIndexed, panicValue(t, func() { q.Take(1) }))
		require.Equal(t, "pipe: Skip: "+notIndexed, panicValue(t, func() { q.Skip(1) }))
		require.Equal(t, "pipe: StepBy: "+notIndexed, panicValue(t, func() { q.StepBy(2) }))
		require.Equal(t, "pipe: Rev: "+notIndexed, panicValue(t, func() { q.Rev() }))
	}
	require.Equal(t, "pipe: Take: n = -1, want n >= 0", panicValue(t, func() { p.Take(-1) }))
	require.Equal(t, "pipe: Skip: n = -5, want n >= 0", panicValue(t, func() { p.Skip(-5) }))
	require.Equal(t, "pipe: StepBy: k = 0, want k >= 1", panicValue(t, func() { p.StepBy(0) }))
	require.Equal(t, "pipe: StepBy: k = -2, want k >= 1", panicValue(t, func() { p.StepBy(-2) }))
	require.Equal(t, "pipe: TakeWhile: pred is nil", panicValue(t, func() { p.TakeWhile(nil) }))
	require.Equal(t, "pipe: SkipWhile: pred is nil", panicValue(t, func() { p.SkipWhile(nil) }))
	require.Equal(t, "pipe: TakeWhile: opts[0] is a zero Option: build options with OnPool, WithGrain, WithMinLen or WithLabels",
		panicValue(t, func() { p.TakeWhile(func(int) bool { return true }, par.Option{}) }))
	// The largest step does not overflow.
	require.Equal(t, []int{0}, p.StepBy(int(^uint(0)>>1)).Collect())
}

func TestLimitPanics(t *testing.T) {
	const n = 100_000
	boom := func(x int) {
		if x == n-100 {
			panic(fmt.Sprint("limit ", x))
		}
	}
	want := fmt.Sprint("limit ", n-100)
	p := pipe.Map(pipe.Range(0, n), func(x int) int { boom(x); return x })
	for _, po := range surfacePools(t) {
		for name, call := range map[string]func(){
			"TakeWhile":    func() { pipe.Range(0, n).TakeWhile(func(x int) bool { boom(x); return true }, po.opts...) },
			"SkipWhile":    func() { pipe.Range(0, n).SkipWhile(func(x int) bool { boom(x); return true }, po.opts...) },
			"Rev":          func() { p.Rev().Collect(po.opts...) },
			"Skip":         func() { pipe.Sum(p.Skip(7), po.opts...) },
			"StepBy":       func() { p.StepBy(4).Collect(po.opts...) },
			"Take/ForEach": func() { p.Take(n).ForEach(func(int) {}, po.opts...) },
		} {
			require.Equal(t, want, panicValue(t, call), "%s/%s", po.name, name)
		}
		requireUsable(t, po.opts)
	}
}

func TestLimitNested(t *testing.T) {
	xs := randInts(40_000, 12)
	want := pipe.Sum(pipe.From(xs).Rev().Skip(100).StepBy(3).Take(5000))
	for _, po := range surfacePools(t) {
		got := make([]int, 6)
		par.For(len(got), func(k int) {
			q := pipe.From(xs).TakeWhile(func(int) bool { return true }, po.opts...)
			got[k] = pipe.Sum(q.Rev().Skip(100).StepBy(3).Take(5000), po.opts...)
		}, po.opts...)
		require.Equal(t, slices.Repeat([]int{want}, len(got)), got, po.name)
	}
}

// TestSkipSumAgreesWithPar: a Skip that cuts the source's runs still hands
// over each of its runs as one batch, so a float Sum after it equals par.Sum
// of the same elements bit for bit.
func TestSkipSumAgreesWithPar(t *testing.T) {
	fs := randFloats(300_001, 21)
	for _, cut := range []int{0, 1, 3, 127, 129, 256, 1000} {
		want := par.Sum(fs[cut:])
		for _, po := range surfacePools(t) {
			got := pipe.Sum(pipe.From(fs).Skip(cut), po.opts...)
			require.Equal(t, math.Float64bits(want), math.Float64bits(got), "Skip(%d) on %s", cut, po.name)
		}
	}
}
