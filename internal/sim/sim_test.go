package sim_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/weftgo/weft/internal/sim"
)

// loads are the suite's shapes at small sizes, for the invariants.
func loads() []sim.Load {
	c := sim.DefaultCosts
	return []sim.Load{c.W1Load(200_000), c.W2Load(50_000), c.W3Load(5_000), c.W2Load(1_000), c.W2Load(3)}
}

// TestDeterministic: the same configuration and seed give the same run.
func TestDeterministic(t *testing.T) {
	for _, l := range loads() {
		for _, p := range []int{2, 8, 64} {
			cfg := sim.Config{Machine: sim.VM, P: p, Seed: 7}
			a, b := sim.Calls(cfg, l, 3), sim.Calls(cfg, l, 3)
			require.Equal(t, a, b, "%s P=%d", l.Name, p)
		}
	}
}

// TestConservation: every element is folded exactly once, whatever the
// participants and the machine.
func TestConservation(t *testing.T) {
	for _, m := range []sim.Machine{sim.VM, sim.Bare} {
		for _, l := range loads() {
			for _, p := range []int{1, 2, 3, 16, 64} {
				for seed := range uint64(3) {
					name := fmt.Sprintf("%s/%s n=%d/P=%d/seed=%d", m.Name, l.Name, l.N, p, seed)
					for _, r := range sim.Calls(sim.Config{Machine: m, P: p, Seed: seed, Check: true}, l, 2) {
						require.Equal(t, l.N, r.Folded, name)
						spans := slices.Clone(r.Spans)
						slices.SortFunc(spans, func(a, b [2]int) int { return a[0] - b[0] })
						at := 0
						for _, sp := range spans {
							require.Equal(t, at, sp[0], "%s: a gap or an overlap at %d", name, at)
							require.Less(t, sp[0], sp[1], name)
							at = sp[1]
						}
						require.Equal(t, l.N, at, name)
					}
				}
			}
		}
	}
}

// TestBounds: no run beats T1/P or the span, and the work it charges is at
// least T1.
func TestBounds(t *testing.T) {
	for _, m := range []sim.Machine{sim.VM, sim.Bare} {
		for _, l := range loads() {
			for _, p := range []int{1, 2, 8, 64} {
				for _, r := range sim.Calls(sim.Config{Machine: m, P: p, Seed: 1}, l, 3) {
					name := fmt.Sprintf("%s/%s n=%d/P=%d", m.Name, l.Name, l.N, p)
					assert.GreaterOrEqual(t, r.T, r.T1/sim.Dur(p), name)
					assert.GreaterOrEqual(t, r.T, sim.Dur(l.Max()), name)
					assert.GreaterOrEqual(t, r.Busy, r.T1-sim.Dur(l.N)/1000, name) // rounding: under 1 ns a step
					assert.LessOrEqual(t, r.Busy, r.T*sim.Dur(p), name)
					assert.LessOrEqual(t, r.Worked, p, name)
					assert.LessOrEqual(t, r.Start+r.End, r.T*sim.Dur(p), name)
				}
			}
		}
	}
}

// TestFib: the fork tree is deterministic, charges at least its plain
// recursion's work, and keeps the bounds, under each rule weighed.
func TestFib(t *testing.T) {
	for _, m := range []sim.Machine{sim.VM, sim.Bare} {
		for _, p := range []int{1, 2, 8, 64} {
			for _, alt := range []bool{false, true} {
				cfg := sim.Config{Machine: m, P: p, Seed: 3, WakeIfNoneSearch: alt, OldForks: alt}
				r := sim.Fib(cfg, 24, 2)
				require.Equal(t, r, sim.Fib(cfg, 24, 2))
				name := fmt.Sprintf("%s/P=%d/alt=%v", m.Name, p, alt)
				assert.GreaterOrEqual(t, r.Busy, r.T1, name)
				assert.GreaterOrEqual(t, r.T, r.T1/sim.Dur(p), name)
				assert.LessOrEqual(t, r.Busy, r.T*sim.Dur(p), name)
				if p == 1 {
					assert.Zero(t, r.Forks, "%s: a pool of one processor promotes nothing", name)
				}
			}
		}
	}
}

