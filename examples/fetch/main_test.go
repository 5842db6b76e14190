package main

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRunBatches(t *testing.T) {
	c := config{
		n: 120, workers: 8, timeout: 30 * time.Millisecond,
		minLatency: time.Millisecond, maxLatency: 3 * time.Millisecond, slowLatency: 10 * time.Second,
	}
	var out bytes.Buffer
	res, err := runBatches(&out, c)
	require.NoError(t, err)

	// 1. Every record, in the order of the keys.
	all := res[0]
	require.NoError(t, all.err)
	require.Len(t, all.records, c.n)
	for i, r := range all.records {
		key := fmt.Sprintf("user-%03d", i)
		require.Equal(t, record{key: key, value: hash(key)}, r)
	}
	assert.Equal(t, int64(c.n), all.started)
	assert.Equal(t, int64(c.n), all.ok)
	assert.LessOrEqual(t, all.maxFlight, int64(c.workers+1), "the workers and the caller")

	// 2. The missing key's error, no records, and no lookup started after
	// the failure but those that had already checked, one per goroutine.
	miss := res[1]
	require.Error(t, miss.err)
	assert.Equal(t, "lookup user-060: not found", miss.err.Error())
	assert.ErrorIs(t, miss.err, errNotFound)
	assert.Nil(t, miss.records)
	assert.Equal(t, int64(1), miss.failed)
	assert.LessOrEqual(t, miss.afterStop, int64(c.workers+1))
	assert.Equal(t, miss.started, miss.ok+miss.failed+miss.cancelled, "every lookup returned before MapErr did")

	// 3. The slow keys cannot finish before the deadline.
	slow := res[2]
	assert.ErrorIs(t, slow.err, context.DeadlineExceeded)
	assert.Nil(t, slow.records)
	assert.Less(t, slow.ok, int64(c.n))
	assert.Equal(t, slow.started, slow.ok+slow.cancelled)

	lines := strings.Split(out.String(), "\n")
	require.Len(t, lines, 7, out.String())
	assert.Equal(t, "120 lookups of 1ms to 3ms each, on a pool of 8 workers", lines[0])
	assert.Regexp(t, `^all there, deadline 1s: 120 records in order \(first user-000, last user-119\) in \S+; at most \d+ lookups in flight$`, lines[1])
	assert.Regexp(t, `^user-060 missing, deadline 1s: error "lookup user-060: not found" after \S+, records: nil$`, lines[2])
	assert.Equal(t, fmt.Sprintf("  %d of 120 lookups started (%d after the failure), %d never did; %d found, 1 failed, %d cancelled in flight",
		miss.started, miss.afterStop, 120-miss.started, miss.ok, miss.cancelled), lines[3])
	assert.Regexp(t, `^2 slow keys \(10s\), deadline 30ms: error "context deadline exceeded" after \S+, records: nil$`, lines[4])
	assert.Equal(t, fmt.Sprintf("  %d of 120 lookups started, %d never did; %d found, %d cancelled in flight",
		slow.started, 120-slow.started, slow.ok, slow.cancelled), lines[5])
}

func TestRunRejectsBadArguments(t *testing.T) {
	good := config{n: 1, workers: 1, timeout: time.Second, maxLatency: time.Millisecond}
	for _, bad := range []func(c *config){
		func(c *config) { c.n = 0 },
		func(c *config) { c.workers = 0 },
		func(c *config) { c.timeout = 0 },
		func(c *config) { c.minLatency = -1 },
		func(c *config) { c.minLatency = 2 * time.Millisecond },
		func(c *config) { c.slowLatency = -1 },
	} {
		c := good
		bad(&c)
		assert.Error(t, run(&bytes.Buffer{}, c), "%+v", c)
	}
	var out bytes.Buffer
	require.NoError(t, run(&out, good))
	assert.Regexp(t, regexp.MustCompile(`user-000 missing.*records: nil`), out.String())
}
