package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/require"

	"github.com/weftgo/weft/par"
)

// The walker against the sequential walk and against errgroup, on every
// shape of failure: an unreadable root, a directory deep in the tree, a file,
// many files at once, the parent context cancelled. With one failure, the
// three return the same error.

// walks are the forms the tests compare, with weft also bounded and on a
// pool of its own.
func walks(t *testing.T) []form {
	p := par.NewPool(par.Workers(4))
	t.Cleanup(p.Close)
	procs := runtime.GOMAXPROCS(0)
	return []form{
		{"sequential", walkSeq},
		{"weft", func(ctx context.Context, fsys fs.FS) ([]fileHash, error) { return walkWeft(ctx, fsys, 0) }},
		{"weft-limit1", func(ctx context.Context, fsys fs.FS) ([]fileHash, error) { return walkWeft(ctx, fsys, 1) }},
		{"weft-pool4-limit3", func(ctx context.Context, fsys fs.FS) ([]fileHash, error) {
			return walkWeft(ctx, fsys, 3, par.OnPool(p))
		}},
		{"errgroup", func(ctx context.Context, fsys fs.FS) ([]fileHash, error) { return walkErrgroup(ctx, fsys, procs) }},
	}
}

// testTree generates a tree of n files under a temporary directory.
func testTree(t *testing.T, n int) fs.FS {
	dir := t.TempDir()
	files, _, err := generate(dir, n, 7)
	require.NoError(t, err)
	require.Equal(t, n, files)
	return os.DirFS(dir)
}

func TestWalkMatchesSequential(t *testing.T) {
	ctx := context.Background()
	for _, n := range []int{1, 40, 600} {
		fsys := testTree(t, n)
		want, err := walkSeq(ctx, fsys)
		require.NoError(t, err)
		require.Len(t, want, n)
		for _, f := range walks(t)[1:] {
			got, err := f.walk(ctx, fsys)
			require.NoError(t, err, f.name)
			require.Equal(t, want, got, "%s, %d files", f.name, n)
		}
	}
	empty := os.DirFS(t.TempDir())
	for _, f := range walks(t) {
		got, err := f.walk(ctx, empty)
		require.NoError(t, err, f.name)
		require.Empty(t, got, f.name)
	}
}

// faultFS is fsys with injected errors: opening or listing a path of bad
// fails with its error.
type faultFS struct {
	fs.FS
	bad map[string]error
}

func (f *faultFS) fail(name string) error {
	if err, ok := f.bad[name]; ok {
		return &fs.PathError{Op: "open", Path: name, Err: err}
	}
	return nil
}

func (f *faultFS) Open(name string) (fs.File, error) {
	if err := f.fail(name); err != nil {
		return nil, err
	}
	return f.FS.Open(name)
}

func (f *faultFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if err := f.fail(name); err != nil {
		return nil, err
	}
	return fs.ReadDir(f.FS, name)
}

// memTree is a small tree in memory whose shape the failure cases name.
func memTree() fstest.MapFS {
	m := fstest.MapFS{}
	for _, d := range []string{"a", "a/b", "a/b/c", "a/b/c/d", "e", "e/f"} {
		for i := range 30 {
			m[path.Join(d, fmt.Sprintf("x%02d.txt", i))] = &fstest.MapFile{Data: []byte(strings.Repeat(d, i+1))}
		}
	}
	m["top.txt"] = &fstest.MapFile{Data: []byte("top")}
	return m
}

var errInjected = errors.New("injected")

func TestWalkStopsOnError(t *testing.T) {
	for _, c := range []struct {
		name string
		bad  []string
	}{
		{"root", []string{"."}},
		{"deep-dir", []string{"a/b/c/d"}},
		{"dir", []string{"e"}},
		{"file", []string{"a/b/x17.txt"}},
		{"deep-file", []string{"a/b/c/d/x29.txt"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var want error
			for i, f := range walks(t) {
				for range 5 {
					fsys := &faultFS{FS: memTree(), bad: map[string]error{}}
					for _, b := range c.bad {
						fsys.bad[b] = errInjected
					}
					got, err := f.walk(context.Background(), fsys)
					require.ErrorIs(t, err, errInjected, f.name)
					require.Nil(t, got)
					if i == 0 {
						want = err
					}
					require.Equal(t, want.Error(), err.Error(), "%s: one failure gives the sequential walk's error", f.name)
				}
			}
		})
	}
}

// TestWalkManyFail: every file of a directory fails, and each walk returns
// the error of one of them (which one depends on timing, in errgroup's walk
// as in weft's).
func TestWalkManyFail(t *testing.T) {
	for _, f := range walks(t) {
		t.Run(f.name, func(t *testing.T) {
			for range 5 {
				fsys := &faultFS{FS: memTree(), bad: map[string]error{}}
				for i := range 30 {
					fsys.bad[fmt.Sprintf("a/b/c/x%02d.txt", i)] = fmt.Errorf("%w %d", errInjected, i)
				}
				_, err := f.walk(context.Background(), fsys)
				require.ErrorIs(t, err, errInjected)
				require.Contains(t, err.Error(), "a/b/c/x")
			}
		})
	}
}

// TestWalkCancelled: the parent context cancelled before the walk, or during
// it from inside, stops every form with its cause.
func TestWalkCancelled(t *testing.T) {
	fsys := testTree(t, 200)
	for _, f := range walks(t) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		_, err := f.walk(ctx, fsys)
		require.ErrorIs(t, err, context.Canceled, f.name)

		ctx, cancelCause := context.WithCancelCause(context.Background())
		gone := errors.New("gone")
		var opened atomic.Int64
		_, err = f.walk(ctx, &cancelAfter{FS: fsys, n: 50, opened: &opened, cancel: func() { cancelCause(gone) }})
		require.Error(t, err, f.name)
		require.True(t, errors.Is(err, gone) || errors.Is(err, context.Canceled), "%s: %v", f.name, err)
		cancelCause(nil)
	}
}

// cancelAfter is fsys that calls cancel when the nth file is opened.
type cancelAfter struct {
	fs.FS
	n      int64
	opened *atomic.Int64
	cancel func()
}

func (c *cancelAfter) Open(name string) (fs.File, error) {
	if c.opened.Add(1) == c.n {
		c.cancel()
	}
	return c.FS.Open(name)
}

func TestRun(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, run(context.Background(), &out, config{files: 300, seed: 3, rounds: 3, pool: 3, limit: 2}))
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	require.Len(t, lines, 6, out.String())
	require.Regexp(t, `^generated 300 files, \d+\.\d MiB, in `, lines[0])
	require.Regexp(t, `^300 files, \d+\.\d MiB, digest [0-9a-f]{16} \(the same from every walk\)$`, lines[1])
	require.Regexp(t, `^3 paired rounds, GOMAXPROCS \d+; `, lines[2])
	require.Regexp(t, `^  weft \(pool of 3\) \(limit 2\) +\S+  1\.00$`, lines[3])
	require.Regexp(t, `^  errgroup, SetLimit\(\d+\) +\S+  \d+\.\d\d$`, lines[4])
	require.Regexp(t, `^  sequential +\S+  \d+\.\d\d$`, lines[5])

	for _, bad := range []config{{files: 1, rounds: 0}, {files: 0, rounds: 1}, {files: 1, rounds: 1, pool: -1}, {files: 1, rounds: 1, limit: -1}} {
		require.Error(t, run(context.Background(), &out, bad), "%+v", bad)
	}
	require.Error(t, run(context.Background(), &out, config{root: "/nonexistent/weft-walk", rounds: 1, files: 1}))
}
