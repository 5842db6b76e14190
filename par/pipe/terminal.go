package pipe

import (
	"cmp"
	"sync/atomic"

	"github.com/weftgo/weft/internal/engine"
	"github.com/weftgo/weft/internal/find"
	"github.com/weftgo/weft/internal/gather"
	"github.com/weftgo/weft/par"
)

// Collect returns the items of p in order, in a new slice. Without a Filter
// among the stages, each piece writes its items in place; with one, the
// pieces that a participant runs one after the other append to one slice,
// and these slices are concatenated, as par.Filter does. A text source with
// no stage counts its pieces first when they are short (collectCounted), and
// a short text, too short for a worker to help before it ends, is collected
// on the calling goroutine unless the options fix a grain (collectAlone).
func (p Pipe[T]) Collect(opts ...par.Option) []T {
	cfg := p.config(opts)
	if c := p.count; c != nil {
		d, k := dense(p.n, c.count)
		if p.n <= c.alone.longest(d) && cfg.Grain == 0 {
			return collectAlone(p, d, k)
		}
		if d {
			return collectCounted(p, cfg)
		}
	}
	if p.oneToOne {
		out := make([]T, p.n)
		ls := leavesOf(p, func(st *leafState[int]) func([]T) {
			return func(xs []T) { st.acc += copy(out[st.acc:], xs) }
		})
		runFor("pipe.Collect", &cfg, p.n, func(lo, hi int) { ls.run(lo, hi, lo) })
		return out
	}
	var t gather.Tails[T]
	ls := leavesOf(p, func(st *leafState[tailed[T]]) func([]T) {
		return func(xs []T) {
			if !st.acc.taken { // at the first batch: a piece with no items takes no slice
				st.acc.items, st.acc.lease = t.Take(st.acc.lo)
				st.acc.taken = true
			}
			st.acc.items = append(st.acc.items, xs...)
		}
	})
	l := runReduce("pipe.Collect", &cfg, p.n, gather.Chunks[T]{}, func(lo, hi int) gather.Chunks[T] {
		acc := ls.run(lo, hi, tailed[T]{lo: lo}) // put drops it from the state
		if !acc.taken {
			return gather.Chunks[T]{}
		}
		t.Leave(hi, acc.items, acc.lease)
		return gather.One(acc.items)
	}, gather.Join[T])
	return l.Flatten()
}

// tailed is what a piece of Collect appends its items to: the slice that
// gather.Tails handed it for the piece that starts at lo, once it has items.
type tailed[T any] struct {
	lo    int
	taken bool
	items []T
	lease gather.Lease[T]
}

// countBlock is how many positions make a block of collectCounted: few
// enough that rounding a piece of the range to blocks moves little work,
// many enough that the counts, an int a block, are a small part of the
// result.
const countBlock = 4096

// denseSpan is the longest average span of positions per item for which
// Collect counts the items first: the count reads every byte once more,
// which costs more than the concatenation saves when the items are few (a
// text of long lines, or one line: Lines over one line of 4 MiB collected in
// 2.4 times the standard call's time with the count, 1.1 without, go test
// -bench 'TextSources/n=4194304/Lines/one-line' ./par/pipe).
const denseSpan = 512

// denseSample is how many positions each of dense's three samples counts:
// a small text is counted nearly whole by them, and a count reads a byte
// more slowly than the search that finds a piece (a single long piece of
// 16 KiB collected in 1.2 µs with samples of 4,096, against the standard
// call's 0.2 µs: WEFT_TEXT_SIZES=16384 go test -run '^$' -bench
// 'TextSources/.*/Split/one-field/collect' ./par/pipe).
const denseSample = 1024

// dense reports whether the items of a pipe of n positions that count
// counts hold denseSpan positions or fewer on average, judged by three
// samples: at the start, the middle and the end of the range; or, when the
// samples would cover it, by one count of the whole, which it returns
// (otherwise -1).
func dense(n int, count func(lo, hi int) int) (bool, int) {
	if n == 0 {
		return false, -1
	}
	if n <= 3*denseSample {
		k := count(0, n)
		return k*denseSpan >= n, k
	}
	seen, span := 0, 0
	for _, at := range [3]int{0, n / 2, n - denseSample} {
		lo := max(0, min(at, n-denseSample))
		hi := min(n, lo+denseSample)
		seen += count(lo, hi)
		span += hi - lo
	}
	return seen*denseSpan >= span, -1
}

