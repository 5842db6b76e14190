package par_test

import (
	"fmt"
	"runtime"
	"strings"

	"github.com/weftgo/weft/par"
)

// A pool of its own keeps a kind of work apart from the shared default pool:
// here one with more workers than cores, for calls whose functions wait.
func ExampleNewPool() {
	p := par.NewPool(par.Workers(8))
	defer p.Close()
	fmt.Println(p, p.Workers())

	upper := par.Map([]string{"a", "b", "c"}, strings.ToUpper, par.OnPool(p))
	fmt.Println(upper)
	// Output:
	// weft pool (8 workers) 8
	// [A B C]
}

func ExampleWorkers() {
	p := par.NewPool(par.Workers(3))
	defer p.Close()
	fmt.Println(p.Workers())
	// Output: 3
}

// OnPool directs any call at a pool: the slice and range functions, the
// error functions, and the fork-join entry points Do, Join and Scope.
func ExampleOnPool() {
	p := par.NewPool(par.Workers(2))
	defer p.Close()
	squares := par.Map([]int{1, 2, 3, 4}, func(x int) int { return x * x }, par.OnPool(p))
	total := par.Sum(squares, par.OnPool(p))
	var left, right int
	par.Do(func(w *par.Worker) {
		w.Join(func(*par.Worker) { left = squares[0] + squares[1] }, func(*par.Worker) { right = squares[2] + squares[3] })
	}, par.OnPool(p))
	fmt.Println(total, left+right)
	// Output: 30 30
}

// A pool's counters tell what its workers did. Tasks submitted from outside
// any worker, such as Spawner.Go's, are counted as they are queued.
func ExamplePool_Stats() {
	p := par.NewPool(par.Workers(2))
	defer p.Close()
	par.Scope(func(s *par.Spawner, _ *par.Worker) {
		for range 3 {
			s.Go(func(*par.Worker) {})
		}
	}, par.OnPool(p))
	st := p.Stats()
	fmt.Println(len(st.Workers), "workers,", st.Submitted, "tasks submitted")
	// Output: 2 workers, 3 tasks submitted
}

// Total adds up the counters of the workers and of the goroutines that made
// calls; utilization is busy time over the time the pool has been up.
func ExampleStats_Total() {
	p := par.NewPool(par.Workers(2))
	defer p.Close()
	par.For(1000, func(int) {}, par.OnPool(p), par.WithGrain(10))
	st := p.Stats()
	t := st.Total()
	utilization := float64(t.Busy) / float64(st.Uptime) / float64(len(st.Workers)+1)
	fmt.Println(t.Steals <= t.StealTries, utilization >= 0 && utilization <= 1)
	// Output: true true
}

func ExampleDefaultStats() {
	par.For(100, func(int) {})
	fmt.Println(len(par.DefaultStats().Workers) == par.DefaultWorkers())
	// Output: true
}

// Close waits for the pool's workers to exit; a call made on the pool after
// Close panics.
func ExamplePool_Close() {
	p := par.NewPool(par.Workers(2))
	fmt.Println(par.Sum([]int{1, 2, 3}, par.OnPool(p)))
	p.Close()
	p.Close() // a second Close does nothing

	defer func() { fmt.Println("panic:", recover()) }()
	par.Sum([]int{1, 2, 3}, par.OnPool(p))
	// Output:
	// 6
	// panic: par: Sum: OnPool in opts[0]: weft: pool used after Close
}

func ExamplePool_Workers() {
	p := par.NewPool()
	defer p.Close()
	fmt.Println(p.Workers() == max(1, runtime.GOMAXPROCS(0)-1))
	// Output: true
}

// DefaultWorkers is the size of the default pool: one fewer than GOMAXPROCS,
// since the goroutine that makes a call works on it too.
func ExampleDefaultWorkers() {
	fmt.Println(par.DefaultWorkers() == max(1, runtime.GOMAXPROCS(0)-1))
	// Output: true
}

func ExamplePool_String() {
	p := par.NewPool(par.Workers(3))
	defer p.Close()
	fmt.Println(p)
	// Output: weft pool (3 workers)
}
