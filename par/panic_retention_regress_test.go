package par_test

import (
	"runtime"
	"testing"
	"weak"

	"github.com/stretchr/testify/assert"
	"github.com/weftgo/weft/par"
)

// TestPanickedCallReleasesItsData checks a fixed bug: a call that panicked
// kept what its functions reference reachable after it had returned. A fork
// that ended normally cleared its task record, but on the panic path the
// record was dropped as it was, and the deque still pointed to it from the
// slot it occupied until a later push overwrote that slot. Now Sync hands the
// stolen half's panic back instead of raising it, so every fork that has
// ended clears and gives back its record before the panic goes on. The soak
// of `go run ./bench -soak` found it: the only memory left after a run was
// the inputs and results of the calls into which it had injected panics.
//
// Input: par.For, par.Do with Join2, and par.Join on a pool of one worker,
// whose functions hold a 1 MiB buffer; each panics in its first element (or,
// for For/thief, in an element that the worker runs), or does not (the
// control). Expected: once the call has returned and the caller has dropped
// the buffer, a GC frees it.
func TestPanickedCallReleasesItsData(t *testing.T) {
	type buffer struct{ b [1 << 20]byte }
	p := par.NewPool(par.Workers(1))
	defer p.Close()
	on := par.OnPool(p)
	calls := map[string]func(buf *buffer, fail bool){
		"For": func(buf *buffer, fail bool) {
			par.For(64, func(i int) {
				if i == 0 && fail {
					panic("boom")
				}
				buf.b[i]++
			}, on, par.WithGrain(1))
		},
		"For/thief": func(buf *buffer, fail bool) {
			// The last element runs on the worker, since the caller waits in
			// the first one until it has started, and panics there: the
			// panic reaches the caller through the fork's Sync.
			started := make(chan struct{})
			par.For(64, func(i int) {
				switch i {
				case 0:
					await(started)
				case 63:
					close(started)
					if fail {
						panic("boom")
					}
				}
				buf.b[i]++
			}, on, par.WithGrain(1))
		},
		"Join2": func(buf *buffer, fail bool) {
			var rec func(w *par.Worker, n int) int
			rec = func(w *par.Worker, n int) int {
				if n == 0 {
					if fail {
						panic("boom")
					}
					return 0
				}
				a, _ := par.Join2(w, rec, n-1, func(*par.Worker, int) int { return int(buf.b[0]) }, n)
				return a
			}
			par.Do(func(w *par.Worker) { rec(w, 8) }, on)
		},
		"Join": func(buf *buffer, fail bool) {
			par.Join(func() {
				if fail {
					panic("boom")
				}
			}, func() { buf.b[1]++ }, on)
		},
	}
	for name, call := range calls {
		for _, fail := range []bool{false, true} {
			t.Run(name+map[bool]string{false: "/returns", true: "/panics"}[fail], func(t *testing.T) {
				buf := &buffer{}
				wp := weak.Make(buf)
				how, _ := runOn(func() { call(buf, fail) })
				assert.Equal(t, map[bool]ending{false: returned, true: panicked}[fail], how)
				buf = nil
				runtime.GC()
				runtime.GC()
				assert.True(t, wp.Value() == nil, "the data of a call that has returned is still reachable")
			})
		}
	}
}
