package sched_test

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/internal/sched"
)

// stallClock is a pool's clock for the contention tests: it stands still,
// or, while stalling, every read moves it on by YieldStall, so that every
// yield timed between two reads looks delayed by other goroutines.
type stallClock struct {
	now      atomic.Int64
	stalling atomic.Bool
}

func (c *stallClock) read() int64 {
	if c.stalling.Load() {
		return c.now.Add(int64(sched.YieldStall))
	}
	return c.now.Load()
}

// TestStalledYieldsMarkContention: StallStreak yields in a row that each
// took YieldStall or longer mark the pool contended for a first mark's length, fewer
// do not, and a yield that returns at once starts the count again. A mark
// made while the last one stands needs one stalled yield and lasts twice as
// long, up to 16 times as long; a yield that returns at once ends that, and a
// lapsed mark is no mark.
func TestStalledYieldsMarkContention(t *testing.T) {
	var c stallClock
	p := sched.NewClocked(1, c.read)
	defer p.Close()
	waitFor(t, "the worker to search", func() bool { return p.Load().Searching == 1 })
	c.now.Store(int64(sched.Linger)) // the worker parks, and yields no more
	waitFor(t, "the worker to park", func() bool { return p.Sleeping() == 1 })
	p.Run(func(w *sched.Worker) {
		c.stalling.Store(true)
		for i := 1; i < sched.StallStreak; i++ {
			require.False(t, w.Yield(), "stalled yield %d of %d", i, sched.StallStreak)
		}
		c.stalling.Store(false)
		require.False(t, w.Yield(), "a yield that returns at once")
		require.False(t, p.Load().Contended, "stalls not in a row")

		c.stalling.Store(true)
		for i := 1; i < sched.StallStreak; i++ {
			require.False(t, w.Yield())
		}
		require.True(t, w.Yield(), "the stalled yield that ends the streak marks the pool")
		c.stalling.Store(false)
		require.True(t, p.Load().Contended)
		require.Equal(t, c.read()+int64(p.MarkLength(1)), p.ContendedUntil(), "a first mark")

		c.now.Store(p.ContendedUntil())
		require.False(t, p.Load().Contended, "the mark lapsed")
		require.Zero(t, p.ContendedUntil(), "a lapsed mark is cleared")

		c.stalling.Store(true)
		require.True(t, w.Yield(), "right after a mark, one stalled yield marks again")
		c.stalling.Store(false)
		require.Equal(t, c.read()+int64(2*p.MarkLength(1)), p.ContendedUntil(), "for twice as long")
		for range 10 {
			c.stalling.Store(true)
			w.Yield()
			c.stalling.Store(false)
		}
		require.Equal(t, c.read()+int64(16*p.MarkLength(1)), p.ContendedUntil(), "up to 16 times as long")

		require.False(t, w.Yield(), "a yield that returns at once")
		c.stalling.Store(true)
		require.False(t, w.Yield(), "after it, one stalled yield is not enough again")
		c.stalling.Store(false)
	})
}

// TestContendedWorkerStopsLingering: a searching worker whose yields stall
// marks its pool contended and parks after its first StallStreak yields,
// long before its linger is out, where one whose yields return at once
// searches on.
func TestContendedWorkerStopsLingering(t *testing.T) {
	var c stallClock
	p := sched.NewClocked(1, c.read)
	defer p.Close()
	waitFor(t, "the worker to search", func() bool { return p.Load().Searching == 1 })
	for range 100 {
		time.Sleep(10 * time.Microsecond)
		require.Equal(t, 1, p.Load().Searching, "a worker whose yields return at once searches on")
	}
	require.False(t, p.Load().Contended)
	c.now.Store(int64(sched.Linger))
	waitFor(t, "the worker to park once its linger passed", func() bool { return p.Sleeping() == 1 })
	require.False(t, p.Load().Contended, "a worker that parks for its linger marks nothing")

	start := c.now.Load()
	c.stalling.Store(true)
	p.Spawn(func(*sched.Worker) {}).Wait() // the worker wakes, runs it, and searches
	waitFor(t, "the worker to park", func() bool { return p.Sleeping() == 1 })
	c.stalling.Store(false)
	require.True(t, p.Load().Contended, "the worker parked for its stalled yields")
	require.Less(t, c.now.Load()-start, int64(sched.Linger), "before the clock reached the end of its linger")
}
