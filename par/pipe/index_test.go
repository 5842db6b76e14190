package pipe_test

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
	"github.com/weftgo/weft/par/pipe"
)

func pair(i, x int) at { return at{i, x} }

// TestPositionsAgainstLoop: MapIndex, FilterIndex and ForEachIndex see every
// item's position in the source, through Filter, Map, Inspect and FlatMap.
func TestPositionsAgainstLoop(t *testing.T) {
	even := func(x int) bool { return x%2 == 0 }
	twice := func(x int) int { return 2 * x }
	fanout := func(x int, out []int) []int { // 0 to 2 items per x
		for k := range (x%3 + 3) % 3 {
			out = append(out, x*10+k)
		}
		return out
	}
	for _, po := range surfacePools(t) {
		for _, n := range surfaceSizes() {
			t.Run(fmt.Sprintf("%s/n=%d", po.name, n), func(t *testing.T) {
				xs := randInts(n, uint64(n)+1)
				var all, kept, keptIdx, flat []at
				for i, x := range xs {
					all = append(all, at{i, x})
					if even(x) {
						kept = append(kept, at{i, 2 * x})
					}
					if i%3 == 0 && x > 0 {
						keptIdx = append(keptIdx, at{i, x})
					}
					for _, y := range fanout(x, nil) {
						flat = append(flat, at{i, y})
					}
				}
				src := pipe.From(xs)
				require.Equal(t, all, nilIfEmpty(pipe.MapIndex(src, pair).Collect(po.opts...)))
				filtered := pipe.Map(src.Filter(even).Inspect(func(int) {}), twice)
				require.Equal(t, kept, nilIfEmpty(pipe.MapIndex(filtered, pair).Collect(po.opts...)))
				byIdx := src.FilterIndex(func(i, x int) bool { return i%3 == 0 && x > 0 })
				require.Equal(t, keptIdx, nilIfEmpty(pipe.MapIndex(byIdx, pair).Collect(po.opts...)))
				require.Equal(t, len(keptIdx), byIdx.Count(po.opts...))
				require.Equal(t, flat, nilIfEmpty(pipe.MapIndex(pipe.FlatMap(src, fanout), pair).Collect(po.opts...)))
				// MapIndex after a MapIndex on a filtered pipe keeps positions too.
				twoStep := pipe.MapIndex(pipe.MapIndex(src.Filter(even), func(i, x int) int { return x - i }), func(i, y int) at { return at{i, y + i} })
				var wantTwo []at
				for _, a := range kept {
					wantTwo = append(wantTwo, at{a.i, a.x / 2})
				}
				require.Equal(t, wantTwo, nilIfEmpty(twoStep.Collect(po.opts...)))

				// ForEachIndex writes each kept item at its position.
				got := make([]int, n)
				var calls atomic.Int64
				src.Filter(even).ForEachIndex(func(i, x int) {
					got[i] = x + 1
					calls.Add(1)
				}, po.opts...)
				require.EqualValues(t, len(kept), calls.Load())
				for i, x := range xs {
					if even(x) {
						require.Equal(t, x+1, got[i], "position %d", i)
					} else {
						require.Zero(t, got[i], "position %d", i)
					}
				}
			})
		}
	}
}

func nilIfEmpty[T any](s []T) []T {
	if len(s) == 0 {
		return nil
	}
	return s
}

