package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"iter"
	"slices"
	"sync/atomic"
	"time"

	"github.com/weftgo/weft/par"
)

// The operations of the soak. Each makes one or a few library calls on random
// inputs and returns an error if a result differs from the sequential
// computation of the same thing; a panic that it did not inject is a mismatch
// too.

type soakOp struct {
	name   string
	weight int
	run    func(g *soakG) error
}

func soakOps() []soakOp {
	return []soakOp{
		{"sum", 4, soakSum},
		{"map", 3, soakMap},
		{"filter", 2, soakFilter},
		{"reduce", 2, soakReduce},
		{"find", 3, soakFind},
		{"minmax-count", 1, soakMinMaxCount},
		{"mapseq-break", 2, soakMapSeq},
		{"seq-full", 1, soakSeqFull},
		{"maperr-cancel", 1, soakMapErrCancel},
		{"maperr-error", 2, soakMapErr},
		{"sort", 1, soakSort},
		{"join2", 2, soakJoin2},
		{"scope", 1, soakScope},
		{"nested", 2, soakNested},
		{"private-pool", 2, soakPrivate},
		{"own-pool", 1, soakOwnPool},
		{"panic", 1, soakPanic},
	}
}

// soakG is the state of one goroutine of the soak. Owner only.
type soakG struct {
	s     *soak
	rng   uint64
	total int // sum of the ops' weights
	buf   []uint64
	steps int // operations run so far
	first int // the op that the goroutine's first step runs
}

func newSoakG(s *soak, seed uint64, first int) *soakG {
	g := &soakG{s: s, rng: seed | 1, first: first}
	for _, op := range s.ops {
		g.total += op.weight
	}
	return g
}

// next is xorshift64*.
func (g *soakG) next() uint64 {
	x := g.rng
	x ^= x >> 12
	x ^= x << 25
	x ^= x >> 27
	g.rng = x
	return x * 0x2545F4914F6CDD1D
}

// intn returns a number in [0, n); 0 if n <= 0.
func (g *soakG) intn(n int) int {
	if n <= 0 {
		return 0
	}
	return int(g.next() % uint64(n))
}

// step runs one operation: each in turn for the first steps, so that even a
// short run covers them all, then one chosen by weight.
func (g *soakG) step() {
	var i int
	if g.steps < len(g.s.ops) {
		i = (g.first + g.steps) % len(g.s.ops)
	} else {
		r := g.intn(g.total)
		for ; r >= g.s.ops[i].weight; i++ {
			r -= g.s.ops[i].weight
		}
	}
	g.steps++
	t0 := time.Now()
	err := g.safely(g.s.ops[i].run)
	c := &g.s.counts[i]
	c.nanos.Add(int64(time.Since(t0)))
	c.calls.Add(1)
	g.s.calls.Add(1)
	if err != nil {
		g.s.mismatch(i, err)
	}
}

func (g *soakG) safely(f func(*soakG) error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("unexpected panic: %v", r)
		}
	}()
	return f(g)
}

// size returns a random input length: mostly small and medium, now and then
// up to maxN, and the edge lengths 0 to 3 and 17.
func (g *soakG) size() int {
	var n int
	switch r := g.intn(100); {
	case r < 10:
		n = []int{0, 1, 2, 3, 17}[g.intn(5)]
	case r < 45:
		n = g.intn(2_000)
	case r < 85:
		n = g.intn(50_000)
	case r < 98:
		n = g.intn(300_000)
	default:
		n = g.intn(g.s.cfg.maxN + 1)
	}
	return min(n, g.s.cfg.maxN)
}

// reuseMax is the longest input kept for reuse: longer ones are allocated
// afresh, so that the live heap during the run is what the calls in progress
// hold, not the largest input each goroutine has seen.
const reuseMax = 1 << 16

// input returns n random numbers, in a buffer the goroutine reuses if n is at
// most reuseMax.
func (g *soakG) input(n int) []uint64 {
	var xs []uint64
	if n > reuseMax {
		xs = make([]uint64, n)
	} else {
		if g.buf == nil {
			g.buf = make([]uint64, reuseMax)
		}
		xs = g.buf[:n]
	}
	for i := range xs {
		xs[i] = g.next()
	}
	return xs
}

// opts returns, now and then, a grain or a minimum length for a call.
func (g *soakG) opts() []par.Option {
	switch g.intn(10) {
	case 0:
		return []par.Option{par.WithGrain(1 + g.intn(4096))}
	case 1:
		return []par.Option{par.WithMinLen(1 + g.intn(4096))}
	}
	return nil
}

