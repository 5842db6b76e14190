package main

import (
	"fmt"
	"math/bits"
	"slices"
	"strconv"
)

// The workloads of docs/DESIGN.md, each as its sequential definition plus the
// kernels the parallel implementations share. uint64 arithmetic wraps, as the
// definitions say.

// w1Leaf is W1 over [lo, hi): the sum of x*x.
func w1Leaf(lo, hi int) uint64 {
	var s uint64
	for x := uint64(lo); x < uint64(hi); x++ {
		s += x * x
	}
	return s
}

func w1Elem(i int) uint64 { x := uint64(i); return x * x }

// w2Elem is one element of W2: acc starts at x and takes x%100+1 steps.
func w2Elem(i int) uint64 {
	x := uint64(i)
	acc := x
	for k := x%100 + 1; k > 0; k-- {
		acc = acc*31 + 7
	}
	return acc
}

func w2Leaf(lo, hi int) uint64 {
	var s uint64
	for i := lo; i < hi; i++ {
		s += w2Elem(i)
	}
	return s
}

// w3Steps is the number of steps of element i of W3 over n elements:
// 1 + i*i*4000/(n*n). docs/DESIGN.md fixes n at 100_000; a shrunken run keeps the
// shape (the last element takes about 4000 steps) by scaling with n.
func w3Steps(i, n int) uint64 {
	u, m := uint64(i), uint64(n)
	return 1 + (u*u*4000)/(m*m)
}

func w3Elem(i, n int) uint64 {
	acc := uint64(i)
	for k := w3Steps(i, n); k > 0; k-- {
		acc = acc*31 + 7
	}
	return acc
}

func w3Leaf(n int) func(lo, hi int) uint64 {
	return func(lo, hi int) uint64 {
		var s uint64
		for i := lo; i < hi; i++ {
			s += w3Elem(i, n)
		}
		return s
	}
}

// fib is W4's sequential baseline.
func fib(n int) uint64 {
	if n < 2 {
		return uint64(n)
	}
	return fib(n-1) + fib(n-2)
}

// fibCalls is the number of calls fib(n) makes, the unit of W4's work.
func fibCalls(n int) float64 { return float64(2*fib(n+1) - 1) }

// isPrime is W5's test: trial division by odd numbers up to the square root.
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

// primesChecksum is W5's result: the count and sum of the primes, and
// whether they came out in order.
func primesChecksum(ps []int) string {
	var sum uint64
	for i, p := range ps {
		if i > 0 && ps[i-1] >= p {
			return fmt.Sprintf("out of order at %d", i)
		}
		sum += uint64(p)
	}
	return fmt.Sprintf("%d primes, sum %d", len(ps), sum)
}

// w6Input returns W6's n numbers from xorshift64*.
func w6Input(n int) []uint64 {
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

// sortedChecksum hashes s in order, so that two sorts agree only if they give
// the same sequence; it says so if s is not ascending.
func sortedChecksum(s []uint64) string {
	h := uint64(14695981039346656037)
	for i, x := range s {
		if i > 0 && s[i-1] > x {
			return fmt.Sprintf("not sorted at %d", i)
		}
		h = (h ^ x) * 1099511628211
	}
	return fmt.Sprintf("sorted, hash %016x", h)
}

// stringsChecksum is W7's result: the bytes of digits in all, and a hash
// that depends on the order of the strings.
func stringsChecksum(ss []string) string {
	var n int
	h := uint64(14695981039346656037)
	for _, s := range ss {
		n += len(s)
		for i := 0; i < len(s); i++ {
			h = (h ^ uint64(s[i])) * 1099511628211
		}
		h = (h ^ ',') * 1099511628211
	}
	return fmt.Sprintf("%d bytes, hash %016x", n, h)
}

// w7Seq is W7's sequential baseline.
func w7Seq(in []int) []string {
	out := make([]string, len(in))
	for i, x := range in {
		out[i] = strconv.Itoa(x)
	}
	return out
}

// intsChecksum is W8 map's result: the sum of the doubled values, and their
// order.
func intsChecksum(s []int) string {
	var sum, h uint64
	for _, x := range s {
		sum += uint64(x)
		h = bits.RotateLeft64(h, 5) ^ uint64(x)
	}
	return fmt.Sprintf("sum %d, hash %016x", sum, h)
}

// iota returns [0, n) as a slice, the input of the functions that take one.
func iota(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

// sortSeq is W6's sequential baseline.
func sortSeq(s []uint64) { slices.Sort(s) }
