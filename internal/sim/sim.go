package sim

import (
	"cmp"
	"math"
	"math/rand/v2"
	"time"

	"github.com/weftgo/weft/split"
)

// Sim is one simulated machine: P processors, a pool of P-1 workers and
// the seats of its callers, on a virtual clock.
type Sim struct {
	clock
	m     Machine
	procs int
	parts []*part // the pool's workers first, then the seats
	// workers is the pool's worker count.
	workers int

	searching, parked, waiting int // the pool's counts (sched.Pool.idle, waiting)
	calls, early               int // calls with a seat, and callers in a prefix
	wakeCursor                 int

	pushes, steals, wakes int
	owed                  int64 // unparks the running participant has yet to pay for (pay)

	sites            map[string]*site
	draw             *rand.Rand
	nextID           int
	check            bool // record every folded span (tests)
	wakeIfNoneSearch bool
	latchEvery       int
	// recursions: a recursion runs (Fib), and searching and waiting
	// participants ask for its forks (askTimer).
	recursions bool
}

// Config is what a simulation runs on.
type Config struct {
	Machine Machine
	// P is the processors: the pool has P-1 workers and the caller works on
	// its own call.
	P int
	// Seed makes the random draws (victims, which short call times itself)
	// of a run; the same seed gives the same run.
	Seed uint64
	// MinLen is the calls' minimum length (WithMinLen), 0 for none.
	MinLen int
	// Check records every folded span, for tests.
	Check bool
	// WakeIfNoneSearch weighs the sleep protocol sched had before its
	// wake per job: a push, or a searcher that finds work, woke a parked
	// worker only while none searched, and the pool came up one wake-up
	// after another. sched's rule, which the simulator runs otherwise,
	// wakes one while fewer workers search than jobs wait in the deques:
	// each woken worker wakes others as it cuts what it stole, and the
	// pool comes up in about log2(P) wake-ups.
	WakeIfNoneSearch bool
	// ForkPeriod, if positive, replaces split.Period's time between two
	// promotions of a recursion's forks on one participant (Fib), to weigh
	// a shorter one.
	ForkPeriod time.Duration
	// OldForks weighs the rules of a recursion's forks before the thief's
	// recursion (Fib; split.StartAge, Spreads): the recorded levels counted
	// from the recursion's first fork, not from the participant's last
	// promotion; a piece taken while waiting for a stolen half run within
	// the recursion waited in, not as one of its own; a period before a
	// thief's first promotion; and no promotion unasked.
	OldForks bool
	// LatchEvery, if positive, replaces split.LookEvery, the spacing in
	// victims of a waiting participant's looks at its latch while it
	// steals: 1 looks before every victim but the first, and P or more
	// only after each round, as sched did before.
	LatchEvery int
}

// newSim makes the machine with P-1 workers, parked, and seats more
// processes, whose bodies the scenario gives.
func newSim(cfg Config, seats int) *Sim {
	p := max(cfg.P, 1)
	s := &Sim{m: cfg.Machine, procs: p, workers: p - 1, sites: map[string]*site{},
		draw: rand.New(rand.NewPCG(cfg.Seed, 0x5eed)), check: cfg.Check, wakeIfNoneSearch: cfg.WakeIfNoneSearch,
		latchEvery: cmp.Or(cfg.LatchEvery, split.LookEvery)}
	for i := range p - 1 + seats {
		w := &part{s: s, id: i, pool: i < p-1, first: -1,
			rng: rand.New(rand.NewPCG(cfg.Seed, uint64(i)+1))}
		s.parts = append(s.parts, w)
	}
	return s
}

// startWorkers starts the pool's workers parked, as after an idle spell.
func (s *Sim) startWorkers() []*proc {
	var ps []*proc
	for _, w := range s.parts[:s.workers] {
		w.p = s.start(0, func() {
			w.parked = true
			s.parked++
			w.p.unschedule()
			w.p.block()
			if w.reason == wakeWork {
				j, _ := w.findWork(true)
				w.execute(j)
			}
			w.loop()
		})
		ps = append(ps, w.p)
	}
	return ps
}

// siteOf returns the record of a load's body.
func (s *Sim) siteOf(l Load) *site {
	st := s.sites[l.Name]
	if st == nil {
		st = &site{}
		s.sites[l.Name] = st
	}
	return st
}

func (s *Sim) newCall(l Load, minLen int) *call {
	s.nextID++
	return &call{s: s, id: s.nextID, load: l, minLen: minLen, site: s.siteOf(l)}
}

