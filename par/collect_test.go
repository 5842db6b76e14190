package par_test

import (
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/internal/torture"
	"github.com/weftgo/weft/par"
)

// The collecting functions (FlatMap, Filter, Partition, GroupBy, Positions)
// against a plain loop on every shape of result: empty, all of the input, one
// element, sparse, long runs kept and dropped, one element that makes a huge
// result, callbacks that return arrays of their own; and a bound on the bytes
// each call allocates, which must follow the result, not the pieces handed
// out before (a FlatMap whose f returned new arrays once asked for 36 GiB).

// collectN is the input length of the collecting tests: some thousands of
// elements, so that a run of pieces, and so out, grows past a small array,
// and the bounds are checked on every setup in about a second.
const collectN = 5_000

// keepShapes are the predicates whose results span the shapes: none, all,
// one, sparse, and runs.
func keepShapes(n int) map[string]func(int) bool {
	return map[string]func(int) bool{
		"none":   func(int) bool { return false },
		"all":    func(int) bool { return true },
		"one":    func(x int) bool { return x == n/2 },
		"sparse": func(x int) bool { return x%97 == 5 },
		"runs":   func(x int) bool { return x/1000%2 == 0 },
	}
}

// collectBound is the most bytes a collecting call over n elements may
// allocate for a result of the given bytes with the setup s: a few copies of
// the result, and a small record per piece (the array handed to a piece that
// keeps nothing, a join), at most n/grain pieces with a fixed grain and a few
// thousand adaptive ones. The copies: the pieces' arrays grow as append grows
// a slice, by a quarter at a time when large, which allocates about five
// times the final array in all (one piece that makes a huge result), and
// the join copies the result once more.
func collectBound(result, n int, s setup, perPiece int) int {
	pieces := 4096
	if s.grain > 0 {
		pieces = n / s.grain
	}
	return 8*result + perPiece*pieces + 64<<10
}

func TestCollectingShapes(t *testing.T) {
	n := collectN
	in := indices(n)
	for _, s := range setups(t) {
		if n > s.maxN {
			continue
		}
		t.Run(s.name, func(t *testing.T) {
			for shape, keep := range keepShapes(n) {
				var want, wantNo []int
				for _, x := range in {
					if keep(x) {
						want = append(want, x)
					} else {
						wantNo = append(wantNo, x)
					}
				}
				var got, gotNo []int
				bytes := int(torture.Allocated(func() { got = par.Filter(in, keep, s.opts...) }))
				require.Equal(t, nilIfEmpty(want), nilIfEmpty(got), "Filter %s", shape)
				require.NotNil(t, got, "Filter %s", shape)
				require.LessOrEqual(t, bytes, collectBound(8*len(want), n, s, 256), "Filter %s", shape)

				bytes = int(torture.Allocated(func() { got = par.Positions(in, keep, s.opts...) }))
				require.Equal(t, nilIfEmpty(want), nilIfEmpty(got), "Positions %s", shape) // in holds its indices
				require.LessOrEqual(t, bytes, collectBound(8*len(want), n, s, 256), "Positions %s", shape)

				bytes = int(torture.Allocated(func() { got, gotNo = par.Partition(in, keep, s.opts...) }))
				require.Equal(t, nilIfEmpty(want), nilIfEmpty(got), "Partition %s", shape)
				require.Equal(t, nilIfEmpty(wantNo), nilIfEmpty(gotNo), "Partition %s", shape)
				require.LessOrEqual(t, bytes, collectBound(8*n, n, s, 512), "Partition %s", shape)

				bytes = int(torture.Allocated(func() {
					got = par.FlatMap(in, func(x int, out []int) []int {
						if keep(x) {
							out = append(out, x)
						}
						return out
					}, s.opts...)
				}))
				require.Equal(t, nilIfEmpty(want), nilIfEmpty(got), "FlatMap %s", shape)
				require.LessOrEqual(t, bytes, collectBound(8*len(want), n, s, 256), "FlatMap %s", shape)
			}
		})
	}
}

// TestFlatMapShapes: one element that makes a huge result, callbacks that
// return arrays of their own (now and then, or one huge one), and none made
// at all. What f allocates itself is counted apart: out holds what the run of
// pieces made so far, so an f that copies it costs what that run holds.
func TestFlatMapShapes(t *testing.T) {
	n := collectN
	in := indices(n)
	huge := 10 * n
	var own atomic.Int64 // the bytes the fresh shapes allocated
	fresh := func(out []int, extra int) []int {
		r := make([]int, len(out), len(out)+extra)
		copy(r, out)
		own.Add(int64(8 * cap(r)))
		return r
	}
	shapes := map[string]func(x int, out []int) []int{
		"huge one": func(x int, out []int) []int {
			if x == n/3 {
				for j := range huge {
					out = append(out, j)
				}
			}
			return out
		},
		"fresh": func(x int, out []int) []int {
			if x%64 == 0 {
				out = fresh(out, 1)
			}
			return append(out, x)
		},
		"huge fresh": func(x int, out []int) []int {
			if x == n/3 {
				out = fresh(out, huge)
				for j := range huge {
					out = append(out, j)
				}
			}
			return out
		},
		"none": func(int, []int) []int { return nil },
	}
	for _, s := range setups(t) {
		if n > s.maxN {
			continue
		}
		for name, f := range shapes {
			t.Run(fmt.Sprintf("%s/%s", s.name, name), func(t *testing.T) {
				var want []int
				for _, x := range in {
					want = f(x, want)
				}
				var got []int
				own.Store(0)
				bytes := int(torture.Allocated(func() { got = par.FlatMap(in, f, s.opts...) })) - int(own.Load())
				require.Equal(t, nilIfEmpty(want), nilIfEmpty(got))
				require.NotNil(t, got)
				require.LessOrEqual(t, bytes, collectBound(8*len(want), n, s, 256), "allocated %d bytes besides f's for %d elements", bytes, len(want))
			})
		}
	}
}

// TestGroupByShapes: one group of everything, a group per element, and an
// empty input.
func TestGroupByShapes(t *testing.T) {
	n := collectN
	in := indices(n)
	for _, s := range setups(t) {
		if n > s.maxN {
			continue
		}
		for name, key := range map[string]func(int) int{
			"one group": func(int) int { return 7 },
			"distinct":  func(x int) int { return x },
			"halves":    func(x int) int { return x / (n / 2) },
		} {
			t.Run(fmt.Sprintf("%s/%s", s.name, name), func(t *testing.T) {
				want := map[int][]int{}
				for _, x := range in {
					want[key(x)] = append(want[key(x)], x)
				}
				var got map[int][]int
				bytes := int(torture.Allocated(func() { got = par.GroupBy(in, key, s.opts...) }))
				require.Equal(t, want, got)
				// A map entry and a group per distinct key, and a map per piece.
				require.LessOrEqual(t, bytes, collectBound(8*n+128*len(want), n, s, 1024), "allocated %d bytes", bytes)
				require.Equal(t, map[int][]int{}, par.GroupBy([]int{}, key, s.opts...))
			})
		}
	}
}

// nilIfEmpty makes an empty slice nil, to compare a result with an oracle
// that built it by appending.
func nilIfEmpty[T any](s []T) []T {
	if len(s) == 0 {
		return nil
	}
	return s
}
