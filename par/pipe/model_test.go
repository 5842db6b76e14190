package pipe_test

import (
	"cmp"
	"fmt"
	"io"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/weftgo/weft/internal/torture"
	"github.com/weftgo/weft/par"
	"github.com/weftgo/weft/par/pipe"
)

// The model-based test of the package: random pipes, from every source (a
// Reader's among them) through every stage to every terminal, each checked against a plain
// sequential model of the same pipe built on slices (the items in order, with
// their positions), on pools of 1, 2 and 8 workers, adaptive or with a fixed
// grain of 1 to 7 positions. A pipe is described by a stream of small draws,
// so that TestModel draws it from a seeded generator and FuzzModel from the
// fuzzer's bytes, with one builder and one checker for both.
//
//	go test ./par/pipe -run TestModel                             # a few seconds of random cases
//	go test ./par/pipe -run TestModel -torture.dur=5m             # longer
//	go test ./par/pipe -run TestModel -torture.case=0x1234        # replay one case
//	go test ./par/pipe -run '^$' -fuzz FuzzModel -fuzztime 5m     # the fuzzer
//
// A failing case prints its seed and the pipe it built, source to terminal.

// drawer is where a case's choices come from: each draw is in [0, n).
type drawer interface{ intn(n int) int }

type randDrawer struct{ r *rand.Rand }

func (d randDrawer) intn(n int) int { return d.r.IntN(n) }

// byteDrawer draws from the fuzzer's bytes, as many per draw as n needs; once
// they run out, every draw is 0.
type byteDrawer struct{ b []byte }

func (d *byteDrawer) intn(n int) int {
	v := 0
	for k := n - 1; k > 0; k >>= 8 {
		v <<= 8
		if len(d.b) > 0 {
			v |= int(d.b[0])
			d.b = d.b[1:]
		}
	}
	return v % n
}

// pick returns one of xs.
func pick[T any](d drawer, xs ...T) T { return xs[d.intn(len(xs))] }

// mod is x mod m in [0, m), for any sign of x.
func mod(x, m int) int { return (x%m + m) % m }

// model is what a pipe should yield: its items in order, the position of
// each (see the package's notes on positions), its Len, and whether it is
// one-to-one (Take, Skip, StepBy and Rev accept it).
type model struct {
	items, pos []int
	n          int
	oneToOne   bool
}

// counter counts the calls of an Inspect stage; want is the number of items
// that pass it, which a terminal that consumes every item must call it on,
// while exact (no stage after it picks items, which would run it on fewer,
// or runs a find of its own).
type counter struct {
	calls atomic.Int64
	want  int
	exact bool
}

// modelCase is a pipe and its model, with the options of its calls.
type modelCase struct {
	desc    []string
	p       pipe.Pipe[int]
	m       model
	opts    []par.Option
	inspect []*counter
	reader  *pipe.Reader // the source's, if it is a Reader's pipe
	errs    []string
}

func (c *modelCase) errorf(format string, args ...any) {
	c.errs = append(c.errs, fmt.Sprintf(format, args...))
}

func (c *modelCase) String() string { return strings.Join(c.desc, " → ") }

// modelSizes are the lengths of the slices and texts drawn: empty, tiny, a
// batch and around it, and a few batches.
var modelSizes = []int{0, 1, 2, 3, 5, 7, 17, 100, 255, 256, 257, 1000, 2000}

// enc maps a piece (a chunk, a window, a piece of text) to an int that tells
// apart pieces that differ in length, capacity or content, so that the
// source's items can go through the int stages and be compared.
func enc[E int | byte](s []E) int {
	h := len(s)*1_000_003 + cap(s)*7919
	for _, v := range s {
		h = h*31 + int(v)
	}
	return h
}

func encString(s string) int { return enc([]byte(s)) }