func mix(x uint64) uint64 { return x*31 + 7 }

func soakSum(g *soakG) error {
	xs := g.input(g.size())
	var want uint64
	for _, x := range xs {
		want += x
	}
	if g.s.cfg.corrupt && len(xs) > 0 {
		want++
	}
	if got := par.Sum(xs, g.opts()...); got != want {
		return fmt.Errorf("par.Sum of %d uint64: %d, want %d", len(xs), got, want)
	}
	// Small integers as float64: every order of addition is exact.
	fs := make([]float64, len(xs))
	var fwant float64
	for i, x := range xs {
		fs[i] = float64(x % 1024)
		fwant += fs[i]
	}
	if got := par.Sum(fs, g.opts()...); got != fwant {
		return fmt.Errorf("par.Sum of %d float64: %v, want %v", len(fs), got, fwant)
	}
	return nil
}

func soakMap(g *soakG) error {
	xs := g.input(g.size())
	got := par.Map(xs, mix, g.opts()...)
	if len(got) != len(xs) {
		return fmt.Errorf("par.Map of %d: %d results", len(xs), len(got))
	}
	for i, x := range xs {
		if got[i] != mix(x) {
			return fmt.Errorf("par.Map of %d: [%d] = %d, want %d", len(xs), i, got[i], mix(x))
		}
	}
	return nil
}

func soakFilter(g *soakG) error {
	xs := g.input(g.size())
	m := uint64(1 + g.intn(5))
	keep := func(x uint64) bool { return x%m == 0 }
	var want []uint64
	for _, x := range xs {
		if keep(x) {
			want = append(want, x)
		}
	}
	got := par.Filter(xs, keep, g.opts()...)
	if !slices.Equal(got, want) {
		return fmt.Errorf("par.Filter of %d (%% %d): %d kept, want %d, or not in order", len(xs), m, len(got), len(want))
	}
	return nil
}

// affine is x -> a*x + b; composing them is associative but not commutative,
// so a reduction that combined pieces out of order would show.
type affine struct{ a, b uint64 }

func (l affine) then(r affine) affine { return affine{l.a * r.a, l.b*r.a + r.b} }

func toAffine(x uint64) affine { return affine{x | 1, x >> 7} }

func soakReduce(g *soakG) error {
	xs := g.input(g.size())
	id := affine{1, 0}
	want := id
	for _, x := range xs {
		want = want.then(toAffine(x))
	}
	if got := par.MapReduce(xs, toAffine, id, affine.then, g.opts()...); got != want {
		return fmt.Errorf("MapReduce of %d: %v, want %v", len(xs), got, want)
	}
	as := par.Map(xs, toAffine)
	if got := par.Reduce(as, id, affine.then, g.opts()...); got != want {
		return fmt.Errorf("par.Reduce of %d: %v, want %v", len(xs), got, want)
	}
	return nil
}

func soakFind(g *soakG) error {
	xs := g.input(g.size())
	n := len(xs)
	// A single target, or none when k lands past the end.
	var target uint64
	if k := g.intn(n + n/4 + 1); k < n {
		target = xs[k]
	} else {
		target = g.next() | 1<<63 // improbable among random numbers; checked below all the same
	}
	is := func(x uint64) bool { return x == target }
	if got, want := par.FindIndex(xs, is, g.opts()...), slices.IndexFunc(xs, is); got != want {
		return fmt.Errorf("FindIndex of %d: %d, want %d", n, got, want)
	}
	// Many matches: the first one must win, and the early exit must not lose it.
	m := uint64(1 + g.intn(2000))
	div := func(x uint64) bool { return x%m == 0 }
	want := slices.IndexFunc(xs, div)
	got, ok := par.Find(xs, div, g.opts()...)
	if ok != (want >= 0) || (ok && got != xs[want]) {
		return fmt.Errorf("par.Find of %d (%% %d): %d %v, want index %d", n, m, got, ok, want)
	}
	if got, want := par.Any(xs, div), want >= 0; got != want {
		return fmt.Errorf("par.Any of %d: %v, want %v", n, got, want)
	}
	notDiv := func(x uint64) bool { return !div(x) }
	if got, want := par.All(xs, notDiv), want < 0; got != want {
		return fmt.Errorf("par.All of %d: %v, want %v", n, got, want)
	}
	return nil
}

