// Command primes collects the primes below a limit by trial division, once
// with a plain loop and once with par.Filter, and prints their count and sum
// and the time each took. It is workload W5 of docs/DESIGN.md: below
// 3,000,000 there are 216,816 primes, summing to 312,471,072,265.
//
// The cost of testing x grows with the square root of x, so the work is
// uneven: the last candidates cost about 40 times the first ones, the case a
// static split into equal chunks handles badly and work stealing handles well.
//
//	go run ./examples/primes
//	go run ./examples/primes -limit 100000
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"time"

	"github.com/weftgo/weft/par"
)

func main() {
	limit := flag.Int("limit", 3_000_000, "find the primes below `n`")
	runs := flag.Int("runs", 3, "time the median of `k` runs of each version")
	flag.Parse()
	if _, err := run(os.Stdout, *limit, *runs); err != nil {
		fmt.Fprintln(os.Stderr, "primes:", err)
		os.Exit(1)
	}
}

// result is what run found: the primes below the limit, in order.
type result struct {
	primes []int
	sum    int
}

// run finds the primes below limit both ways, checks that the two agree, and
// prints the count, the sum and the median times of runs runs of each.
func run(out io.Writer, limit, runs int) (result, error) {
	if limit < 0 || runs < 1 {
		return result{}, fmt.Errorf("need limit >= 0 and runs >= 1, got %d and %d", limit, runs)
	}
	candidates := make([]int, limit)
	for i := range candidates {
		candidates[i] = i
	}

	var seq, parl []int
	tSeq := median(runs, func() { seq = sequential(candidates) })
	tPar := median(runs, func() { parl = par.Filter(candidates, isPrime) })
	if !slices.Equal(seq, parl) {
		return result{}, fmt.Errorf("par.Filter found %d primes, the loop %d", len(parl), len(seq))
	}

	sum := 0
	for _, p := range parl {
		sum += p
	}
	fmt.Fprintf(out, "primes below %d: %d, summing to %d\n", limit, len(parl), sum)
	fmt.Fprintf(out, "sequential loop: %v\n", tSeq.Round(time.Microsecond))
	fmt.Fprintf(out, "par.Filter:      %v (%.2fx)\n", tPar.Round(time.Microsecond), float64(tSeq)/float64(tPar))
	return result{primes: parl, sum: sum}, nil
}

// sequential is the loop that par.Filter replaces.
func sequential(candidates []int) []int {
	var primes []int
	for _, x := range candidates {
		if isPrime(x) {
			primes = append(primes, x)
		}
	}
	return primes
}

// isPrime is W5's test: trial division by 2, then by odd numbers up to the
// square root.
func isPrime(x int) bool {
	if x < 2 {
		return false
	}
	if x < 4 {
		return true
	}
	if x%2 == 0 {
		return false
	}
	for d := 3; d*d <= x; d += 2 {
		if x%d == 0 {
			return false
		}
	}
	return true
}

// median returns the median time of runs calls of f.
func median(runs int, f func()) time.Duration {
	ts := make([]time.Duration, runs)
	for i := range ts {
		start := time.Now()
		f()
		ts[i] = time.Since(start)
	}
	slices.Sort(ts)
	return ts[runs/2]
}