// TestFindPositions: IndexFunc, LastIndexFunc and FindLast against a loop,
// with the matches at the front, the middle, the end and nowhere, on a
// one-to-one pipe and behind a Filter.
func TestFindPositions(t *testing.T) {
	for _, po := range surfacePools(t) {
		for _, n := range surfaceSizes() {
			xs := make([]int, n)
			for i := range xs {
				xs[i] = i
			}
			for _, where := range []string{"front", "middle", "end", "nowhere", "many", "sparse"} {
				t.Run(fmt.Sprintf("%s/n=%d/%s", po.name, n, where), func(t *testing.T) {
					var match func(x int) bool
					switch where {
					case "front":
						match = func(x int) bool { return x == 0 || x == 2 }
					case "middle":
						match = func(x int) bool { return x == n/2 }
					case "end":
						match = func(x int) bool { return x >= n-3 }
					case "nowhere":
						match = func(int) bool { return false }
					case "many":
						match = func(x int) bool { return x%7 == 3 }
					case "sparse": // far apart: several pieces find one each
						match = func(x int) bool { return x == n/4 || x == n/2 || x == 3*n/4 || x == n-1 }
					}
					odd := func(x int) bool { return x%2 == 1 }
					for _, filtered := range []bool{false, true} {
						p := pipe.From(xs)
						first, last := -1, -1
						for i, x := range xs {
							if filtered && !odd(x) {
								continue
							}
							if match(x) {
								if first < 0 {
									first = i
								}
								last = i
							}
						}
						if filtered {
							p = p.Filter(odd)
						}
						require.Equal(t, first, p.IndexFunc(match, po.opts...), "filtered=%v", filtered)
						require.Equal(t, last, p.LastIndexFunc(match, po.opts...), "filtered=%v", filtered)
						x, ok := p.FindLast(match, po.opts...)
						require.Equal(t, last >= 0, ok)
						if ok {
							require.Equal(t, xs[last], x)
						}
					}
				})
			}
		}
	}
}

// TestFindLastStopsEarly: a match at the end settles the call, and most of
// the range before it is never produced.
func TestFindLastStopsEarly(t *testing.T) {
	const n = 1_000_000
	var calls atomic.Int64
	p := pipe.Range(0, n).Inspect(func(int) { calls.Add(1) })
	for _, po := range surfacePools(t) {
		calls.Store(0)
		x, ok := p.FindLast(func(x int) bool { return x >= n-5 || x == 3 }, po.opts...)
		require.True(t, ok)
		require.Equal(t, n-1, x)
		// The timed prefix runs from the end, alone, and meets the match in
		// its first batch, before any piece is forked; the pieces then skip
		// their batches: far less than the range.
		require.Less(t, calls.Load(), int64(n/2), po.name)
	}
}

// textPieces is the oracle of the text sources (here and in the model): the
// pieces of Split, Lines or Fields, each as the byte it starts at (i) and the
// byte after it (x).
func textPieces(s string, source string) []at {
	var out []at
	add := func(start, end int) { out = append(out, at{start, end}) }
	switch source {
	case "Split":
		start := 0
		for i := 0; i < len(s); i++ {
			if s[i] == ',' {
				add(start, i)
				start = i + 1
			}
		}
		add(start, len(s))
	case "Lines":
		for start := 0; start < len(s); {
			end := strings.IndexByte(s[start:], '\n')
			if end < 0 {
				add(start, len(s))
				break
			}
			add(start, start+end)
			start += end + 1
		}
	case "Fields":
		for i := 0; i < len(s); {
			for i < len(s) && isASCIISpace(rune(s[i])) {
				i++
			}
			start := i
			for i < len(s) && !isASCIISpace(rune(s[i])) {
				i++
			}
			if i > start {
				add(start, i)
			}
		}
	}
	return out
}

