package par_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
)

// The audit of bad arguments of args_test.go, for the index forms,
// Partition, Unzip, the Init forms, the further searches, Product and the
// Seq2 forms.

// surfaceCalls has a call of every one of those functions on n elements;
// optCallsOf includes them, so the zero-Option and closed-pool tables of
// args_test.go and pool_test.go cover them too.
func surfaceCalls() []optCall {
	yes := func(int) bool { return true }
	newInt := func() *int { return new(int) }
	return []optCall{
		{"MapIndex", func(n int, o []par.Option) { par.MapIndex(indices(n), func(i, _ int) int { return i }, o...) }},
		{"ForEachIndex", func(n int, o []par.Option) { par.ForEachIndex(indices(n), func(int, int) {}, o...) }},
		{"FilterIndex", func(n int, o []par.Option) { par.FilterIndex(indices(n), func(int, int) bool { return true }, o...) }},
		{"Partition", func(n int, o []par.Option) { par.Partition(indices(n), yes, o...) }},
		{"Unzip", func(n int, o []par.Option) { par.Unzip(indices(n), func(x int) (int, int) { return x, x }, o...) }},
		{"MapInit", func(n int, o []par.Option) {
			par.MapInit(indices(n), newInt, func(_ *int, x int) int { return x }, o...)
		}},
		{"ForEachInit", func(n int, o []par.Option) { par.ForEachInit(indices(n), newInt, func(*int, int) {}, o...) }},
		{"FindLast", func(n int, o []par.Option) { par.FindLast(indices(n), yes, o...) }},
		{"FindLastIndex", func(n int, o []par.Option) { par.FindLastIndex(indices(n), yes, o...) }},
		{"FindAny", func(n int, o []par.Option) { par.FindAny(indices(n), yes, o...) }},
		{"FindAnyIndex", func(n int, o []par.Option) { par.FindAnyIndex(indices(n), yes, o...) }},
		{"Positions", func(n int, o []par.Option) { par.Positions(indices(n), yes, o...) }},
		{"Product", func(n int, o []par.Option) { par.Product(indices(n), o...) }},
		{"MapSeq2", func(n int, o []par.Option) {
			for range par.MapSeq2(slices.All(indices(n)), func(i, _ int) int { return i }, o...) {
			}
		}},
		{"ForEachSeq2", func(n int, o []par.Option) { par.ForEachSeq2(slices.All(indices(n)), func(int, int) {}, o...) }},
	}
}

// TestSurfaceNilArguments: a nil function or sequence panics at once, on an
// empty input as on a long one, with a message that names the function and
// the parameter; the pool stays usable.
func TestSurfaceNilArguments(t *testing.T) {
	newInt := func() *int { return new(int) }
	for _, p := range testPools(t) {
		opts := poolOpts(p)
		for _, n := range []int{0, 3} {
			in := indices(n)
			cases := []struct {
				call func()
				want string
			}{
				{func() { par.MapIndex[[]int, int, int](in, nil, opts...) }, "par: MapIndex: f is nil"},
				{func() { par.ForEachIndex(in, nil, opts...) }, "par: ForEachIndex: f is nil"},
				{func() { par.FilterIndex(in, nil, opts...) }, "par: FilterIndex: keep is nil"},
				{func() { par.Partition(in, nil, opts...) }, "par: Partition: pred is nil"},
				{func() { par.Unzip[[]int, int, int, int](in, nil, opts...) }, "par: Unzip: f is nil"},
				{func() { par.MapInit[[]int, int, *int, int](in, nil, func(*int, int) int { return 0 }, opts...) }, "par: MapInit: init is nil"},
				{func() { par.MapInit[[]int, int, *int, int](in, newInt, nil, opts...) }, "par: MapInit: f is nil"},
				{func() { par.MapInit[[]int, int, *int, int](in, nil, nil, opts...) }, "par: MapInit: init and f are nil"},
				{func() { par.ForEachInit(in, nil, func(*int, int) {}, opts...) }, "par: ForEachInit: init is nil"},
				{func() { par.ForEachInit(in, newInt, nil, opts...) }, "par: ForEachInit: f is nil"},
				{func() { par.ForEachInit[[]int, int, *int](in, nil, nil, opts...) }, "par: ForEachInit: init and f are nil"},
				{func() { par.FindLast(in, nil, opts...) }, "par: FindLast: pred is nil"},
				{func() { par.FindLastIndex(in, nil, opts...) }, "par: FindLastIndex: pred is nil"},
				{func() { par.FindAny(in, nil, opts...) }, "par: FindAny: pred is nil"},
				{func() { par.FindAnyIndex(in, nil, opts...) }, "par: FindAnyIndex: pred is nil"},
				{func() { par.Positions(in, nil, opts...) }, "par: Positions: pred is nil"},
				{func() { par.MapSeq2[int, int, int](nil, func(int, int) int { return 0 }, opts...) }, "par: MapSeq2: seq is nil"},
				{func() { par.MapSeq2[int, int, int](slices.All(in), nil, opts...) }, "par: MapSeq2: f is nil"},
				{func() { par.ForEachSeq2[int, int](nil, func(int, int) {}, opts...) }, "par: ForEachSeq2: seq is nil"},
				{func() { par.ForEachSeq2(slices.All(in), nil, opts...) }, "par: ForEachSeq2: f is nil"},
			}
			for _, c := range cases {
				t.Run(fmt.Sprintf("%s/n=%d/%s", poolName(p), n, c.want), func(t *testing.T) {
					require.Equal(t, c.want, panicValue(t, c.call))
				})
			}
		}
		requireUsable(t, p)
	}
}
