package par_test

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
)

func TestSmoke(t *testing.T) {
	for _, n := range []int{0, 1, 2, 3, 17, 1000, 1_000_000} {
		s := make([]int, n)
		for i := range s {
			s[i] = (i * 7919) % 1000003
		}
		sq := par.Map(s, func(x int) int { return x * 2 })
		for i := range s {
			require.Equal(t, s[i]*2, sq[i])
		}
		want := 0
		for _, x := range s {
			want += x
		}
		require.Equal(t, want, par.Sum(s))
		require.Equal(t, want, par.Reduce(s, 0, func(a, b int) int { return a + b }))
		ev := par.Filter(s, func(x int) bool { return x%2 == 0 })
		var wev []int
		for _, x := range s {
			if x%2 == 0 {
				wev = append(wev, x)
			}
		}
		require.Equal(t, len(wev), len(ev))
		require.True(t, slices.Equal(wev, ev))
		require.Equal(t, len(wev), par.Count(s, func(x int) bool { return x%2 == 0 }))
		require.Equal(t, slices.IndexFunc(s, func(x int) bool { return x > 500000 }), par.FindIndex(s, func(x int) bool { return x > 500000 }))
		if n > 0 {
			require.Equal(t, slices.Min(s), par.Min(s))
			require.Equal(t, slices.Max(s), par.Max(s))
		}
	}
}