// modelText returns a text of n bytes of one of five layouts: words, long
// fields, nothing but separators, any of the bytes the text sources cut on,
// and one field of the whole text but for a separator or two.
func modelText(d drawer, r *rand.Rand, n int) string {
	alphabet := pick(d, "abc de,\nf", "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx,\n ", ",\n \t", "a,\n \t,\n", "")
	b := make([]byte, n)
	if alphabet == "" {
		for i := range b {
			b[i] = 'x'
		}
		for range min(n, 2) {
			b[r.IntN(n)] = ",\n "[r.IntN(3)]
		}
		return string(b)
	}
	for i := range b {
		b[i] = alphabet[r.IntN(len(alphabet))]
	}
	return string(b)
}

// textModel is the model of a text source: the pieces of s with the byte at
// which each starts, as the standard library cuts them (textPieces).
func textModel(s, source string) model {
	m := model{n: len(s)}
	if source == "Split" {
		m.n = len(s) + 1 // the piece after a last separator starts at len(s)
	}
	for _, p := range textPieces(s, source) {
		m.items = append(m.items, encString(s[p.i:p.x]))
		m.pos = append(m.pos, p.i)
	}
	return m
}

// counting returns the model of a one-to-one pipe of the given items.
func counting(items []int) model {
	pos := make([]int, len(items))
	for i := range pos {
		pos[i] = i
	}
	return model{items: items, pos: pos, n: len(items), oneToOne: true}
}