// TestStepsAtScale: the planner's prediction for W1-W3 at their full sizes
// on 64 participants with bare metal's costs (sim.Bare, sim.DefaultCosts),
// the mean over five seeds, as split.Steps's doc gives it (leaves and steps
// a 64th of a participant's share; -v prints them). With leaves of 50 µs
// and steps of 100 µs, thieves cut stolen pieces into crumbs and the
// efficiencies were 0.72, 0.89 and 0.82; with the steps, 0.80, 0.92 and
// 0.87 while a range's cuts ran inline past split.RecordDepth unstolen jobs,
// their right pieces held on the cutter's stack out of the thieves' reach
// until the call's end; W3 at 0.89 while a leaf with no job of its own
// halved its steps until someone was hungry (split's TailStep, gone); and
// 0.89, 0.96 and 0.92 while a waiting participant looked at its latch only
// after each round over its victims (TestLatchAtScale).
func TestStepsAtScale(t *testing.T) {
	c := sim.DefaultCosts
	for _, tc := range []struct {
		l    sim.Load
		want float64
	}{{c.W1Load(50_000_000), 0.91}, {c.W2Load(2_000_000), 0.96}, {c.W3Load(100_000), 0.90}} {
		e := 0.0
		for seed := range uint64(5) {
			e += sim.Call(sim.Config{Machine: sim.Bare, P: 64, Seed: seed + 1}, tc.l).Efficiency() / 5
		}
		t.Logf("%s over %d: %.2f of T1/P", tc.l.Name, tc.l.N, e)
		assert.GreaterOrEqual(t, e, tc.want, "%s over %d: (T1/P)/T", tc.l.Name, tc.l.N)
	}
}

// TestFibAtScale: the planner's prediction for W4, fib(32) with a fork at
// every level, on 64 participants with bare metal's costs, the mean over
// five seeds, as a thief's recursion gives it (split.StartAge, Spreads;
// -v prints it): 0.87 of T1/P (0.84 while the period's floor was 20 µs
// whatever the wake-up, 0.81 before a waiting participant's look at its
// latch within a round), and 0.17 under the rules before it
// (Config.OldForks); at this machine's cost of a call of fib, 1.2 ns,
// where the caller's first period is a larger part of a participant's
// share, 0.80 (0.73 with the floor of 20 µs).
func TestFibAtScale(t *testing.T) {
	c := sim.DefaultCosts
	e, old, here := 0.0, 0.0, 0.0
	for seed := range uint64(5) {
		cfg := sim.Config{Machine: sim.Bare, P: 64, Seed: seed + 1}
		e += sim.Fib(cfg, 32, c.Fib).Efficiency() / 5
		here += sim.Fib(cfg, 32, 1.2).Efficiency() / 5
		cfg.OldForks = true
		old += sim.Fib(cfg, 32, c.Fib).Efficiency() / 5
	}
	t.Logf("W4 fib(32): %.2f of T1/P, %.2f under the rules before; %.3f at 1.2 ns a call", e, old, here)
	assert.GreaterOrEqual(t, e, 0.85, "W4 fib(32): (T1/P)/T")
	assert.GreaterOrEqual(t, here, 0.79, "W4 fib(32) at 1.2 ns a call: (T1/P)/T")
}

