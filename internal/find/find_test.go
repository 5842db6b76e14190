package find_test

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/weftgo/weft/internal/find"
)

func TestBoundKeepsTheBest(t *testing.T) {
	f, l := find.First(), find.Last()
	require.Equal(t, -1, f.Best())
	require.Equal(t, -1, l.Best())
	for _, i := range []int{500, 700, 300, 900, 0} {
		f.Offer(i)
		l.Offer(i)
	}
	require.Equal(t, 0, f.Best())
	require.Equal(t, 900, l.Best())

	f, l = find.First(), find.Last()
	f.Offer(300)
	l.Offer(300)
	require.False(t, f.Settled(0, 10))
	require.False(t, f.Settled(300, 400), "a run that starts at the match may hold nothing better, but is not settled by it")
	require.True(t, f.Settled(301, 400))
	require.False(t, l.Settled(200, 301))
	require.True(t, l.Settled(200, 300))
	require.False(t, l.Settled(400, 500))
}

// TestScan walks pieces of [0, n) one after another, in the order a
// find-first or find-last meets them, against the plain loop: the first
// piece's match is the answer, and every later piece is settled at once.
func TestScan(t *testing.T) {
	const n = 2000
	for _, last := range []bool{false, true} {
		for _, m := range []int{0, 1, 255, 256, 257, 1000, 1999} {
			match := func(i int) bool { return i == m || i == m/2+700 }
			want := -1
			for i := range n {
				if match(i) && (want < 0 || last) {
					want = i
				}
			}
			bd := find.First()
			if last {
				bd = find.Last()
			}
			looked := 0
			scan := func(a, c int) int {
				require.Less(t, a, c)
				require.LessOrEqual(t, c-a, find.Run)
				require.Equal(t, a/find.Run, (c-1)/find.Run, "a run crosses a multiple of Run")
				looked += c - a
				for k := range c - a {
					i := a + k
					if last {
						i = c - 1 - k
					}
					if match(i) {
						return i
					}
				}
				return -1
			}
			cuts := []int{0, 100, 613, 1024, 1500, n}
			for k := range len(cuts) - 1 {
				if last {
					k = len(cuts) - 2 - k
				}
				bd.Scan(cuts[k], cuts[k+1], scan)
			}
			require.Equal(t, want, bd.Best(), "last=%v m=%d", last, m)
			require.Less(t, looked, n, "last=%v m=%d: settled runs were looked at", last, m)
		}
	}
}

func TestOfferConcurrent(t *testing.T) {
	f, l := find.First(), find.Last()
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				f.Offer(1000 + g*200 + i)
				l.Offer(1000 - g*200 - i)
			}
		}()
	}
	wg.Wait()
	require.Equal(t, 1000, f.Best())
	require.Equal(t, 1000, l.Best())
}
