package par

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
)

// MapErr returns a new slice holding f(ctx', e) for every element e of s, in
// order, where ctx' is a context derived from ctx; or nil and an error. The
// calls of f run in parallel.
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
//   - context.Cause(ctx), if ctx ended before any call of f failed;
//   - otherwise the error of the lowest index among the calls of f that
//     failed, whatever the order in which they failed, except that an error
//     returned after the stop that wraps context.Canceled or the error that
//     stopped the call (tested with errors.Is) is taken as f reporting the
//     cancellation and is left out. If f fails on several elements, which of
//     them ran depends on timing (a failure stops the elements not yet
//     started), so the error returned is the one of the lowest failing index
//     among those that ran. Run in order (WithGrain(len(s)) runs the whole
//     slice on the caller), that is the lowest failing index overall.
//
// The error is nil only when f ran on every element and returned nil each
// time; ctx ending after that changes nothing. A ctx that has already ended
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
				if x.b.stop.Load() { // set by the first error, the end of ctx, or a panic
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
// stops the call; the error is context.Cause(ctx) if ctx ended first, and
// otherwise the failure of the lowest index among the calls that ran, leaving
// out the errors that only report the cancellation; nil only if f ran on every
// element without error. ctx' is cancelled when ForEachErr returns. Writes made
// by the calls of f happen before ForEachErr returns; a panic in f reaches the
// caller with its original value. ForEachErr panics if ctx or f is nil.
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
				if x.b.stop.Load() { // set by the first error, the end of ctx, or a panic
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
	// b is the call's body; its stop flag is the flag that the element loops
	// check. It is set by the first error (fail), by the end of the parent
	// (an AfterFunc, and ended), and by a panicking leaf (body.fold).
	b body[struct{}]

	// Written once before the call starts, then only read.
	parent  context.Context
	ctx     context.Context // ctx', passed to f
	ctxDone <-chan struct{} // ctx'.Done(), polled by the element loops
	cancel  context.CancelCauseFunc

	// done counts the elements whose call of f returned, added once per leaf.
	done atomic.Int64

	mu sync.Mutex // guards the fields below; read without it after run returns
	// stopped is set by the first failure of f.
	stopped bool
	// byParent: the parent had ended when f first failed, so its cause is the
	// result and the failures of f are taken as consequences.
	byParent bool
	first    error // the error that stopped the call
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
	if c.labels == nil {
		c.labels = labelled(parent) // the work done for the call carries the caller's labels
	}
	x := &errCall{parent: parent}
	x.ctx, x.cancel = context.WithCancelCause(parent)
	defer x.cancel(nil) // a call of f that kept ctx' sees it end here at the latest
	if parent.Done() != nil {
		// A parent that can end is watched. One that cannot (Background,
		// TODO) leaves ctxDone nil, never ready: then ctx' ends only after
		// the stop flag is set, and the call saves three allocations.
		x.ctxDone = x.ctx.Done()
		stopOnEnd := context.AfterFunc(parent, func() {
			x.b.stop.Store(true) // seen by every element loop and every leaf not yet started
		})
		defer stopOnEnd() // after the call, the parent's end concerns it no longer
	}
	x.b.name = "par.MapErr/ForEachErr"
	x.b.leaf = func(lo, hi int) struct{} {
		ok := false
		defer func() {
			if !ok { // f panicked: wake the calls blocked on ctx' so the panic can go on
				x.cancel(errPanicked)
			}
		}()
		x.done.Add(int64(loop(x, lo, hi))) // read after run returns
		ok = true
		return struct{}{}
	}
	run(c, n, &x.b)
	// Every leaf has returned, and what it wrote happens before run returns.
	switch {
	case x.byParent:
		return context.Cause(parent)
	case x.err != nil:
		return x.err
	case x.done.Load() == int64(n):
		return nil
	}
	// Elements were skipped and f never failed: the parent ended.
	if err := context.Cause(parent); err != nil {
		return err
	}
	panic("par: elements skipped with no error and no end of ctx")
}

// ended reports whether the call has stopped, setting the stop flag if ctx'
// has ended but the flag is not yet set. Any goroutine may call it.
func (x *errCall) ended() bool {
	select {
	case <-x.ctxDone: // closed by the parent's end, the first error, or a panic
		x.b.stop.Store(true)
		return true
	default:
		return x.b.stop.Load()
	}
}

// fail records that f failed on element i with err. Any goroutine may call it.
func (x *errCall) fail(i int, err error) {
	x.mu.Lock()
	if !x.stopped {
		x.stopped = true
		x.b.stop.Store(true) // the elements not yet started are skipped
		if x.parent.Err() != nil {
			x.byParent = true
			x.mu.Unlock()
			return
		}
		x.first, x.idx, x.err = err, i, err
		x.mu.Unlock()
		x.cancel(err) // outside the lock: it cancels the contexts f derived too
		return
	}
	if !x.byParent && i < x.idx && !errors.Is(err, context.Canceled) && !errors.Is(err, x.first) {
		x.idx, x.err = i, err
	}
	x.mu.Unlock()
}
