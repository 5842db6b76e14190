package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"sync/atomic"
	"time"

	"github.com/weftgo/weft/internal/sim"
	"github.com/weftgo/weft/par"
)

// go run ./bench -sim: weft's planner on 2 to 64 simulated participants
// (internal/sim), on this machine's measured costs and on bare metal's.
// bench imports the simulator, an internal package of the library, since
// it is the library's own model; everything else here uses the public API.

// simPs are the participants of the table.
var simPs = []int{2, 4, 8, 16, 32, 64}

// simSeed is the seed of every simulated run: the table is a function of
// the calibration alone.
const simSeed = 1

func runSimCmd(f *flags) (int, error) {
	out := os.Stdout
	fmt.Fprintln(out, "# weft on 2 to 64 simulated participants (go run ./bench -sim)")
	fmt.Fprintln(out)
	costs, vm, busy := simCalibrate()
	fmt.Fprintf(out, "Measured here (GOMAXPROCS %d): wake %v, steal from a searching worker %v (each less the seat, the fork and the look the model charges itself), fork %v, clock %v, call %v, yield %v, unpark %v;\n",
		runtime.GOMAXPROCS(0), vm.Wake, vm.Steal, vm.Fork, vm.Clock, vm.Call, vm.Yield, vm.Unpark)
	if busy != nil {
		fmt.Fprintf(out, "(other processes held the processors while the steal and the wake-up were timed: a Join's halves met in %v with a worker searching, against %v with it parked, %d times; these two are %s's)\n",
			busy.steal, busy.wake, simMeetTries, sim.VM.Name)
	}
	fmt.Fprintf(out, "elements: W1 %.3f ns, W2/W3 %.2f ns + %.3f ns a step, a call of fib %.2f ns.\n", costs.W1, costs.Base, costs.Step, costs.Fib)
	fmt.Fprintf(out, "Bare metal: wake %v, steal %v, yield %v, unpark %v, the rest as measured.\n\n", sim.Bare.Wake, sim.Bare.Steal, sim.Bare.Yield, sim.Bare.Unpark)
	bare := sim.Bare
	bare.Fork, bare.Clock, bare.Call = vm.Fork, vm.Clock, vm.Call

	simCheck(out, costs, vm)
	simTable(out, costs, []sim.Machine{vm, bare})
	simFib(out, costs, []sim.Machine{vm, bare})
	simCalls(out, costs, []sim.Machine{vm, bare})
	simBeside(out, costs, []sim.Machine{vm, bare})
	return 0, nil
}

// simCheck prints the predictions at P = 2 to set beside go run ./bench
// (quick sizes) on this machine.
func simCheck(out io.Writer, c sim.Costs, m sim.Machine) {
	fmt.Fprintln(out, "## P = 2, against go run ./bench -w W1,W2,W3,W11 -c none -sweep=false -scaling=false")
	fmt.Fprintln(out)
	fmt.Fprintln(out, "| workload | n | T1 | predicted T | predicted speedup |")
	fmt.Fprintln(out, "|---|---|---|---|---|")
	for _, l := range []sim.Load{c.W1Load(10_000_000), c.W2Load(400_000), c.W3Load(20_000)} {
		r := sim.Call(sim.Config{Machine: m, P: 2, Seed: simSeed}, l)
		fmt.Fprintf(out, "| %s | %s | %v | %v | %.2f |\n", l.Name, commas(l.N), roundDur(r.T1), roundDur(r.T), r.Speedup())
	}
	fmt.Fprintln(out)
	fmt.Fprintln(out, "W11, the loop's time over a call's, calls back to back from one caller (ReduceRange's column):")
	fmt.Fprintln(out)
	fmt.Fprintln(out, "| body | n | loop | predicted ratio |")
	fmt.Fprintln(out, "|---|---|---|---|")
	for _, b := range simCallBodies(c) {
		for _, n := range b.sizes {
			l := b.load(n)
			l.Whole = true // ReduceRange's leaf
			fmt.Fprintf(out, "| %s | %s | %v | %.2f |\n", l.Name, commas(n), roundDur(time.Duration(l.T1())), simStream(sim.Config{Machine: m, P: 2, Seed: simSeed}, l))
		}
	}
	fmt.Fprintln(out)
}