func soakMinMaxCount(g *soakG) error {
	xs := g.input(g.size())
	if len(xs) > 0 {
		if got, want := par.Min(xs), slices.Min(xs); got != want {
			return fmt.Errorf("par.Min of %d: %d, want %d", len(xs), got, want)
		}
		if got, want := par.Max(xs), slices.Max(xs); got != want {
			return fmt.Errorf("par.Max of %d: %d, want %d", len(xs), got, want)
		}
	}
	odd := func(x uint64) bool { return x&1 == 1 }
	want := 0
	var sum uint64
	for _, x := range xs {
		if odd(x) {
			want++
		}
		sum += x
	}
	if got := par.Count(xs, odd, g.opts()...); got != want {
		return fmt.Errorf("par.Count of %d: %d, want %d", len(xs), got, want)
	}
	var total atomic.Uint64
	par.ForEach(xs, func(x uint64) { total.Add(x) }, g.opts()...)
	if total.Load() != sum {
		return fmt.Errorf("ForEach of %d: sum %d, want %d", len(xs), total.Load(), sum)
	}
	return nil
}

// counting returns the sequence 0, 1, ..., n-1 and a counter of the elements
// pulled.
func counting(n int, pulled *atomic.Int64) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := range n {
			pulled.Add(1)
			if !yield(i) {
				return
			}
		}
	}
}

func soakMapSeq(g *soakG) error {
	n := g.size()
	stopAt := min(n, 1+g.intn(n+1)) // n: range over all of it
	var pulled atomic.Int64
	i := 0
	for r := range par.MapSeq(counting(n, &pulled), w2Elem, g.opts()...) {
		if r != w2Elem(i) {
			return fmt.Errorf("MapSeq of %d: [%d] = %d, want %d", n, i, r, w2Elem(i))
		}
		i++
		if i == stopAt {
			break
		}
	}
	if i != stopAt {
		return fmt.Errorf("MapSeq of %d broken at %d: %d results", n, stopAt, i)
	}
	if p := pulled.Load(); p < int64(stopAt) || p > int64(n) {
		return fmt.Errorf("MapSeq of %d broken at %d: pulled %d", n, stopAt, p)
	}
	return nil
}

func soakSeqFull(g *soakG) error {
	n := g.size()
	var pulled atomic.Int64
	var want []int
	var wsum uint64
	for i := range n {
		if w2Elem(i)%3 == 0 {
			want = append(want, i)
		}
		wsum += w2Elem(i)
	}
	got := slices.Collect(par.FilterSeq(counting(n, &pulled), func(i int) bool { return w2Elem(i)%3 == 0 }, g.opts()...))
	if !slices.Equal(got, want) {
		return fmt.Errorf("FilterSeq of %d: %d kept, want %d, or not in order", n, len(got), len(want))
	}
	mapped := par.MapSeq(counting(n, &pulled), w2Elem)
	if got := par.SumSeq(mapped, g.opts()...); got != wsum {
		return fmt.Errorf("SumSeq of MapSeq of %d: %d, want %d", n, got, wsum)
	}
	return nil
}

