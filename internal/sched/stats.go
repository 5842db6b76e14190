package sched

import (
	"sync/atomic"
	"time"
)

// counters are a worker's event counts, kept in plain fields by the owner so
// that counting costs nothing on the hot path, and copied to the padded atomic
// stats whenever the worker runs out of work, parks or ends a call.
type counters struct {
	tasks       uint64 // jobs run that another worker or a thief handed over
	inline      uint64 // forks whose second half the forking worker ran itself
	stealTries  uint64
	steals      uint64
	injectedRun uint64
	parks       uint64
}

// stats is the published copy of a worker's counters, on a cache line of its
// own so that a reader never slows the owner down.
type stats struct {
	_           [64]byte
	tasks       atomic.Uint64
	inline      atomic.Uint64
	stealTries  atomic.Uint64
	steals      atomic.Uint64
	injectedRun atomic.Uint64
	parks       atomic.Uint64
	promoted    atomic.Uint64
	busyNanos   atomic.Uint64 // written by the owner at the end of each busy spell
	_           [64]byte
}

// publish copies the owner's counters to the readable stats, storing only
// those that changed: a call that forked nothing changes none, and a store
// costs a locked instruction on amd64 where a load costs none. Owner only.
func (w *Worker) publish() {
	l := &w.local
	publishCount(&w.pub.tasks, l.tasks) // each store hands one count to Stats
	publishCount(&w.pub.inline, l.inline)
	publishCount(&w.pub.stealTries, l.stealTries) // before steals: see snapshot
	publishCount(&w.pub.steals, l.steals)
	publishCount(&w.pub.injectedRun, l.injectedRun)
	publishCount(&w.pub.parks, l.parks)
	publishCount(&w.pub.promoted, w.promoted)
}

// publishCount stores n in c unless c holds it already; only the owner
// stores in c. Owner only.
func publishCount(c *atomic.Uint64, n uint64) {
	if c.Load() != n {
		c.Store(n)
	}
}

// WorkerStats are one participant's counts since its pool started: a pool
// worker's, or those of every caller together (Stats.Callers). It is the one
// definition of these counters: package par's WorkerStats is an alias of it.
type WorkerStats struct {
	// Tasks counts the tasks it ran that it did not fork itself: stolen,
	// injected, or handed over.
	Tasks uint64
	// Inline counts the forks whose second half it ran itself: pushed and
	// taken back unstolen, or, while its deque was crowded (split.RecordDepth), never
	// pushed. Tasks plus Inline is every half that ran, but for the first
	// halves of forks.
	Inline     uint64
	StealTries uint64 // looks into another participant's deque
	Steals     uint64 // looks that took a task
	Injected   uint64 // tasks it took from the injection queue
	Parks      uint64 // times it went to sleep for want of work
	// Promoted counts the recorded forks it made stealable, the oldest
	// first, when a hungry participant asked or the heartbeat beat: the
	// forks of a recursion that thieves could take. The rest ran as calls.
	Promoted uint64
	Busy     time.Duration // time spent running tasks rather than looking for them
}

// Stats is a snapshot of a pool's counters since it started. A worker
// publishes its counts when it runs out of work, parks or ends a call, so a
// snapshot taken while the pool is busy lags behind; one taken while it is
// idle is exact. It is the one definition of these counters: package par's
// Stats is defined as it, and sums them (Stats.Total).
type Stats struct {
	Workers []WorkerStats // one per worker goroutine of the pool
	// Callers sums the goroutines that made calls: each works on its own call
	// while it waits, so it runs and steals tasks too.
	Callers   WorkerStats
	Submitted uint64        // tasks submitted from outside any call (the injection queue)
	Uptime    time.Duration // since the pool started
}

func (t *WorkerStats) add(w WorkerStats) {
	t.Tasks += w.Tasks
	t.Inline += w.Inline
	t.StealTries += w.StealTries
	t.Steals += w.Steals
	t.Injected += w.Injected
	t.Parks += w.Parks
	t.Promoted += w.Promoted
	t.Busy += w.Busy
}

// Stats returns a snapshot of p's counters. Any goroutine.
func (p *Pool) Stats() Stats {
	now := p.now()
	s := Stats{Workers: make([]WorkerStats, p.n), Uptime: time.Duration(now)}
	for _, w := range *p.table.Load() {
		ws := w.snapshot(now)
		if w.isPool {
			s.Workers[w.index] = ws
		} else {
			s.Callers.add(ws)
		}
	}
	s.Submitted = p.inject.pushed.Load()
	return s
}

func (w *Worker) snapshot(now int64) WorkerStats {
	busy := w.pub.busyNanos.Load()
	if since := w.busySince.Load(); since != 0 && now > since {
		busy += uint64(now - since) // the spell in progress
	}
	// Each counter is read on its own. Steals before StealTries: publish
	// stores them the other way round, so a snapshot never shows more steals
	// than tries.
	steals := w.pub.steals.Load()
	return WorkerStats{
		Tasks:      w.pub.tasks.Load(),
		Inline:     w.pub.inline.Load(),
		StealTries: w.pub.stealTries.Load(),
		Steals:     steals,
		Injected:   w.pub.injectedRun.Load(),
		Parks:      w.pub.parks.Load(),
		Promoted:   w.pub.promoted.Load(),
		Busy:       time.Duration(busy),
	}
}
