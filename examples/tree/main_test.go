package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
)

func TestBuildAndWalk(t *testing.T) {
	for _, n := range []int{0, 1, 2, 3, 17, 1000, cutoff, cutoff + 1, 3*cutoff + 5, 100_000} {
		for _, seed := range []uint64{1, 2} {
			t.Run(fmt.Sprintf("n=%d/seed=%d", n, seed), func(t *testing.T) {
				var root *node
				par.Do(func(w *par.Worker) { root = build(w, span{n: n, seed: seed}) })
				require.True(t, same(buildSeq(span{n: n, seed: seed}), root), "the parallel build made another shape")

				// The oracle: an explicit-stack in-order walk that checks
				// the values and sizes and measures the height.
				type frame struct {
					t     *node
					depth int
				}
				var stack []frame
				next, height := int64(0), 0
				for cur, d := root, 1; cur != nil || len(stack) > 0; {
					for ; cur != nil; cur, d = cur.left, d+1 {
						require.Equal(t, 1+size(cur.left)+size(cur.right), cur.size)
						stack = append(stack, frame{cur, d})
					}
					f := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					require.Equal(t, next, f.t.value, "in-order values count up from 0")
					next++
					height = max(height, f.depth)
					cur, d = f.t.right, f.depth+1
				}
				require.Equal(t, int64(n), next)

				want := stats{nodes: n, sum: int64(n) * int64(n-1) / 2, height: height}
				assert.Equal(t, want, walk(root))
				var all, cut stats
				par.Do(func(w *par.Worker) { all = walkAll(w, root) })
				par.Do(func(w *par.Worker) { cut = walkCut(w, root) })
				assert.Equal(t, want, all)
				assert.Equal(t, want, cut)
			})
		}
	}
}

func TestRun(t *testing.T) {
	var out bytes.Buffer
	got, err := run(&out, 50_000, 3, 1)
	require.NoError(t, err)
	var root *node
	par.Do(func(w *par.Worker) { root = build(w, span{n: 50_000, seed: 3}) })
	want := walk(root)
	assert.Equal(t, want, got)
	assert.Equal(t, int64(50_000*49_999/2), got.sum)

	lines := strings.Split(out.String(), "\n")
	require.Len(t, lines, 6, out.String())
	assert.Equal(t, fmt.Sprintf("tree of 50000 nodes (seed 3): sum 1249975000, height %d", want.height), lines[0])
	assert.Regexp(t, `^built with par\.Join2 in \S+$`, lines[1])
	assert.Regexp(t, `^walk, plain recursion: +\S+ \(median of 1\)$`, lines[2])
	assert.Regexp(t, `^walk, par\.Join2 at every node: +\S+ \(\d+\.\d\dx\)$`, lines[3])
	assert.Regexp(t, `^walk, par\.Join2 above 4096 nodes: \S+ \(\d+\.\d\dx\)$`, lines[4])
}

func TestRunRejectsBadArguments(t *testing.T) {
	_, err := run(&bytes.Buffer{}, -1, 1, 1)
	assert.Error(t, err)
	_, err = run(&bytes.Buffer{}, 1, 1, 0)
	assert.Error(t, err)
}

func size(t *node) int {
	if t == nil {
		return 0
	}
	return t.size
}

func same(a, b *node) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.value == b.value && a.size == b.size && same(a.left, b.left) && same(a.right, b.right)
}