// TestPositionsOfTextSources: the positional calls work on Split, Lines and
// Fields, whose positions are the bytes at which their pieces start.
func TestPositionsOfTextSources(t *testing.T) {
	require.Equal(t, "b", must(pipe.Lines("a\nb").FindLast(func(string) bool { return true })))
	header := "# a\n# b\nx\n# c\ny"
	body := pipe.Lines(header).SkipWhile(func(l string) bool { return strings.HasPrefix(l, "#") }).Collect()
	require.Equal(t, []string{"x", "# c", "y"}, body)

	sources := map[string]func(string) pipe.Pipe[string]{
		"Split":  func(s string) pipe.Pipe[string] { return pipe.Split(s, ',') },
		"Lines":  pipe.Lines[string],
		"Fields": pipe.Fields[string],
	}
	for _, po := range surfacePools(t) {
		for _, n := range []int{0, 1, 2, 17, 1000, 20_000} {
			for ai, alphabet := range alphabets {
				s := randText(n, uint64(n)*3+uint64(ai), alphabet)
				for name, src := range sources {
					t.Run(fmt.Sprintf("%s/n=%d/alphabet%d/%s", po.name, n, ai, name), func(t *testing.T) {
						pieces := textPieces(s, name)
						var want []at
						for _, p := range pieces {
							want = append(want, at{p.i, p.x - p.i})
						}
						p := src(s)
						length := func(i int, x string) at { return at{i, len(x)} }
						require.Equal(t, want, nilIfEmpty(pipe.MapIndex(p, length).Collect(po.opts...)), "MapIndex")
						got := make([]int, n+1)
						p.ForEachIndex(func(i int, x string) { got[i] = len(x) + 1 }, po.opts...)
						for _, w := range want {
							require.Equal(t, w.x+1, got[w.i], "ForEachIndex at %d", w.i)
						}
						even := func(i int, _ string) bool { return i%2 == 0 }
						var wantEven []at
						for _, w := range want {
							if w.i%2 == 0 {
								wantEven = append(wantEven, w)
							}
						}
						require.Equal(t, wantEven, nilIfEmpty(pipe.MapIndex(p.FilterIndex(even), length).Collect(po.opts...)), "FilterIndex")
						// A predicate on the piece's length that several pieces meet.
						long := func(x string) bool { return len(x) >= 3 }
						first, last := -1, -1
						for _, w := range want {
							if w.x >= 3 {
								if first < 0 {
									first = w.i
								}
								last = w.i
							}
						}
						require.Equal(t, first, p.IndexFunc(long, po.opts...), "IndexFunc")
						require.Equal(t, last, p.LastIndexFunc(long, po.opts...), "LastIndexFunc")
						x, ok := p.FindLast(long, po.opts...)
						require.Equal(t, last >= 0, ok, "FindLast")
						if ok {
							require.Equal(t, s[last:last+len(x)], x, "FindLast")
						}
						short := func(x string) bool { return len(x) < 3 }
						k := 0
						for k < len(want) && want[k].x < 3 {
							k++
						}
						var taken, skipped []string
						for j, w := range want {
							if j < k {
								taken = append(taken, s[w.i:w.i+w.x])
							} else {
								skipped = append(skipped, s[w.i:w.i+w.x])
							}
						}
						require.Equal(t, taken, nilIfEmpty(p.TakeWhile(short, po.opts...).Collect(po.opts...)), "TakeWhile")
						sw := p.SkipWhile(short, po.opts...)
						require.Equal(t, skipped, nilIfEmpty(sw.Collect(po.opts...)), "SkipWhile")
						if k < len(want) {
							require.Equal(t, at{0, want[k].x}, pipe.MapIndex(sw, length).Collect(po.opts...)[0], "positions after SkipWhile")
						}
					})
				}
			}
		}
	}
}

func TestPositionsUnknown(t *testing.T) {
	p := pipe.Opaque(pipe.Range(0, 10))
	const want = "the source positions of the pipe's items are not known: a stage or source that does not keep them is among its stages"
	for name, call := range map[string]func(){
		"MapIndex":      func() { pipe.MapIndex(p, pair) },
		"FilterIndex":   func() { p.FilterIndex(func(int, int) bool { return true }) },
		"ForEachIndex":  func() { p.ForEachIndex(func(int, int) {}) },
		"IndexFunc":     func() { p.IndexFunc(func(int) bool { return true }) },
		"LastIndexFunc": func() { p.LastIndexFunc(func(int) bool { return true }) },
		"FindLast":      func() { p.FindLast(func(int) bool { return true }) },
		"TakeWhile":     func() { p.TakeWhile(func(int) bool { return true }) },
		"SkipWhile":     func() { p.SkipWhile(func(int) bool { return true }) },
	} {
		require.Equal(t, "pipe: "+name+": "+want, panicValue(t, call), name)
	}
	// Stages that need no positions still run on such a pipe, and an empty one
	// has none to know.
	require.Equal(t, 45, pipe.Sum(pipe.Map(p, func(x int) int { return x })))
	require.Empty(t, pipe.MapIndex(pipe.Opaque(pipe.Range(0, 0)), pair).Collect())
}

