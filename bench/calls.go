package main

import (
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/weftgo/weft/par"
)

// W11, calls of every size: a body over [0, n) for sizes whose sequential
// loop takes from about 3 µs to 3 ms, each size timed over back-to-back
// calls, once from one goroutine and once from four at a time. Each round
// runs every implementation for about callsRunTarget of calls, in an order
// drawn anew, and the figure of an implementation at a size is the median
// over rounds of the loop's time per call over its own in the same round
// (above 1: faster than the loop).

// callsRunTarget is about how long one timed run of an implementation at one
// size lasts: its calls back to back. Each goroutine makes one untimed call of
// the implementation first, so that every timed call follows another of its
// own: the runs of the other implementations in between leave weft's pool
// parked, and a call that follows an idle spell waits for a parked worker's
// wake-up (about 100 µs here), which W11 does not measure (go test ./par
// -run '^$' -bench CallAfterIdle does).
const callsRunTarget = 2 * time.Millisecond

// callsMinReps is the fewest rounds W11 runs: its paired ratios must tell a
// few percent apart.
const callsMinReps = 11

// callsCallers is the number of goroutines that call at once in the second
// curve of each body.
const callsCallers = 4

// callsCapFactor caps W11's competitors: one whose call at a size takes
// longer than callsRunTarget and callsCapFactor times the loop's, twice in a
// row, is out of the curve from that size; its figure there is that of its
// faster call, marked, and it is not called at larger sizes. A library that
// starts a goroutine or a task per element took seconds a call at W1's ten
// million elements, eleven rounds from four goroutines, and held the quick
// run of go run ./bench for more than twenty minutes; with 3 (the other
// workloads' seqCapFactor), a collection during the check could put out a
// library that runs at half the loop's speed. weft's implementations and the
// loop's floors are measured at every size whatever they take.
const callsCapFactor = 10

// callsBody is one body of W11 with its sizes and implementations.
type callsBody struct {
	id, def string
	sizes   []int
	// impls makes fresh implementations, whose results are their own, so
	// that several goroutines can each run a set.
	impls func(s *suite, in []int) []callImpl
}

// callImpl is one implementation of a W11 body.
type callImpl struct {
	name, about string
	kind        kind
	call        func(n int)   // one call on [0, n); keeps its result
	sum         func() string // the checksum of the last call's result
}

// callsCurve is W11 for one body and number of callers.
type callsCurve struct {
	Body    string       `json:"body"`
	Def     string       `json:"definition"`
	Callers int          `json:"callers"`
	Rounds  int          `json:"rounds"`
	Impls   []callsImpl  `json:"impls"`
	Rows    []*callsSize `json:"sizes"`
}

type callsImpl struct {
	Name  string `json:"name"`
	Kind  kind   `json:"kind"`
	About string `json:"about"`
}

// callsSize is one size of a curve: the loop's time per call, and for each
// implementation (in the curve's order) the median and the 10th and 90th
// percentiles over rounds of the loop's time over its own. Out says, for an
// implementation over the cap (callsCapFactor), "once" where its figure is
// of one call and "skipped" where it was not called (its figures are 0).
type callsSize struct {
	N     int           `json:"n"`
	Loop  time.Duration `json:"loop_ns"` // median per call
	Ratio []float64     `json:"ratio"`
	P10   []float64     `json:"ratio_p10"`
	P90   []float64     `json:"ratio_p90"`
	Out   []string      `json:"out,omitempty"`
}

// Values of callsSize.Out.
const (
	callsOnce    = "once"
	callsSkipped = "skipped"
)

// callsBodies are W11's bodies: W2's (about 27 ns an element here), W1's
// (memory-light, well under a nanosecond) and W7's (an allocation each).
func callsBodies() []*callsBody {
	return []*callsBody{
		{id: "W2", def: "W2's body summed over [0, n)",
			sizes: []int{100, 300, 700, 1000, 1500, 2000, 3000, 5000, 10_000, 20_000, 50_000, 100_000},
			impls: func(s *suite, in []int) []callImpl { return s.callSumImpls(in, w2Leaf, w2Elem) }},
		{id: "W1", def: "W1's body (x*x) summed over [0, n)",
			sizes: []int{10_000, 30_000, 100_000, 300_000, 1_000_000, 3_000_000, 10_000_000},
			impls: func(s *suite, in []int) []callImpl { return s.callSumImpls(in, w1Leaf, w1Elem) }},
		{id: "W7", def: "W7's body (strconv.Itoa) over [0, n) into a new []string",
			sizes: []int{100, 300, 1000, 3000, 10_000, 30_000, 100_000},
			impls: func(s *suite, in []int) []callImpl { return s.callItoaImpls(in) }},
	}
}