// source draws the source of c, with its data from r.
func (c *modelCase) source(d drawer, r *rand.Rand) {
	n := pick(d, modelSizes...)
	ints := func() []int {
		xs := make([]int, n)
		for i := range xs {
			xs[i] = r.IntN(2001) - 1000
		}
		return xs
	}
	span := func(lo, count int) []int {
		xs := make([]int, count)
		for i := range xs {
			xs[i] = lo + i
		}
		return xs
	}
	switch d.intn(11) {
	case 0:
		xs := ints()
		c.p, c.m = pipe.From(xs), counting(slices.Clone(xs))
		c.desc = append(c.desc, fmt.Sprintf("From(%d ints)", n))
	case 1:
		lo := d.intn(101) - 50
		c.p, c.m = pipe.Range(lo, lo+n), counting(span(lo, n))
		c.desc = append(c.desc, fmt.Sprintf("Range(%d, %d)", lo, lo+n))
	case 2:
		lo := math.MinInt + d.intn(3)
		c.p, c.m = pipe.Range(lo, lo+n), counting(span(lo, n))
		c.desc = append(c.desc, fmt.Sprintf("Range(MinInt+%d, +%d)", lo-math.MinInt, n))
	case 3:
		hi := math.MaxInt - d.intn(3)
		c.p, c.m = pipe.Range(hi-n, hi), counting(span(hi-n, n))
		c.desc = append(c.desc, fmt.Sprintf("Range(MaxInt-%d, MaxInt-%d)", math.MaxInt-(hi-n), math.MaxInt-hi))
	case 4: // a range of about math.MaxInt items, cut to a few at once
		ends := pick(d, [2]int{0, math.MaxInt}, [2]int{math.MinInt, -1}, [2]int{-1, math.MaxInt - 1})
		lo, hi := ends[0], ends[1]
		total := hi - lo
		k := 1 + d.intn(5)
		p := pipe.Range(lo, hi)
		switch d.intn(4) {
		case 0:
			c.p, c.m = p.Skip(total-k), counting(span(hi-k, k))
			c.desc = append(c.desc, fmt.Sprintf("Range(%d, %d).Skip(len-%d)", lo, hi, k))
		case 1:
			c.p, c.m = p.Take(k), counting(span(lo, k))
			c.desc = append(c.desc, fmt.Sprintf("Range(%d, %d).Take(%d)", lo, hi, k))
		case 2:
			xs := span(hi-k, k)
			slices.Reverse(xs)
			c.p, c.m = p.Rev().Take(k), counting(xs)
			c.desc = append(c.desc, fmt.Sprintf("Range(%d, %d).Rev().Take(%d)", lo, hi, k))
		case 3:
			step := total / k
			var xs []int
			for j := 0; ; j += step {
				xs = append(xs, lo+j)
				if j >= total-step { // the next j would reach total, or wrap
					break
				}
			}
			c.p, c.m = p.StepBy(step), counting(xs)
			c.desc = append(c.desc, fmt.Sprintf("Range(%d, %d).StepBy(%d)", lo, hi, step))
		}
	case 5:
		xs, ys := ints(), ints()
		zs := make([]int, n)
		for i := range zs {
			zs[i] = 3*xs[i] - ys[i]
		}
		c.p, c.m = pipe.Zip(xs, ys, func(a, b int) int { return 3*a - b }), counting(zs)
		c.desc = append(c.desc, fmt.Sprintf("Zip(%d ints)", n))
	case 6, 7:
		xs, size := ints(), 1+d.intn(9)
		var pieces [][]int
		var p pipe.Pipe[[]int]
		if d.intn(2) == 0 {
			c.desc = append(c.desc, fmt.Sprintf("Chunks(%d ints, %d)", n, size))
			p = pipe.Chunks(xs, size)
			for i := 0; i < n; i += size {
				j := min(n, i+size)
				pieces = append(pieces, xs[i:j:j])
			}
		} else {
			c.desc = append(c.desc, fmt.Sprintf("Windows(%d ints, %d)", n, size))
			p = pipe.Windows(xs, size)
			for i := 0; i+size <= n; i++ {
				pieces = append(pieces, xs[i:i+size:i+size])
			}
		}
		items := make([]int, len(pieces))
		for i, s := range pieces {
			items[i] = enc(s)
		}
		c.p, c.m = pipe.Map(p, enc[int]), counting(items)
	default:
		if d.intn(4) == 0 {
			n = pick(d, 4095, 4097, 9000) // more than a Reader reads at once
		}
		s := modelText(d, r, n)
		source := []string{"Split", "Lines", "Fields"}[d.intn(3)]
		var p pipe.Pipe[string]
		var t *pipe.Reader
		switch from := d.intn(3); from {
		case 0:
			switch source {
			case "Split":
				p = pipe.Split(s, ',')
			case "Lines":
				p = pipe.Lines(s)
			default:
				p = pipe.Fields(s)
			}
			c.desc = append(c.desc, fmt.Sprintf("%s(%q)", source, clip(s)))
		default:
			if from == 1 {
				t = pipe.NewReader(strings.NewReader(s)) // read in pieces with ReadAt
				c.desc = append(c.desc, fmt.Sprintf("NewReader(%q).%s", clip(s), source))
			} else {
				t = pipe.NewReader(struct{ io.Reader }{strings.NewReader(s)}) // read whole
				c.desc = append(c.desc, fmt.Sprintf("NewReader(%q, no ReadAt).%s", clip(s), source))
			}
			switch source {
			case "Split":
				p = t.Split(',')
			case "Lines":
				p = t.Lines()
			default:
				p = t.Fields()
			}
			c.reader = t
		}
		c.p, c.m = pipe.Map(p, encString), textModel(s, source)
	}
}

// clip shortens a text for a message.
func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + fmt.Sprintf("...(%d bytes)", len(s))
	}
	return s
}

// picked marks every Inspect before a stage that picks items or runs a find:
// its calls are no longer one per item of the result.
func (c *modelCase) picked() {
	for _, in := range c.inspect {
		in.exact = false
	}
}

// firstFail returns the index of the first item of the model that fails
// pred, or len(items).
func (m *model) firstFail(pred func(int) bool) int {
	for i, x := range m.items {
		if !pred(x) {
			return i
		}
	}
	return len(m.items)
}

