package sim

import (
	"time"

	"github.com/weftgo/weft/split"
)

// What internal/engine does between split's rules, written here from its
// code with the engine's names, so that the simulator drives the same
// decisions: the record of a call's site, which split.Memory is and
// split.Learn changes (the engine packs it in a word of a table; here each
// load's name has its own), the plan of a prefix from that record, and the
// pool's counts handed to split as a split.Load.

// site is internal/engine's record of a call site's pace (site.go).
type site struct{ m split.Memory }

// learn is site.learn: the record as split.Learn changes it.
func (s *site) learn(p split.Pace, ended bool) { s.m, _ = split.Learn(s.m, p, ended) }

// plan is the engine's plan: the site's pace and the prefix it plans, or
// short for a call that the site's settled record says is short.
func plan(st *site, n, minLen int) (expect split.Pace, pf split.Prefix, short bool) {
	if st.m.Short(n) {
		return expect, pf, true
	}
	expect = st.m.Pace()
	pf = split.NewPrefix(n, minLen, time.Time{})
	pf.Expect(expect)
	return expect, pf, pf.End() == n
}

// load is the engine's load: the simulated pool's counts. The simulated
// machine runs nothing but the pool's calls, so it is never contended; its
// wake-up is the machine's, which a real pool measures (sched.Pool.WakeUp).
func (s *Sim) load() split.Load {
	return split.Load{Calls: s.calls + s.early, Procs: s.procs, Searching: s.searching, Wake: s.m.Wake}
}