// TestLatchAtScale: the planner's prediction for W1 and W4 at 64
// participants with bare metal's costs, the mean over five seeds, with a
// waiting participant's look at its latch every split.LookEvery victims of
// a round (-v prints them, and the figures with a look only after each
// round, Config.LatchEvery 64, as sched had it): W1 0.93 (0.89), its idle
// time after its last fold 3 µs a participant (14), W4 0.84 (0.81).
func TestLatchAtScale(t *testing.T) {
	c := sim.DefaultCosts
	w1, w1Round, end, endRound, w4, w4Round := 0.0, 0.0, sim.Dur(0), sim.Dur(0), 0.0, 0.0
	for seed := range uint64(5) {
		cfg := sim.Config{Machine: sim.Bare, P: 64, Seed: seed + 1}
		r := sim.Call(cfg, c.W1Load(50_000_000))
		w1, end = w1+r.Efficiency()/5, end+r.End/64/5
		w4 += sim.Fib(cfg, 32, c.Fib).Efficiency() / 5
		cfg.LatchEvery = 64
		r = sim.Call(cfg, c.W1Load(50_000_000))
		w1Round, endRound = w1Round+r.Efficiency()/5, endRound+r.End/64/5
		w4Round += sim.Fib(cfg, 32, c.Fib).Efficiency() / 5
	}
	t.Logf("W1 over 50M: %.2f of T1/P, idle after the last fold %v a participant (a look after each round only: %.2f, %v)", w1, end, w1Round, endRound)
	t.Logf("W4 fib(32): %.2f of T1/P (a look after each round only: %.2f)", w4, w4Round)
	assert.GreaterOrEqual(t, w1, 0.91, "W1 over 50M: (T1/P)/T")
	assert.Less(t, end, endRound/2, "W1 over 50M: the idle time after the last fold")
	assert.GreaterOrEqual(t, w4, 0.82, "W4 fib(32): (T1/P)/T")
}

// TestWakerPaysTheUnpark: a push that wakes a parked worker costs its
// maker the machine's unpark, as sched's does: the first call after an
// idle spell that hands a rest over waits for it. On this VM (an unpark of
// 16 µs) W2's body over 1,000 elements first after an idle spell ran at
// 0.54 of its loop at GOMAXPROCS 2 (a scratch test of par.ReduceRange
// after 2 ms of the caller's own work, 101 calls, the median), which the
// model put at 0.97 while the waker paid nothing.
func TestWakerPaysTheUnpark(t *testing.T) {
	l := sim.DefaultCosts.W2Load(1_000)
	free := sim.VM
	free.Unpark = 0
	paid := sim.Call(sim.Config{Machine: sim.VM, P: 2, Seed: 1}, l)
	unpaid := sim.Call(sim.Config{Machine: free, P: 2, Seed: 1}, l)
	require.Positive(t, paid.Wakes, "the call wakes the worker")
	require.GreaterOrEqual(t, paid.T-unpaid.T, sim.VM.Unpark, "the caller paid for the wake-up")
	require.Less(t, float64(paid.T1)/float64(paid.T), 0.8, "a first call of 1,000 elements: the loop's time over the call's")
}

// TestShortRestWakesOne: the pieces of a call whose prefix handed over a
// rest shorter than its pool's LongRest wake a parked worker only while
// none searches (split.Wakes), so a stream of such calls on 16
// participants wakes about one worker a call, the searcher's replacement,
// where a wake per job woke three or four, each costing its waker the
// unpark after the call had no use for it; a long call still wakes a
// worker per job.
func TestShortRestWakesOne(t *testing.T) {
	c := sim.DefaultCosts
	m := sim.VM
	m.Wake = 70 * time.Microsecond // within the 47-105 µs this VM's pool measures
	wakes := func(n int) (float64, float64) {
		rs := sim.Calls(sim.Config{Machine: m, P: 16, Seed: 1}, c.W2Load(n), 40)[1:]
		w := make([]float64, len(rs))
		ratio := make([]float64, len(rs))
		for i, r := range rs {
			w[i], ratio[i] = float64(r.Wakes), float64(r.T1)/float64(r.T)
		}
		slices.Sort(w)
		slices.Sort(ratio)
		return w[len(w)/2], ratio[len(ratio)/2]
	}
	w, ratio := wakes(1_500)
	assert.LessOrEqual(t, w, 2.0, "a stream of short calls: median wakes a call")
	assert.Greater(t, ratio, 1.0, "a stream of short calls: the loop's time over the call's")
	w, _ = wakes(50_000)
	assert.GreaterOrEqual(t, w, 7.0, "a stream of long calls: median wakes a call (a wake per job)")
}