// stage draws a stage and adds it to c and its model.
func (c *modelCase) stage(d drawer) {
	m := &c.m
	switch kind := d.intn(13); kind {
	case 0:
		a, b := 2*d.intn(50)+1, d.intn(1000)
		c.p = pipe.Map(c.p, func(x int) int { return a*x + b })
		for i := range m.items {
			m.items[i] = a*m.items[i] + b
		}
		c.desc = append(c.desc, fmt.Sprintf("Map(%d*x+%d)", a, b))
	case 1:
		q := 2 + d.intn(5)
		r := d.intn(q)
		keep := func(x int) bool { return mod(x, q) != r }
		c.p = c.p.Filter(keep)
		c.keepModel(func(_, x int) bool { return keep(x) })
		c.desc = append(c.desc, fmt.Sprintf("Filter(x%%%d != %d)", q, r))
	case 2:
		// Shape 3 makes about 28 items an item: after one, the pipe only
		// grows by half an item an item, then not at all, so that four
		// FlatMaps in a row keep a case short.
		shape := d.intn(4)
		if shape == 3 && len(m.items) > 2000 {
			shape = 2
		}
		if shape == 2 && len(m.items) > 20_000 {
			shape = 1
		}
		fan := func(x int) int {
			switch shape {
			case 0:
				return 0
			case 1:
				return 1
			case 2:
				return mod(x, 4)
			}
			if mod(x, 11) == 3 {
				return 300 // more than a batch from one item
			}
			return mod(x, 3)
		}
		c.p = pipe.FlatMap(c.p, func(x int, out []int) []int {
			for j := range fan(x) {
				out = append(out, 7*x+j)
			}
			return out
		})
		var items, pos []int
		for i, x := range m.items {
			for j := range fan(x) {
				items = append(items, 7*x+j)
				pos = append(pos, m.pos[i])
			}
		}
		m.items, m.pos, m.oneToOne = items, pos, false
		c.desc = append(c.desc, fmt.Sprintf("FlatMap(shape %d)", shape))
	case 3:
		in := &counter{want: len(m.items), exact: true}
		c.inspect = append(c.inspect, in)
		c.p = c.p.Inspect(func(int) { in.calls.Add(1) })
		c.desc = append(c.desc, "Inspect")
	case 4:
		c.p = pipe.MapIndex(c.p, func(i, x int) int { return 3*x + i })
		for k := range m.items {
			m.items[k] = 3*m.items[k] + m.pos[k]
		}
		c.desc = append(c.desc, "MapIndex(3*x+i)")
	case 5:
		keep := func(i, x int) bool { return mod(i+x, 3) != 0 }
		c.p = c.p.FilterIndex(keep)
		c.keepModel(keep)
		c.desc = append(c.desc, "FilterIndex((i+x)%3 != 0)")
	case 6, 7, 8, 9:
		c.limit(d, kind)
	case 12:
		// A value per goroutine, written without a lock: the race
		// detector sees one that two goroutines use at once.
		c.p = pipe.MapInit(c.p, func() *int { return new(int) }, func(s *int, x int) int {
			*s++
			return x ^ 0x55
		})
		for i := range m.items {
			m.items[i] ^= 0x55
		}
		c.desc = append(c.desc, "MapInit(x^0x55)")
	default:
		q := 2 + d.intn(6)
		r := d.intn(q)
		pred := func(x int) bool { return mod(x, q) != r }
		j := m.firstFail(pred)
		c.picked()
		if kind == 10 {
			c.desc = append(c.desc, fmt.Sprintf("TakeWhile(x%%%d != %d)", q, r))
			c.p = c.p.TakeWhile(pred, c.opts...)
			if j < len(m.items) {
				m.n = m.pos[j]
				if j > 0 && m.pos[j-1] == m.pos[j] { // cut between two items of one position
					m.n++
				}
			}
			m.items, m.pos = m.items[:j], m.pos[:j]
			return
		}
		c.desc = append(c.desc, fmt.Sprintf("SkipWhile(x%%%d != %d)", q, r))
		c.p = c.p.SkipWhile(pred, c.opts...)
		cut := m.n
		if j < len(m.items) {
			cut = m.pos[j]
		}
		m.items, m.pos, m.n = m.items[j:], slices.Clone(m.pos[j:]), m.n-cut
		for k := range m.pos {
			m.pos[k] -= cut
		}
	}
}

