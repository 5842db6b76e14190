// Command quicksort sorts random numbers with a parallel quicksort written
// with par.Do and Worker.Join: partition, then sort the two sides in
// parallel, down to a cutoff below which a side is sorted sequentially. It
// checks the result against slices.Sort and prints how long slices.Sort, the
// same quicksort on one goroutine, and the parallel one took (medians of a
// few runs in the same process).
//
// The input is workload W6 of docs/DESIGN.md: xorshift64* from the
// state 0x9E3779B97F4A7C15.
//
//	go run ./examples/quicksort
//	go run ./examples/quicksort -n 10000000
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"time"

	"github.com/weftgo/weft/par"
)

func main() {
	n := flag.Int("n", 2_000_000, "sort `n` numbers")
	runs := flag.Int("runs", 3, "time the median of `k` sorts of each version")
	flag.Parse()
	if _, err := run(os.Stdout, *n, *runs); err != nil {
		fmt.Fprintln(os.Stderr, "quicksort:", err)
		os.Exit(1)
	}
}

// cutoff is the length below which a side is sorted sequentially: below a
// few thousand elements a side sorts in tens of microseconds, and splitting
// it further would make forks that cost more than the work they hand over.
const cutoff = 4096

// sortPar sorts s in parallel.
func sortPar(s []uint64) {
	par.Do(func(w *par.Worker) { quicksort(w, s) })
}

// quicksort sorts s, forking the sort of the right side so that an idle
// worker can steal it while w sorts the left side.
func quicksort(w *par.Worker, s []uint64) {
	if len(s) <= cutoff {
		slices.Sort(s)
		return
	}
	p := partition(s)
	w.Join(
		func(w *par.Worker) { quicksort(w, s[:p]) },
		func(w *par.Worker) { quicksort(w, s[p:]) },
	)
}

// sortSeq is quicksort with plain recursion, the baseline that shows what
// the forks themselves cost.
func sortSeq(s []uint64) {
	if len(s) <= cutoff {
		slices.Sort(s)
		return
	}
	p := partition(s)
	sortSeq(s[:p])
	sortSeq(s[p:])
}

// partition reorders s (len(s) >= 2) around the median of its first, middle
// and last elements, and returns p with 0 < p < len(s) such that every
// element of s[:p] is at most every element of s[p:] (Hoare's scheme).
func partition(s []uint64) int {
	lo, mid, hi := 0, (len(s)-1)/2, len(s)-1
	if s[mid] < s[lo] {
		s[mid], s[lo] = s[lo], s[mid]
	}
	if s[hi] < s[lo] {
		s[hi], s[lo] = s[lo], s[hi]
	}
	if s[hi] < s[mid] {
		s[hi], s[mid] = s[mid], s[hi]
	}
	pivot := s[mid]
	i, j := -1, len(s)
	for {
		for i++; s[i] < pivot; i++ {
		}
		for j--; s[j] > pivot; j-- {
		}
		if i >= j {
			return j + 1
		}
		s[i], s[j] = s[j], s[i]
	}
}

// input returns W6's n numbers.
func input(n int) []uint64 {
	s := make([]uint64, n)
	x := uint64(0x9E3779B97F4A7C15)
	for i := range s {
		x ^= x >> 12
		x ^= x << 25
		x ^= x >> 27
		s[i] = x * 0x2545F4914F6CDD1D
	}
	return s
}

// run sorts W6's n numbers three ways, checks that they agree, and prints
// the median times of runs sorts of each. It returns the sorted numbers.
func run(out io.Writer, n, runs int) ([]uint64, error) {
	if n < 0 || runs < 1 {
		return nil, fmt.Errorf("need n >= 0 and runs >= 1, got %d and %d", n, runs)
	}
	in := input(n)
	want := slices.Clone(in)
	seq := slices.Clone(in)
	got := slices.Clone(in)
	tStd := median(runs, want, in, slices.Sort)
	tSeq := median(runs, seq, in, sortSeq)
	tPar := median(runs, got, in, sortPar)
	if !slices.IsSorted(got) || !slices.Equal(got, want) || !slices.Equal(seq, want) {
		return nil, errors.New("the quicksort disagrees with slices.Sort")
	}

	fmt.Fprintf(out, "sorted %d numbers: same as slices.Sort", n)
	if n > 0 {
		fmt.Fprintf(out, "; min %d, median %d, max %d", got[0], got[n/2], got[n-1])
	}
	fmt.Fprintln(out)
	fmt.Fprintf(out, "slices.Sort:                  %v\n", tStd.Round(time.Microsecond))
	fmt.Fprintf(out, "quicksort, plain recursion:   %v\n", tSeq.Round(time.Microsecond))
	fmt.Fprintf(out, "quicksort, par.Do + w.Join:   %v (%.2fx the plain recursion)\n",
		tPar.Round(time.Microsecond), float64(tSeq)/float64(tPar))
	return got, nil
}

// median copies in to s and sorts s with sort, runs times, and returns the
// median time of the sorts.
func median(runs int, s, in []uint64, sort func([]uint64)) time.Duration {
	ts := make([]time.Duration, runs)
	for i := range ts {
		copy(s, in)
		start := time.Now()
		sort(s)
		ts[i] = time.Since(start)
	}
	slices.Sort(ts)
	return ts[runs/2]
}
