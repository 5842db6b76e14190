package par_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/weftgo/weft/internal/torture"
	"github.com/weftgo/weft/par"
)

// The tests of this package check every function against a sequential oracle
// (the slices package or a plain loop) on random inputs of the sizes below,
// on the default pool and on pools of 1, 2 and 8 workers, with the adaptive
// splitter and with fixed grains. Sizes shrink under -short and -race so that
// the package stays within seconds in CI.

// full reports whether the tests run at full size: when asked for
// (WEFT_THOROUGH=1, as CI sets it: see torture.Thorough), not under -short,
// and not under the race detector, which makes them about ten times slower.
func full() bool { return torture.Thorough() && !testing.Short() && !raceEnabled }

// short reports whether stress loops and sizes that do not depend on the
// race detector shrink: under -short, or when the tests are not thorough.
func short() bool { return testing.Short() || !torture.Thorough() }

// bigN is the largest input of the table-driven tests. The package's tests
// are the longest part of CI's run of go test ./...: 69 s with 300,000 at
// full size, 101 s with 1,000,000, in a budget of 15 minutes for all of CI.
// Only the adaptive setups reach it (variants); the fixed grains, which make
// a piece of every few elements, stop at 100,000.
func bigN() int {
	if full() {
		return 300_000
	}
	return 100_000
}

// sizes are the input lengths every function is tried on: empty, one, two,
// three (the smallest split), a length that splits unevenly, and large.
func sizes() []int {
	if full() {
		return []int{0, 1, 2, 3, 17, 1000, 100_000, 300_000}
	}
	return []int{0, 1, 2, 3, 17, 1000, bigN()}
}

// variant is a set of per-call options; maxN bounds the input length it is
// tried on, since a grain of 1 turns a million elements into two million tasks.
type variant struct {
	name  string
	opts  []par.Option
	maxN  int
	grain int // the fixed grain, or 0
}

func variants() []variant {
	small := 1000 // a grain of 1 or 7 costs a task per element or few
	if full() {
		small = 100_000
	}
	return []variant{
		{name: "adaptive", maxN: bigN()},
		{name: "grain1", opts: []par.Option{par.WithGrain(1)}, maxN: small, grain: 1},
		{name: "grain7", opts: []par.Option{par.WithGrain(7)}, maxN: small, grain: 7},
		{name: "minlen100", opts: []par.Option{par.WithMinLen(100)}, maxN: bigN()},
	}
}

// testPools returns the default pool (nil) and new pools of 1, 2 and 8
// workers, closed when t ends.
func testPools(t testing.TB) []*par.Pool {
	pools := []*par.Pool{nil}
	for _, n := range []int{1, 2, 8} {
		p := par.NewPool(par.Workers(n))
		t.Cleanup(p.Close)
		pools = append(pools, p)
	}
	return pools
}

func poolName(p *par.Pool) string {
	if p == nil {
		return "default"
	}
	return fmt.Sprintf("pool%d", p.Workers())
}

// setup is one combination of a pool and a variant.
type setup struct {
	name  string
	opts  []par.Option
	maxN  int
	grain int
}

func setups(t testing.TB) []setup {
	var out []setup
	for _, p := range testPools(t) {
		for _, v := range variants() {
			opts := append([]par.Option(nil), v.opts...)
			if p != nil {
				opts = append(opts, par.OnPool(p))
			}
			out = append(out, setup{name: poolName(p) + "/" + v.name, opts: opts, maxN: v.maxN, grain: v.grain})
		}
	}
	return out
}

// eachCase runs check as a subtest for every size and every setup that
// allows it. gen makes the input of a size, and whatever the check compares
// with (the oracle's answer), once for all setups: it is given a generator
// seeded from the size, so that a failure reproduces. check must not modify
// its input.
func eachCase[T any](t *testing.T, gen func(r *rand.Rand, n int) T, check func(t *testing.T, n int, in T, s setup)) {
	t.Helper()
	all := setups(t)
	for _, n := range sizes() {
		var in T
		made := false
		for _, s := range all {
			if n > s.maxN {
				continue
			}
			if !made {
				in, made = gen(newRand(uint64(n)), n), true
			}
			t.Run(fmt.Sprintf("%s/n=%d", s.name, n), func(t *testing.T) {
				check(t, n, in, s)
			})
		}
	}
}

// noInput is the gen of checks that make their own input.
func noInput(*rand.Rand, int) struct{} { return struct{}{} }

// counts is one call counter per index.
type counts []atomic.Int32

// requireOnce requires every counter to be exactly 1. It compares in a plain
// loop, since an assertion per element would cost more than the call tested.
func requireOnce(t testing.TB, c counts, what string) {
	t.Helper()
	for i := range c {
		if v := c[i].Load(); v != 1 {
			t.Fatalf("%s %d: %d times, want exactly once", what, i, v)
		}
	}
}

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x9E3779B97F4A7C15)) }

func randInts(r *rand.Rand, n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = int(r.Uint64())
	}
	return s
}

// smallInts returns n values in [0, k).
func smallInts(r *rand.Rand, n, k int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = r.IntN(k)
	}
	return s
}

// indices returns 0, 1, ..., n-1: elements that name their own index.
func indices(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

// ending says how a function run on its own goroutine ended.
type ending string

const (
	returned ending = "returned"
	panicked ending = "panicked"
	goexited ending = "goexited"
)

// runOn runs f on a new goroutine and reports how it ended, with the panic
// value if it panicked.
func runOn(f func()) (ending, any) {
	type result struct {
		how ending
		v   any
	}
	ch := make(chan result, 1)
	go func() {
		done := false
		defer func() {
			if done {
				ch <- result{how: returned}
				return
			}
			if v := recover(); v != nil {
				ch <- result{how: panicked, v: v}
				return
			}
			ch <- result{how: goexited} // recover returns nil only during runtime.Goexit
		}()
		f()
		done = true
	}()
	r := <-ch
	return r.how, r.v
}

// panicValue calls f and returns what it panicked with, failing t if it did
// not panic.
func panicValue(t testing.TB, f func()) (v any) {
	t.Helper()
	how, v := runOn(f)
	if how != panicked {
		t.Fatalf("want a panic, the function %v", how)
	}
	return v
}

// await waits for ch to be closed and reports whether it was; the bound only
// keeps a broken test from hanging.
func await(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	case <-time.After(10 * time.Second):
		return false
	}
}

// spinUntil waits for ch to be closed like await, but keeps forking empty
// tasks on w meanwhile: a scheduler that keeps forks private while no worker
// is idle publishes them only at a later push or pop, so a task that waits
// for a half it forked earlier to be stolen must keep pushing.
func spinUntil(w *par.Worker, ch <-chan struct{}) bool {
	noop := func(*par.Worker) {}
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); {
		select {
		case <-ch:
			return true
		default:
		}
		w.Join(noop, noop)
		runtime.Gosched()
	}
	return false
}

// waitGoroutines polls until at most n goroutines remain and returns the last
// count (torture.WaitGoroutines: bounded by rounds, not by a time limit that a
// test asserts on).
func waitGoroutines(n int) int { return torture.WaitGoroutines(n) }

// goid returns the id of the calling goroutine, from the first line of its
// stack ("goroutine 18 [running]:").
func goid() uint64 {
	var b [64]byte
	f := bytes.Fields(b[:runtime.Stack(b[:], false)])
	if len(f) < 2 {
		return 0
	}
	id, _ := strconv.ParseUint(string(f[1]), 10, 64)
	return id
}
