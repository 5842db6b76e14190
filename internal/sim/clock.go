package sim

import (
	"container/heap"
	"iter"
	"time"
)

// The virtual clock and its processes. Each simulated goroutine (a pool
// worker, a caller) is a coroutine (iter.Pull) that runs until it blocks:
// on a step of work, which schedules its resumption at the end of that
// work, or on a park or a watch, which another process ends. Only one
// coroutine runs at a time, and the next to run is the earliest event, ties
// broken by the order in which the events were scheduled: a run is a
// function of its parameters and its seed alone.

// epoch is what the simulated clock reads at time zero, for split's
// time.Time arguments.
var epoch = time.Unix(1<<30, 0)

// event resumes p at time at, unless p was rescheduled since (gen).
type event struct {
	at  int64
	seq uint64
	p   *proc
	gen uint64
}

type events []event

func (q events) Len() int { return len(q) }
func (q events) Less(i, j int) bool {
	if q[i].at != q[j].at {
		return q[i].at < q[j].at
	}
	return q[i].seq < q[j].seq
}
func (q events) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *events) Push(x any)   { *q = append(*q, x.(event)) }
func (q *events) Pop() any {
	old := *q
	e := old[len(old)-1]
	*q = old[:len(old)-1]
	return e
}

// clock is the virtual time and the queue of events.
type clock struct {
	now  int64 // ns
	seq  uint64
	q    events
	done bool // the scenario is over: run returns
}

// proc is one simulated goroutine.
type proc struct {
	c      *clock
	gen    uint64
	wakeAt int64 // the time of its pending event, or -1
	next   func() (struct{}, bool)
	stop   func()
	yield  func(struct{}) bool
}

// stopped unwinds a coroutine that the clock stops at the end of a run.
type stopped struct{}

// start makes body a process, first run at time at.
func (c *clock) start(at int64, body func()) *proc {
	p := &proc{c: c, wakeAt: -1}
	p.next, p.stop = iter.Pull(func(yield func(struct{}) bool) {
		p.yield = yield
		defer func() {
			if r := recover(); r != nil {
				if _, ok := r.(stopped); !ok {
					panic(r)
				}
			}
		}()
		body()
	})
	p.schedule(at)
	return p
}

// schedule makes p's next resumption at time at, replacing any other.
func (p *proc) schedule(at int64) {
	c := p.c
	p.gen++
	p.wakeAt = at
	c.seq++
	heap.Push(&c.q, event{at: at, seq: c.seq, p: p, gen: p.gen})
}

// unschedule drops p's pending resumption.
func (p *proc) unschedule() { p.gen++; p.wakeAt = -1 }

// block gives the clock back until p is resumed. Called by p only.
func (p *proc) block() {
	if !p.yield(struct{}{}) {
		panic(stopped{})
	}
}

// advance blocks p for d of virtual time. Called by p only.
func (p *proc) advance(d int64) {
	if d < 0 {
		d = 0
	}
	p.schedule(p.c.now + d)
	p.block()
}

// run resumes processes in the order of their events until the scenario
// ends, or no event is left, and then stops every process.
func (c *clock) run(procs []*proc) {
	for !c.done && len(c.q) > 0 {
		e := heap.Pop(&c.q).(event)
		if e.gen != e.p.gen {
			continue // rescheduled since
		}
		e.p.wakeAt = -1
		c.now = e.at
		e.p.next()
	}
	for _, p := range procs {
		p.stop()
	}
}

// time returns the virtual time as split's rules read it.
func (c *clock) time() time.Time { return epoch.Add(time.Duration(c.now)) }