// indices returns 0, 1, ..., n-1.
func indices(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

var errSoakCause = errors.New("soak: cancelled by the test")

func soakMapErrCancel(g *soakG) error {
	n := max(1, g.size())
	is := indices(n)
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	if g.intn(8) == 0 {
		// Cancelled before the call: f must not run.
		cancel(errSoakCause)
		var ran atomic.Bool
		out, err := par.MapErr(ctx, is, func(context.Context, int) (int, error) { ran.Store(true); return 0, nil })
		if err != errSoakCause || out != nil || ran.Load() {
			return fmt.Errorf("MapErr on an ended context: %v, %d results, f ran: %v", err, len(out), ran.Load())
		}
		return nil
	}
	// Element k cancels ctx, then waits for the call's context to end and
	// reports that: the call must stop and give ctx's cause.
	k := g.intn(n)
	out, err := par.MapErr(ctx, is, func(c context.Context, i int) (int, error) {
		if i == k {
			cancel(errSoakCause)
			<-c.Done()
			return 0, c.Err()
		}
		return 3 * i, nil
	}, g.opts()...)
	if err != errSoakCause || out != nil {
		return fmt.Errorf("MapErr of %d cancelled at %d: error %v, %d results; want the cause and none", n, k, err, len(out))
	}
	return nil
}

// indexErr is the error of element i.
type indexErr struct{ i int }

func (e *indexErr) Error() string { return fmt.Sprintf("element %d failed", e.i) }

func soakMapErr(g *soakG) error {
	n := g.size()
	is := indices(n)
	fails := make([]bool, n)
	nf := 0
	if n > 0 {
		nf = g.intn(4) // 0 to 3 failing elements
		for range nf {
			fails[g.intn(n)] = true
		}
	}
	ran := make([]atomic.Bool, n)
	f := func(c context.Context, i int) (int, error) {
		ran[i].Store(true)
		if fails[i] {
			return 0, &indexErr{i}
		}
		return 3 * i, nil
	}
	var out []int
	var err error
	each := g.intn(2) == 0
	if each {
		err = par.ForEachErr(context.Background(), is, func(c context.Context, i int) error {
			_, err := f(c, i)
			return err
		}, g.opts()...)
	} else {
		out, err = par.MapErr(context.Background(), is, f, g.opts()...)
	}
	// The error is the failure of the lowest index among the elements that ran.
	want := -1
	for i := range n {
		if fails[i] && ran[i].Load() {
			want = i
			break
		}
	}
	if want < 0 {
		if slices.Contains(fails, true) {
			// Only a failure can stop this call, so a failing element must have run.
			return fmt.Errorf("MapErr of %d: no failing element ran; error %v", n, err)
		}
		for i := range ran {
			if !ran[i].Load() {
				return fmt.Errorf("MapErr of %d without failure: element %d never ran", n, i)
			}
		}
		if err != nil {
			return fmt.Errorf("MapErr of %d without failure: %v", n, err)
		}
		if !each {
			for i, r := range out {
				if r != 3*i {
					return fmt.Errorf("MapErr of %d: [%d] = %d, want %d", n, i, r, 3*i)
				}
			}
			if len(out) != n {
				return fmt.Errorf("MapErr of %d: %d results", n, len(out))
			}
		}
		return nil
	}
	var ie *indexErr
	if !errors.As(err, &ie) || ie.i != want || out != nil {
		return fmt.Errorf("MapErr of %d failing at %v: error %v, %d results; want element %d's and none", n, nf, err, len(out), want)
	}
	return nil
}

type keyed struct {
	key uint64
	pos int
}

func soakSort(g *soakG) error {
	xs := slices.Clone(g.input(g.size()))
	want := slices.Clone(xs)
	slices.Sort(want)
	switch g.intn(3) {
	case 0:
		par.Sort(xs, g.opts()...)
		if !slices.Equal(xs, want) {
			return fmt.Errorf("par.Sort of %d: not the sorted input", len(xs))
		}
	case 1:
		par.SortFunc(xs, func(a, b uint64) int { return cmp.Compare(b, a) }, g.opts()...)
		slices.Reverse(want)
		if !slices.Equal(xs, want) {
			return fmt.Errorf("SortFunc (descending) of %d: not the sorted input", len(xs))
		}
	default:
		ks := make([]keyed, len(xs))
		for i, x := range xs {
			ks[i] = keyed{x % 64, i}
		}
		par.SortStableFunc(ks, func(a, b keyed) int { return cmp.Compare(a.key, b.key) }, g.opts()...)
		for i := 1; i < len(ks); i++ {
			a, b := ks[i-1], ks[i]
			if a.key > b.key || (a.key == b.key && a.pos > b.pos) {
				return fmt.Errorf("SortStableFunc of %d: %v before %v", len(ks), a, b)
			}
		}
	}
	return nil
}

// treeSum sums [lo, hi) by halving it with Worker.Join down to leaves of one.
func treeSum(w *par.Worker, lo, hi int) uint64 {
	if hi-lo <= 1 {
		if hi > lo {
			return mix(uint64(lo))
		}
		return 0
	}
	mid := lo + (hi-lo)/2
	var a, b uint64
	w.Join(func(w *par.Worker) { a = treeSum(w, lo, mid) }, func(w *par.Worker) { b = treeSum(w, mid, hi) })
	return a + b
}

func soakJoin2(g *soakG) error {
	n := g.intn(25)
	cutoff := g.intn(2) == 0
	if got, want := weftFibDo(n, cutoff, nil), fib(n); got != want {
		return fmt.Errorf("fib(%d) with Join2 (cutoff %v): %d, want %d", n, cutoff, got, want)
	}
	m := g.intn(5000)
	var got uint64
	par.Do(func(w *par.Worker) { got = treeSum(w, 0, m) })
	var want uint64
	for i := range m {
		want += mix(uint64(i))
	}
	if got != want {
		return fmt.Errorf("tree sum of %d with Worker.Join: %d, want %d", m, got, want)
	}
	var a, b uint64
	par.Join(func() { a = fib(n / 2) }, func() { b = fib(n/2 + 1) })
	if a+b != fib(n/2+2) {
		return fmt.Errorf("par.Join of fib(%d) and fib(%d): %d + %d", n/2, n/2+1, a, b)
	}
	return nil
}

func soakScope(g *soakG) error {
	depth := g.intn(11)
	var nodes atomic.Int64
	var sum atomic.Uint64
	var node func(s *par.Spawner, w *par.Worker, d int, id uint64)
	node = func(s *par.Spawner, w *par.Worker, d int, id uint64) {
		nodes.Add(1)
		sum.Add(id)
		if d == 0 {
			return
		}
		for c := uint64(0); c < 2; c++ {
			child := 2*id + c
			if id%5 == 0 {
				s.Go(func(w *par.Worker) { node(s, w, d-1, child) })
			} else {
				s.Spawn(w, func(w *par.Worker) { node(s, w, d-1, child) })
			}
		}
	}
	par.Scope(func(s *par.Spawner, w *par.Worker) { node(s, w, depth, 1) })
	// Ids 1 .. 2^(depth+1)-1, each once.
	m := uint64(1)<<(depth+1) - 1
	if nodes.Load() != int64(m) || sum.Load() != m*(m+1)/2 {
		return fmt.Errorf("par.Scope tree of depth %d: %d nodes summing to %d, want %d and %d",
			depth, nodes.Load(), sum.Load(), m, m*(m+1)/2)
	}
	return nil
}

func soakNested(g *soakG) error {
	xs := g.input(g.size())
	parts := 1 + g.intn(16)
	sums := make([]uint64, parts)
	maps := make([][]uint64, parts)
	piece := func(i int) []uint64 { return xs[i*len(xs)/parts : (i+1)*len(xs)/parts] }
	// Calls made from inside a task of another call.
	par.For(parts, func(i int) {
		sums[i] = par.Sum(piece(i))
		maps[i] = par.Map(piece(i), mix)
	}, par.WithGrain(1))
	for i := range parts {
		var want uint64
		for j, x := range piece(i) {
			want += x
			if maps[i][j] != mix(x) {
				return fmt.Errorf("par.Map nested in For, part %d of %d: [%d] wrong", i, parts, j)
			}
		}
		if sums[i] != want {
			return fmt.Errorf("par.Sum nested in For, part %d of %d: %d, want %d", i, parts, sums[i], want)
		}
	}
	var kept []uint64
	var red uint64
	par.Join(func() { kept = par.Filter(xs, func(x uint64) bool { return x&3 == 0 }) },
		func() { red = par.Reduce(xs, 0, func(a, b uint64) uint64 { return a ^ b }) })
	var wantRed uint64
	var wantKept []uint64
	for _, x := range xs {
		wantRed ^= x
		if x&3 == 0 {
			wantKept = append(wantKept, x)
		}
	}
	if red != wantRed || !slices.Equal(kept, wantKept) {
		return fmt.Errorf("par.Filter and Reduce of %d under Join: wrong", len(xs))
	}
	return nil
}

// soakPrivate calls the shared private pool, which a rotator closes and
// replaces, and the default pool from inside its tasks.
func soakPrivate(g *soakG) error {
	xs := g.input(g.size())
	g.s.privMu.RLock()
	defer g.s.privMu.RUnlock()
	on := par.OnPool(g.s.priv)
	var want uint64
	for _, x := range xs {
		want += x
	}
	if got := par.Sum(xs, on); got != want {
		return fmt.Errorf("par.Sum of %d on a private pool: %d, want %d", len(xs), got, want)
	}
	n := g.intn(22)
	if got := weftFibDo(n, false, []par.Option{on}); got != fib(n) {
		return fmt.Errorf("fib(%d) on a private pool: %d", n, got)
	}
	half := len(xs) / 2
	var a, b uint64
	par.Join(func() { a = par.Sum(xs[:half]) }, func() { b = par.Sum(xs[half:], on) }, on)
	if a+b != want {
		return fmt.Errorf("sums of %d on both pools under Join on a private pool: %d, want %d", len(xs), a+b, want)
	}
	return nil
}

// soakOwnPool starts a pool, uses it, closes it, and checks that a call after
// Close panics with ErrClosed.
func soakOwnPool(g *soakG) error {
	p := par.NewPool(par.Workers(1 + g.intn(4)))
	g.s.privPools.Add(1)
	closed := false
	defer func() {
		if !closed {
			p.Close()
		}
	}()
	xs := g.input(g.size())
	got := par.Map(xs, mix, par.OnPool(p))
	for i, x := range xs {
		if got[i] != mix(x) {
			return fmt.Errorf("par.Map of %d on its own pool: [%d] wrong", len(xs), i)
		}
	}
	var s uint64
	par.Do(func(w *par.Worker) { s = treeSum(w, 0, len(xs)) }, par.OnPool(p))
	var want uint64
	for i := range xs {
		want += mix(uint64(i))
	}
	if s != want {
		return fmt.Errorf("tree sum of %d on its own pool: %d, want %d", len(xs), s, want)
	}
	p.Close()
	closed = true
	g.s.addPrivStats(p.Stats())
	var r any
	func() {
		defer func() { r = recover() }()
		// Not empty: see TestClosedPoolEmptyCallPanics in par/pool_test.go.
		par.Sum(g.input(1+g.intn(1000)), par.OnPool(p))
	}()
	if err, ok := r.(error); !ok || !errors.Is(err, par.ErrClosed) {
		return fmt.Errorf("par.Sum on a closed pool: recovered %v, want an error that wraps ErrClosed", r)
	}
	return nil
}

// injected is the value of a panic the soak injects; its address tells it
// apart (it is not of size zero, whose allocations may share an address).
type injected struct{ at int }

// soakPanic injects a panic into one element or task of a call and requires
// that the caller recovers exactly that value.
func soakPanic(g *soakG) error {
	n := 1 + g.size()
	k := g.intn(n)
	want := &injected{at: k}
	is := indices(n)
	at := func(i int) {
		if i == k {
			panic(want)
		}
	}
	calls := []struct {
		name string
		f    func()
	}{
		{"Map", func() { par.Map(is, func(i int) int { at(i); return i }, g.opts()...) }},
		{"For", func() { par.For(n, at, g.opts()...) }},
		{"Filter", func() { par.Filter(is, func(i int) bool { at(i); return true }, g.opts()...) }},
		{"MapErr", func() {
			par.MapErr(context.Background(), is, func(_ context.Context, i int) (int, error) { at(i); return i, nil }, g.opts()...)
		}},
		{"MapSeq", func() {
			for range par.MapSeq(counting(n, new(atomic.Int64)), func(i int) int { at(i); return i }) {
			}
		}},
		{"Join2", func() {
			var rec func(w *par.Worker, r [2]int) int
			rec = func(w *par.Worker, r [2]int) int {
				if r[1]-r[0] <= 1 {
					at(r[0])
					return 1
				}
				mid := (r[0] + r[1]) / 2
				a, b := par.Join2(w, rec, [2]int{r[0], mid}, rec, [2]int{mid, r[1]})
				return a + b
			}
			par.Do(func(w *par.Worker) { rec(w, [2]int{0, min(n, 4096)}) })
		}},
		{"Scope", func() {
			par.Scope(func(s *par.Spawner, w *par.Worker) {
				for i := range min(n, 256) {
					s.Spawn(w, func(*par.Worker) { at(i) })
				}
			})
		}},
		{"SortFunc", func() {
			var calls atomic.Int64
			m := int64(1 + g.intn(max(1, n-1)))
			xs := slices.Clone(g.input(max(n, 2)))
			par.SortFunc(xs, func(a, b uint64) int {
				if calls.Add(1) == m {
					panic(want)
				}
				return cmp.Compare(a, b)
			})
		}},
	}
	c := calls[g.intn(len(calls))]
	if c.name == "Join2" {
		k = g.intn(min(n, 4096))
	}
	if c.name == "Scope" {
		k = g.intn(min(n, 256))
	}
	var r any
	func() {
		defer func() { r = recover() }()
		c.f()
	}()
	if r != want {
		return fmt.Errorf("panic injected into %s of %d at %d: recovered %v", c.name, n, k, r)
	}
	g.s.panics.Add(1)
	return nil
}