// callsMaxN is the largest size of W11.
func callsMaxN() int {
	n := 0
	for _, b := range callsBodies() {
		n = max(n, slices.Max(b.sizes))
	}
	return n
}

func add(a, b uint64) uint64 { return a + b }

// callsAdd and callsItoa are add and strconv.Itoa as function values that
// the compiler cannot see through (a package variable may be reassigned), for
// the floors below: the loop calling a function the way a library that takes
// it must.
var (
	callsAdd  = add
	callsItoa = strconv.Itoa
)

// callRange calls body over [0, n) through a function value: the floor of an
// implementation that runs a closure over the range (ForRange, halves).
//
//go:noinline
func callRange(body func(lo, hi int), n int) { body(0, n) }

// callSumImpls are the implementations of a summed body.
func (s *suite) callSumImpls(in []int, leaf func(lo, hi int) uint64, elem func(int) uint64) []callImpl {
	e := s.env
	var r uint64
	sum := func() string { return u64String(r) }
	out := []callImpl{
		{name: "loop", kind: kindSeq, about: "a plain loop", call: func(n int) { r = leaf(0, n) }},
		{name: "funcvalue", kind: kindSeq, about: "the loop calling f and add through function values, as MapReduce must: its floor",
			call: func(n int) {
				var acc uint64
				for _, x := range in[:n] {
					acc = callsAdd(acc, elem(x))
				}
				r = acc
			}},
		{name: "weft MapReduce", kind: kindWeft, about: "par.MapReduce(xs, f, 0, add)",
			call: func(n int) { r = par.MapReduce(in[:n], elem, 0, add, s.opts...) }},
		{name: "weft ReduceRange", kind: kindWeft, about: "par.ReduceRange(n, 0, leaf, add)",
			call: func(n int) { r = par.ReduceRange(n, 0, leaf, add, s.opts...) }},
		{name: "halves", kind: kindHand, about: "a goroutine per core over static halves, sync.WaitGroup",
			call: func(n int) { r = halvesSum(e.workers, n, leaf) }},
		{name: "blocks256", kind: kindHand, about: "a goroutine per core taking blocks of 256 from an atomic counter",
			call: func(n int) { r = blocksSum(e.workers, n, leaf) }},
	}
	for _, st := range s.callStrategies() {
		if st.sumU == nil {
			continue
		}
		out = append(out, callImpl{name: st.name, kind: st.kind, about: st.about,
			call: func(n int) { r = st.sumU(e, n, leaf, elem) }})
	}
	for i := range out {
		out[i].sum = sum
	}
	return out
}

// callItoaImpls are the implementations of W7's body.
func (s *suite) callItoaImpls(in []int) []callImpl {
	e := s.env
	var r []string
	sum := func() string { return stringsChecksum(r) }
	itoaRange := func(out []string) func(lo, hi int) {
		return func(lo, hi int) {
			for i := lo; i < hi; i++ {
				out[i] = strconv.Itoa(i)
			}
		}
	}
	out := []callImpl{
		{name: "loop", kind: kindSeq, about: "a plain loop", call: func(n int) { r = w7Seq(in[:n]) }},
		{name: "funcvalue", kind: kindSeq, about: "the loop calling strconv.Itoa through a function value, as Map must: its floor",
			call: func(n int) {
				r = make([]string, n)
				for i, x := range in[:n] {
					r[i] = callsItoa(x)
				}
			}},
		{name: "closure", kind: kindSeq, about: "the loop as a closure over [0, n), called once through a function value, as ForRange runs it: its floor",
			call: func(n int) {
				r = make([]string, n)
				callRange(itoaRange(r), n)
			}},
		{name: "weft Map", kind: kindWeft, about: "par.Map(xs, strconv.Itoa)",
			call: func(n int) { r = par.Map(in[:n], strconv.Itoa, s.opts...) }},
		{name: "weft ForRange", kind: kindWeft, about: "par.ForRange(n, ...) writing into a new []string",
			call: func(n int) {
				r = make([]string, n)
				par.ForRange(n, itoaRange(r), s.opts...)
			}},
		{name: "halves", kind: kindHand, about: "a goroutine per core over static halves, sync.WaitGroup",
			call: func(n int) {
				r = make([]string, n)
				halves(e.workers, n, itoaRange(r))
			}},
		{name: "blocks256", kind: kindHand, about: "a goroutine per core taking blocks of 256 from an atomic counter",
			call: func(n int) {
				r = make([]string, n)
				blocks(e.workers, n, itoaRange(r))
			}},
	}
	for _, st := range s.callStrategies() {
		if st.mapS == nil {
			continue
		}
		out = append(out, callImpl{name: st.name, kind: st.kind, about: st.about,
			call: func(n int) { r = st.mapS(e, in[:n], strconv.Itoa) }})
	}
	for i := range out {
		out[i].sum = sum
	}
	return out
}

