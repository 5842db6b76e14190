package main

import (
	"fmt"
	"iter"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/weftgo/weft/par"
)

// W13 a sequence: the items 0 .. n-1 of a counting iter.Seq[uint64], each
// mapped by k steps of a linear congruential generator (about k ns here),
// the results summed in order, for k = 100, 1,000 and 10,000 and n =
// 20,000,000/k; and a source slow to pull, whose generator spends k/2 steps
// of its own on each item. Beside the loop over the sequence, the
// hand-written form: batches of 4,096 items pulled in order, each cut into
// GOMAXPROCS static parts run by goroutines and a sync.WaitGroup, the
// results consumed in order.

// w13Work is the total of steps of a W13 part: n*k is 20,000,000.
const w13Work = 20_000_000

// w13Batch is the hand-written form's batch length.
const w13Batch = 4096

// w13Mix is one step of W13's generator.
func w13Mix(x uint64) uint64 { return x*6364136223846793005 + 1442695040888963407 }

// w13Sink keeps the slow source's own steps from being optimized away.
var w13Sink atomic.Uint64

// w13Seq returns the counting sequence of n items, each costing slow steps
// to pull.
//
//go:noinline
func w13Seq(n, slow int) iter.Seq[uint64] {
	return func(yield func(uint64) bool) {
		var burn uint64
		for i := range uint64(n) {
			for range slow {
				burn = w13Mix(burn + i)
			}
			if !yield(i) {
				break
			}
		}
		w13Sink.Add(burn)
	}
}

// w13F returns the map of k steps.
//
//go:noinline
func w13F(k int) func(uint64) uint64 {
	return func(x uint64) uint64 {
		for range k {
			x = w13Mix(x)
		}
		return x
	}
}

// w13Hand is the hand-written batch loop.
func w13Hand(seq iter.Seq[uint64], f func(uint64) uint64) uint64 {
	in := make([]uint64, 0, w13Batch)
	out := make([]uint64, w13Batch)
	var s uint64
	flush := func() {
		n, p := len(in), runtime.GOMAXPROCS(0)
		var wg sync.WaitGroup
		for i := range p {
			lo, hi := i*n/p, (i+1)*n/p
			wg.Add(1)
			go func() {
				defer wg.Done()
				for j, x := range in[lo:hi] {
					out[lo+j] = f(x)
				}
			}()
		}
		wg.Wait()
		for _, y := range out[:n] {
			s += y
		}
		in = in[:0]
	}
	for x := range seq {
		if in = append(in, x); len(in) == w13Batch {
			flush()
		}
	}
	if len(in) > 0 {
		flush()
	}
	return s
}

// seqImpls are W13's implementations for k steps an item, over n items
// that cost slow steps each to pull.
func (s *suite) seqImpls(n, k, slow int) []impl {
	f := w13F(k)
	return []impl{
		resultImpl("sequential", kindSeq, "for x := range seq, f through a function value", func() uint64 {
			var t uint64
			for x := range w13Seq(n, slow) {
				t += f(x)
			}
			return t
		}, u64String),
		resultImpl("weft", kindWeft, "for y := range par.MapSeq(seq, f)", func() uint64 {
			var t uint64
			for y := range par.MapSeq(w13Seq(n, slow), f, s.opts...) {
				t += y
			}
			return t
		}, u64String),
		resultImpl("batches", kindHand, fmt.Sprintf("batches of %d pulled in order, each cut in GOMAXPROCS static parts on goroutines, sync.WaitGroup", w13Batch),
			func() uint64 { return w13Hand(w13Seq(n, slow), f) }, u64String),
	}
}

// seqWorkloads are W13's parts: the three costs, and the slow source at
// k = 1,000.
func seqWorkloads() []*workload {
	part := func(id string, k, slow int, ref string) *workload {
		def := fmt.Sprintf("map of %d LCG steps over the n items of a counting iter.Seq, summed in order", k)
		if slow > 0 {
			def += fmt.Sprintf("; the source spends %d steps on each item", slow)
		}
		n := w13Work / k
		return &workload{
			id: id, name: "sequence", def: def, fullN: n, quickN: n, ref: ref,
			size: count, units: linear, probe: func(int) []int { return nil }, ownInput: true,
			build: func(s *suite, n int) []impl { return s.seqImpls(n, k, slow) },
		}
	}
	return []*workload{
		part("W13k100", 100, 0, "3191474101793656928"),
		part("W13k1000", 1000, 0, "11925856765214040560"),
		part("W13k10000", 10_000, 0, "7385103703030437784"),
		part("W13s", 1000, 500, "11925856765214040560"),
	}
}
