package par_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"strings"
	"sync/atomic"
	"time"

	"github.com/weftgo/weft/par"
)

// countFiles walks a tree given as a map from each directory to its entries
// (dirTree's form), a task per directory, and counts the files: the first
// directory that cannot be read stops the walk.
func countFiles(tree map[string][]string) (int64, error) {
	var files atomic.Int64
	var visit func(g *par.Group, w *par.Worker, dir string) error
	visit = func(g *par.Group, w *par.Worker, dir string) error {
		entries, ok := tree[dir]
		if !ok {
			return fmt.Errorf("read %s: %w", dir, fs.ErrNotExist)
		}
		for _, e := range entries {
			if strings.HasSuffix(e, "/") {
				g.Spawn(w, func(_ context.Context, w *par.Worker) error { return visit(g, w, dir+e) })
			} else {
				files.Add(1)
			}
		}
		return nil
	}
	err := par.ScopeErr(context.Background(), func(_ context.Context, g *par.Group, w *par.Worker) error {
		return visit(g, w, "/")
	})
	return files.Load(), err
}

// ScopeErr runs a tree of tasks found as they go, any of which can fail: the
// first error stops the tasks not yet started, cancels the context the tasks
// receive, and is returned once the started tasks have returned.
func ExampleScopeErr() {
	fmt.Println(countFiles(dirTree))

	broken := maps.Clone(dirTree)
	delete(broken, "/cmd/tool/testdata/")
	_, err := countFiles(broken)
	fmt.Println(err)
	fmt.Println(errors.Is(err, fs.ErrNotExist))
	// Output:
	// 10 <nil>
	// read /cmd/tool/testdata/: file does not exist
	// true
}

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
