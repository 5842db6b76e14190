package par_test

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
)

// Options: any combination of options, however large or small its values,
// gives the result of the call without options, or panics at once with a
// message (FuzzOptions); options on an empty input are checked too.

// optValues are the values an option byte of FuzzOptions draws from, besides
// the two fuzzed integers: the bounds of the valid range and of int.
var optValues = []int{0, -1, 1, 2, math.MaxInt, math.MinInt}

// fuzzOpt is one option of FuzzOptions' program, decoded from a byte: the
// low two bits choose OnPool, WithGrain, WithMinLen or a zero Option, the
// others the pool or the value.
type fuzzOpt struct {
	kind  int // 0 OnPool, 1 WithGrain, 2 WithMinLen, 3 zero Option
	value int // WithGrain, WithMinLen
	pool  int // OnPool: 0 nil, 1 a pool of 1 worker, 2 of 3, 3 a closed pool
}

func decodeOpt(b byte, a, c int) fuzzOpt {
	o := fuzzOpt{kind: int(b & 3)}
	sel := int(b >> 2)
	switch o.kind {
	case 0:
		o.pool = sel % 4
	case 1, 2:
		switch k := sel % (2 + len(optValues)); k {
		case 0:
			o.value = a
		case 1:
			o.value = c
		default:
			o.value = optValues[k-2]
		}
	}
	return o
}

// optCalls are the calls FuzzOptions makes, each checked against the loop:
// run returns what the call returned and what the loop gives.
var optCalls = []struct {
	name string
	run  func(xs []int, opts []par.Option) (got, want any)
}{
	{"Map", func(xs []int, opts []par.Option) (any, any) {
		f := func(x int) int { return 3*x + 1 }
		want := make([]int, len(xs))
		for i, x := range xs {
			want[i] = f(x)
		}
		return par.Map(xs, f, opts...), want
	}},
	{"Sum", func(xs []int, opts []par.Option) (any, any) {
		want := 0
		for _, x := range xs {
			want += x
		}
		return par.Sum(xs, opts...), want
	}},
	{"Filter", func(xs []int, opts []par.Option) (any, any) {
		keep := func(x int) bool { return x%3 != 0 }
		want := []int{}
		for _, x := range xs {
			if keep(x) {
				want = append(want, x)
			}
		}
		return par.Filter(xs, keep, opts...), want
	}},
	{"For", func(xs []int, opts []par.Option) (any, any) {
		got := make([]int, len(xs)) // each i written once: a second call would double it
		par.For(len(xs), func(i int) { got[i] += xs[i] + 1 }, opts...)
		want := make([]int, len(xs))
		for i, x := range xs {
			want[i] = x + 1
		}
		return got, want
	}},
	{"ForRange", func(xs []int, opts []par.Option) (any, any) {
		got := make([]int, len(xs))
		par.ForRange(len(xs), func(lo, hi int) {
			if lo >= hi {
				panic(fmt.Sprintf("empty piece [%d, %d)", lo, hi))
			}
			for i := lo; i < hi; i++ {
				got[i] += xs[i] + 1
			}
		}, opts...)
		want := make([]int, len(xs))
		for i, x := range xs {
			want[i] = x + 1
		}
		return got, want
	}},
	{"Reduce", func(xs []int, opts []par.Option) (any, any) {
		// A polynomial hash: associative, not commutative, so that the
		// order of the pieces shows.
		type hash struct{ h, p uint64 }
		op := func(a, b hash) hash { return hash{a.h*b.p + b.h, a.p * b.p} }
		in := make([]hash, len(xs))
		want := hash{0, 1}
		for i, x := range xs {
			in[i] = hash{uint64(x), 31}
			want = op(want, in[i])
		}
		return par.Reduce(in, hash{0, 1}, op, opts...), want
	}},
	{"ReduceRange", func(xs []int, opts []par.Option) (any, any) {
		type span struct{ lo, hi int }
		got := par.ReduceRange(len(xs), span{-1, -1}, func(lo, hi int) span { return span{lo, hi} },
			func(a, b span) span {
				if a.hi != b.lo {
					panic(fmt.Sprintf("pieces %v and %v are not adjacent", a, b))
				}
				return span{a.lo, b.hi}
			}, opts...)
		want := span{0, len(xs)}
		if len(xs) == 0 {
			want = span{-1, -1}
		}
		return got, want
	}},
	{"Find", func(xs []int, opts []par.Option) (any, any) {
		pred := func(x int) bool { return x%11 == 10 }
		i := slices.IndexFunc(xs, pred)
		x, ok := par.Find(xs, pred, opts...)
		if i < 0 {
			return fmt.Sprint(x, ok), fmt.Sprint(0, false)
		}
		return fmt.Sprint(x, ok), fmt.Sprint(xs[i], true)
	}},
	{"Any", func(xs []int, opts []par.Option) (any, any) {
		pred := func(x int) bool { return x == 77 }
		return par.Any(xs, pred, opts...), slices.ContainsFunc(xs, pred)
	}},
	{"MapSeq", func(xs []int, opts []par.Option) (any, any) {
		f := func(x int) int { return 3*x + 1 }
		want := []int{}
		for _, x := range xs {
			want = append(want, f(x))
		}
		got := []int{}
		for y := range par.MapSeq(slices.Values(xs), f, opts...) {
			got = append(got, y)
		}
		return got, want
	}},
	{"MapSeq/break", func(xs []int, opts []par.Option) (any, any) {
		f := func(x int) int { return 3*x + 1 }
		stop := len(xs) / 2
		want := []int{}
		for _, x := range xs[:stop] {
			want = append(want, f(x))
		}
		got := []int{}
		for y := range par.MapSeq(slices.Values(xs), f, opts...) {
			if len(got) == stop {
				break
			}
			got = append(got, y)
		}
		return got, want
	}},
	{"SumSeq", func(xs []int, opts []par.Option) (any, any) {
		want := 0
		for _, x := range xs {
			want += x
		}
		return par.SumSeq(slices.Values(xs), opts...), want
	}},
}

