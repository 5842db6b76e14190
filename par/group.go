package par

import (
	"github.com/weftgo/weft/internal/gather"
	"runtime"
	"sync"
)

// Grouping has no Rayon equivalent: there a count per key is a fold into a
// HashMap per leaf and a hand-written merge. GroupBy does that, keeping order:
// each leaf of the range builds a map of its own, and two adjacent pieces'
// maps are merged by moving the entries of the smaller map into the larger
// one, so a merge costs the smaller map's length, whichever side it is on. A
// group is a list of the pieces' slices, left before right, which a merge
// joins in O(1) and which is flattened once at the end. CountBy needs no
// order, and lets its pieces share maps instead (see countMaps).

// groupLeavesPerCore is about how many leaves per core GroupBy cuts its range
// into at most. A leaf's map holds about as many keys as the leaf has
// elements when keys repeat rarely (W9 of `go run ./bench`: some 15,000
// distinct words in a leaf of 20,000), and merging it costs about as much as
// building it, so GroupBy wants few, long leaves; 8 per core still leave the
// stragglers of a busy machine a piece to take.
const groupLeavesPerCore = 8

// groupMinLen returns the minimum piece length of a GroupBy call over n
// positions: c's own if it has one (WithMinLen, or WithGrain, which then
// decides alone), else enough to make at most about groupLeavesPerCore
// leaves per core (runtime.GOMAXPROCS).
func groupMinLen(c *config, n int) int {
	if c.minLen > 0 || c.grain > 0 {
		return c.minLen
	}
	parts := groupLeavesPerCore * runtime.GOMAXPROCS(0)
	return max(1, ceilDiv(n, parts))
}

// CountBy returns how many elements of s have each key: the result maps
// key(e) to the number of elements e of s with that key, and holds no other
// key (an empty, non-nil map for an empty s). key runs concurrently with
// itself on different elements, once per element, on the pool's workers and
// the calling goroutine; writes made by key happen before CountBy returns.
//
// Each piece of the range counts into a map that no other piece is using at
// the time: a piece takes one from the call's spare maps, or makes one, and
// gives it back when done, so a call makes about as many maps as pieces ran
// at once (its participants), however many pieces the range is cut into.
// The maps are then merged on the calling goroutine, each into the largest.
// Counts add in any order, so the result does not depend on which piece
// counted what. The extra memory is a map per participant, and the merge
// costs about the number of distinct keys per participant.
func CountBy[S ~[]E, E any, K comparable](s S, key func(E) K, opts ...Option) map[K]int {
	if key == nil {
		panic("par: CountBy: key is nil")
	}
	c := configure(opts)
	if len(s) == 0 {
		return map[K]int{}
	}
	var spare countMaps[K]
	runLocal(&c, len(s), &body[struct{}]{name: "par.CountBy", each: func(lo, hi int) {
		m := spare.get(lo)
		defer spare.put(m, hi) // after a panic too: the call's result is dropped anyway
		for _, e := range s[lo:hi] {
			m[key(e)]++
		}
	}})
	return spare.merge()
}

// countMaps are the maps of a counting call that no piece is using.
//
// A map per piece merged in a tree, as GroupBy does, costs a merge per piece
// about as dear as building the piece's map when keys repeat rarely: on W9
// of `go run ./bench` (10 million words, 48,180 distinct) that doubled the
// work. Counting needs no order, so the pieces share maps instead.
type countMaps[K comparable] struct {
	mu   sync.Mutex
	free []countMap[K] // guarded by mu
}

// countMap is a spare map and where the piece that last used it ended.
type countMap[K comparable] struct {
	m   map[K]int
	end int
}

// get returns a map no piece is using for the piece that starts at lo: the
// one the piece ending at lo gave back, if any, since that piece ran on the
// same goroutine just before (a running leaf works in steps, each a call of
// the body), else the last one given back, else a new one. A large map that
// went from core to core at every step took W9 of `go run ./bench` twice as
// long as one that stayed on its core.
func (cm *countMaps[K]) get(lo int) map[K]int {
	cm.mu.Lock()
	defer cm.mu.Unlock()
	n := len(cm.free)
	if n == 0 {
		return map[K]int{}
	}
	k := n - 1
	for i := range cm.free {
		if cm.free[i].end == lo {
			k = i
			break
		}
	}
	m := cm.free[k].m
	cm.free[k] = cm.free[n-1]
	cm.free = cm.free[:n-1]
	return m
}

// put gives back a map that the piece ending at hi is done with.
func (cm *countMaps[K]) put(m map[K]int, hi int) {
	cm.mu.Lock()
	cm.free = append(cm.free, countMap[K]{m, hi})
	cm.mu.Unlock()
}

// merge adds the counts of every map into the largest and returns it. Only
// the calling goroutine may call it, once every piece is done.
func (cm *countMaps[K]) merge() map[K]int {
	if len(cm.free) == 0 {
		return map[K]int{}
	}
	big := 0
	for i, f := range cm.free {
		if len(f.m) > len(cm.free[big].m) {
			big = i
		}
	}
	out := cm.free[big].m
	for i, f := range cm.free {
		if i != big {
			for k, n := range f.m {
				out[k] += n
			}
		}
	}
	return out
}

// GroupBy returns the elements of s grouped by key: the result maps key(e) to
// the elements e of s with that key, in their order in s, and holds no other
// key (an empty, non-nil map for an empty s). key runs concurrently with
// itself on different elements, once per element, on the pool's workers and
// the calling goroutine; writes made by key happen before GroupBy returns.
// The result is the same on every run, whatever the number of workers.
//
// Each piece of the range groups into a map of its own, and adjacent pieces'
// maps are merged in a tree, the smaller map into the larger, each group a
// list of the pieces' slices joined in O(1) in input order. The groups are
// then copied into one slice each on the calling goroutine (a group made by
// one piece keeps its slice), so the extra memory is about one copy of s plus
// a map per running piece. Unless the call gives WithMinLen or WithGrain, no
// piece is shorter than len(s)/(8*GOMAXPROCS).
func GroupBy[S ~[]E, E any, K comparable](s S, key func(E) K, opts ...Option) map[K]S {
	if key == nil {
		panic("par: GroupBy: key is nil")
	}
	c := configure(opts)
	if len(s) == 0 {
		return map[K]S{}
	}
	c.minLen = groupMinLen(&c, len(s))
	gs := runLocal(&c, len(s), &body[map[K]*gather.Chunks[E]]{
		name: "par.GroupBy",
		leaf: func(lo, hi int) map[K]*gather.Chunks[E] {
			m := map[K]*gather.Chunks[E]{}
			for _, e := range s[lo:hi] {
				k := key(e)
				g := m[k]
				if g == nil {
					g = &gather.Chunks[E]{}
					m[k] = g
				}
				g.Push(e)
			}
			return m
		},
		combine: gather.JoinMaps[K, E],
	})
	out := make(map[K]S, len(gs))
	for k, g := range gs {
		out[k] = S(g.Flatten())
	}
	return out
}
