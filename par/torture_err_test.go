package par_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/weftgo/weft/par"
)

// The torture cases of the functions that fail and are cancelled (see
// torture_test.go).

// tortureErr is an injected error, compared by identity.
type tortureErr struct {
	seed uint64
	i    int
}

func (e *tortureErr) Error() string { return fmt.Sprintf("error %#x at %d", e.seed, e.i) }

// errCase calls MapErr or ForEachErr with errors at random elements, a
// context that may end before the call or from inside it, and maybe a
// callback that waits for the call to stop, as a callback that watches its
// context does.
func errCase(c *callCase, opts []par.Option) {
	c.name = "MapErr"
	n := len(c.xs)
	errAt := map[int]error{}
	var slowErr time.Duration
	if n > 0 {
		if c.r.IntN(2) == 0 {
			// Near the start of evenly spaced regions, so that pieces running
			// at once fail each, in an order that timing decides.
			m := 2 + c.r.IntN(15)
			for k := c.r.IntN(2); k < m; k++ {
				i := min(n-1, k*n/m+c.r.IntN(1+n/(4*m)))
				errAt[i] = &tortureErr{c.seed, i}
			}
			// Failing slowly lets the others fail meanwhile.
			slowErr = time.Duration(c.r.IntN(300)) * time.Microsecond
			if c.spin == 0 {
				c.spin = c.r.IntN(500)
			}
		} else {
			for range c.r.IntN(4) {
				i := c.r.IntN(n)
				errAt[i] = &tortureErr{c.seed, i}
			}
		}
	}
	parent, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	cause := &tortureErr{c.seed, -1}
	cancelAt := -1
	cancelledBefore := false
	switch c.r.IntN(4) {
	case 0:
		cancel(cause)
		cancelledBefore = true
	case 1:
		if n > 0 {
			cancelAt = c.r.IntN(n)
		}
	}
	// A callback that blocks until the call stops: safe only after an
	// element that stops it for sure, whatever the order the elements run in.
	waitAt := -1
	stopper := n
	for i := range errAt {
		stopper = min(stopper, i)
	}
	for i := range c.booms {
		stopper = min(stopper, i)
	}
	if cancelAt >= 0 {
		stopper = min(stopper, cancelAt)
	}
	if stopper < n-1 && c.r.IntN(3) == 0 {
		waitAt = stopper + 1 + c.r.IntN(n-1-stopper)
		delete(errAt, waitAt)
		delete(c.booms, waitAt)
	}
	var (
		seenCtx   atomic.Pointer[context.Context]
		canceled  atomic.Bool
		errFired  = make([]atomic.Bool, n)
		stopTime  atomic.Int64 // when a callback failed or ended ctx: ctx' ends with it
		waitedOut atomic.Bool
	)
	f := func(cx context.Context, x tel) (int, error) {
		defer c.enter()()
		seenCtx.CompareAndSwap(nil, &cx)
		c.at(x.i)
		if x.i == cancelAt {
			cancel(cause)
			canceled.Store(true)
			stopTime.CompareAndSwap(0, time.Now().UnixNano())
		}
		if x.i == waitAt {
			waitStop(cx, &stopTime, &waitedOut)
		}
		if err := errAt[x.i]; err != nil {
			if slowErr > 0 {
				time.Sleep(slowErr)
			}
			errFired[x.i].Store(true)
			stopTime.CompareAndSwap(0, time.Now().UnixNano())
			return 0, err
		}
		return mapped(x), nil
	}
	useMap := c.r.IntN(2) == 0
	if !useMap {
		c.name = "ForEachErr"
	}
	var out []int
	var err error
	c.call(func() {
		if useMap {
			out, err = par.MapErr(parent, c.xs, f, opts...)
			return
		}
		err = par.ForEachErr(parent, c.xs, func(cx context.Context, x tel) error {
			_, err := f(cx, x)
			return err
		}, opts...)
	}, func() {
		if waitedOut.Load() {
			c.errorf("a callback waited minutes for ctx' to end after the call stopped")
		}
		var minErr error
		for i := range errFired {
			if errFired[i].Load() {
				minErr = errAt[i]
				break
			}
		}
		switch {
		case cancelledBefore:
			if err != cause || c.calls.Load() != 0 {
				c.errorf("ctx ended before the call: error %v, want %v; %d calls of f", err, cause, c.calls.Load())
			}
		case minErr != nil && canceled.Load():
			if err != minErr && err != cause {
				c.errorf("error %v, want %v or the cause %v", err, minErr, cause)
			}
		case minErr != nil:
			if err != minErr {
				c.errorf("error %v, want %v, the lowest failing index", err, minErr)
			}
		case canceled.Load():
			if err != cause && !(err == nil && c.calls.Load() == int64(n)) {
				c.errorf("error %v after ctx ended, want %v", err, cause)
			}
		default:
			if err != nil {
				c.errorf("error %v, want nil", err)
			}
		}
		if err == nil && c.calls.Load() != int64(n) {
			c.errorf("nil error after %d calls of f, want %d", c.calls.Load(), n)
		}
		if err != nil && out != nil {
			c.errorf("a result beside the error %v", err)
		}
		if err == nil && useMap {
			for i, x := range c.xs {
				if out[i] != mapped(x) {
					c.errorf("out[%d] = %d, want %d", i, out[i], mapped(x))
					break
				}
			}
		}
	})
	if p := seenCtx.Load(); p != nil && (*p).Err() == nil {
		c.errorf("ctx' not cancelled after the call returned")
	}
}

// waitStop blocks until ctx ends, as a callback that watches its context
// does. An error or the end of the parent cancels ctx at once, so if ctx is
// still live seconds after one (stopped says when), the stop was lost: out is
// set. A stop by a panic may come later, since the panic may cross nested
// calls first: the wait then gives up after a while without blaming anyone,
// so that two cases whose stops each wait behind the other's blocked callback
// cannot hang the test. The bounds only keep a broken stop from hanging it.
func waitStop(ctx context.Context, stopped *atomic.Int64, out *atomic.Bool) {
	giveUp := time.Now().Add(30 * time.Second)
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-tick.C:
			if t := stopped.Load(); t != 0 && now.Sub(time.Unix(0, t)) > 10*time.Second {
				out.Store(true)
				return
			}
			if now.After(giveUp) {
				return
			}
		}
	}
}
