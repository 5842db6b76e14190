package split_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/weftgo/weft/split"
)

func TestPeriod(t *testing.T) {
	const us = time.Microsecond
	assert.Equal(t, split.PrefixBudget, split.Period(0, 0), "before the first promotion")
	assert.Equal(t, split.PrefixBudget, split.Period(100*time.Nanosecond, 0), "a push to a searching worker")
	assert.Equal(t, split.PeriodCosts*3*us, split.Period(3*us, 0), "a wake-up")
	assert.Equal(t, split.Linger(0), split.Period(time.Second, 0), "no longer than a worker lingers")
	assert.Equal(t, split.Linger(4*us), split.Period(time.Second, 4*us), "bare metal's linger")
	// The floor follows the pool's wake-up, within MinStep and PrefixBudget.
	assert.Equal(t, 6*us, split.Period(100*time.Nanosecond, 6*us), "bare metal's wake-up")
	assert.Equal(t, split.MinStep, split.Period(0, us), "a wake-up under MinStep")
	assert.Equal(t, split.PrefixBudget, split.Period(0, 70*us), "a VM's wake-up")
	assert.Equal(t, split.PeriodCosts*3*us, split.Period(3*us, 6*us), "the promotion's cost still rules above it")
}

func TestFork(t *testing.T) {
	const k = split.RecordDepth
	p := split.PrefixBudget
	cases := []struct {
		name           string
		depth, pending int
		asked          bool
		age            time.Duration
		want           split.ForkPlan
	}{
		{"a recursion's first fork records", 0, 0, false, 0, split.ForkPlan{Record: true, Look: true}},
		{"the last recorded level", k - 1, k - 1, false, 0, split.ForkPlan{Record: true, Look: false}},
		{"past the recorded levels: a plain call", k, k, false, 0, split.ForkPlan{}},
		{"asked too soon: nothing", k, k, true, p - 1, split.ForkPlan{}},
		{"asked in time: the oldest record goes", k, 2, true, p, split.ForkPlan{Promote: true}},
		{"asked with none pending: this fork goes", k, 0, true, p, split.ForkPlan{Record: true, Promote: true}},
		{"asked above the last level", 1, 1, true, 2 * p, split.ForkPlan{Record: true, Promote: true, Look: true}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, split.Fork(c.depth, c.pending, c.asked, c.age, p, 2))
		})
	}
	assert.Equal(t, split.ForkPlan{}, split.Fork(k, 2, true, p, p, 1), "one processor: no promotion")
	assert.Equal(t, split.ForkPlan{}, split.Fork(0, 0, false, 0, p, 1), "one processor: no record")
	assert.True(t, split.Looks(k-1, false))
	assert.False(t, split.Looks(k, false))
	assert.False(t, split.Looks(1, true), "a young recursion: its first path only")
}

func TestThiefRecursion(t *testing.T) {
	p := split.PrefixBudget
	assert.Equal(t, time.Duration(0), split.StartAge(false, p), "the caller's own: a period before it leaves")
	assert.Equal(t, p, split.StartAge(true, p), "a taken piece: at its first ask")
	assert.True(t, split.Spreads(true, 3, 8, 8), "a taken piece while workers park")
	assert.False(t, split.Spreads(true, 0, 8, 8), "none parked")
	assert.False(t, split.Spreads(false, 3, 8, 8), "the caller's own recursion")
	assert.False(t, split.Spreads(true, 3, 8, 2), "more processors than CPUs")
}
