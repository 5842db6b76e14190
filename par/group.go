package par

import (
	"runtime"

	"github.com/weftgo/weft/internal/gather"
	"github.com/weftgo/weft/split"
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
	if c.MinLen > 0 || c.Grain > 0 {
		return c.MinLen
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
// Each participant of the call counts into a map of its own, which it keeps
// from one piece to the next, so a call makes about as many maps as it has
// participants, however many pieces the range is cut into. The maps are
// then merged on the calling goroutine, each into the largest.
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
	maps := runAll(&c, len(s), split.Work[map[K]int]{Name: "par.CountBy", Key: siteKey(key), Reuse: true,
		Init: func() map[K]int { return map[K]int{} },
		Fold: func(m map[K]int, lo, hi int) map[K]int {
			for _, e := range s[lo:hi] {
				m[key(e)]++
			}
			return m
		},
	})
	return addCounts(maps)
}

// addCounts adds the counts of every map into the largest and returns it.
// A map per piece merged in a tree, as GroupBy merges its groups, costs a
// merge per piece about as dear as building the piece's map when keys
// repeat rarely: on W9 of `go run ./bench` (10 million words, 48,180
// distinct) that doubled the work. Counting needs no order, so the
// participants keep a map each (split.Work.Reuse), merged once.
func addCounts[K comparable](maps []map[K]int) map[K]int {
	if len(maps) == 0 {
		return map[K]int{}
	}
	big := 0
	for i, m := range maps {
		if len(m) > len(maps[big]) {
			big = i
		}
	}
	out := maps[big]
	for i, m := range maps {
		if i != big {
			for k, n := range m {
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
// Each run of adjacent pieces that one participant works on groups into a
// map of its own (about one per participant, a few more when pieces are
// stolen), and adjacent runs' maps are merged in a tree, the smaller map
// into the larger, each group a list of the runs' slices joined in O(1) in
// input order. The groups are then copied into one slice each on the
// calling goroutine (a group made by one run keeps its slice), so the extra
// memory is about one copy of s plus a map per run. Unless the call gives WithMinLen or WithGrain, no
// piece is shorter than len(s)/(8*GOMAXPROCS).
func GroupBy[S ~[]E, E any, K comparable](s S, key func(E) K, opts ...Option) map[K]S {
	if key == nil {
		panic("par: GroupBy: key is nil")
	}
	c := configure(opts)
	if len(s) == 0 {
		return map[K]S{}
	}
	c.MinLen = groupMinLen(&c, len(s))
	gs := run(&c, len(s), split.Work[map[K]*gather.Chunks[E]]{Name: "par.GroupBy", Key: siteKey(key),
		Init: func() map[K]*gather.Chunks[E] { return map[K]*gather.Chunks[E]{} },
		Fold: func(m map[K]*gather.Chunks[E], lo, hi int) map[K]*gather.Chunks[E] {
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
		Merge: gather.JoinMaps[K, E],
	})
	out := make(map[K]S, len(gs))
	for k, g := range gs {
		out[k] = S(g.Flatten())
	}
	return out
}
