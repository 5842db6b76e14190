package pipe_test

import (
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
	"github.com/weftgo/weft/par/pipe"
)

// ReduceBy and FoldBy over the text sources that cut at a separator fold the
// pieces as they are cut (textfold.go), and over any other pipe through its
// batches: both give the sequential aggregation of the pieces in order.

// pieceKey is the key of a piece in these tests: its first byte, or -1 for
// an empty piece.
func pieceKey[S ~string | ~[]byte](s S) int {
	if len(s) == 0 {
		return -1
	}
	return int(s[0])
}

// seqHash is an associative, non-commutative value: the polynomial hash of
// a sequence of pieces, with the power of its length, so that ReduceBy's
// result tells whether a key's pieces were combined in order.
type seqHash struct{ hash, pow uint64 }

func seqOf[S ~string | ~[]byte](s S) seqHash {
	h := uint64(len(s)) + 1
	for i := range len(s) {
		h = h*31 + uint64(s[i])
	}
	return seqHash{h, 1099511628211}
}

// join is ReduceBy's op in these tests.
func join(a, b seqHash) seqHash { return seqHash{a.hash*b.pow + b.hash, a.pow * b.pow} }

// byKeyWant is what ReduceBy with join and FoldBy with append give over
// pieces, in order.
func byKeyWant(pieces []string) (map[int]seqHash, map[int][]string) {
	joined, lists := map[int]seqHash{}, map[int][]string{}
	for _, p := range pieces {
		k := pieceKey(p)
		if h, ok := joined[k]; ok {
			joined[k] = join(h, seqOf(p))
		} else {
			joined[k] = seqOf(p)
		}
		lists[k] = append(lists[k], p)
	}
	return joined, lists
}

// reduceStrings and reduceBytes are the calls of ReduceBy and FoldBy that
// these tests make over a pipe of strings or of byte slices.
func reduceStrings(p pipe.Pipe[string], opts []par.Option) (map[int]seqHash, map[int][]string) {
	r := pipe.ReduceBy(p, func(s string) (int, seqHash) { return pieceKey(s), seqOf(s) }, join, opts...)
	f := pipe.FoldBy(p, func(s string) (int, string) { return pieceKey(s), s },
		func() []string { return nil },
		func(acc *[]string, s string) { *acc = append(*acc, s) },
		func(acc, other *[]string) { *acc = append(*acc, *other...) }, opts...)
	return r, derefs(f)
}

func reduceBytes(p pipe.Pipe[[]byte], opts []par.Option) (map[int]seqHash, map[int][]string) {
	r := pipe.ReduceBy(p, func(b []byte) (int, seqHash) {
		if cap(b) != len(b) { // appending to a piece must not write over the next
			panic(fmt.Sprintf("piece %q has capacity %d", b, cap(b)))
		}
		return pieceKey(b), seqOf(b)
	}, join, opts...)
	f := pipe.FoldBy(p, func(b []byte) (int, string) { return pieceKey(b), string(b) },
		func() []string { return nil },
		func(acc *[]string, s string) { *acc = append(*acc, s) },
		func(acc, other *[]string) { *acc = append(*acc, *other...) }, opts...)
	return r, derefs(f)
}

func derefs[K comparable, A any](m map[K]*A) map[K]A {
	out := make(map[K]A, len(m))
	for k, p := range m {
		out[k] = *p
	}
	return out
}

// line is a string type of the caller's own, whose pieces go through the
// batches.
type line string

