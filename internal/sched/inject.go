package sched

import (
	"sync"
	"sync/atomic"
)

// injector is the pool's queue of jobs submitted from outside any worker, first
// in first out. Pushes are rare (calls fork onto their own seat instead), so a
// lock is cheap enough; n lets searchers skip the lock when it is empty.
type injector struct {
	n      atomic.Int64  // the length, readable without the lock
	pushed atomic.Uint64 // jobs ever pushed, for Stats
	mu     sync.Mutex
	jobs   []*Job
	head   int
}

// push appends j. Any goroutine.
func (q *injector) push(j *Job) {
	q.mu.Lock()
	if q.head > 0 && q.head == len(q.jobs) {
		q.jobs, q.head = q.jobs[:0], 0
	}
	q.jobs = append(q.jobs, j)
	q.pushed.Add(1) // a statistic; orders nothing
	q.n.Add(1)      // under the lock, after the append: a searcher that sees n > 0 then takes the lock finds j
	q.mu.Unlock()
}

// pop removes the oldest job, or returns nil. Any goroutine.
func (q *injector) pop() *Job {
	if q.n.Load() == 0 { // a push after this load is seen by the pusher's notify or our recheck
		return nil
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.head == len(q.jobs) {
		return nil
	}
	j := q.jobs[q.head]
	q.jobs[q.head] = nil
	q.head++
	q.n.Add(-1)
	return j
}

// popCall removes the oldest job of call, or returns nil. It looks through
// the whole queue: a caller must be able to run its own call's jobs wherever
// they wait, since every pool worker may be blocked as the caller of a nested
// call (a task that opens a Scope and waits for it), and then nobody else
// drains the queue. Bounding the look to the first 64 jobs made the torture
// suite hang that way. Any goroutine.
func (q *injector) popCall(call uint64) *Job {
	if q.n.Load() == 0 { // a hint, as in pop
		return nil
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	for i := q.head; i < len(q.jobs); i++ {
		if j := q.jobs[i]; j.call.Load() == call { // written before the push, under the lock
			copy(q.jobs[q.head+1:i+1], q.jobs[q.head:i])
			q.jobs[q.head] = nil
			q.head++
			q.n.Add(-1)
			return j
		}
	}
	return nil
}

// len reports the queue's length. Any goroutine.
func (q *injector) len() int64 { return q.n.Load() } // a hint, as in pop
