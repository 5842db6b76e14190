package par_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"strings"
	"sync/atomic"

	"github.com/weftgo/weft/par"
)

// walkTree is a directory tree, each directory mapped to its entries; a
// name that ends in a slash is a directory.
var walkTree = map[string][]string{
	"/":                   {"cmd/", "docs/", "go.mod", "README.md"},
	"/cmd/":               {"tool/", "main.go"},
	"/cmd/tool/":          {"tool.go", "tool_test.go", "testdata/"},
	"/cmd/tool/testdata/": {"a.txt", "b.txt", "c.txt"},
	"/docs/":              {"index.md", "api.md"},
}

// countFiles walks a tree given as a map from each directory to its entries
// (as walkTree), a task per directory, and counts the files: the first
// directory that cannot be read stops the walk.
func countFiles(tree map[string][]string) (int64, error) {
	var files atomic.Int64
	var visit func(g *par.Group, w *par.Worker, dir string) error
	visit = func(g *par.Group, w *par.Worker, dir string) error {
		entries, ok := tree[dir]
		if !ok {
			return fmt.Errorf("read %s: %w", dir, fs.ErrNotExist)
		}
		for _, e := range entries {
			if strings.HasSuffix(e, "/") {
				g.Spawn(w, func(_ context.Context, w *par.Worker) error { return visit(g, w, dir+e) })
			} else {
				files.Add(1)
			}
		}
		return nil
	}
	err := par.ScopeErr(context.Background(), func(_ context.Context, g *par.Group, w *par.Worker) error {
		return visit(g, w, "/")
	})
	return files.Load(), err
}

// ScopeErr runs a tree of tasks found as they go, any of which can fail: the
// first error stops the tasks not yet started, cancels the context the tasks
// receive, and is returned once the started tasks have returned.
func ExampleScopeErr() {
	fmt.Println(countFiles(walkTree))

	broken := maps.Clone(walkTree)
	delete(broken, "/cmd/tool/testdata/")
	_, err := countFiles(broken)
	fmt.Println(err)
	fmt.Println(errors.Is(err, fs.ErrNotExist))
	// Output:
	// 10 <nil>
	// read /cmd/tool/testdata/: file does not exist
	// true
}