func TestByKeyOverTextAgainstSequential(t *testing.T) {
	texts := readerTexts()
	for _, n := range []int{1000, 70_000} {
		if testing.Short() && n > 1000 {
			break
		}
		for layout, s := range textLayouts(n) {
			texts[fmt.Sprintf("%s/n=%d", layout, n)] = s
		}
		for i, a := range alphabets {
			texts[fmt.Sprintf("random%d/n=%d", i, n)] = randText(n, uint64(n+i), a)
		}
	}
	all := pools(t)
	for name, s := range texts {
		lines, split := linesOracle(s), strings.Split(s, ",")
		sources := map[string]struct {
			pieces []string
			run    func(opts []par.Option) (map[int]seqHash, map[int][]string)
		}{
			"Lines": {lines, func(o []par.Option) (map[int]seqHash, map[int][]string) { return reduceStrings(pipe.Lines(s), o) }},
			"Split": {split, func(o []par.Option) (map[int]seqHash, map[int][]string) { return reduceStrings(pipe.Split(s, ','), o) }},
			"Lines(bytes)": {lines, func(o []par.Option) (map[int]seqHash, map[int][]string) {
				return reduceBytes(pipe.Lines([]byte(s)), o)
			}},
			"Split(bytes)": {split, func(o []par.Option) (map[int]seqHash, map[int][]string) {
				return reduceBytes(pipe.Split([]byte(s), ','), o)
			}},
			"Map(Lines)": {lines, func(o []par.Option) (map[int]seqHash, map[int][]string) {
				return reduceStrings(pipe.Map(pipe.Lines(s), strings.Clone), o)
			}},
			"Lines(line)": {lines, func(o []par.Option) (map[int]seqHash, map[int][]string) {
				return reduceStrings(pipe.Map(pipe.Lines(line(s)), func(l line) string { return string(l) }), o)
			}},
		}
		for rname, open := range readers(t, s) {
			sources["Reader("+rname+").Lines"] = struct {
				pieces []string
				run    func(opts []par.Option) (map[int]seqHash, map[int][]string)
			}{lines, func(o []par.Option) (map[int]seqHash, map[int][]string) {
				r := open()
				j, l := reduceStrings(r.Lines(), o)
				require.NoError(t, r.Err())
				return j, l
			}}
			sources["Reader("+rname+").Split"] = struct {
				pieces []string
				run    func(opts []par.Option) (map[int]seqHash, map[int][]string)
			}{split, func(o []par.Option) (map[int]seqHash, map[int][]string) {
				r := open()
				j, l := reduceStrings(r.Split(','), o)
				require.NoError(t, r.Err())
				return j, l
			}}
		}
		for sname, src := range sources {
			wantJoined, wantLists := byKeyWant(src.pieces)
			for pname, opts := range all {
				if len(s) > 5000 && strings.Contains(pname, "grain") {
					continue // a piece of the range per 7 bytes: the small texts cover it
				}
				t.Run(name+"/"+sname+"/"+pname, func(t *testing.T) {
					joined, lists := src.run(opts)
					require.Equal(t, wantJoined, joined)
					require.Equal(t, wantLists, lists)
				})
			}
		}
	}
}

// TestByKeyPanics: a panic in f, op, init, fold or merge reaches the caller
// with its value, over a text folded as it is cut and over batches, and the
// pool stays usable.
func TestByKeyPanics(t *testing.T) {
	s := randText(50_000, 9, alphabets[0])
	boom := errors.New("boom")
	for name, opts := range pools(t) {
		for _, p := range map[string]pipe.Pipe[string]{"Lines": pipe.Lines(s), "Map(Lines)": pipe.Map(pipe.Lines(s), strings.Clone)} {
			bad := func(l string) (int, int) {
				if strings.HasPrefix(l, "q") {
					panic(boom)
				}
				return pieceKey(l), 1
			}
			add := func(a, b int) int { return a + b }
			require.Equal(t, boom, panicValue(t, func() { pipe.ReduceBy(p, bad, add, opts...) }), name)
			require.Equal(t, boom, panicValue(t, func() {
				pipe.FoldBy(p, bad, func() int { return 0 }, func(a *int, x int) { *a += x }, func(a, b *int) { *a += *b }, opts...)
			}), name)
			good := func(l string) (int, int) { return pieceKey(l), 1 }
			for _, c := range []func(){
				func() { pipe.ReduceBy(p, good, func(a, b int) int { panic(boom) }, opts...) },
				func() {
					pipe.FoldBy(p, good, func() int { panic(boom) }, func(a *int, x int) { *a += x }, func(a, b *int) { *a += *b }, opts...)
				},
				func() {
					pipe.FoldBy(p, good, func() int { return 0 }, func(a *int, x int) { panic(boom) }, func(a, b *int) { *a += *b }, opts...)
				},
			} {
				require.Equal(t, boom, panicValue(t, c), name)
			}
			requireUsable(t, opts)
		}
	}
}

