package par_test

import (
	"fmt"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/weftgo/weft/par"
)

// Join runs two different computations at once, from any goroutine.
func ExampleJoin() {
	xs := make([]int, 1000)
	for i := range xs {
		xs[i] = i + 1
	}
	var lo, hi int
	par.Join(
		func() { lo = slices.Min(xs) },
		func() { hi = slices.Max(xs) },
	)
	fmt.Println(lo, hi)
	// Output: 1 1000
}

// parallelSum adds up xs by divide and conquer: halves are forked while they are
// long, and added with a plain loop below a cutoff, where a fork would cost
// more than the work it hands over.
func parallelSum(w *par.Worker, xs []int) int {
	if len(xs) <= 1000 {
		s := 0
		for _, x := range xs {
			s += x
		}
		return s
	}
	mid := len(xs) / 2
	var a, b int
	w.Join(
		func(w *par.Worker) { a = parallelSum(w, xs[:mid]) },
		func(w *par.Worker) { b = parallelSum(w, xs[mid:]) },
	)
	return a + b
}

// Do gives a worker handle to the code that recurses; the handle travels down
// the recursion as a parameter.
func ExampleDo() {
	xs := make([]int, 100_000)
	for i := range xs {
		xs[i] = i
	}
	var total int
	par.Do(func(w *par.Worker) { total = parallelSum(w, xs) })
	fmt.Println(total)
	// Output: 4999950000
}

// Worker.Join forks inside a recursion: each half gets the handle of the
// worker that runs it.
func ExampleWorker_Join() {
	// Count the words of each half of a text at once, then join the counts.
	text := strings.Repeat("the work is cut in halves ", 200)
	mid := len(text) / 2
	for text[mid] != ' ' { // cut between two words
		mid++
	}
	var a, b int
	par.Do(func(w *par.Worker) {
		w.Join(
			func(*par.Worker) { a = len(strings.Fields(text[:mid])) },
			func(*par.Worker) { b = len(strings.Fields(text[mid:])) },
		)
	})
	fmt.Println(a + b)
	// Output: 1200
}

// fibPar forks with Join2 above a cutoff. Passing the top-level function
// itself, not a closure, makes the fork allocate nothing.
func fibPar(w *par.Worker, n int) int {
	if n <= 15 {
		return fibRec(n)
	}
	a, b := par.Join2(w, fibPar, n-1, fibPar, n-2)
	return a + b
}

func fibRec(n int) int {
	if n < 2 {
		return n
	}
	return fibRec(n-1) + fibRec(n-2)
}

func ExampleJoin2() {
	var f int
	par.Do(func(w *par.Worker) { f = fibPar(w, 30) })
	fmt.Println(f)
	// Output: 832040
}

// node is a node of a binary tree.
type node struct {
	v    int
	l, r *node
}

// sum forks only where a fork is wanted: at the first levels of the
// recursion, and when a worker asks for work. Elsewhere it calls itself
// directly, the right half first as Join2 runs its halves, and a node costs
// about what it costs in the plain recursion.
func sum(w *par.Worker, t *node) int {
	if t == nil {
		return 0
	}
	if w.Forks() {
		l, r := par.Join2(w, sum, t.l, sum, t.r)
		return l + r + t.v
	}
	r := sum(w, t.r)
	return sum(w, t.l) + r + t.v
}

func build(layers int) *node {
	if layers == 0 {
		return nil
	}
	return &node{v: 1, l: build(layers - 1), r: build(layers - 1)}
}

// Worker.Forks lets a recursion whose nodes are tiny call itself directly
// while no fork is wanted, and schedule as with Join2 alone.
func ExampleWorker_Forks() {
	root := build(16)
	var n int
	par.Do(func(w *par.Worker) { n = sum(w, root) })
	fmt.Println(n, "nodes")
	// Output: 65535 nodes
}

// A directory tree, as a map from each directory to its entries; the names
// ending in "/" are directories.
var dirTree = map[string][]string{
	"/":                   {"cmd/", "docs/", "go.mod", "README.md"},
	"/cmd/":               {"tool/", "main.go"},
	"/cmd/tool/":          {"tool.go", "tool_test.go", "testdata/"},
	"/cmd/tool/testdata/": {"a.txt", "b.txt", "c.txt"},
	"/docs/":              {"index.md", "api.md"},
}

// Scope waits for a number of tasks known only as they appear: here one per
// directory of a tree, each spawning the tasks of its subdirectories.
func ExampleScope() {
	var files, dirs atomic.Int64
	var walk func(s *par.Spawner, w *par.Worker, dir string)
	walk = func(s *par.Spawner, w *par.Worker, dir string) {
		dirs.Add(1)
		for _, e := range dirTree[dir] {
			if strings.HasSuffix(e, "/") {
				s.Spawn(w, func(w *par.Worker) { walk(s, w, dir+e) })
			} else {
				files.Add(1)
			}
		}
	}
	par.Scope(func(s *par.Spawner, w *par.Worker) {
		walk(s, w, "/")
	})
	fmt.Println(dirs.Load(), "directories,", files.Load(), "files")
	// Output: 5 directories, 10 files
}

// Spawn pushes a task on the deque of the worker that spawns it: the cheap
// way to start tasks from the scope's body or from a task.
func ExampleSpawner_Spawn() {
	jobs := []string{"resize a.png", "resize b.png", "index docs", "compress logs"}
	done := make([]string, len(jobs))
	par.Scope(func(s *par.Spawner, w *par.Worker) {
		for i, job := range jobs {
			s.Spawn(w, func(*par.Worker) { done[i] = strings.ToUpper(job) })
		}
	})
	fmt.Println(strings.Join(done, "; "))
	// Output: RESIZE A.PNG; RESIZE B.PNG; INDEX DOCS; COMPRESS LOGS
}

// Go starts a task from a goroutine that has no worker handle, such as one
// that reads work from a channel; the scope must still be open, so its body
// waits for that goroutine.
func ExampleSpawner_Go() {
	requests := make(chan int)
	go func() {
		for i := 1; i <= 5; i++ {
			requests <- i
		}
		close(requests)
	}()
	results := make([]int, 6)
	par.Scope(func(s *par.Spawner, w *par.Worker) {
		fed := make(chan struct{})
		go func() { // a goroutine of its own: no handle here
			defer close(fed)
			for r := range requests {
				s.Go(func(*par.Worker) { results[r] = r * 10 })
			}
		}()
		<-fed
	})
	fmt.Println(results[1:])
	// Output: [10 20 30 40 50]
}
