package par_test

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
)

// partitionOracle splits in with a plain loop.
func partitionOracle[E any](in []E, pred func(E) bool) (yes, no []E) {
	yes, no = []E{}, []E{}
	for _, e := range in {
		if pred(e) {
			yes = append(yes, e)
		} else {
			no = append(no, e)
		}
	}
	return yes, no
}

func TestPartition(t *testing.T) {
	preds := map[string]func(int) bool{
		"third": func(x int) bool { return x%3 == 0 },
		"all":   func(int) bool { return true },
		"none":  func(int) bool { return false },
	}
	eachCase(t, func(r *rand.Rand, n int) []int { return smallInts(r, n, 1000) },
		func(t *testing.T, n int, in []int, s setup) {
			for name, pred := range preds {
				wantYes, wantNo := partitionOracle(in, pred)
				yes, no := par.Partition(in, pred, s.opts...)
				require.NotNil(t, yes, name)
				require.NotNil(t, no, name)
				require.Equal(t, wantYes, yes, "%s: yes", name)
				require.Equal(t, wantNo, no, "%s: no", name)
			}
		})
}

// TestPartitionCallsOnce: pred runs once per element, and the two results
// share no memory with each other or with s.
func TestPartitionCallsOnce(t *testing.T) {
	for _, p := range testPools(t) {
		in := indices(bigN())
		calls := make(counts, len(in))
		yes, no := par.Partition(in, func(i int) bool { calls[i].Add(1); return i%2 == 0 }, poolOpts(p)...)
		requireOnce(t, calls, "pred at")
		require.Len(t, yes, len(in)/2)
		for i := range yes {
			yes[i] = -1
		}
		for i := range no {
			no[i] = -2
		}
		require.Equal(t, indices(bigN()), in, "s must not change")
		require.Equal(t, slices.Repeat([]int{-1}, len(in)/2), yes[:len(in)/2], "no must not alias yes")
	}
}

func TestUnzip(t *testing.T) {
	f := func(x int) (int, string) { return x / 7, strconv.Itoa(x) }
	eachCase(t, func(r *rand.Rand, n int) []int { return randInts(r, n) },
		func(t *testing.T, n int, in []int, s setup) {
			wantA, wantB := make([]int, n), make([]string, n)
			for i, x := range in {
				wantA[i], wantB[i] = f(x)
			}
			a, b := par.Unzip(in, f, s.opts...)
			require.Equal(t, wantA, a)
			require.Equal(t, wantB, b)
		})
}

// TestPartitionUnzipNested runs Partition and Unzip inside another call.
func TestPartitionUnzipNested(t *testing.T) {
	pools := testPools(t)
	in := indices(3000)
	for _, p := range pools {
		t.Run(poolName(p), func(t *testing.T) {
			ok := par.Map(indices(12), func(k int) bool {
				opts := poolOpts(pools[k%len(pools)])
				yes, no := par.Partition(in, func(x int) bool { return x%(k+2) == 0 }, opts...)
				wy, wn := partitionOracle(in, func(x int) bool { return x%(k+2) == 0 })
				a, b := par.Unzip(in, func(x int) (int, int) { return x + k, x - k }, opts...)
				return slices.Equal(yes, wy) && slices.Equal(no, wn) && a[17] == 17+k && b[17] == 17-k
			}, append(poolOpts(p), par.WithGrain(1))...)
			require.Equal(t, slices.Repeat([]bool{true}, 12), ok)
		})
	}
}

// FuzzPartition compares Partition with the sequential loop on a fuzzed
// pattern of answers (bit i of data answers for element i) and fuzzed
// options. The elements are their own indices, so the test sees any change
// of order or loss.
func FuzzPartition(f *testing.F) {
	f.Add([]byte{}, uint8(0), uint8(0))
	f.Add([]byte{0xff}, uint8(2), uint8(1))
	f.Add([]byte{0x55, 0xaa, 0x0f}, uint8(2), uint8(2))
	f.Add([]byte("the quick brown fox jumps over the lazy dog"), uint8(3), uint8(2))
	f.Add(make([]byte, 300), uint8(14), uint8(1))
	pools := fuzzPools(f)
	f.Fuzz(func(t *testing.T, data []byte, grain, pool uint8) {
		in := indices(8 * len(data))
		pred := func(i int) bool { return data[i/8]>>(i%8)&1 == 1 }
		wantYes, wantNo := partitionOracle(in, pred)
		yes, no := par.Partition(in, pred, fuzzOpts(pools, grain, pool)...)
		if !slices.Equal(wantYes, yes) || !slices.Equal(wantNo, no) {
			t.Fatalf("Partition of %x = %v, %v; want %v, %v", data, yes, no, wantYes, wantNo)
		}
	})
}
