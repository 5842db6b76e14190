package par_test

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/weftgo/weft/par"
)

// SetLimit bounds the tasks running at once, for tasks that hold a scarce
// resource. A task that finds the bound reached is deferred, not blocked:
// tasks may spawn tasks without deadlock.
func ExampleGroup_SetLimit() {
	var inFlight, most atomic.Int64
	fetch := func(context.Context, *par.Worker) error {
		n := inFlight.Add(1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		time.Sleep(time.Millisecond) // a request
		inFlight.Add(-1)
		return nil
	}
	pool := par.NewPool(par.Workers(8)) // tasks that wait: a pool of their own
	defer pool.Close()
	err := par.ScopeErr(context.Background(), func(_ context.Context, g *par.Group, w *par.Worker) error {
		g.SetLimit(3)
		for range 20 {
			g.Spawn(w, fetch)
		}
		return nil
	}, par.OnPool(pool))
	fmt.Println(err, most.Load() <= 3)
	// Output: <nil> true
}

// Go starts a task through the pool's shared queue, needing no worker handle,
// as errgroup's Go does; here the body feeds it from a channel. The first
// error stops the tasks not yet started.
func ExampleGroup_Go() {
	errTooBig := errors.New("too big")
	sizes := make(chan int)
	go func() {
		defer close(sizes)
		for _, n := range []int{10, 20, 5000, 30} {
			sizes <- n
		}
	}()
	var total atomic.Int64
	err := par.ScopeErr(context.Background(), func(_ context.Context, g *par.Group, _ *par.Worker) error {
		for n := range sizes {
			g.Go(func(context.Context, *par.Worker) error {
				if n > 1000 {
					return fmt.Errorf("size %d: %w", n, errTooBig)
				}
				total.Add(int64(n))
				return nil
			})
		}
		return nil
	})
	fmt.Println(err)
	// Output: size 5000: too big
}
