package par

import (
	"context"
	"errors"
	"math"
	"sync"
	"sync/atomic"

	"github.com/weftgo/weft/split"
)

// MapErr returns a new slice holding f(ctx', e) for every element e of s, in
// order, where ctx' is a context derived from ctx; or nil and an error. The
// calls of f run concurrently with each other on different elements, once per
// element at most, on the pool's workers and the calling goroutine.
//
// The call stops at the first of two events: a call of f returns a non-nil
// error, or ctx ends. From then on:
//   - no element is started: every goroutine working on the call checks a
//     flag before each element, so the only calls of f that start after a
//     failure are those whose check came just before it, at most one per such
//     goroutine (the workers of the pool and the caller). The end of ctx sets
//     the flag through context.AfterFunc, whose function runs on a goroutine
//     of its own and so a moment later, and the goroutines in the call also
//     look at ctx'.Done() every 64 elements: after the end of ctx, each piece
//     of the slice in progress starts at most 64 more, and those see ctx'
//     already cancelled;
//   - ctx' is cancelled, and context.Cause(ctx') tells why: the first error,
//     or the cause of ctx's end;
//   - MapErr returns once the calls already running have returned. It does not
//     interrupt them: f must watch ctx'.Done() to return early.
//
// The error returned is then:
//   - context.Cause(ctx), if ctx ended before any call of f failed, or
//     before MapErr returned if none failed, even if every element had
//     already started;
//   - otherwise the error of the lowest index among the calls of f that ran
//     and failed, whatever the order in which they failed, except that an
//     error returned after the stop that wraps context.Canceled or the error
//     that stopped the call (tested with errors.Is) is taken as f reporting
//     the cancellation and is left out.
//
// That is not always the error the plain loop returns, the lowest failing
// index of all: which elements ran depends on timing, since the first failure
// in time stops the elements not yet started, and a lower failing element may
// be among them. With LowestIndexError the call returns the loop's error on
// every run, for the cost of running the elements before it.
//
// The error is nil only when f ran on every element, returned nil each time,
// and ctx had not ended when MapErr returned: nil says that every call of f
// ran under a live ctx', so an f that answers the end of its context by
// returning early with nil cannot leave a result that looks complete. ctx
// ending after MapErr returned changes nothing. A ctx that has already ended
// gives context.Cause(ctx) without any call of f. ctx' is cancelled when MapErr
// returns, whatever the outcome, so f must not keep it.
//
// Writes made by the calls of f happen before MapErr returns. A failing call
// of f happens before the closing of ctx'.Done() that its error causes.
//
// If f panics, the call stops as on an error, ctx' is cancelled (so that calls
// blocked on it return), and the panic reaches the caller with its original
// value once the calls in progress have returned.
//
// MapErr panics if ctx or f is nil. Besides the result, a call allocates six
// small records, and four more if ctx can end (Map allocates three); see
// ForEachErr for the cost per element.
func MapErr[S ~[]E, E, R any](ctx context.Context, s S, f func(context.Context, E) (R, error), opts ...Option) ([]R, error) {
	if ctx == nil {
		panic("par: MapErr: ctx is nil")
	}
	if f == nil {
		panic("par: MapErr: f is nil")
	}
	c := configure(opts)
	if ctx.Err() != nil {
		return nil, context.Cause(ctx)
	}
	out := make([]R, len(s))
	err := runErr(ctx, &c, len(s), func(x *errCall, lo, hi int) int {
		for i := lo; i < hi; {
			if x.ended() {
				return i - lo
			}
			for end := min(hi, i+pollEvery); i < end; i++ {
				if int64(i) > x.limit.Load() { // lowered by an error, the end of ctx, or a panic
					return i - lo
				}
				r, err := f(x.ctx, s[i])
				if err != nil {
					x.fail(i, err)
					return i + 1 - lo
				}
				out[i] = r
			}
		}
		return hi - lo
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// ForEachErr calls f(ctx', e) for every element e of s, in parallel, where ctx'
// is a context derived from ctx, and returns when every call has returned or
// the first error has stopped the rest. It stops, cancels ctx' and chooses the
// error it returns exactly as MapErr does: the first failure or the end of ctx
// stops the call; the error is context.Cause(ctx) if ctx ended first (before
// ForEachErr returned, when nothing failed), and otherwise the failure of the
// lowest index among the calls that ran, leaving out the errors that only
// report the cancellation (with LowestIndexError, the lowest failing index of
// all, as the plain loop returns); nil only if f ran on every element without
// error and ctx had not ended when ForEachErr returned. ctx' is cancelled when
// ForEachErr returns. The calls of f run concurrently with each other, on
// different elements, on the pool's workers and the calling goroutine. Writes
// made by the calls of f happen before ForEachErr returns; a panic in f
// reaches the caller with its original value. ForEachErr panics if ctx or f
// is nil.
//
// The error path costs a load of the stop flag, a word written once, before
// each element, and a non-blocking receive every 64 elements. With an f that
// does almost nothing, run on the caller alone (WithGrain(len(s))) over a
// million ints, ForEachErr took 1.18 times as long as ForEach and 1.19 times
// as long as the plain loop calling f, and MapErr 1.11 times as long as Map
// and as the loop (medians of `go test ./par -run XXX -bench
// 'Err//interleaved' -count 10`, on a 2-core machine shared with other
// work); the ratio falls towards 1 as f grows.
func ForEachErr[S ~[]E, E any](ctx context.Context, s S, f func(context.Context, E) error, opts ...Option) error {
	if ctx == nil {
		panic("par: ForEachErr: ctx is nil")
	}
	if f == nil {
		panic("par: ForEachErr: f is nil")
	}
	c := configure(opts)
	if ctx.Err() != nil {
		return context.Cause(ctx)
	}
	return runErr(ctx, &c, len(s), func(x *errCall, lo, hi int) int {
		for i := lo; i < hi; {
			if x.ended() {
				return i - lo
			}
			for end := min(hi, i+pollEvery); i < end; i++ {
				if int64(i) > x.limit.Load() { // lowered by an error, the end of ctx, or a panic
					return i - lo
				}
				if err := f(x.ctx, s[i]); err != nil {
					x.fail(i, err)
					return i + 1 - lo
				}
			}
		}
		return hi - lo
	})
}

// LowestIndexError makes MapErr and ForEachErr return the error of the lowest
// index at which f fails, the error the plain loop returns, whatever the
// timing. A failure at index i then stops only the elements after i: those
// before it still start and run with ctx' alive, since one of them may fail
// lower still, and ctx' is cancelled only when the call returns (or ctx
// ends, or f panics), so the calls after i that are running when it fails
// are not interrupted either. So the call takes at least as long as running
// the elements before the lowest failure, in parallel. Over 200,000 JSON
// records with invalid ones at 50,000 and 150,000, the default returned the
// error at 50,000 in 55% of calls on 2 cores, the option in all of them, and
// took 1.08 times as long as the default (median of the paired rounds' ratios;
// 0.97 at the 10th percentile, 1.36 at the 90th), both about as long as the
// plain loop, which stops at 50,000 too; with no invalid record, 1.004 times
// (`go test -run '^$' -bench PairedErrLowestIndex -benchtime 10x -count 10
// ./par`, then benchstat).
//
// The guarantee holds while ctx does not end: its end stops every element,
// and the error is then chosen as without the option among the failures
// seen before it. A panic in f stops the call as without the option. Calls
// other than MapErr and ForEachErr ignore the option.
func LowestIndexError() Option { return Option{kind: optLowestErr} }

// pollEvery is how many elements a leaf runs between two looks at ctx'.Done().
// The stop flag, checked before every element, is set on the end of the
// parent by a function that context.AfterFunc runs on a goroutine of its own;
// while the pool's goroutines keep every P busy, that goroutine may wait for
// one until the scheduler preempts a worker, about 10 ms later, in which time
// a cheap f runs on most of a million elements (measured: 819,006 of them on
// 2 cores). Closing ctx'.Done() is synchronous with the cancellation of a
// parent from the context package, so the poll bounds the overrun to this many
// elements per leaf in progress; a poll is a non-blocking receive, a few
// nanoseconds, so it costs well under a nanosecond per element.
const pollEvery = 64

// errPanicked is the cause given to ctx' when a call of f panics, so that the
// calls still running can tell why their context ended.
var errPanicked = errors.New("par: a call of f panicked")

// errCall is the state of one MapErr or ForEachErr call.
type errCall struct {
	// stop, which skips the pieces not yet started, is set by the first
	// error (without LowestIndexError) and by the end of the parent (an
	// AfterFunc, and ended); the engine skips them after a panic too.
	stop atomic.Bool

	// limit is the highest index whose element may still start, checked
	// before every element: len-1 or more while nothing has failed; -1 once
	// the call stops; with LowestIndexError, the lowest failing index so far.
	limit atomic.Int64

	// Written once before the call starts, then only read.
	parent  context.Context
	ctx     context.Context // ctx', passed to f
	ctxDone <-chan struct{} // ctx'.Done(), polled by the element loops
	cancel  context.CancelCauseFunc
	lowest  bool // LowestIndexError

	// done counts the elements whose call of f returned, added once per leaf.
	done atomic.Int64

	mu sync.Mutex // guards the fields below; read without it after run returns
	// stopped is set by the first failure of f.
	stopped bool
	// byParent: the parent had ended when f first failed, so its cause is the
	// result and the failures of f are taken as consequences.
	byParent bool
	first    error // the first error recorded
	idx      int   // the index of err
	err      error // the error to return so far
}

// runErr runs loop over the pieces of [0, n) until every element is done or
// the call stops, and returns the call's error. loop works on [lo, hi) and
// returns how many elements it called f on.
func runErr(parent context.Context, c *config, n int, loop func(x *errCall, lo, hi int) int) error {
	if n == 0 {
		return nil
	}
	if c.Labels == nil {
		c.Labels = labelled(parent) // the work done for the call carries the caller's labels
	}
	x := &errCall{parent: parent, lowest: c.lowestErr}
	x.limit.Store(math.MaxInt64)
	x.ctx, x.cancel = context.WithCancelCause(parent)
	defer x.cancel(nil) // a call of f that kept ctx' sees it end here at the latest
	if parent.Done() != nil {
		// A parent that can end is watched. One that cannot (Background,
		// TODO) leaves ctxDone nil, never ready: then ctx' ends only after
		// the stop flag is set, and the call saves three allocations.
		x.ctxDone = x.ctx.Done()
		stopOnEnd := context.AfterFunc(parent, x.halt)
		defer stopOnEnd() // after the call, the parent's end concerns it no longer
	}
	run(c, n, split.Work[struct{}]{Name: "par.MapErr/ForEachErr",
		// A piece that begins past the lowest failing index is skipped
		// (LowestIndexError); those before it run, since one of them may
		// fail lower still.
		Settled: func(lo int) bool { return x.stop.Load() || x.lowest && int64(lo) > x.limit.Load() },
		Fold: func(_ struct{}, lo, hi int) struct{} {
			ok := false
			defer func() {
				if !ok { // f panicked: stop, and wake the calls blocked on ctx' so the panic can go on
					x.limit.Store(-1)
					x.cancel(errPanicked)
				}
			}()
			x.done.Add(int64(loop(x, lo, hi))) // read after run returns
			ok = true
			return struct{}{}
		},
	})
	// Every leaf has returned, and what it wrote happens before run returns.
	switch {
	case x.byParent:
		return context.Cause(parent)
	case x.err != nil:
		return x.err
	}
	// f never failed. The parent's end before the call returns is the result
	// whether or not it skipped an element: so nil says that every call of f
	// ran under a live ctx', and one more element left to skip does not
	// change the answer.
	if err := context.Cause(parent); err != nil {
		return err
	}
	if x.done.Load() == int64(n) {
		return nil
	}
	panic("par: elements skipped with no error and no end of ctx")
}

// halt stops the call: no element starts from now on. Any goroutine.
func (x *errCall) halt() {
	x.limit.Store(-1)  // seen by every element loop
	x.stop.Store(true) // and every piece not yet started
}

// ended reports whether the call has stopped, halting it if ctx' has ended
// but the call is not yet halted. Any goroutine.
func (x *errCall) ended() bool {
	select {
	case <-x.ctxDone: // closed by the parent's end, the first error, or a panic
		x.halt()
		return true
	default:
		return x.stop.Load()
	}
}

// fail records that f failed on element i with err. Any goroutine.
func (x *errCall) fail(i int, err error) {
	x.mu.Lock()
	if !x.stopped {
		x.stopped = true
		if x.parent.Err() != nil {
			x.byParent = true
			x.halt()
			x.mu.Unlock()
			return
		}
		x.first, x.idx, x.err = err, i, err
		if x.lowest {
			x.lower(i) // ctx' stays alive: the elements before i run as if nothing failed
			x.mu.Unlock()
			return
		}
		x.halt() // the elements not yet started are skipped
		x.mu.Unlock()
		x.cancel(err) // outside the lock: it cancels the contexts f derived too
		return
	}
	switch {
	case x.byParent || i >= x.idx:
	case x.lowest:
		// Before the end of the parent, the elements ran with ctx' alive and
		// their errors are their own; after it, they may report it.
		if x.parent.Err() == nil {
			x.idx, x.err = i, err
			x.lower(i)
		}
	case !errors.Is(err, context.Canceled) && !errors.Is(err, x.first):
		x.idx, x.err = i, err
	}
	x.mu.Unlock()
}

// lower makes i the highest index that may start, unless the call has
// stopped. Under x.mu.
func (x *errCall) lower(i int) {
	if l := x.limit.Load(); int64(i) < l {
		x.limit.CompareAndSwap(l, int64(i)) // fails only if halt set -1 meanwhile
	}
}