type simCallBody struct {
	sizes []int
	load  func(n int) sim.Load
}

func simCallBodies(c sim.Costs) []simCallBody {
	return []simCallBody{
		{[]int{100, 300, 700, 1000, 1500, 2000, 3000, 5000, 10_000, 20_000, 50_000, 100_000}, c.W2Load},
		{[]int{10_000, 30_000, 100_000, 300_000, 1_000_000, 3_000_000, 10_000_000}, c.W1Load},
	}
}

// simStream returns W11's figure for l: the loop's time over the median
// call's, calls back to back for about callsRunTarget after one untimed
// call.
func simStream(cfg sim.Config, l sim.Load) float64 {
	k := 1 + max(5, int(float64(callsRunTarget)/l.T1()))
	rs := sim.Calls(cfg, l, min(k, 400))[1:]
	ts := make([]time.Duration, len(rs))
	for i, r := range rs {
		ts[i] = r.T
	}
	return l.T1() / float64(median(ts))
}

// simTable prints the table to 64 participants for the suite's loops at
// their full sizes, and W1 at docs/DESIGN.md's worked example's 10M.
func simTable(out io.Writer, c sim.Costs, ms []sim.Machine) {
	fmt.Fprintln(out, "## W1-W3 at docs/DESIGN.md's sizes (and W1 at 10M), one call on a parked pool")
	fmt.Fprintln(out)
	fmt.Fprintln(out, "Speedup T1/T; bound: T1/(T1/P + T∞); eff: (T1/P)/T; pieces, steals and wake-ups per participant; ramp: until the last participant first works (worked: how many did).")
	fmt.Fprintln(out)
	fmt.Fprintln(out, "Wake: sched's rule (a push, or a searcher that finds work, wakes a parked worker while fewer search than jobs wait), or the rule before it (Config.WakeIfNoneSearch: only while none searches).")
	fmt.Fprintln(out)
	fmt.Fprintln(out, "| machine | wake | workload | n | P | T | speedup | bound | eff | pieces/P | steals/P | wakes/P | ramp | worked |")
	fmt.Fprintln(out, "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
	for _, m := range ms {
		for _, before := range []bool{true, false} {
			rule := "per job"
			if before {
				rule = "none searching"
			}
			for _, l := range []sim.Load{c.W1Load(50_000_000), c.W2Load(2_000_000), c.W3Load(100_000), c.W1Load(10_000_000)} {
				for _, p := range simPs {
					r := sim.Call(sim.Config{Machine: m, P: p, Seed: simSeed, WakeIfNoneSearch: before}, l)
					fmt.Fprintf(out, "| %s | %s | %s | %s | %d | %v | %.2f | %.2f | %.2f | %.1f | %.1f | %.2f | %v | %d |\n",
						m.Name, rule, l.Name, commas(l.N), p, roundDur(r.T), r.Speedup(), float64(r.T1)/float64(r.Bound()), r.Efficiency(),
						float64(r.Forks+1)/float64(p), float64(r.Steals)/float64(p), float64(r.Wakes)/float64(p), roundDur(r.Ramp), r.Worked)
				}
			}
		}
	}
	fmt.Fprintln(out)
}

// simFib prints W4, fib(32) with a fork at every level, under sched's
// rules, under the forks' rules before the thief's recursion
// (Config.OldForks), and under those and the wake before it.
func simFib(out io.Writer, c sim.Costs, ms []sim.Machine) {
	fmt.Fprintln(out, "## W4: fib(32) with a fork at every level, one call on a parked pool")
	fmt.Fprintln(out)
	fmt.Fprintln(out, "Rules: sched's (split.Fork, a thief's recursion of its own, split.StartAge and Spreads, the wake per job); the forks' rules before the thief's recursion (Config.OldForks); or those and the wake before the wake per job (only while none searches).")
	fmt.Fprintln(out)
	fmt.Fprintln(out, "| machine | rules | P | T | speedup | eff | promotions/P | steals/P | wakes/P | ramp |")
	fmt.Fprintln(out, "|---|---|---|---|---|---|---|---|---|---|")
	rules := []struct {
		name string
		cfg  sim.Config
	}{{"before, none searching", sim.Config{WakeIfNoneSearch: true, OldForks: true}}, {"before", sim.Config{OldForks: true}}, {"sched", sim.Config{}}}
	for _, m := range ms {
		for _, rl := range rules {
			rule := rl.name
			for _, p := range simPs {
				cfg := rl.cfg
				cfg.Machine, cfg.P, cfg.Seed = m, p, simSeed
				r := sim.Fib(cfg, 32, c.Fib)
				fmt.Fprintf(out, "| %s | %s | %d | %v | %.2f | %.2f | %.1f | %.1f | %.2f | %v |\n", m.Name, rule, p, roundDur(r.T),
					r.Speedup(), r.Efficiency(), float64(r.Forks)/float64(p), float64(r.Steals)/float64(p), float64(r.Wakes)/float64(p), roundDur(r.Ramp))
			}
		}
	}
	fmt.Fprintln(out)
}

// simCalls prints, for calls of 20 µs to 2 ms of W2's body, the loop's
// time over weft's: back to back (warm) and as the first call on a parked
// pool (cold).
func simCalls(out io.Writer, c sim.Costs, ms []sim.Machine) {
	fmt.Fprintln(out, "## Calls of 20 µs to 2 ms (W2's body): the loop's time over weft's, back to back / first after an idle spell")
	fmt.Fprintln(out)
	sizes := []int{}
	for _, n := range []int{700, 1000, 2000, 5000, 10_000, 20_000, 50_000, 70_000} {
		if t := time.Duration(c.W2Load(n).T1()); t >= 20*time.Microsecond && t <= 2*time.Millisecond {
			sizes = append(sizes, n)
		}
	}
	fmt.Fprint(out, "| machine | P |")
	for _, n := range sizes {
		fmt.Fprintf(out, " %s (%v) |", commas(n), roundDur(time.Duration(c.W2Load(n).T1())))
	}
	fmt.Fprintln(out)
	fmt.Fprintln(out, "|---|---|"+stringsRepeat("---|", len(sizes)))
	for _, m := range ms {
		for _, p := range simPs {
			fmt.Fprintf(out, "| %s | %d |", m.Name, p)
			for _, n := range sizes {
				l := c.W2Load(n)
				cfg := sim.Config{Machine: m, P: p, Seed: simSeed}
				cold := sim.Call(cfg, l)
				fmt.Fprintf(out, " %.2f / %.2f |", simStream(cfg, l), float64(cold.T1)/float64(cold.T))
			}
			fmt.Fprintln(out)
		}
	}
	fmt.Fprintln(out)
}

// simBeside prints the time of small calls made beside a large one.
func simBeside(out io.Writer, c sim.Costs, ms []sim.Machine) {
	small := c.W2Load(2_000)
	fmt.Fprintf(out, "## A call beside a large one: W2's body over 2,000 elements (loop %v) while W2 at 2M runs\n\n", roundDur(time.Duration(small.T1())))
	fmt.Fprintln(out, "| machine | P | median small call | its loop over it |")
	fmt.Fprintln(out, "|---|---|---|---|")
	for _, m := range ms {
		for _, p := range simPs {
			rs := sim.Beside(sim.Config{Machine: m, P: p, Seed: simSeed}, c.W2Load(2_000_000), small, time.Millisecond, 20)
			ts := make([]time.Duration, len(rs))
			for i, r := range rs {
				ts[i] = r.T
			}
			md := median(ts)
			fmt.Fprintf(out, "| %s | %d | %v | %.2f |\n", m.Name, p, roundDur(md), small.T1()/float64(md))
		}
	}
	fmt.Fprintln(out)
}

func stringsRepeat(s string, n int) string {
	out := ""
	for range n {
		out += s
	}
	return out
}

// simMeetTries is how many times simCalibrate times the steal and the
// wake-up before it takes sim.VM's.
const simMeetTries = 3

// simBusy is what simCalibrate timed last when no try gave a steal and a
// wake-up to believe.
type simBusy struct{ steal, wake time.Duration }

// simCalibrate measures this machine: the elements of W1 to W3, and what
// the pool's fork, steal and wake-up cost, through par's public API. Where
// other processes hold the processors, the halves of a Join meet when the
// kernel gives the second its turn, milliseconds later whether a worker
// searched or slept (beside builds of the repository, a steal of 4 ms and a
// wake-up of 0 in one run, a wake-up of 2 ms in another); such a try is taken again, and after simMeetTries the
// steal and the wake-up are sim.VM's, which busy reports.
func simCalibrate() (sim.Costs, sim.Machine, *simBusy) {
	c := sim.DefaultCosts
	t1 := simMin(5, func() { simSink.Store(w1Leaf(0, 10_000_000)) })
	c.W1 = float64(t1) / 10_000_000
	// W2's and W3's totals fix an element's base and its cost a step.
	t2 := simMin(5, func() { simSink.Store(w2Leaf(0, 400_000)) })
	t3 := simMin(5, func() { simSink.Store(w3Leaf(20_000)(0, 20_000)) })
	var s2, s3 float64
	for i := range 400_000 {
		s2 += float64(i%100 + 1)
	}
	for i := range 20_000 {
		s3 += float64(w3Steps(i, 20_000))
	}
	// n2*base + s2*step = t2; n3*base + s3*step = t3.
	a, b, d, e := 400_000.0, s2, 20_000.0, s3
	det := a*e - b*d
	c.Base = (float64(t2)*e - b*float64(t3)) / det
	c.Step = (a*float64(t3) - d*float64(t2)) / det
	if c.Base < 0 {
		c.Base, c.Step = 0, float64(t2)/s2
	}
	c.Fib = float64(simMin(5, func() { simSink.Store(fib(27)) })) / fibCalls(27)

	m := sim.VM
	m.Name = "this machine"
	var since time.Duration
	m.Clock = simPer(1_000_000, func() { since += time.Since(simT0) })
	simSink.Store(uint64(since))

	p := par.NewPool(par.Workers(1))
	defer p.Close()
	// Yields as a participant makes them: on the pool's seat, its worker
	// parked (BenchmarkYield in internal/sched).
	time.Sleep(time.Millisecond)
	par.Do(func(*par.Worker) { m.Yield = simMedian(20_001, simYield) }, par.OnPool(p))
	const splits = 1 << 16
	m.Fork = simMin(5, func() { par.ForRange(splits, func(lo, hi int) {}, par.WithGrain(1), par.OnPool(p)) }) / splits

	// A short call with a known site: its time less its loop's.
	body := func(lo, hi int) { simSink.Store(w2Leaf(lo, hi)) }
	loop := simMin(20, func() {
		for range 100 {
			body(0, 100)
		}
	})
	call := simMin(20, func() {
		for range 100 {
			par.ForRange(100, body, par.OnPool(p))
		}
	})
	m.Call = max(0, (call-loop)/100)
	m.Unpark = simUnpark()

	if runtime.GOMAXPROCS(0) >= 2 {
		// simMeet times a Join from its start until both halves run, which
		// holds what the model charges on its own: the seat and the fork,
		// and before a searching thief's steal its look, drawn over a round
		// of its search (half a round in the mean); a woken worker steals
		// at once. The steal and the wake-up are what is left (the whole
		// meet, charged again on top of those, made the model's hand-over
		// to a searching worker 1-2 µs dearer than a timeline of real calls
		// shows).
		for try := 1; ; try++ {
			meetSteal, meetWake := simMeet(p, 0), simMeet(p, 2*time.Millisecond)
			// A searching thief takes a job within a round of its search,
			// some microseconds; a parked one first wakes, in 50-100 µs on
			// this VM while nothing else runs (BenchmarkWake in
			// internal/sched), some 2 ms beside builds.
			if meetSteal < min(meetWake, 100*time.Microsecond) && meetWake < time.Millisecond {
				m.Steal = max(meetSteal-m.Seat-m.Fork-m.Round(2)/2, m.Try)
				m.Wake = max(meetWake-m.Seat-m.Fork-m.Steal, 0)
				break
			}
			if try == simMeetTries {
				m.Steal, m.Wake = sim.VM.Steal, sim.VM.Wake
				return c, m, &simBusy{meetSteal, meetWake}
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	return c, m, nil
}

var (
	// simSink keeps the timed loops' results alive.
	simSink atomic.Uint64
	simT0   = time.Now()
)

// simMin returns the least time of reps runs of f.
func simMin(reps int, f func()) time.Duration {
	best := time.Duration(1 << 62)
	for range reps {
		t := time.Now()
		f()
		best = min(best, time.Since(t))
	}
	return best
}

// simPer returns the time of one of k runs of f in a row.
func simPer(k int, f func()) time.Duration {
	t := time.Now()
	for range k {
		f()
	}
	return time.Since(t) / time.Duration(k)
}

// simMedian returns the median time of k runs of f, each timed: a yield
// that another thread holds up takes 10 µs or more now and then, and the
// mean would carry those (BenchmarkYield in internal/sched reports both).
func simMedian(k int, f func()) time.Duration {
	ds := make([]time.Duration, k)
	for i := range ds {
		t := time.Now()
		f()
		ds[i] = time.Since(t)
	}
	slices.Sort(ds)
	return ds[k/2]
}

// simUnpark returns the median time an unpark costs the goroutine that
// makes it, as sched's does (a token sent on the parked goroutine's
// buffered channel, and a goroutine started that moves the woken one to
// the run queue, where the runtime wakes a thread for an idle processor):
// the parked goroutine waits on its channel, the waker has spun 200 µs
// meanwhile, as a caller works between calls, and is timed from its send
// to the end of its go statement.
func simUnpark() time.Duration {
	wake := make(chan struct{}, 1)
	done := make(chan struct{})
	go func() {
		for range wake {
			done <- struct{}{}
		}
	}()
	defer close(wake)
	ds := make([]time.Duration, 101)
	for i := range ds {
		for d := time.Now(); time.Since(d) < 200*time.Microsecond; {
		}
		t := time.Now()
		wake <- struct{}{}
		go func() {}()
		ds[i] = time.Since(t)
		<-done
	}
	slices.Sort(ds)
	return ds[len(ds)/2]
}

// simMeet returns the median time from a Join on p to the moment both its
// halves run, each spinning until the other has started: after idle of
// the caller's own work, long enough for the worker to park (a wake-up),
// or with the worker still searching after the Join before (idle 0: a
// steal).
func simMeet(p *par.Pool, idle time.Duration) time.Duration {
	var lat []time.Duration
	for range 101 {
		// The caller stays busy while the worker parks, as a caller runs
		// its sequential work between calls: a process that sleeps whole
		// lets both processors halt, and its wake-up measured 1.8 ms here
		// where BenchmarkWake, whose caller polls, measures 80-100 µs.
		for d := time.Now(); time.Since(d) < idle; {
		}
		var left, right atomic.Int64
		t0 := time.Now()
		meet := func(mine, other *atomic.Int64) {
			mine.Store(int64(time.Since(t0)) | 1)
			for d := time.Now(); other.Load() == 0 && time.Since(d) < 50*time.Millisecond; {
			}
		}
		par.Join(func() { meet(&left, &right) }, func() { meet(&right, &left) }, par.OnPool(p))
		lat = append(lat, time.Duration(max(left.Load(), right.Load())))
	}
	slices.Sort(lat)
	return lat[len(lat)/2]
}