// keepModel keeps the items of the model for which keep(pos, x) holds.
func (c *modelCase) keepModel(keep func(i, x int) bool) {
	m := &c.m
	var items, pos []int
	for k, x := range m.items {
		if keep(m.pos[k], x) {
			items = append(items, x)
			pos = append(pos, m.pos[k])
		}
	}
	m.items, m.pos, m.oneToOne = items, pos, false
}

// limit adds Take, Skip, StepBy or Rev, which a pipe that is not one-to-one
// refuses with a panic naming the call.
func (c *modelCase) limit(d drawer, kind int) {
	m := &c.m
	name := []string{"Take", "Skip", "StepBy", "Rev"}[kind-6]
	k := pick(d, 0, 1, 2, 3, 255, 256, 257, m.n/2, max(0, m.n-1), m.n, m.n+1)
	if name == "StepBy" {
		k = pick(d, 1, 2, 3, 5, m.n/2+1, math.MaxInt)
	}
	if name == "Rev" {
		c.desc = append(c.desc, "Rev()")
	} else {
		c.desc = append(c.desc, fmt.Sprintf("%s(%d)", name, k))
	}
	if !m.oneToOne {
		v, panicked := torture.Catch(func() {
			switch name {
			case "Take":
				c.p.Take(k)
			case "Skip":
				c.p.Skip(k)
			case "StepBy":
				c.p.StepBy(k)
			default:
				c.p.Rev()
			}
		})
		want := "pipe: " + name + ": needs a one-to-one pipe, and a stage that drops or adds items (Filter, FlatMap) is among p's stages"
		if !panicked || v != want {
			c.errorf("%s of a pipe that is not one-to-one: got panic %v (%v), want %q", name, panicked, v, want)
		}
		c.desc[len(c.desc)-1] += " (refused)"
		return
	}
	c.picked()
	var items []int
	switch name {
	case "Take":
		c.p = c.p.Take(k)
		items = m.items[:min(k, len(m.items))]
	case "Skip":
		c.p = c.p.Skip(k)
		items = m.items[min(k, len(m.items)):]
	case "StepBy":
		c.p = c.p.StepBy(k)
		for i := 0; i < len(m.items); i += k {
			items = append(items, m.items[i])
			if i >= len(m.items)-k { // the next i would reach the end, or wrap
				break
			}
		}
	default:
		c.p = c.p.Rev()
		items = slices.Clone(m.items)
		slices.Reverse(items)
	}
	*m = counting(slices.Clone(items))
}

// build draws a whole case: the pool and grain, the source, up to four
// stages.
func build(d drawer, pools []*par.Pool) *modelCase {
	c := &modelCase{}
	p := pools[d.intn(len(pools))]
	c.opts = []par.Option{par.OnPool(p)}
	c.desc = append(c.desc, fmt.Sprintf("[workers=%d", p.Workers()))
	if g := d.intn(8); g > 0 {
		c.opts = append(c.opts, par.WithGrain(g))
		c.desc[0] += fmt.Sprintf(" grain=%d", g)
	}
	c.desc[0] += "]"
	r := rand.New(rand.NewPCG(uint64(d.intn(1<<16)), 7))
	c.source(d, r)
	for range d.intn(5) {
		c.stage(d)
	}
	return c
}

// affine is a map x -> a*x + b; then composes two, the first applied first:
// an associative operation that is not commutative, so that a fold that
// loses the order of the items shows it.
type affine struct{ a, b int }

func then(f, g affine) affine { return affine{g.a * f.a, g.a*f.b + g.b} }

