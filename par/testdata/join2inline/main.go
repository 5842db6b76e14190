// Command join2inline is a recursion with a fork at every call, built by
// TestJoin2Inlines with the compiler's inlining report.
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

func main() {
	var f int
	par.Do(func(w *par.Worker) { f = fib(w, 20) })
	fmt.Println(f)
}
