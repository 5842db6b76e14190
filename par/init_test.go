package par_test

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
)

// scratch is the per-worker state of the tests: a buffer, a count of the
// elements it served (a plain int, so that the race detector sees a state
// handed between goroutines without synchronization), and a flag that
// catches two goroutines using it at once.
type scratch struct {
	buf   []byte
	uses  int
	inUse atomic.Bool
}

// scratchPool makes the states of one call and remembers them all.
type scratchPool struct {
	mu  sync.Mutex
	all []*scratch
}

func (p *scratchPool) init() *scratch {
	s := &scratch{buf: make([]byte, 0, 64)}
	p.mu.Lock()
	p.all = append(p.all, s)
	p.mu.Unlock()
	return s
}

func (p *scratchPool) inits() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.all)
}

// uses sums the elements that the states served; call it after the call.
func (p *scratchPool) uses() int {
	n := 0
	for _, s := range p.all {
		n += s.uses
	}
	return n
}

// enter and leave bracket one use of s; enter fails the test if another
// goroutine is using s.
func (s *scratch) enter(t *testing.T) {
	if !s.inUse.CompareAndSwap(false, true) {
		t.Error("a state is used by two goroutines at once")
	}
	s.uses++
}

func (s *scratch) leave() { s.inUse.Store(false) }

// digits is the body of the tests: the number of decimal digits of x,
// computed in the scratch buffer.
func digits(s *scratch, x int) int {
	s.buf = strconv.AppendInt(s.buf[:0], int64(x), 10)
	return len(s.buf)
}

// maxInits is the bound on the calls of init for a call on p without nested
// calls: one per goroutine that can run a piece of it at once, the pool's
// workers and the caller.
func maxInits(p *par.Pool) int {
	if p == nil {
		return runtime.GOMAXPROCS(0) + 1
	}
	return p.Workers() + 1
}

func TestMapInit(t *testing.T) {
	eachCase(t, func(r *rand.Rand, n int) []int { return randInts(r, n) },
		func(t *testing.T, n int, in []int, s setup) {
			want := make([]int, n)
			for i, x := range in {
				want[i] = len(strconv.Itoa(x))
			}
			var sp scratchPool
			got := par.MapInit(in, sp.init, func(st *scratch, x int) int {
				st.enter(t)
				defer st.leave()
				return digits(st, x)
			}, s.opts...)
			require.Equal(t, want, got)
			checkInits(t, n, &sp, s)
		})
}

func TestForEachInit(t *testing.T) {
	eachCase(t, func(r *rand.Rand, n int) []int { return randInts(r, n) },
		func(t *testing.T, n int, in []int, s setup) {
			calls := make(counts, n)
			var sp scratchPool
			par.ForEachInit(indices(n), sp.init, func(st *scratch, i int) {
				st.enter(t)
				defer st.leave()
				calls[i].Add(1)
				digits(st, in[i])
			}, s.opts...)
			requireOnce(t, calls, "f(t, e) for e =")
			checkInits(t, n, &sp, s)
		})
}

// checkInits checks the calls of init of a call on n elements: none for an
// empty input, at least one otherwise, at most one per goroutine that can run
// a piece at once, however many pieces there were (a grain of 1 makes one per
// element); and that the states served every element once between them.
func checkInits(t *testing.T, n int, sp *scratchPool, s setup) {
	t.Helper()
	inits := sp.inits()
	if n == 0 {
		require.Zero(t, inits, "init ran on an empty input")
		return
	}
	require.GreaterOrEqual(t, inits, 1)
	require.LessOrEqual(t, inits, maxInits(par.PoolOf(s.opts...)), "init ran %d times on %d elements (%s)", inits, n, s.name)
	require.Equal(t, n, sp.uses(), "elements served by the states")
}

// TestInitCountSmall: on a long input cut into a task per element, init runs
// about once per worker, not once per piece.
func TestInitCountSmall(t *testing.T) {
	n := bigN()
	for _, p := range testPools(t) {
		for _, opts := range [][]par.Option{nil, {par.WithGrain(1)}, {par.WithMinLen(1000)}} {
			opts = append(opts, poolOpts(p)...)
			t.Run(fmt.Sprintf("%s/%d-opts", poolName(p), len(opts)), func(t *testing.T) {
				var inits atomic.Int64
				init := func() *[64]byte { inits.Add(1); return new([64]byte) }
				out := par.MapInit(indices(n), init, func(b *[64]byte, x int) int {
					b[x%64]++
					return x
				}, opts...)
				require.Equal(t, indices(n), out)
				require.Positive(t, inits.Load())
				require.LessOrEqual(t, inits.Load(), int64(maxInits(p)))
				inits.Store(0)
				par.ForEachInit(indices(n), init, func(b *[64]byte, x int) { b[x%64]++ }, opts...)
				require.Positive(t, inits.Load())
				require.LessOrEqual(t, inits.Load(), int64(maxInits(p)))
			})
		}
	}
}

// TestInitNested: MapInit and ForEachInit inside another call, and with f
// making parallel calls of its own, so that a worker waiting inside f runs
// other pieces that need states of their own.
func TestInitNested(t *testing.T) {
	pools := testPools(t)
	in := indices(2000)
	for _, p := range pools {
		t.Run(poolName(p), func(t *testing.T) {
			got := par.Map(indices(8), func(k int) int {
				opts := poolOpts(pools[k%len(pools)])
				var sp scratchPool
				out := par.MapInit(in, sp.init, func(st *scratch, x int) int {
					st.enter(t)
					defer st.leave()
					d := digits(st, x)
					if x%500 == 0 { // a nested call inside f
						d += par.Sum(par.Map(indices(100), func(i int) int { return i }, opts...)) - 4950
					}
					return d
				}, opts...)
				sum := 0
				par.ForEachInit(out, sp.init, func(st *scratch, d int) {
					st.enter(t)
					defer st.leave()
					st.buf = append(st.buf[:0], byte(d))
				}, opts...)
				for _, d := range out {
					sum += d
				}
				return sum
			}, append(poolOpts(p), par.WithGrain(1))...)
			want := 0
			for _, x := range in {
				want += len(strconv.Itoa(x))
			}
			for k, v := range got {
				require.Equal(t, want, v, "outer element %d", k)
			}
		})
	}
}
