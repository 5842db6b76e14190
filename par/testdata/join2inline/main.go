// Command join2inline is a recursion with a fork at every call, built by
// TestJoin2Inlines and TestForksInlines with the compiler's inlining report.
package main

import (
	"fmt"

	"github.com/weftgo/weft/par"
)

func fib(w *par.Worker, n int) int {
	if n < 2 {
		return n
	}
	x, y := par.Join2(w, fib, n-1, fib, n-2)
	return x + y
}

// fibForks is fib in Worker.Forks' form.
func fibForks(w *par.Worker, n int) int {
	if n < 2 {
		return n
	}
	if w.Forks() {
		x, y := par.Join2(w, fibForks, n-1, fibForks, n-2)
		return x + y
	}
	y := fibForks(w, n-2)
	return fibForks(w, n-1) + y
}

func main() {
	var f, g int
	par.Do(func(w *par.Worker) { f = fib(w, 20) })
	par.Do(func(w *par.Worker) { g = fibForks(w, 20) })
	fmt.Println(f, g)
}
