package main

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSortPar(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	shapes := map[string]func(n int) []uint64{
		"random": func(n int) []uint64 { return input(n) },
		"sorted": func(n int) []uint64 {
			s := input(n)
			slices.Sort(s)
			return s
		},
		"reversed": func(n int) []uint64 {
			s := input(n)
			slices.Sort(s)
			slices.Reverse(s)
			return s
		},
		"equal": func(n int) []uint64 { return make([]uint64, n) },
		"few values": func(n int) []uint64 {
			s := make([]uint64, n)
			for i := range s {
				s[i] = rng.Uint64N(3)
			}
			return s
		},
		"organ pipe": func(n int) []uint64 {
			s := make([]uint64, n)
			for i := range s {
				s[i] = uint64(min(i, n-1-i))
			}
			return s
		},
	}
	for name, shape := range shapes {
		for _, n := range []int{0, 1, 2, 3, 17, cutoff, cutoff + 1, 3 * cutoff, 40_000} {
			t.Run(fmt.Sprintf("%s/%d", name, n), func(t *testing.T) {
				got := shape(n)
				want := slices.Clone(got)
				slices.Sort(want)
				seq := slices.Clone(got)
				sortPar(got)
				sortSeq(seq)
				require.Equal(t, want, got)
				require.Equal(t, want, seq)
			})
		}
	}
}

func TestPartition(t *testing.T) {
	for _, s := range [][]uint64{
		{1, 0}, {0, 1}, {1, 1}, {2, 1, 0}, {0, 0, 1}, {5, 5, 5, 5, 5}, {3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5},
	} {
		p := partition(s)
		require.True(t, 0 < p && p < len(s), "p = %d for %v", p, s)
		assert.LessOrEqual(t, slices.Max(s[:p]), slices.Min(s[p:]), "%v split at %d", s, p)
	}
}

func TestRun(t *testing.T) {
	var out bytes.Buffer
	got, err := run(&out, 10_000, 1)
	require.NoError(t, err)
	want := input(10_000)
	slices.Sort(want)
	require.Equal(t, want, got)

	lines := strings.Split(out.String(), "\n")
	require.Len(t, lines, 5, out.String())
	assert.Equal(t, fmt.Sprintf("sorted 10000 numbers: same as slices.Sort; min %d, median %d, max %d",
		want[0], want[5000], want[9999]), lines[0])
	assert.Regexp(t, `^slices\.Sort: +\S+$`, lines[1])
	assert.Regexp(t, `^quicksort, plain recursion: +\S+$`, lines[2])
	assert.Regexp(t, `^quicksort, par\.Do \+ w\.Join: +\S+ \(\d+\.\d\dx the plain recursion\)$`, lines[3])

	out.Reset()
	got, err = run(&out, 0, 1)
	require.NoError(t, err)
	assert.Empty(t, got)
	assert.True(t, strings.HasPrefix(out.String(), "sorted 0 numbers: same as slices.Sort\n"), out.String())
}

func TestRunRejectsBadArguments(t *testing.T) {
	_, err := run(&bytes.Buffer{}, -1, 1)
	assert.Error(t, err)
	_, err = run(&bytes.Buffer{}, 1, 0)
	assert.Error(t, err)
}
