package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWords(t *testing.T) {
	for _, tc := range []struct {
		line string
		want []string
	}{
		{"", nil},
		{"   ", nil},
		{"one", []string{"one"}},
		{"The cat, the HAT.", []string{"the", "cat", "the", "hat"}},
		{"don't stop -- 'quoted' words' end", []string{"don't", "stop", "quoted", "words", "end"}},
		{"route 66 and 3rd", []string{"route", "66", "and", "3rd"}},
		{"Élan, ÉLAN; straße", []string{"élan", "élan", "straße"}},
		{"a'b'c ''x'' y'", []string{"a'b'c", "x", "y"}},
	} {
		var got []string
		for w := range words(tc.line) {
			got = append(got, w)
		}
		assert.Equal(t, tc.want, got, "%q", tc.line)
	}
}

func TestWordsStopsEarly(t *testing.T) {
	var got []string
	for w := range words("a b c d") {
		got = append(got, w)
		if len(got) == 2 {
			break
		}
	}
	assert.Equal(t, []string{"a", "b"}, got)
}

func TestChunks(t *testing.T) {
	for _, n := range []int{0, 1, 2, 3, 17, 1000} {
		in := make([]int, n)
		for i := range in {
			in[i] = i
		}
		var flat []int
		for c := range chunks(slices.Values(in), 4) {
			require.NotEmpty(t, c)
			require.LessOrEqual(t, len(c), 4)
			flat = append(flat, c...)
		}
		assert.Equal(t, in, append([]int{}, flat...), "n = %d", n)
	}
}

func TestMerge(t *testing.T) {
	assert.Nil(t, merge(nil, nil))
	a := counts{"x": 1}
	assert.Equal(t, counts{"x": 1}, merge(nil, a))
	assert.Equal(t, counts{"x": 1}, merge(a, nil))
	assert.Equal(t, counts{"x": 3, "y": 1, "z": 2}, merge(counts{"x": 1, "y": 1}, counts{"x": 2, "z": 2}))
}

func TestRunFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "text.txt")
	text := "The rain in Spain stays mainly in the plain.\n" +
		"In Spain, the rain? The RAIN!\n" +
		"\n" +
		"plain plain\n"
	require.NoError(t, os.WriteFile(path, []byte(text), 0o644))

	var out bytes.Buffer
	r, err := run(&out, file(path), 1)
	require.NoError(t, err)
	assert.Equal(t, 17, r.total)
	assert.Equal(t, []entry{ // ties in alphabetical order
		{"the", 4}, {"in", 3}, {"plain", 3}, {"rain", 3}, {"spain", 2}, {"mainly", 1}, {"stays", 1},
	}, r.top)

	lines := strings.Split(out.String(), "\n")
	require.Len(t, lines, 11, out.String())
	assert.Equal(t, path+": 17 words, 7 distinct", lines[0])
	assert.Equal(t, "  1. the          4", lines[1])
	assert.Equal(t, "  7. stays        1", lines[7])
	assert.Regexp(t, `^plain loop: +\S+ \(median of 1\)$`, lines[8])
	assert.Regexp(t, `^par\.MapSeq \+ par\.ReduceSeq: \S+ \(\d+\.\d\dx\)$`, lines[9])
}

func TestRunEmptyFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "empty.txt")
	require.NoError(t, os.WriteFile(path, nil, 0o644))
	var out bytes.Buffer
	r, err := run(&out, file(path), 1)
	require.NoError(t, err)
	assert.Zero(t, r.total)
	assert.Empty(t, r.top)
	assert.True(t, strings.HasPrefix(out.String(), path+": 0 words, 0 distinct\nplain loop:"), out.String())
}

// TestRunGenerated checks the parallel count of a generated text, long
// enough for many batches, against counts made by a different route: the
// whole text read at once and split with strings.FieldsFunc.
func TestRunGenerated(t *testing.T) {
	const n = 20_000
	r, err := run(io.Discard, generated(n), 2)
	require.NoError(t, err)

	text, err := io.ReadAll(newTextReader(n))
	require.NoError(t, err)
	assert.Equal(t, n, strings.Count(string(text), "\n"))
	want := counts{}
	for _, w := range strings.FieldsFunc(string(text), func(r rune) bool { return !isWord(r) }) {
		want[strings.ToLower(w)]++
	}
	assert.Equal(t, want, r.c)
	total := 0
	for _, k := range want {
		total += k
	}
	assert.Equal(t, total, r.total)
	require.Len(t, r.top, 10)
	for i := 1; i < len(r.top); i++ {
		assert.GreaterOrEqual(t, r.top[i-1].n, r.top[i].n)
	}
	assert.Equal(t, fmt.Sprint(top(want, 10)), fmt.Sprint(r.top))
}

func TestGeneratedTextIsRepeatable(t *testing.T) {
	a, err := io.ReadAll(newTextReader(500))
	require.NoError(t, err)
	b, err := io.ReadAll(newTextReader(500))
	require.NoError(t, err)
	assert.Equal(t, a, b)
	c, err := io.ReadAll(newTextReader(0))
	require.NoError(t, err)
	assert.Empty(t, c)
}

func TestRunErrors(t *testing.T) {
	_, err := run(io.Discard, file(filepath.Join(t.TempDir(), "missing.txt")), 1)
	assert.Error(t, err)
	_, err = run(io.Discard, generated(10), 0)
	assert.Error(t, err)

	// A line longer than the scanner's buffer is an error, not a silent stop.
	path := filepath.Join(t.TempDir(), "long.txt")
	require.NoError(t, os.WriteFile(path, bytes.Repeat([]byte("a"), 17<<20), 0o644))
	_, err = run(io.Discard, file(path), 1)
	assert.Error(t, err)
}
