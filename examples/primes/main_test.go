package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRun(t *testing.T) {
	for _, tc := range []struct {
		limit, count, sum int
	}{
		{0, 0, 0},
		{2, 0, 0},
		{3, 1, 2},
		{4, 2, 5},
		{100, 25, 1060},
		{1000, 168, 76127},
		{100_000, 9592, 454396537},
	} {
		var out bytes.Buffer
		r, err := run(&out, tc.limit, 1)
		require.NoError(t, err)
		assert.Len(t, r.primes, tc.count, "limit %d", tc.limit)
		assert.Equal(t, tc.sum, r.sum, "limit %d", tc.limit)
		lines := strings.Split(out.String(), "\n")
		require.Len(t, lines, 4, "output:\n%s", out.String())
		assert.Equal(t, fmt.Sprintf("primes below %d: %d, summing to %d", tc.limit, tc.count, tc.sum), lines[0])
		assert.True(t, strings.HasPrefix(lines[1], "sequential loop: "), lines[1])
		assert.True(t, strings.HasPrefix(lines[2], "par.Filter:      "), lines[2])
	}
}

func TestRunKeepsOrder(t *testing.T) {
	r, err := run(&bytes.Buffer{}, 30, 1)
	require.NoError(t, err)
	assert.Equal(t, []int{2, 3, 5, 7, 11, 13, 17, 19, 23, 29}, r.primes)
}

func TestRunRejectsBadArguments(t *testing.T) {
	_, err := run(&bytes.Buffer{}, -1, 1)
	assert.Error(t, err)
	_, err = run(&bytes.Buffer{}, 10, 0)
	assert.Error(t, err)
}