func TestIndexNilFunctions(t *testing.T) {
	p := pipe.Range(0, 10)
	for want, call := range map[string]func(){
		"pipe: MapIndex: f is nil":         func() { pipe.MapIndex[int, int](p, nil) },
		"pipe: FilterIndex: keep is nil":   func() { p.FilterIndex(nil) },
		"pipe: ForEachIndex: f is nil":     func() { p.ForEachIndex(nil) },
		"pipe: IndexFunc: pred is nil":     func() { p.IndexFunc(nil) },
		"pipe: LastIndexFunc: pred is nil": func() { p.LastIndexFunc(nil) },
		"pipe: FindLast: pred is nil":      func() { p.FindLast(nil) },
	} {
		require.Equal(t, want, panicValue(t, call))
	}
}

// TestIndexPanics: a panic in each callback reaches the caller with its
// value, and the pool runs calls afterwards.
func TestIndexPanics(t *testing.T) {
	const n = 100_000
	boom := func(i int) {
		if i == n/3 {
			panic(fmt.Sprint("boom at ", i))
		}
	}
	want := fmt.Sprint("boom at ", n/3)
	src := pipe.Range(0, n)
	filtered := src.Filter(func(x int) bool { return x%2 == 0 || x == n/3 })
	for _, po := range surfacePools(t) {
		for name, call := range map[string]func(){
			"MapIndex":          func() { pipe.MapIndex(src, func(i, x int) int { boom(i); return x }).Collect(po.opts...) },
			"MapIndex/filtered": func() { pipe.MapIndex(filtered, func(i, x int) int { boom(i); return x }).Collect(po.opts...) },
			"FilterIndex":       func() { src.FilterIndex(func(i, x int) bool { boom(i); return true }).Count(po.opts...) },
			"ForEachIndex":      func() { filtered.ForEachIndex(func(i, x int) { boom(i) }, po.opts...) },
			"IndexFunc":         func() { filtered.IndexFunc(func(x int) bool { boom(x); return false }, po.opts...) },
			"LastIndexFunc":     func() { filtered.LastIndexFunc(func(x int) bool { boom(x); return false }, po.opts...) },
			"FindLast":          func() { src.FindLast(func(x int) bool { boom(x); return false }, po.opts...) },
			"Filter after Filter": func() {
				pipe.MapIndex(filtered.Filter(func(x int) bool { boom(x); return true }), pair).Collect(po.opts...)
			},
		} {
			require.Equal(t, want, panicValue(t, call), "%s/%s", po.name, name)
		}
		requireUsable(t, po.opts)
	}
}

// TestIndexNested: the calls run inside another parallel call, on every pool.
func TestIndexNested(t *testing.T) {
	xs := randInts(20_000, 5)
	want := 0
	for i, x := range xs {
		if x > 0 {
			want += i * x
		}
	}
	for _, po := range surfacePools(t) {
		got := make([]int, 8)
		par.For(len(got), func(k int) {
			p := pipe.From(xs).Filter(func(x int) bool { return x > 0 })
			got[k] = pipe.Sum(pipe.MapIndex(p, func(i, x int) int { return i * x }), po.opts...)
		}, po.opts...)
		require.Equal(t, slices.Repeat([]int{want}, len(got)), got, po.name)
	}
}

// TestFindCombinesInOrder: when two pieces each find a match, the find-first
// keeps the earlier and the find-last the later, whichever finished first.
// The test holds the match that must win until the other has been seen, so
// that both pieces report one (a bounded wait: without a thief it goes on).
func TestFindCombinesInOrder(t *testing.T) {
	const n = 100_000
	pool := par.NewPool(par.Workers(2))
	defer pool.Close()
	opts := []par.Option{par.OnPool(pool), par.WithGrain(1000)}
	for _, last := range []bool{false, true} {
		winner, other := n/4, n-1
		if last {
			winner, other = other, winner
		}
		seen := make(chan struct{})
		var once sync.Once
		pred := func(x int) bool {
			switch x {
			case other:
				once.Do(func() { close(seen) })
			case winner:
				select {
				case <-seen:
				case <-time.After(5 * time.Second):
				}
			}
			return x == winner || x == other
		}
		p := pipe.Range(0, n)
		if last {
			require.Equal(t, winner, p.LastIndexFunc(pred, opts...))
		} else {
			require.Equal(t, winner, p.IndexFunc(pred, opts...))
		}
	}
}