// Result is what one simulated call did.
type Result struct {
	P int
	// T is the call's time; T1 the time of its elements one after another
	// (the loop's), and Tinf its span: the dearest element and a fork per
	// level of halving.
	T, T1, Tinf time.Duration
	// Forks are the cuts pushed, Steals the jobs thieves took, Wakes the
	// unparks of workers and seats.
	Forks, Steals, Wakes int
	// Runs are the steps folded, over every participant.
	Runs int
	// Ramp is the time from the call's start until the last participant
	// first worked on it; Worked how many did (all P, or Ramp is of those).
	Ramp   time.Duration
	Worked int
	// Folded is the elements folded; Spans what (with Config.Check).
	Folded int
	Spans  [][2]int
	// Busy is the participants' time in work and overheads, summed.
	Busy time.Duration
	// Start and End sum, over the participants, the time from the call's
	// start to their first work (all of T for one that never worked) and
	// from their last fold to the call's end: the idle time of the ramp-up
	// and of the end. The rest of P*T - Busy is idle in between.
	Start, End time.Duration
}

// Bound returns T1/P + Tinf.
func (r Result) Bound() time.Duration { return r.T1/time.Duration(r.P) + r.Tinf }

// Efficiency returns (T1/P)/T: 1 is a perfect speedup.
func (r Result) Efficiency() float64 { return float64(r.T1) / float64(r.P) / float64(r.T) }

// Speedup returns T1/T.
func (r Result) Speedup() float64 { return float64(r.T1) / float64(r.T) }

func span(l Load, m Machine) time.Duration {
	return time.Duration(l.Max()+math.Ceil(math.Log2(float64(max(l.N, 2))))*float64(m.Fork)) + m.Fork
}

// Call simulates one call over l on a pool whose workers are parked, as
// after an idle spell, from a caller whose site has no record: the first
// call of a program.
func Call(cfg Config, l Load) Result {
	return Calls(cfg, l, 1)[0]
}

// Calls simulates k calls over l back to back from one caller, the first
// on a parked pool, and returns each call's result: the later ones find
// the site's record and, within the linger, a searching worker (W11).
func Calls(cfg Config, l Load, k int) []Result {
	s := newSim(cfg, 1)
	ps := s.startWorkers()
	caller := s.parts[s.workers]
	out := make([]Result, 0, k)
	caller.p = s.start(0, func() {
		for range k {
			out = append(out, s.measure(caller, l, cfg.MinLen))
		}
		s.done = true
	})
	s.run(append(ps, caller.p))
	return out
}

// measure runs one call of l on w and returns its result.
func (s *Sim) measure(w *part, l Load, minLen int) Result {
	for _, x := range s.parts {
		x.first, x.steals, x.wakes, x.runs, x.busy = -1, 0, 0, 0, 0
	}
	pushes, steals, wakes := s.pushes, s.steals, s.wakes
	c := s.newCall(l, minLen)
	c.run(w)
	r := Result{P: s.procs, T: time.Duration(c.end - c.start), T1: time.Duration(l.T1()), Tinf: span(l, s.m),
		Forks: s.pushes - pushes, Steals: s.steals - steals, Wakes: s.wakes - wakes,
		Folded: c.folded, Spans: c.spans}
	for _, x := range s.parts {
		r.Runs += x.runs
		r.Busy += time.Duration(x.busy)
		if x.first >= 0 {
			r.Worked++
			r.Ramp = max(r.Ramp, time.Duration(x.first-c.start))
			r.Start += time.Duration(x.first - c.start)
			r.End += time.Duration(c.end - max(x.last, x.first))
		} else if x.pool || x == w {
			r.Start += r.T
		}
	}
	return r
}

// Dur is time.Duration, for the tests' arithmetic.
type Dur = time.Duration

// Beside simulates k calls over small back to back from a second caller,
// beginning at delay, while a first caller's call over large runs on the
// same pool, and returns the small calls' results. The second caller is
// given a processor of its own: the simulated machine does not multiplex
// goroutines over processors as the Go scheduler does, but counts both
// calls against the P processors, as the pool does (split.Load).
func Beside(cfg Config, large, small Load, delay time.Duration, k int) []Result {
	s := newSim(cfg, 2)
	ps := s.startWorkers()
	big, other := s.parts[s.workers], s.parts[s.workers+1]
	out := make([]Result, 0, k)
	bigDone := false
	big.p = s.start(0, func() {
		s.measure(big, large, cfg.MinLen)
		bigDone = true
	})
	other.p = s.start(int64(delay), func() {
		for range k {
			out = append(out, s.measure(other, small, cfg.MinLen))
		}
		for !bigDone {
			other.advance(int64(time.Millisecond))
		}
		s.done = true
	})
	s.run(append(ps, big.p, other.p))
	return out
}
