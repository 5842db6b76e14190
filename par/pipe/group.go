package pipe

import (
	"runtime"
	"sync"

	"github.com/weftgo/weft/internal/engine"
	"github.com/weftgo/weft/internal/gather"
	"github.com/weftgo/weft/par"
)

// groupLeavesPerCore is about how many pieces per core GroupBy cuts its range
// into at most, as par.GroupBy does: each piece's map costs a merge about as
// dear as building it when keys repeat rarely, so GroupBy wants few, long
// pieces.
const groupLeavesPerCore = 8

// groupMinLen gives cfg a minimum piece length of about n/(8*GOMAXPROCS)
// positions, unless the call's own options gave one (WithMinLen).
func groupMinLen(cfg *engine.Config, n int) {
	if cfg.MinLen == 0 {
		parts := groupLeavesPerCore * runtime.GOMAXPROCS(0)
		cfg.MinLen = max(1, (n-1)/parts+1) // no sum that wraps for n near math.MaxInt
	}
}

// CountBy returns how many items of p have each key: the result maps key(x)
// to the number of items x with that key, and holds no other key (an empty,
// non-nil map if there are none). It is par.CountBy at the end of a fused
// pipeline: each piece of the range runs the stages and counts into a map
// that no other piece is using at the time (taken from the call's spare maps,
// or made), so a call makes about one map per participant; the maps are
// merged at the end on the calling goroutine, each into the largest. key runs
// concurrently with itself and with the pipe's stages on different items,
// once per item, on the pool's workers and the calling goroutine.
func CountBy[T any, K comparable](p Pipe[T], key func(T) K, opts ...par.Option) map[K]int {
	if key == nil {
		panic("pipe: CountBy: key is nil")
	}
	type spareMap struct {
		m    map[K]int
		feed feeder[T] // opened once, reused by whichever piece holds m
		end  int       // where the piece that last used it ended
	}
	var mu sync.Mutex
	var spare []spareMap // guarded by mu
	cfg := p.config(opts)
	runFor("pipe.CountBy", &cfg, p.n, func(lo, hi int) {
		// The map of the piece that ended at lo, which ran on this goroutine
		// just before (a running leaf works in steps, each a call of this
		// function), else the last one given back, else a new one: a large
		// map that went from core to core at every step took W9 of
		// `go run ./bench` twice as long.
		var m map[K]int
		var feed feeder[T]
		mu.Lock()
		if n := len(spare); n > 0 {
			k := n - 1
			for i := range spare {
				if spare[i].end == lo {
					k = i
					break
				}
			}
			m, feed = spare[k].m, spare[k].feed
			spare[k] = spare[n-1]
			spare = spare[:n-1]
		} else {
			m, feed = map[K]int{}, p.open()
		}
		mu.Unlock()
		defer func() { // after a panic too: the call's result is dropped anyway
			mu.Lock()
			spare = append(spare, spareMap{m, feed, hi})
			mu.Unlock()
		}()
		feed(lo, hi, func(xs []T) {
			for _, x := range xs {
				m[key(x)]++
			}
		})
	})
	if len(spare) == 0 {
		return map[K]int{}
	}
	big := 0
	for i, f := range spare {
		if len(f.m) > len(spare[big].m) {
			big = i
		}
	}
	out := spare[big].m
	for i, f := range spare {
		if i != big {
			for k, n := range f.m {
				out[k] += n
			}
		}
	}
	return out
}

// GroupBy returns the items of p grouped by key: the result maps key(x) to
// the items x with that key, in the pipeline's order, and holds no other key
// (an empty, non-nil map if there are none). The result is the same on every
// run, whatever the number of workers. It is par.GroupBy at the end of a
// fused pipeline, with the same costs: each piece groups into a map of its
// own, the maps are merged in a tree (each group a list of the pieces'
// slices, joined in order in O(1)), and the groups are then copied into one
// slice each on the calling goroutine. Unless the call gives WithMinLen or
// WithGrain, no piece is shorter than Len()/(8*GOMAXPROCS) positions, which
// bounds the number of maps.
//
// key runs concurrently with itself and with the pipe's stages on different
// items, once per item, on the pool's workers and the calling goroutine.
func GroupBy[T any, K comparable](p Pipe[T], key func(T) K, opts ...par.Option) map[K][]T {
	if key == nil {
		panic("pipe: GroupBy: key is nil")
	}
	ls := leavesOf(p, func(st *leafState[map[K]*gather.Chunks[T]]) func([]T) {
		return func(xs []T) {
			m := st.acc
			for _, x := range xs {
				k := key(x)
				g := m[k]
				if g == nil {
					g = &gather.Chunks[T]{}
					m[k] = g
				}
				g.Push(x)
			}
		}
	})
	cfg := p.config(opts)
	groupMinLen(&cfg, p.n)
	gs := runReduce("pipe.GroupBy", &cfg, p.n, map[K]*gather.Chunks[T]{}, func(lo, hi int) map[K]*gather.Chunks[T] {
		return ls.run(lo, hi, map[K]*gather.Chunks[T]{}) // this call's result: a map of its own
	}, gather.JoinMaps[K, T])
	out := make(map[K][]T, len(gs))
	for k, g := range gs {
		out[k] = g.Flatten()
	}
	return out
}
