package par_test

import (
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
)

// surfaceCallbacks has a panicCall for every callback of the index forms,
// Partition, Unzip, the Init forms, the searches that FindIndex's panic
// tests do not cover, and the Seq2 forms (the function, and the sequence
// itself).
var surfaceCallbacks = []panicCall{
	{"MapIndex.f", func(n, at int, v any, opts []par.Option) {
		par.MapIndex(indices(n), func(i, _ int) int {
			if i == at {
				fail(v)
			}
			return i
		}, opts...)
	}},
	{"ForEachIndex.f", func(n, at int, v any, opts []par.Option) {
		par.ForEachIndex(indices(n), func(i, _ int) {
			if i == at {
				fail(v)
			}
		}, opts...)
	}},
	{"FilterIndex.keep", func(n, at int, v any, opts []par.Option) {
		par.FilterIndex(indices(n), func(i, _ int) bool {
			if i == at {
				fail(v)
			}
			return i%2 == 0
		}, opts...)
	}},
	{"Partition.pred", func(n, at int, v any, opts []par.Option) {
		par.Partition(indices(n), func(i int) bool {
			if i == at {
				fail(v)
			}
			return i%2 == 0
		}, opts...)
	}},
	{"Unzip.f", func(n, at int, v any, opts []par.Option) {
		par.Unzip(indices(n), func(i int) (int, bool) {
			if i == at {
				fail(v)
			}
			return i, true
		}, opts...)
	}},
	{"MapInit.f", func(n, at int, v any, opts []par.Option) {
		par.MapInit(indices(n), func() *int { return new(int) }, func(s *int, i int) int {
			if i == at {
				fail(v)
			}
			*s += i
			return *s
		}, opts...)
	}},
	{"MapInit.init", func(n, at int, v any, opts []par.Option) {
		par.MapInit(indices(n), initFailing(at, v), func(s *int, i int) int { return i }, opts...)
	}},
	{"ForEachInit.f", func(n, at int, v any, opts []par.Option) {
		par.ForEachInit(indices(n), func() *int { return new(int) }, func(s *int, i int) {
			if i == at {
				fail(v)
			}
			*s += i
		}, opts...)
	}},
	{"ForEachInit.init", func(n, at int, v any, opts []par.Option) {
		par.ForEachInit(indices(n), initFailing(at, v), func(s *int, i int) { *s += i }, opts...)
	}},
	{"FindLastIndex.pred", func(n, at int, v any, opts []par.Option) {
		par.FindLastIndex(indices(n), predFailingAt(at, v), opts...)
	}},
	{"FindLast.pred", func(n, at int, v any, opts []par.Option) {
		par.FindLast(indices(n), predFailingAt(at, v), opts...)
	}},
	{"FindAnyIndex.pred", func(n, at int, v any, opts []par.Option) {
		par.FindAnyIndex(indices(n), predFailingAt(at, v), opts...)
	}},
	{"FindAny.pred", func(n, at int, v any, opts []par.Option) {
		par.FindAny(indices(n), predFailingAt(at, v), opts...)
	}},
	{"Positions.pred", func(n, at int, v any, opts []par.Option) {
		par.Positions(indices(n), predFailingAt(at, v), opts...)
	}},
	{"MapSeq2.f", func(n, at int, v any, opts []par.Option) {
		for range par.MapSeq2(slices.All(indices(n)), func(i, _ int) int {
			if i == at {
				fail(v)
			}
			return i
		}, opts...) {
		}
	}},
	{"MapSeq2.seq", func(n, at int, v any, opts []par.Option) {
		for range par.MapSeq2(seq2Failing(n, at, v), func(i, _ int) int { return i }, opts...) {
		}
	}},
	{"ForEachSeq2.f", func(n, at int, v any, opts []par.Option) {
		par.ForEachSeq2(slices.All(indices(n)), func(i, _ int) {
			if i == at {
				fail(v)
			}
		}, opts...)
	}},
	{"ForEachSeq2.seq", func(n, at int, v any, opts []par.Option) {
		par.ForEachSeq2(seq2Failing(n, at, v), func(int, int) {}, opts...)
	}},
}

// predFailingAt is a predicate that is false everywhere, and fails at element at.
func predFailingAt(at int, v any) func(int) bool {
	return func(i int) bool {
		if i == at {
			fail(v)
		}
		return false
	}
}

// initFailing is an init that fails on its first call if at is 0, and on its
// second call otherwise (a second call happens only if pieces ran at once, so
// the call may then end normally).
func initFailing(at int, v any) func() *int {
	var calls atomic.Int32
	return func() *int {
		if k := calls.Add(1); (at == 0 && k == 1) || (at != 0 && k == 2) {
			fail(v)
		}
		return new(int)
	}
}

// seq2Failing yields the pairs (i, i) for i in [0, n), and fails before the
// pair at.
func seq2Failing(n, at int, v any) func(yield func(int, int) bool) {
	return func(yield func(int, int) bool) {
		for i := range n {
			if i == at {
				fail(v)
			}
			if !yield(i, i) {
				return
			}
		}
	}
}

// TestSurfacePanicReachesCaller: a panic in any callback of the functions
// above reaches the caller with its original value, and runtime.Goexit ends
// the calling goroutine, at the front, the middle and the end of the input;
// the pool runs calls normally afterwards.
func TestSurfacePanicReachesCaller(t *testing.T) {
	n := panicLen()
	for _, p := range testPools(t) {
		for _, v := range []variant{{name: "adaptive"}, {name: "grain1", opts: []par.Option{par.WithGrain(1)}}} {
			opts := append(append([]par.Option(nil), v.opts...), poolOpts(p)...)
			for _, pc := range surfaceCallbacks {
				t.Run(fmt.Sprintf("%s/%s/%s", poolName(p), v.name, pc.name), func(t *testing.T) {
					for _, at := range panicPositions(n) {
						want := &boomError{where: fmt.Sprintf("%s[%d]", pc.name, at)}
						how, got := runOn(func() { pc.call(n, at, want, opts) })
						// An init that fails on its second call may not be
						// called twice: pieces ran one at a time.
						mayReturn := strings.HasSuffix(pc.name, ".init") && at != 0
						if how == returned && mayReturn {
							continue
						}
						require.Equal(t, panicked, how)
						require.Same(t, want, got, "the panic value must reach the caller unchanged")
						got = panicValue(t, func() { pc.call(n, 0, fmt.Sprint(at), opts) })
						require.Equal(t, fmt.Sprint(at), got)
						how, _ = runOn(func() { pc.call(n, at, nil, opts) })
						if how != returned || !mayReturn {
							require.Equal(t, goexited, how, "runtime.Goexit at %d must end the calling goroutine", at)
						}
					}
					requireUsable(t, p)
				})
			}
		}
	}
}