// collectCounted is Collect for a pipe that counts its items without making
// them (p.count): it counts the items of the blocks of countBlock positions
// in parallel, makes the result once, at its length, and has each piece of
// the range write its items in place, as a one-to-one pipe's Collect does.
// Appending per piece and concatenating, as after a Filter, allocated about
// three times the result (the standard library's Split and Fields count
// first, and allocate it once), and the concatenation's copy ran on one
// goroutine. A piece [lo, hi) of either pass does the blocks that start in
// it, so that every block is done once however the range is cut; it has
// then done the positions up to the next block's start, which the calls
// learn through their work's cover (split.Work.Covered), so that a piece
// that ends inside a block is not timed as if the positions after it cost
// nothing. cfg is the call's, with p's cover.
func collectCounted[T any](p Pipe[T], cfg engine.Config) []T {
	c, covered := p.count, cfg.Covered // covered: a bare text's gaps
	blocks := blockAfter(p.n)
	at := make([]int, blocks+1) // at[b+1]: the items of block b; then where block b's go
	counting := cfg
	counting.Covered = countCovered // not the text's gaps: a count reads every byte
	runFor("pipe.Collect", &counting, p.n, func(lo, hi int) {
		for b := blockAfter(lo); b < blockAfter(hi); b++ {
			at[b+1] = c.count(b*countBlock, min(p.n, (b+1)*countBlock))
		}
	})
	for b := range blocks {
		at[b+1] += at[b]
	}
	out := make([]T, at[blocks])
	c.opened()
	filling := cfg
	filling.Covered = func(pos int) int {
		if covered != nil {
			pos = covered(pos)
		}
		return countCovered(pos)
	}
	runFor("pipe.Collect", &filling, p.n, func(lo, hi int) {
		if a, b := blockAfter(lo), blockAfter(hi); a < b {
			c.fill(a*countBlock, min(p.n, b*countBlock), out[at[a]:at[b]])
		}
	})
	return out
}

// collectAlone is Collect for a text source with no stage, on the calling
// goroutine. Where the pieces are short (dense), it counts them (k, if dense
// has: otherwise -1), makes the result at its length, and fills it, as the
// standard library's Split and Fields do; otherwise it appends them.
func collectAlone[T any](p Pipe[T], dense bool, k int) []T {
	c := p.count
	if dense {
		if k < 0 {
			k = c.count(0, p.n)
		}
		out := make([]T, k)
		c.opened()
		c.fill(0, p.n, out)
		return out
	}
	return c.all(p.n)
}

// countCovered is the cover of collectCounted's first call: a piece has
// counted to the end of its last block.
func countCovered(pos int) int { return blockAfter(pos) * countBlock }

// blockAfter returns the first block of collectCounted that starts at or
// after pos.
func blockAfter(pos int) int {
	if pos <= 0 {
		return 0
	}
	return (pos-1)/countBlock + 1
}

// ForEach calls f on every item of p, in parallel, and returns when every call
// has returned.
//
// f runs concurrently with itself and with the pipe's stages on different
// items, once per item, on the pool's workers and the calling goroutine.
func (p Pipe[T]) ForEach(f func(T), opts ...par.Option) {
	if f == nil {
		panic("pipe: ForEach: f is nil")
	}
	ls := leavesOf(p, func(*leafState[struct{}]) func([]T) {
		return func(xs []T) {
			for _, x := range xs {
				f(x)
			}
		}
	})
	cfg := p.config(opts)
	runFor("pipe.ForEach", &cfg, p.n, func(lo, hi int) { ls.run(lo, hi, struct{}{}) })
}

// Count returns the number of items of p. It runs p's stages on every item,
// as Rayon's count does, since they may have effects (Inspect) or panic; only
// a pipe without any function of the caller's (a source, maybe cut by Take,
// Skip, StepBy or Rev) answers from its length alone.
func (p Pipe[T]) Count(opts ...par.Option) int {
	cfg := configure(opts)
	if p.oneToOne && p.bare {
		return p.n
	}
	if p.count != nil { // a count reads every byte: no cover
		return runReduce("pipe.Count", &cfg, p.n, 0, p.count.src.count, func(a, b int) int { return a + b })
	}
	ls := leavesOf(p, func(st *leafState[int]) func([]T) {
		return func(xs []T) { st.acc += len(xs) }
	})
	cfg.Covered = p.cover
	return runReduce("pipe.Count", &cfg, p.n, 0, func(lo, hi int) int { return ls.run(lo, hi, 0) },
		func(a, b int) int { return a + b })
}

// Reduce combines the items of p with op, keeping their order. op must be
// associative with identity as its identity element; identity is the result
// for no items. identity is a value that op combines, copied and never
// modified by the library; an accumulator that is modified in place (a map)
// wants Fold, which takes a constructor.
//
// op runs concurrently with itself and with the pipe's stages on different
// items, on the pool's workers and the calling goroutine.
func (p Pipe[T]) Reduce(identity T, op func(T, T) T, opts ...par.Option) T {
	if op == nil {
		panic("pipe: Reduce: op is nil")
	}
	return Fold(p, func() T { return identity }, op, op, opts...)
}