// FuzzOptions builds the options of a call from a program of bytes, with
// values from two fuzzed integers and from the edges of int, and makes the
// call on an input made from the fuzzed bytes. An invalid value must make
// its constructor panic with a message that names the function and the
// value; a zero Option or a closed pool must make the call panic with a
// message that names the call and the option, whatever the input's length;
// and any other set of options, in any order, must give the loop's result.
//
//	nice -n 10 go test ./par -run '^$' -fuzz FuzzOptions -fuzztime 5m
func FuzzOptions(f *testing.F) {
	f.Add([]byte{}, []byte{}, int64(0), int64(0), uint8(0), uint8(0))
	f.Add([]byte{1, 2, 3}, []byte{1, 2}, int64(1), int64(5), uint8(1), uint8(0))
	f.Add([]byte("the quick brown fox"), []byte{4, 5, 13}, int64(7), int64(-7), uint8(2), uint8(3))
	f.Add([]byte{9, 8, 7, 6, 5}, []byte{3}, int64(1), int64(1), uint8(3), uint8(1))
	f.Add([]byte{0, 0, 0}, []byte{0, 12}, int64(math.MaxInt64), int64(math.MinInt64), uint8(4), uint8(2))
	f.Add([]byte{100, 200, 77}, []byte{1 | 5<<2, 2 | 5<<2}, int64(0), int64(0), uint8(5), uint8(255))
	f.Add([]byte{1}, []byte{8, 1, 2}, int64(1000), int64(3), uint8(9), uint8(200))
	f.Add(make([]byte, 300), []byte{2 | 4<<2, 1}, int64(64), int64(1<<20), uint8(10), uint8(130))

	pool1 := par.NewPool(par.Workers(1))
	pool3 := par.NewPool(par.Workers(3))
	closed := par.NewPool(par.Workers(1))
	closed.Close()
	f.Cleanup(pool1.Close)
	f.Cleanup(pool3.Close)
	pools := []*par.Pool{nil, pool1, pool3, closed}

	f.Fuzz(func(t *testing.T, data, prog []byte, a, c int64, which, scale uint8) {
		if len(prog) > 8 {
			prog = prog[:8]
		}
		// The input: the bytes, stretched up to 64 times so that calls
		// reach the pool, with values that vary along it; at most 1<<14
		// elements, so that a grain of 1 stays cheap (MapSeq with a batch
		// per element takes about a microsecond an element).
		n := len(data)
		if scale >= 128 && n > 0 {
			n *= 1 + int(scale%64)
		}
		n = min(n, 1<<14)
		xs := make([]int, n)
		for i := range xs {
			xs[i] = int(data[i%len(data)]) + i/len(data)
		}

		var opts []par.Option
		var bad string // what the call must panic about, if anything
		for _, b := range prog {
			o := decodeOpt(b, int(a), int(c))
			switch o.kind {
			case 0:
				v, panicked := recovered(func() { opts = append(opts, par.OnPool(pools[o.pool])) })
				if o.pool == 0 {
					require.True(t, panicked, "OnPool(nil) must panic")
					require.Equal(t, "par: OnPool(nil): pool is nil", v)
					continue
				}
				require.False(t, panicked, "OnPool of a pool: %v", v)
				if o.pool == 3 && bad == "" {
					bad = fmt.Sprintf("OnPool in opts[%d]: %v", len(opts)-1, par.ErrClosed)
				}
			case 1, 2:
				name, what := "WithGrain", "grain"
				mk := par.WithGrain
				if o.kind == 2 {
					name, what, mk = "WithMinLen", "minimum length", par.WithMinLen
				}
				v, panicked := recovered(func() { opts = append(opts, mk(o.value)) })
				if o.value >= 1 {
					require.False(t, panicked, "%s(%d): %v", name, o.value, v)
					continue
				}
				require.True(t, panicked, "%s(%d) must panic", name, o.value)
				require.Equal(t, fmt.Sprintf("par: %s(%d): %s must be at least 1", name, o.value, what), v)
			case 3:
				opts = append(opts, par.Option{})
				if bad == "" {
					bad = fmt.Sprintf("opts[%d] is a zero Option", len(opts)-1)
				}
			}
		}

		call := optCalls[int(which)%len(optCalls)]
		var got, want any
		v, panicked := recovered(func() { got, want = call.run(xs, opts) })
		if bad == "" {
			require.False(t, panicked, "%s with %d options on %d elements panicked: %v", call.name, len(opts), n, v)
			require.Equal(t, want, got, "%s on %d elements", call.name, n)
			return
		}
		require.True(t, panicked, "%s must panic: %s", call.name, bad)
		msg := fmt.Sprint(v)
		if strings.Contains(bad, "OnPool") {
			err, ok := v.(error)
			require.True(t, ok, "a closed pool panics with an error, got %T", v)
			require.ErrorIs(t, err, par.ErrClosed)
		}
		fn := strings.TrimSuffix(call.name, "/break")
		require.True(t, strings.HasPrefix(msg, "par: "+fn+": "+bad), "%q must begin with %q", msg, "par: "+fn+": "+bad)

		// The pools still work after the panic.
		require.Equal(t, 6, par.Sum([]int{1, 2, 3}, par.OnPool(pool1)))
		require.Equal(t, 6, par.Sum([]int{1, 2, 3}))
	})
}

// recovered calls f and returns what it panicked with, and whether it did.
func recovered(f func()) (v any, panicked bool) {
	defer func() {
		if panicked {
			v = recover()
		}
	}()
	panicked = true
	f()
	panicked = false
	return nil, false
}

// TestOptionsOnEmptyInput: a zero Option or a closed pool panics on an empty
// input too, as on a long one. Calls on empty inputs used to return before
// looking at their options.
func TestOptionsOnEmptyInput(t *testing.T) {
	closed := par.NewPool(par.Workers(1))
	closed.Close()
	for _, call := range optCalls {
		for _, o := range []par.Option{{}, par.OnPool(closed)} {
			v, panicked := recovered(func() { call.run(nil, []par.Option{par.WithGrain(3), o}) })
			require.True(t, panicked, "%s on nothing must panic", call.name)
			fn := strings.TrimSuffix(call.name, "/break")
			require.Contains(t, fmt.Sprint(v), "par: "+fn+": ")
			require.Contains(t, fmt.Sprint(v), "opts[1]")
			if o != (par.Option{}) {
				require.True(t, errors.Is(v.(error), par.ErrClosed))
			}
		}
	}
}
