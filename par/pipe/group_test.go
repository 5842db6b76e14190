package pipe_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
	"github.com/weftgo/weft/par/pipe"
)

func TestCountByGroupByAgainstLoops(t *testing.T) {
	all := pools(t)
	for _, n := range textSizes() {
		xs := randInts(n, uint64(n)+11)
		key := func(x int) int { return (x%7 + 7) % 7 }
		even := func(x int) bool { return x%2 == 0 }
		wantC, wantG := map[int]int{}, map[int][]int{}
		for _, x := range xs {
			if even(x) {
				wantC[key(x)]++
				wantG[key(x)] = append(wantG[key(x)], x)
			}
		}
		s := randText(n, uint64(n)+5, "abc \n")
		wantWords := map[string]int{}
		for _, w := range fieldsOracle(s) {
			wantWords[w]++
		}
		for name, opts := range all {
			if n > 100_000 && strings.Contains(name, "grain") {
				continue
			}
			t.Run(fmt.Sprintf("%s/n=%d", name, n), func(t *testing.T) {
				p := pipe.From(xs).Filter(even)
				require.Equal(t, wantC, pipe.CountBy(p, key, opts...))
				require.Equal(t, wantG, pipe.GroupBy(p, key, opts...))
				id := func(w string) string { return w }
				require.Equal(t, wantWords, pipe.CountBy(pipe.Fields(s), id, opts...))
			})
		}
	}
}

func TestGroupingNestedAndPanics(t *testing.T) {
	xs := randInts(20_000, 3)
	key := func(x int) int { return (x%5 + 5) % 5 }
	want := map[int]int{}
	for _, x := range xs {
		want[key(x)]++
	}
	for name, opts := range pools(t) {
		ok := par.Map(make([]int, 8), func(int) bool {
			return fmt.Sprint(pipe.CountBy(pipe.From(xs), key, opts...)) == fmt.Sprint(want)
		}, opts...)
		require.NotContains(t, ok, false, name)

		for _, at := range []int{0, len(xs) / 2, len(xs) - 1} {
			boom := fmt.Errorf("key at %d", at)
			bad := func(i int) int {
				if i == at {
					panic(boom)
				}
				return i % 3
			}
			require.Equal(t, boom, panicValue(t, func() { pipe.CountBy(pipe.Range(0, len(xs)), bad, opts...) }), name)
			require.Equal(t, boom, panicValue(t, func() { pipe.GroupBy(pipe.Range(0, len(xs)), bad, opts...) }), name)
		}
		require.Equal(t, want, pipe.CountBy(pipe.From(xs), key, opts...), "after the panics, %s", name)
	}
}

func TestGroupingNilKeyMessages(t *testing.T) {
	p := pipe.Range(0, 10)
	require.Equal(t, "pipe: CountBy: key is nil", panicValue(t, func() { pipe.CountBy[int, int](p, nil) }))
	require.Equal(t, "pipe: GroupBy: key is nil", panicValue(t, func() { pipe.GroupBy[int, int](p, nil) }))
	empty := pipe.CountBy(pipe.Lines(""), func(l string) string { return l })
	require.NotNil(t, empty)
	require.Empty(t, empty)
}

// TestGroupingBadOptions: a bad option panics with the index it has in the
// caller's options, as for every terminal (see TestTerminalBadOptions).
func TestGroupingBadOptions(t *testing.T) {
	closed := par.NewPool(par.Workers(2))
	closed.Close()
	key := func(x int) int { return x % 3 }
	calls := map[string]func(pipe.Pipe[int], []par.Option){
		"CountBy": func(p pipe.Pipe[int], o []par.Option) { pipe.CountBy(p, key, o...) },
		"GroupBy": func(p pipe.Pipe[int], o []par.Option) { pipe.GroupBy(p, key, o...) },
	}
	// The message's wording is that of every terminal (see TestTerminalBadOptions).
	collectMsg, ok := panicValue(t, func() { pipe.Range(0, 10).Collect(par.WithGrain(5), par.Option{}) }).(string)
	require.True(t, ok)
	require.Contains(t, collectMsg, "pipe: Collect: opts[1] is a zero Option")
	for src, p := range sources() {
		for name, call := range calls {
			v := panicValue(t, func() { call(p, []par.Option{par.WithGrain(5), {}}) })
			require.Equal(t, strings.Replace(collectMsg, "pipe: Collect:", "pipe: "+name+":", 1), v, src)
			v = panicValue(t, func() { call(p, []par.Option{par.OnPool(closed)}) })
			err, ok := v.(error)
			require.True(t, ok, "%s: the panic value is an error, got %T", src, v)
			require.EqualError(t, err, "pipe: "+name+": OnPool in opts[0]: weft: pool used after Close", src)
		}
	}
}