// terminals runs every terminal on c's pipe and compares it with the model.
func (c *modelCase) terminals(d drawer) {
	m, p, opts := &c.m, c.p, c.opts
	q := 2 + d.intn(40)
	r := d.intn(q)
	match := func(x int) bool { return mod(x, q) == r }
	first, last := -1, -1
	for i, x := range m.items {
		if match(x) {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	// full says that the terminal consumed every item, so each Inspect ran
	// once per item that passed it.
	check := func(name string, full bool, run func()) {
		for _, in := range c.inspect {
			in.calls.Store(0)
		}
		if v, panicked := torture.Catch(run); panicked {
			c.errorf("%s panicked: %v", name, v)
			return
		}
		for k, in := range c.inspect {
			if full && in.exact && in.calls.Load() != int64(in.want) {
				c.errorf("%s: Inspect %d was called %d times, want %d", name, k, in.calls.Load(), in.want)
			}
		}
	}
	if got := p.Len(); got != m.n {
		c.errorf("Len() = %d, want %d", got, m.n)
	}
	check("Collect", true, func() {
		if got := p.Collect(opts...); !slices.Equal(got, m.items) {
			c.errorf("Collect: %d items %v, want %d %v", len(got), head(got), len(m.items), head(m.items))
		}
	})
	check("Count", true, func() {
		if got := p.Count(opts...); got != len(m.items) {
			c.errorf("Count = %d, want %d", got, len(m.items))
		}
	})
	check("Sum", true, func() {
		want := 0
		for _, x := range m.items {
			want += x
		}
		if got := pipe.Sum(p, opts...); got != want {
			c.errorf("Sum = %d, want %d", got, want)
		}
	})
	check("Product", true, func() {
		want := 1
		for _, x := range m.items {
			want *= x | 1
		}
		if got := pipe.Product(pipe.Map(p, func(x int) int { return x | 1 }), opts...); got != want {
			c.errorf("Product = %d, want %d", got, want)
		}
	})
	check("Reduce", true, func() {
		firstNonZero := func(a, b int) int {
			if a != 0 {
				return a
			}
			return b
		}
		want := 0
		for _, x := range m.items {
			want = firstNonZero(want, x)
		}
		if got := p.Reduce(0, firstNonZero, opts...); got != want {
			c.errorf("Reduce(first non-zero) = %d, want %d", got, want)
		}
	})
	check("Fold", true, func() {
		step := func(f affine, x int) affine { return then(f, affine{x | 1, x}) }
		want := affine{1, 0}
		for _, x := range m.items {
			want = step(want, x)
		}
		if got := pipe.Fold(p, func() affine { return affine{1, 0} }, step, then, opts...); got != want {
			c.errorf("Fold(affine) = %v, want %v", got, want)
		}
	})
	check("ForEach", true, func() {
		var sum, n atomic.Int64
		p.ForEach(func(x int) { sum.Add(int64(x)); n.Add(1) }, opts...)
		want := int64(0)
		for _, x := range m.items {
			want += int64(x)
		}
		if n.Load() != int64(len(m.items)) || sum.Load() != want {
			c.errorf("ForEach: %d calls summing %d, want %d summing %d", n.Load(), sum.Load(), len(m.items), want)
		}
	})
	check("ForEachIndex", true, func() {
		var mu sync.Mutex
		var got []at
		p.ForEachIndex(func(i, x int) { mu.Lock(); got = append(got, at{i, x}); mu.Unlock() }, opts...)
		want := make([]at, len(m.items))
		for k, x := range m.items {
			want[k] = at{m.pos[k], x}
		}
		byPos := func(a, b at) int { return cmp.Or(cmp.Compare(a.i, b.i), cmp.Compare(a.x, b.x)) }
		slices.SortFunc(got, byPos)
		slices.SortFunc(want, byPos)
		if !slices.Equal(got, want) {
			c.errorf("ForEachIndex: %d calls %v, want %d %v", len(got), head(got), len(want), head(want))
		}
	})
	for _, name := range []string{"Min", "Max"} {
		check(name, true, func() {
			f, best := pipe.Min[int], slices.Min[[]int]
			if name == "Max" {
				f, best = pipe.Max[int], slices.Max[[]int]
			}
			x, ok := f(p, opts...)
			if ok != (len(m.items) > 0) || (ok && x != best(m.items)) {
				c.errorf("%s = %d %v of %d items", name, x, ok, len(m.items))
			}
		})
	}
	key := func(x int) int { return mod(x, 5) }
	groups := map[int][]int{}
	for _, x := range m.items {
		groups[key(x)] = append(groups[key(x)], x)
	}
	check("GroupBy", true, func() {
		got := pipe.GroupBy(p, key, opts...)
		if len(got) != len(groups) {
			c.errorf("GroupBy: %d groups, want %d", len(got), len(groups))
		}
		for k, g := range groups {
			if !slices.Equal(got[k], g) {
				c.errorf("GroupBy: group %d has %d items %v, want %d %v", k, len(got[k]), head(got[k]), len(g), head(g))
			}
		}
	})
	check("CountBy", true, func() {
		got := pipe.CountBy(p, key, opts...)
		if len(got) != len(groups) {
			c.errorf("CountBy: %d keys, want %d", len(got), len(groups))
		}
		for k, g := range groups {
			if got[k] != len(g) {
				c.errorf("CountBy: %d items of key %d, want %d", got[k], k, len(g))
			}
		}
	})
	check("ReduceBy", true, func() {
		// affine maps composed in the pipe's order: op need not commute.
		want := map[int]affine{}
		for _, x := range m.items {
			if f, ok := want[key(x)]; ok {
				want[key(x)] = then(f, affine{x | 1, x})
			} else {
				want[key(x)] = affine{x | 1, x}
			}
		}
		got := pipe.ReduceBy(p, func(x int) (int, affine) { return key(x), affine{x | 1, x} }, then, opts...)
		if !maps.Equal(got, want) {
			c.errorf("ReduceBy(affine) = %v, want %v", got, want)
		}
	})
	check("ForEachInit", true, func() {
		vals := pipe.ForEachInit(p, func() *[2]int { return new([2]int) }, func(s *[2]int, x int) { s[0]++; s[1] += x }, opts...)
		var n, sum, want int
		for _, v := range vals {
			n, sum = n+v[0], sum+v[1]
		}
		for _, x := range m.items {
			want += x
		}
		if n != len(m.items) || sum != want {
			c.errorf("ForEachInit: %d calls summing %d over %d values, want %d summing %d", n, sum, len(vals), len(m.items), want)
		}
	})
	// The finds may stop early: the Inspects ran on some items only.
	check("Find", false, func() {
		x, ok := p.Find(match, opts...)
		if ok != (first >= 0) || (ok && x != m.items[first]) {
			c.errorf("Find = %d %v, want item %d", x, ok, first)
		}
		if got, want := p.Any(match, opts...), first >= 0; got != want {
			c.errorf("Any = %v, want %v", got, want)
		}
		if got, want := p.All(func(x int) bool { return !match(x) }, opts...), first < 0; got != want {
			c.errorf("All = %v, want %v", got, want)
		}
	})
	check("IndexFunc", false, func() {
		want := -1
		if first >= 0 {
			want = m.pos[first]
		}
		if got := p.IndexFunc(match, opts...); got != want {
			c.errorf("IndexFunc = %d, want %d", got, want)
		}
	})
	check("LastIndexFunc", false, func() {
		want := -1
		if last >= 0 {
			want = m.pos[last]
		}
		if got := p.LastIndexFunc(match, opts...); got != want {
			c.errorf("LastIndexFunc = %d, want %d", got, want)
		}
		x, ok := p.FindLast(match, opts...)
		if ok != (last >= 0) || (ok && x != m.items[last]) {
			c.errorf("FindLast = %d %v, want item %d", x, ok, last)
		}
	})
	if c.reader != nil && c.reader.Err() != nil {
		c.errorf("the Reader's Err() = %v", c.reader.Err())
	}
}

// head is the start of a long list, for a message.
func head[T any](s []T) []T { return s[:min(len(s), 12)] }

// runModelCase builds the case that d describes and checks it; it returns
// the case, whose errs are its failures (a panic while building is one).
func runModelCase(d drawer, pools []*par.Pool) (c *modelCase) {
	c = &modelCase{}
	if v, panicked := torture.Catch(func() {
		c = build(d, pools)
		if len(c.errs) == 0 {
			c.terminals(d)
		}
	}); panicked {
		c.errorf("panicked while building the pipe: %v", v)
	}
	return c
}

// modelPools are the pools of 1, 2 and 8 workers of a model test, closed
// when t ends.
func modelPools(t testing.TB) []*par.Pool {
	var out []*par.Pool
	for _, n := range []int{1, 2, 8} {
		p := par.NewPool(par.Workers(n))
		t.Cleanup(p.Close)
		out = append(out, p)
	}
	return out
}

func TestModel(t *testing.T) {
	pools := modelPools(t)
	run := func(log *torture.Log, seed uint64) {
		c := runModelCase(randDrawer{rand.New(rand.NewPCG(seed, 0x5eed))}, pools)
		for _, e := range c.errs {
			log.Errorf(seed, "%s: %s", c, e)
		}
	}
	seed, reps, replay, err := torture.Replay()
	if err != nil {
		t.Fatalf("-torture.case: %v", err)
	}
	if replay {
		log := &torture.Log{Master: torture.Seed()}
		for range reps {
			run(log, seed)
		}
		log.Report(t)
		return
	}
	master := torture.Master()
	log := &torture.Log{Master: master}
	cases := 0
	rounds, took := torture.Rounds(torture.Budget(3*time.Second, testing.Short() || underRace), log.Failed, func(round uint64) {
		const g, per = 2, 10
		if !torture.Round(master, round, g, per, log.Failed, func(seed uint64) { run(log, seed) }) {
			log.Errorf(0, "round %d hung", round)
		}
		cases += g * per
	})
	log.Report(t)
	t.Logf("master seed %d: %d rounds, about %d cases in %v", master, rounds, cases, took)
}

// FuzzModel is TestModel with the pipe decoded from the fuzzer's bytes.
func FuzzModel(f *testing.F) {
	// Each seed is the draws of build, in order: the pool, the grain, the
	// data's seed (two bytes), the size, the source and what it draws, the
	// number of stages and theirs, then the terminals' predicate.
	for _, seed := range [][]byte{
		{},
		{0, 0, 0, 0, 11, 0, 2, 2, 3, 10, 1, 0, 5, 2},    // From(1000 ints), FlatMap(shape 3), TakeWhile(x%3 != 0), on 1 worker
		{1, 3, 0, 7, 8, 9, 1, 0, 1, 0, 1, 4, 7, 1},      // Lines of 255 bytes, MapIndex, on 2 workers with a grain of 3
		{2, 0, 0, 1, 3, 4, 0, 2, 0, 0, 3, 0},            // Range(0, MaxInt).Skip(len-3), on 8 workers
		{1, 0, 0, 0, 7, 2, 0, 0, 1, 0},                  // Range(MinInt, MinInt+100)
		{0, 5, 1, 2, 12, 0, 2, 0, 3, 0, 9, 3, 10, 3},    // From(2000 ints), Map(7*x+9), Inspect, with a grain of 5
		{2, 1, 0, 3, 4, 10, 0, 2, 4, 2, 1, 1, 12, 5, 0}, // a Reader's Fields of one field of 9,000 bytes, MapInit, on 8 workers with a grain of 1
		{1, 0, 0, 5, 11, 8, 0, 0, 3, 0, 2, 1, 11, 3, 1}, // a Reader without ReadAt, Split of 4,095 bytes, SkipWhile
	} {
		f.Add(seed)
	}
	pools := modelPools(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		c := runModelCase(&byteDrawer{b}, pools)
		for _, e := range c.errs {
			t.Errorf("%s: %s", c, e)
		}
	})
}