// Find returns the first item of p, in order, for which pred is true, and
// true; or the zero value and false. Pieces after a match stop early.
//
// pred runs concurrently with itself and with the pipe's stages on different
// items, at most once per item, on the pool's workers and the calling
// goroutine; items past the match may be tested or not.
func (p Pipe[T]) Find(pred func(T) bool, opts ...par.Option) (T, bool) {
	if pred == nil {
		panic("pipe: Find: pred is nil")
	}
	type hit struct{ x T }
	bd := find.First() // offered the start of a match's batch: its position may be unknown
	ls := leavesOf(p, func(st *leafState[*hit]) func([]T) {
		return func(xs []T) {
			for _, x := range xs {
				if st.acc == nil && pred(x) {
					st.acc = &hit{x: x}
				}
			}
		}
	})
	cfg := p.config(opts)
	found := runReduce("pipe.Find", &cfg, p.n, (*hit)(nil), func(lo, hi int) *hit {
		st := ls.get(lo)
		bd.Scan(lo, hi, func(a, c int) int {
			if st.feed(a, c); st.acc != nil {
				return a
			}
			return -1
		})
		h := st.acc
		ls.put(st, hi) // not deferred: a state whose callback panicked is dropped
		return h
	}, leftmost[hit])
	if found == nil {
		var zero T
		return zero, false
	}
	return found.x, true
}

// Any reports whether pred is true for some item of p; it stops early.
//
// pred runs concurrently with itself and with the pipe's stages on different
// items, at most once per item, on the pool's workers and the calling
// goroutine; once the answer is known, the items left may be tested or not.
func (p Pipe[T]) Any(pred func(T) bool, opts ...par.Option) bool {
	if pred == nil {
		panic("pipe: Any: pred is nil")
	}
	var hit atomic.Bool
	ls := leavesOf(p, func(*leafState[struct{}]) func([]T) {
		return func(xs []T) {
			for _, x := range xs {
				if pred(x) {
					hit.Store(true)
					return
				}
			}
		}
	})
	cfg := p.config(opts)
	runFor("pipe.Any", &cfg, p.n, func(lo, hi int) {
		st := ls.get(lo)
		for a := lo; a < hi && !hit.Load(); a = batchEnd(a, hi) {
			st.feed(a, batchEnd(a, hi))
		}
		ls.put(st, hi)
	})
	return hit.Load()
}

// All reports whether pred is true for every item of p (true if there are
// none); it stops at the first failure.
//
// pred runs concurrently with itself and with the pipe's stages on different
// items, at most once per item, on the pool's workers and the calling
// goroutine; once the answer is known, the items left may be tested or not.
func (p Pipe[T]) All(pred func(T) bool, opts ...par.Option) bool {
	if pred == nil {
		panic("pipe: All: pred is nil")
	}
	return !p.Any(func(x T) bool { return !pred(x) }, opts...)
}

// Min returns the least item of p and true, as slices.Min would over the
// collected items (NaN wins for floats), or the zero value and false if there
// are none.
func Min[T cmp.Ordered](p Pipe[T], opts ...par.Option) (T, bool) {
	return pick(p, "pipe.Min", func(a, b T) T { return min(a, b) }, opts)
}

// Max returns the greatest item of p and true, as slices.Max would over the
// collected items, or the zero value and false if there are none.
func Max[T cmp.Ordered](p Pipe[T], opts ...par.Option) (T, bool) {
	return pick(p, "pipe.Max", func(a, b T) T { return max(a, b) }, opts)
}

type maybe[T any] struct {
	v  T
	ok bool
}

func pick[T any](p Pipe[T], name string, better func(a, b T) T, opts []par.Option) (T, bool) {
	ls := leavesOf(p, func(st *leafState[maybe[T]]) func([]T) {
		return func(xs []T) {
			m := &st.acc
			for _, x := range xs {
				if !m.ok {
					*m = maybe[T]{x, true}
				} else {
					m.v = better(m.v, x)
				}
			}
		}
	})
	cfg := p.config(opts)
	r := runReduce(name, &cfg, p.n, maybe[T]{}, func(lo, hi int) maybe[T] { return ls.run(lo, hi, maybe[T]{}) }, func(a, b maybe[T]) maybe[T] {
		if !a.ok {
			return b
		}
		if !b.ok {
			return a
		}
		return maybe[T]{better(a.v, b.v), true}
	})
	return r.v, r.ok
}
