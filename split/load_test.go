package split

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestLoadSpare(t *testing.T) {
	assert.Equal(t, 1, Load{Calls: 1, Procs: 2, Searching: 1}.Spare(), "a processor free")
	assert.Zero(t, Load{Calls: 2, Procs: 2, Searching: 1}.Spare(), "a call for every processor")
	assert.Zero(t, Load{Calls: 3, Procs: 2, Searching: 1}.Spare(), "more calls than processors")
	assert.Zero(t, Load{Calls: 1, Procs: 2, Searching: 1, Contended: true}.Spare(), "a contended pool has no spare worker")
	assert.Zero(t, Load{Calls: 1, Procs: 2}.Spare(), "no worker searching")
}

// endedPrefix returns a prefix of n elements that has timed its first
// `done` elements at d each and ended (Next said so), as the engine holds it
// when it asks Alone.
func endedPrefix(t *testing.T, n, done int, d time.Duration) Prefix {
	t.Helper()
	start := time.Unix(0, 0)
	p := NewPrefix(n, 1, start)
	p.end, p.last = done, done
	if p.Next(start.Add(time.Duration(done) * d)) {
		t.Fatalf("a prefix of %d elements at %v each did not end", done, d)
	}
	return p
}

func TestPrefixAlone(t *testing.T) {
	// A rest of about 100 µs (between the budget and eight budgets),
	// and one of about 10 ms.
	short := endedPrefix(t, 6_000, 1_000, 20*time.Nanosecond)
	long := endedPrefix(t, 500_000, 1_000, 20*time.Nanosecond)
	assert.False(t, short.Alone(Load{Calls: 1, Procs: 2}), "a processor free")
	assert.True(t, short.Alone(Load{Calls: 3, Procs: 2}), "more calls than processors")
	assert.True(t, long.Alone(Load{Calls: 3, Procs: 2}), "more calls than processors, whatever the rest")
	assert.True(t, short.Alone(Load{Calls: 1, Procs: 2, Contended: true}), "contended, a rest under eight budgets")
	assert.False(t, long.Alone(Load{Calls: 1, Procs: 2, Contended: true}), "contended, a rest of eight budgets or more")
	assert.False(t, short.Alone(Load{Calls: 2, Procs: 2}), "full, a rest over PrefixBudget")
	tiny := endedPrefix(t, 1_500, 1_000, 20*time.Nanosecond)
	assert.True(t, tiny.Alone(Load{Calls: 2, Procs: 2}), "full, a rest of PrefixBudget or less")
	assert.False(t, tiny.Alone(Load{Calls: 1, Procs: 2}), "a processor free, however short the rest")
}

func TestContentionMarks(t *testing.T) {
	assert.False(t, Stalled(PrefixBudget/2-1, 0), "unmeasured: half of PrefixBudget")
	assert.True(t, Stalled(PrefixBudget/2, 0))
	assert.True(t, Stalled(PrefixBudget/2, time.Millisecond), "a slow wake-up: still half of PrefixBudget")
	assert.False(t, Stalled(2*time.Microsecond-1, time.Microsecond), "a fast wake-up: half of Budget")
	assert.True(t, Stalled(2*time.Microsecond, time.Microsecond))
	assert.False(t, Marks(1, 0), "one stall, no mark before")
	assert.True(t, Marks(1, 1), "one stall while the marks go on")
	assert.True(t, Marks(2, 0), "two stalls in a row")
	first := MarkLength(1, 0)
	assert.Equal(t, 8*Linger(0), first, "a first mark: eight lingers")
	assert.Equal(t, 8*Linger(4*time.Microsecond), MarkLength(1, 4*time.Microsecond), "bare metal's")
	assert.Equal(t, 2*first, MarkLength(2, 0), "twice as long in a row")
	assert.Equal(t, 16*first, MarkLength(5, 0))
	assert.Equal(t, 16*first, MarkLength(1000, 0), "bounded")
}