func TestFoldByNilMessages(t *testing.T) {
	p := pipe.Range(0, 10)
	kv := func(x int) (int, int) { return x % 3, x }
	init := func() int { return 0 }
	fold := func(a *int, x int) { *a += x }
	merge := func(a, b *int) { *a += *b }
	for _, c := range []struct {
		call func()
		want string
	}{
		{func() { pipe.ReduceBy[int, int, int](p, nil, func(a, b int) int { return a + b }) }, "pipe: ReduceBy: f is nil"},
		{func() { pipe.ReduceBy(p, kv, nil) }, "pipe: ReduceBy: op is nil"},
		{func() { pipe.FoldBy[int, int, int, int](p, nil, init, fold, merge) }, "pipe: FoldBy: f is nil"},
		{func() { pipe.FoldBy(p, kv, nil, fold, merge) }, "pipe: FoldBy: init is nil"},
		{func() { pipe.FoldBy(p, kv, init, nil, merge) }, "pipe: FoldBy: fold is nil"},
		{func() { pipe.FoldBy(p, kv, init, fold, nil) }, "pipe: FoldBy: merge is nil"},
	} {
		require.Equal(t, c.want, panicValue(t, c.call))
	}
	empty := pipe.FoldBy(pipe.Lines(""), func(l string) (string, int) { return l, 1 }, init, fold, merge)
	require.NotNil(t, empty)
	require.Empty(t, empty)
	emptyR := pipe.ReduceBy(pipe.Lines(""), func(l string) (string, int) { return l, 1 }, func(a, b int) int { return a + b })
	require.NotNil(t, emptyR)
	require.Empty(t, emptyR)
}

// TestByKeyMapsPerCall counts the maps the by-key terminals make, through
// an init that runs once per key per map, with a single key: at most one
// per steal or injected task plus one, whichever way the items come (cut
// and folded in one loop, or in batches through a stage), as for Fold's
// accumulators: a count per call bounded by the participants and the
// steals, not by the length of the text.
func TestByKeyMapsPerCall(t *testing.T) {
	p := par.NewPool(par.Workers(1))
	defer p.Close()
	on := par.OnPool(p)
	text := strings.Repeat("k;1\n", 200_000)
	calls := 20
	if testing.Short() {
		calls = 5
	}
	one := func(line string) (string, int) { return line[:1], 1 }
	oneBytes := func(line []byte) ([]byte, int) { return line[:1], 1 }
	for name, run := range map[string]func(init func() int) map[string]*int{
		"FoldBy over Lines": func(init func() int) map[string]*int {
			return pipe.FoldBy(pipe.Lines(text), one, init, func(acc *int, v int) { *acc += v }, func(acc, o *int) { *acc += *o }, on)
		},
		"FoldBy through Map": func(init func() int) map[string]*int {
			return pipe.FoldBy(pipe.Map(pipe.Lines(text), strings.Clone), one, init, func(acc *int, v int) { *acc += v }, func(acc, o *int) { *acc += *o }, on)
		},
		"FoldBytesBy over Lines": func(init func() int) map[string]*int {
			return pipe.FoldBytesBy(pipe.Lines([]byte(text)), oneBytes, init, func(acc *int, v int) { *acc += v }, func(acc, o *int) { *acc += *o }, on)
		},
	} {
		var inits atomic.Int64
		init := func() int { inits.Add(1); return 0 }
		for range calls {
			before := p.Stats().Total()
			inits.Store(0)
			m := run(init)
			require.Equal(t, 200_000, *m["k"], name)
			// A worker publishes its steals when it runs out of work, a
			// moment after the call returns: wait for them, up to 2 s.
			var spawned uint64
			for range 2000 {
				after := p.Stats().Total()
				spawned = (after.Steals - before.Steals) + (after.Injected - before.Injected)
				if uint64(inits.Load()) <= spawned+1 {
					break
				}
				time.Sleep(time.Millisecond)
			}
			require.LessOrEqual(t, uint64(inits.Load()), spawned+1, "%s: maps per call", name)
			require.LessOrEqual(t, inits.Load(), int64(2*16), "%s: maps per call, 16 per participant", name)
		}
	}
}
