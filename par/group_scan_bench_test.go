package par_test

import (
	"fmt"
	"testing"

	"github.com/weftgo/weft/par"
)

// BenchmarkPrefixSum is W10's scan at three sizes, in place on a buffer
// refilled outside the timing: the plain loop, PrefixSumInPlace (the addition
// inlined) and ScanInPlace (op through a function value).
//
//	go test -run XXX -bench PrefixSum -benchmem -count 3 ./par
func BenchmarkPrefixSum(b *testing.B) {
	for _, n := range []int{1000, 100_000, 10_000_000} {
		in := make([]int64, n)
		for i := range in {
			in[i] = int64(i%1000 - 500)
		}
		buf := make([]int64, n)
		run := func(name string, f func([]int64)) {
			b.Run(fmt.Sprintf("n=%d/impl=%s", n, name), func(b *testing.B) {
				b.SetBytes(int64(16 * n)) // a read and a write of each element
				for b.Loop() {
					b.StopTimer()
					copy(buf, in)
					b.StartTimer()
					f(buf)
				}
			})
		}
		run("loop", func(s []int64) {
			var acc int64
			for i, x := range s {
				acc += x
				s[i] = acc
			}
		})
		run("PrefixSumInPlace", func(s []int64) { par.PrefixSumInPlace(s) })
		run("ScanInPlace", func(s []int64) { par.ScanInPlace(s, 0, func(a, b int64) int64 { return a + b }) })
	}
}

var countSink map[int]int

// BenchmarkCountBy counts 1,000,000 keys drawn from 1,000 and from 100,000
// distinct values: the plain map loop against CountBy.
//
//	go test -run XXX -bench CountBy -benchmem -count 3 ./par
func BenchmarkCountBy(b *testing.B) {
	for _, k := range []int{1000, 100_000} {
		in := smallInts(newRand(uint64(k)), 1_000_000, k)
		key := func(x int) int { return x }
		b.Run(fmt.Sprintf("keys=%d/impl=loop", k), func(b *testing.B) {
			for b.Loop() {
				m := map[int]int{}
				for _, x := range in {
					m[key(x)]++
				}
				countSink = m
			}
		})
		b.Run(fmt.Sprintf("keys=%d/impl=CountBy", k), func(b *testing.B) {
			for b.Loop() {
				countSink = par.CountBy(in, key)
			}
		})
	}
}
