package sim

import (
	"time"

	"github.com/weftgo/weft/split"
)

// What internal/engine and internal/sched still decide themselves, and
// split does not yet export as functions of explicit signals: written here
// from their code, each with the engine's name, so that the simulator
// drives the same decisions. When split takes these rules over, the
// simulator calls split's instead.

// Mirrors of internal/engine's constants: the one call in timedOneIn that
// a call its site says is short times itself, and the fewest elements
// whose time a prefix trusts on its own.
const (
	timedOneIn = 8
	minSample  = 16
)

// site is internal/engine's record of a call site's pace (site.go): a
// settled or unsettled pace in picoseconds an element, learnt as the
// engine learns it, without the table's packing and collisions.
type site struct {
	has       bool
	ps        uint64
	unsettled bool
	suspect   bool
}

// pace is site.pace: the zero Pace unless settled.
func (s *site) pace() split.Pace {
	if !s.has || s.unsettled {
		return split.Pace{}
	}
	return split.Pace{N: 1000, D: time.Duration(s.ps)}
}

// short is site.short: n elements take split.ShortCall or less at the
// settled pace.
func (s *site) short(n int) bool {
	if !s.has || s.unsettled {
		return false
	}
	return shortAt(n, s.ps, 0)
}

func shortAt(n int, a, b uint64) bool {
	shortPs := uint64(split.ShortCall) * 1000
	return uint64(n) <= shortPs && uint64(n)*max(a, b) <= shortPs
}

// learn is site.learn.
func (s *site) learn(p split.Pace, ended bool) {
	if p.N <= 0 || p.D <= 0 {
		return
	}
	ps := max(uint64(p.D)*1000/uint64(p.N), 1)
	if s.has {
		o := s.ps
		if !s.unsettled && !s.suspect && o-o/8 <= ps && ps <= o+o/8 {
			return
		}
		if (ps > 2*o || o > 2*ps) && !(ended && shortAt(p.N, ps, o)) {
			if !s.unsettled && !s.suspect && ps > 2*o {
				s.suspect = true
				return
			}
			*s = site{has: true, ps: ps, unsettled: true}
			return
		}
	}
	*s = site{has: true, ps: ps}
}

// plan is the engine's plan: the site's pace and the prefix it plans, or
// short for a call that the site's settled record says is short.
func plan(st *site, n, minLen int) (expect split.Pace, pf split.Prefix, short bool) {
	if st.short(n) {
		return expect, pf, true
	}
	expect = st.pace()
	pf = split.NewPrefix(n, minLen, time.Time{})
	pf.Expect(expect)
	return expect, pf, pf.End() == n
}

// splitPace is the engine's: the prefix's pace, or the site's if cheaper,
// or none for a blind prefix of a few elements.
func splitPace(m, e split.Pace) split.Pace {
	switch {
	case e.D > 0 && int64(e.D)*int64(m.N) < int64(m.D)*int64(e.N):
		return e
	case e.D <= 0 && m.N < minSample:
		return split.Pace{}
	}
	return m
}

// alone is the engine's alone, with sched.Pool's Oversubscribed and Full
// from the simulated calls in progress; the simulated machine runs nothing
// but the pool's calls, so it is never contended (sched.Pool.Contended).
func (s *Sim) alone(pf *split.Prefix) bool {
	in := s.calls + s.early
	return in > s.procs || in >= s.procs && pf.ShortRest()
}

// spare is sched.Pool.Spare: searching workers unless the pool is full.
func (s *Sim) spare() int {
	if s.calls+s.early >= s.procs {
		return 0
	}
	return s.searching
}