// callStrategies are the competitors chosen, but for static, which is
// halves on two cores.
func (s *suite) callStrategies() []*strategy {
	var out []*strategy
	for _, st := range s.strategies {
		if st.name != "static" {
			out = append(out, st)
		}
	}
	return out
}

// halves runs body over [0, n) cut into one equal part per worker, each on a
// goroutine started for the call.
func halves(workers, n int, body func(lo, hi int)) {
	k := min(workers, max(n, 1))
	var wg sync.WaitGroup
	wg.Add(k)
	for c := range k {
		go func() {
			defer wg.Done()
			body(c*n/k, (c+1)*n/k)
		}()
	}
	wg.Wait()
}

func halvesSum(workers, n int, leaf func(lo, hi int) uint64) uint64 {
	var total atomic.Uint64
	halves(workers, n, func(lo, hi int) { total.Add(leaf(lo, hi)) })
	return total.Load()
}

// callsBlock is the block of blocks: the length each goroutine takes at once.
const callsBlock = 256

// blocks runs body over [0, n) in blocks of callsBlock that one goroutine per
// worker, started for the call, takes in turn from an atomic counter.
func blocks(workers, n int, body func(lo, hi int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	k := min(workers, (n+callsBlock-1)/callsBlock)
	wg.Add(k)
	for range k {
		go func() {
			defer wg.Done()
			for {
				lo := int(next.Add(callsBlock)) - callsBlock
				if lo >= n {
					return
				}
				body(lo, min(n, lo+callsBlock))
			}
		}()
	}
	wg.Wait()
}

func blocksSum(workers, n int, leaf func(lo, hi int) uint64) uint64 {
	var total atomic.Uint64
	blocks(workers, n, func(lo, hi int) { total.Add(leaf(lo, hi)) })
	return total.Load()
}

// calls measures W11: every body, from one goroutine and from callsCallers.
// It returns the curves and the errors found (a checksum that differs from
// the loop's).
func (s *suite) calls(reps int, prog *progress) ([]*callsCurve, []string) {
	var out []*callsCurve
	var errs []string
	for _, b := range callsBodies() {
		in := s.env.idx[:slices.Max(b.sizes)] // run sizes it to callsMaxN
		for _, callers := range []int{1, callsCallers} {
			c, e := s.callsCurve(b, in, callers, reps, prog)
			out = append(out, c)
			errs = append(errs, e...)
		}
	}
	return out, errs
}

// callsCurve measures one body from the given number of goroutines at once.
func (s *suite) callsCurve(b *callsBody, in []int, callers, reps int, prog *progress) (*callsCurve, []string) {
	sets := make([][]callImpl, callers) // one set of implementations per goroutine
	for g := range sets {
		sets[g] = b.impls(s, in)
	}
	c := &callsCurve{Body: b.id, Def: b.def, Callers: callers, Rounds: reps}
	for _, im := range sets[0] {
		c.Impls = append(c.Impls, callsImpl{Name: im.name, Kind: im.kind, About: im.about})
	}
	var errs []string
	rng := rand.New(rand.NewPCG(uint64(len(b.sizes)), uint64(callers)))
	gone := make([]bool, len(c.Impls)) // over the cap at a smaller size
	for _, n := range b.sizes {
		prog.show("W11 %s, %d caller(s): n = %s", b.id, callers, commas(n))
		// Check every implementation once, and size its runs: as many
		// calls as take about callsRunTarget, from a first timed call.
		calls := make([]int, len(c.Impls))
		first := make([]time.Duration, len(c.Impls))
		out := make([]string, len(c.Impls))
		for k := range c.Impls {
			im := sets[0][k]
			if gone[k] {
				out[k] = callsSkipped
				continue
			}
			timed := func() time.Duration {
				t0 := time.Now()
				im.call(n)
				return time.Since(t0)
			}
			d := timed()
			if k > 0 {
				if got, want := im.sum(), sets[0][0].sum(); got != want {
					errs = append(errs, fmt.Sprintf("W11 %s n=%d: %s's checksum %q differs from the loop's %q", b.id, n, im.name, got, want))
				}
				if limit := max(callsRunTarget, callsCapFactor*first[0]); d > limit && im.kind != kindWeft && im.kind != kindSeq {
					if d = min(d, timed()); d > limit {
						out[k], gone[k] = callsOnce, true
					}
				}
			}
			if k == 0 {
				sets[0][0].call(n) // the loop's result again, for the next check
			}
			first[k] = d
			calls[k] = max(1, int(callsRunTarget/max(d, time.Microsecond)))
		}
		times := make([][]time.Duration, len(c.Impls)) // per call, by round
		var order []int
		for k := range c.Impls {
			if out[k] == "" {
				order = append(order, k)
			}
		}
		for range reps {
			rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
			for _, k := range order {
				d := runCalls(sets, k, n, calls[k])
				times[k] = append(times[k], d/time.Duration(calls[k]))
			}
		}
		row := &callsSize{N: n, Loop: median(times[0])}
		for k := range c.Impls {
			var r10, r50, r90 float64
			switch out[k] {
			case callsOnce:
				r10 = float64(row.Loop) / float64(first[k])
				r50, r90 = r10, r10
			case "":
				rs := make([]float64, reps)
				for r := range reps {
					rs[r] = float64(times[0][r]) / float64(times[k][r])
				}
				slices.Sort(rs)
				r10, r50, r90 = quantile(rs, 0.1), quantile(rs, 0.5), quantile(rs, 0.9)
			}
			row.Ratio = append(row.Ratio, r50)
			row.P10 = append(row.P10, r10)
			row.P90 = append(row.P90, r90)
		}
		if slices.ContainsFunc(out, func(o string) bool { return o != "" }) {
			row.Out = out
		}
		c.Rows = append(c.Rows, row)
	}
	return c, errs
}

// runCalls makes calls calls of implementation k at size n from each of
// len(sets) goroutines at once, and returns how long they took in all. With
// more than one goroutine, each yields its processor after every call, as a
// handler that waits for its next request would: otherwise the Go scheduler,
// which preempts a goroutine only after 10 ms, runs two of four to the end
// of their run and then the other two, and only an implementation that
// blocks in a call (a WaitGroup, or a caller waiting for a stolen piece) lets
// the four take turns.
func runCalls(sets [][]callImpl, k, n, calls int) time.Duration {
	if len(sets) == 1 {
		f := sets[0][k].call
		f(n) // untimed: see callsRunTarget
		t0 := time.Now()
		for range calls {
			f(n)
		}
		return time.Since(t0)
	}
	var ready, done sync.WaitGroup
	start := make(chan struct{})
	ready.Add(len(sets))
	done.Add(len(sets))
	for _, set := range sets {
		go func() {
			defer done.Done()
			f := set[k].call
			f(n) // untimed: see callsRunTarget
			ready.Done()
			<-start
			for range calls {
				f(n)
				runtime.Gosched()
			}
		}()
	}
	ready.Wait()
	t0 := time.Now()
	close(start)
	done.Wait()
	return time.Since(t0)
}

// quantile returns the q-quantile of sorted xs, by the nearest rank.
func quantile(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	return xs[min(len(xs)-1, int(q*float64(len(xs))))]
}

// writeCallsText prints W11's curves as tables: a row per size, a column per
// implementation, each cell the median over rounds of the loop's time over
// the implementation's (above 1: faster than the loop).
func writeCallsText(out io.Writer, cs []*callsCurve) {
	for _, c := range cs {
		fmt.Fprintf(out, "\nW11 calls of every size: %s, %d calling goroutine(s), %d rounds; loop time per call over each one's, median over rounds\n",
			c.Def, c.Callers, c.Rounds)
		var hdr strings.Builder
		fmt.Fprintf(&hdr, "  %10s %9s", "n", "loop")
		for _, im := range c.Impls[1:] {
			fmt.Fprintf(&hdr, " %*s", max(9, len(im.Name)), im.Name)
		}
		fmt.Fprintln(out, hdr.String())
		once := false
		for _, r := range c.Rows {
			var l strings.Builder
			fmt.Fprintf(&l, "  %10s %9s", commas(r.N), fmtDur(r.Loop))
			for k, im := range c.Impls[1:] {
				cell := fmt.Sprintf("%.3f", r.Ratio[k+1])
				switch r.out(k + 1) {
				case callsOnce:
					cell += "*"
					once = true
				case callsSkipped:
					cell = "-"
				}
				fmt.Fprintf(&l, " %*s", max(9, len(im.Name)), cell)
			}
			fmt.Fprintln(out, l.String())
		}
		if once {
			fmt.Fprintf(out, "  * one call, over %dx the loop's and %s (twice): not repeated, nor called at the sizes after it (-)\n",
				callsCapFactor, fmtDur(callsRunTarget))
		}
	}
}

// out returns what r.Out says of implementation k ("" if it was measured).
func (r *callsSize) out(k int) string {
	if k < len(r.Out) {
		return r.Out[k]
	}
	return ""
}
