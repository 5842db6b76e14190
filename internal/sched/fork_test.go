package sched_test

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/internal/sched"
	"github.com/weftgo/weft/split"
)

// The forks of a recursion (fork.go): what a fork's look reports, and where
// a recursion's recorded levels count from.

// The gate is at a handle's own address: package par's forks load it
// there, without an offset.
func TestGateFirst(t *testing.T) { require.True(t, sched.GateFirst()) }

// record makes n records on w, as n nested recorded forks do, and returns
// them, oldest first.
func record(w *sched.Worker, n int) []*sched.Job { return recordEvery(w, n, split.PrefixBudget) }

// recordEvery is record with the planner's period between promotions: the
// heartbeat asks a recursion of w's own no sooner than a period after it
// began.
func recordEvery(w *sched.Worker, n int, period time.Duration) []*sched.Job {
	js := make([]*sched.Job, n)
	for i := range js {
		js[i] = new(sched.Job)
		js[i].Init(w, func(*sched.Worker, *sched.Job) {})
		w.Record(js[i], period)
	}
	return js
}

// unrecord ends the forks of js, newest first, none of them promoted.
func unrecord(t *testing.T, w *sched.Worker, js []*sched.Job) {
	for i := len(js) - 1; i >= 0; i-- {
		require.True(t, w.Settle(js[i]))
		w.Unrecord(js[i])
	}
}

// onWorker runs f on a worker of a pool of n, as an injected task: a job
// the worker took.
func onWorker(t *testing.T, n int, f func(p *sched.Pool, w *sched.Worker)) {
	p := newPool(t, n)
	p.Spawn(func(w *sched.Worker) { f(p, w) }).Wait()
}

// A seat's first recursion counts its age from its own start, not from its
// call's (the seat's busy spell, which can be older still): a recursion
// that began late in its call looked a period old at once and promoted at
// its first ask, which made W14's Join2 form take 1.25 times as long at
// GOMAXPROCS 1 and 1.19 at 2.
func TestSeatRecursionAgesFromItsStart(t *testing.T) {
	p := newPool(t, 1)
	p.Run(func(w *sched.Worker) {
		time.Sleep(time.Millisecond) // the call is older than the recursion it begins now
		begin := p.Now()
		js := recordEvery(w, 1, time.Hour)
		assert.GreaterOrEqual(t, w.NotBefore(), begin+int64(time.Hour), "asked no sooner than a period after the recursion began")
		unrecord(t, w, js)
	})
}

// A job taken while its participant's recursion holds RecordDepth records
// records its own first levels: its forks' depth counts from it, its gate
// opens for them, and the recursion it ran in resumes as it was (levels,
// gate, and when it may next be asked). Before, it went on at the
// recursion's depth, recorded nothing, and when asked promoted the fork it
// happened to be at, deep in its tree and tiny.
func TestTakenJobRecordsItsOwnLevels(t *testing.T) {
	onWorker(t, 1, func(p *sched.Pool, w *sched.Worker) {
		outer := record(w, split.RecordDepth)
		w.Open(false)
		require.Equal(t, split.RecordDepth, w.Look().Depth)
		nb := w.NotBefore()
		require.NotZero(t, nb)
		var inner sched.ForkLook
		var gate uint32
		taken := new(sched.Job)
		taken.Init(nil, func(w *sched.Worker, _ *sched.Job) {
			gate = atomic.LoadUint32(w.Gate())
			inner = w.Look()
			js := record(w, 2)
			assert.Equal(t, 2, w.Look().Depth)
			unrecord(t, w, js)
		})
		w.Execute(taken)
		assert.Zero(t, inner.Depth, "the taken job's first fork")
		assert.NotZero(t, gate&sched.GateRecord, "the taken job's first forks record")
		assert.Equal(t, split.RecordDepth, w.Look().Depth, "the outer recursion's levels")
		assert.Zero(t, atomic.LoadUint32(w.Gate())&sched.GateRecord, "the outer recursion's gate")
		assert.Equal(t, nb, w.NotBefore(), "the outer recursion's time to be asked")
		unrecord(t, w, outer)
		assert.Zero(t, w.NotBefore())
	})
}

// A promotion makes the records below it count anew: a participant whose
// records are handed away records the halves of where it is.
func TestPromotionCountsLevelsAnew(t *testing.T) {
	onWorker(t, 1, func(p *sched.Pool, w *sched.Worker) {
		js := record(w, 3)
		require.True(t, w.Promote(split.PrefixBudget))
		assert.Equal(t, 0, w.Look().Depth, "after the promotion")
		more := record(w, 2)
		assert.Equal(t, 2, w.Look().Depth)
		unrecord(t, w, more)
		assert.Equal(t, 0, w.Look().Depth)
		unrecord(t, w, js) // the promoted record comes back unstolen: no other participant
		assert.Zero(t, w.NotBefore())
	})
}

// A recursion in a job its participant took may be asked at once
// (split.StartAge), and while a worker of the pool is parked its recorded
// forks count as asked, a period old (split.Spreads), unless the pool has
// more processors than the machine has CPUs; a recursion of the
// participant's own does neither.
func TestTakenJobSpreads(t *testing.T) {
	onWorker(t, 2, func(p *sched.Pool, w *sched.Worker) {
		waitFor(t, "the other worker to park", func() bool { return p.Sleeping() == 1 })
		js := record(w, 1)
		assert.LessOrEqual(t, w.NotBefore(), p.Now(), "a taken job's recursion may be asked at once")
		l := w.Look()
		if runtime.GOMAXPROCS(0) > runtime.NumCPU() {
			assert.False(t, l.Asked, "more processors than CPUs")
		} else {
			assert.True(t, l.Asked, "a worker is parked")
			assert.GreaterOrEqual(t, l.Age, split.Period(l.Cost, l.Wake))
		}
		unrecord(t, w, js)
		// The heartbeat, which began with that recursion, may have asked it
		// after the look above; an ask stays until a look takes it, and
		// would answer the next recursion's first look.
		w.Look()

		own := new(sched.Job)
		own.Init(w, func(w *sched.Worker, _ *sched.Job) {
			// A period no descheduling outlasts: the heartbeat, which asks
			// for the parked worker once it has passed, cannot ask here, so
			// an ask could only be the spreading of a taken job's forks.
			js := recordEvery(w, 1, time.Hour)
			assert.Greater(t, w.NotBefore(), p.Now(), "a recursion of w's own waits a period")
			assert.False(t, w.Look().Asked, "nobody asked")
			unrecord(t, w, js)
		})
		w.Execute(own)
	})
}
