// Command walk hashes every file under a directory tree (SHA-256) with
// par.ScopeErr: a task per directory, which lists it and spawns a task per
// subdirectory and per file, so that the tree is discovered as the walk goes
// and every core hashes from the start. The first I/O error stops the walk:
// the tasks not yet started are skipped, those running see their context
// cancelled, and the error is returned once they have returned.
//
// The result is the one of the sequential walk (fs.WalkDir, which is
// filepath.WalkDir over an fs.FS, and a loop that hashes each file), and the
// program checks it. It times three forms in paired rounds, each round
// running the three in a new order: weft; errgroup with SetLimit(GOMAXPROCS),
// as Go programs do it today (fs.WalkDir on the calling goroutine, a g.Go per
// file; errgroup cannot spawn from inside its tasks under a limit, since Go
// blocks while every place is held by a task that waits to spawn); and the
// sequential walk. It reports the median time of each and the median over
// rounds of each one's time over weft's in the same round.
//
// Without -root it generates a tree of -files files (sizes from 0 to 256 KiB,
// most small, in directories up to six deep) in a temporary directory, and
// removes it after. The files are read through the page cache, so the walk
// computes more than it waits: weft runs it on the default pool. -pool runs
// it on a pool of that many workers instead, and -limit bounds the tasks
// running at once (Group.SetLimit), as for a disk or a network file system
// whose reads wait.
//
//	go run ./examples/walk
//	go run ./examples/walk -files 10000 -rounds 21
//	go run ./examples/walk -root ~/src -rounds 5
package main

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/weftgo/weft/par"
)

func main() {
	var c config
	flag.StringVar(&c.root, "root", "", "walk the tree under `dir` (default: generate one)")
	flag.IntVar(&c.files, "files", 3000, "generate a tree of `n` files")
	flag.Uint64Var(&c.seed, "seed", 1, "the `seed` of the generated tree")
	flag.IntVar(&c.rounds, "rounds", 11, "time `k` paired rounds")
	flag.IntVar(&c.pool, "pool", 0, "run weft on a pool of `n` workers (0: the default pool)")
	flag.IntVar(&c.limit, "limit", 0, "bound weft's tasks running at once to `n` (0: none)")
	flag.Parse()
	if err := run(context.Background(), os.Stdout, c); err != nil {
		fmt.Fprintln(os.Stderr, "walk:", err)
		os.Exit(1)
	}
}

type config struct {
	root        string
	files       int
	seed        uint64
	rounds      int
	pool, limit int
}

// fileHash is the result for one file: its path in the tree (slash-separated,
// relative to the root), its size and its SHA-256.
type fileHash struct {
	Path string
	Size int64
	Sum  [sha256.Size]byte
}

// bufs holds the copy buffers of hashFile.
var bufs = sync.Pool{New: func() any { return new([64 << 10]byte) }}

// hashFile hashes the file at name in fsys, unless ctx has ended.
func hashFile(ctx context.Context, fsys fs.FS, name string) (fileHash, error) {
	if err := ctx.Err(); err != nil {
		return fileHash{}, err
	}
	f, err := fsys.Open(name)
	if err != nil {
		return fileHash{}, err
	}
	defer f.Close()
	h := sha256.New()
	buf := bufs.Get().(*[64 << 10]byte)
	defer bufs.Put(buf)
	n, err := io.CopyBuffer(h, f, buf[:])
	if err != nil {
		return fileHash{}, fmt.Errorf("read %s: %w", name, err)
	}
	fh := fileHash{Path: name, Size: n}
	h.Sum(fh.Sum[:0])
	return fh, nil
}

// collector gathers the hashes of a parallel walk.
type collector struct {
	mu  sync.Mutex
	out []fileHash
}

func (c *collector) add(h fileHash) {
	c.mu.Lock()
	c.out = append(c.out, h)
	c.mu.Unlock()
}

// sorted returns the hashes in the order of their paths.
func sorted(hs []fileHash) []fileHash {
	slices.SortFunc(hs, func(a, b fileHash) int { return cmp.Compare(a.Path, b.Path) })
	return hs
}

// walkSeq is the sequential walk: fs.WalkDir, hashing each regular file in
// turn. It returns the hashes in the order of their paths.
func walkSeq(ctx context.Context, fsys fs.FS) ([]fileHash, error) {
	var out []fileHash
	err := fs.WalkDir(fsys, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.Type().IsRegular() {
			return nil
		}
		h, err := hashFile(ctx, fsys, name)
		if err != nil {
			return err
		}
		out = append(out, h)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return sorted(out), nil
}

// walkWeft walks fsys with par.ScopeErr: a task per directory and per
// regular file. limit, if positive, bounds the tasks running at once. It
// returns the hashes in the order of their paths.
func walkWeft(ctx context.Context, fsys fs.FS, limit int, opts ...par.Option) ([]fileHash, error) {
	var c collector
	var dir func(ctx context.Context, g *par.Group, w *par.Worker, name string) error
	dir = func(ctx context.Context, g *par.Group, w *par.Worker, name string) error {
		entries, err := fs.ReadDir(fsys, name)
		if err != nil {
			return err
		}
		for _, e := range entries {
			sub := path.Join(name, e.Name())
			switch {
			case e.IsDir():
				g.Spawn(w, func(ctx context.Context, w *par.Worker) error { return dir(ctx, g, w, sub) })
			case e.Type().IsRegular():
				g.Spawn(w, func(ctx context.Context, _ *par.Worker) error {
					h, err := hashFile(ctx, fsys, sub)
					if err != nil {
						return err
					}
					c.add(h)
					return nil
				})
			}
		}
		return nil
	}
	err := par.ScopeErr(ctx, func(ctx context.Context, g *par.Group, w *par.Worker) error {
		if limit > 0 {
			g.SetLimit(limit)
		}
		return dir(ctx, g, w, ".")
	}, opts...)
	if err != nil {
		return nil, err
	}
	return sorted(c.out), nil
}

// walkErrgroup walks fsys as a Go program does with errgroup: fs.WalkDir on
// the calling goroutine, a g.Go per regular file, at most limit at once. The
// walk stops at the first error, of a read of a directory or of a file.
func walkErrgroup(ctx context.Context, fsys fs.FS, limit int) ([]fileHash, error) {
	var c collector
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(limit)
	werr := fs.WalkDir(fsys, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err // a hash failed: stop walking
		}
		if d.Type().IsRegular() {
			g.Go(func() error {
				h, err := hashFile(ctx, fsys, name)
				if err != nil {
					return err
				}
				c.add(h)
				return nil
			})
		}
		return nil
	})
	gerr := g.Wait()
	switch {
	case gerr != nil:
		return nil, gerr // the walk stopped because of it, if it stopped
	case werr != nil:
		return nil, werr
	}
	return sorted(c.out), nil
}

// form is one of the walks timed.
type form struct {
	name string
	walk func(ctx context.Context, fsys fs.FS) ([]fileHash, error)
}

// run walks c's tree with the three forms in paired rounds, checks that they
// agree, and prints the result and the timings.
func run(ctx context.Context, out io.Writer, c config) error {
	if c.rounds < 1 || c.files < 1 || c.pool < 0 || c.limit < 0 || c.pool > par.MaxWorkers {
		return errors.New("need rounds, files >= 1, 0 <= pool <= par.MaxWorkers and limit >= 0")
	}
	root := c.root
	if root == "" {
		dir, err := os.MkdirTemp("", "weft-walk-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		files, bytes, err := generate(dir, c.files, c.seed)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "generated %d files, %s, in %s\n", files, mib(bytes), dir)
		root = dir
	}
	fsys := os.DirFS(root)

	var opts []par.Option
	weftName := "weft"
	if c.pool > 0 {
		p := par.NewPool(par.Workers(c.pool))
		defer p.Close()
		opts = append(opts, par.OnPool(p))
		weftName += fmt.Sprintf(" (pool of %d)", c.pool)
	}
	if c.limit > 0 {
		weftName += fmt.Sprintf(" (limit %d)", c.limit)
	}
	procs := runtime.GOMAXPROCS(0)
	forms := []form{
		{weftName, func(ctx context.Context, fsys fs.FS) ([]fileHash, error) {
			return walkWeft(ctx, fsys, c.limit, opts...)
		}},
		{fmt.Sprintf("errgroup, SetLimit(%d)", procs), func(ctx context.Context, fsys fs.FS) ([]fileHash, error) {
			return walkErrgroup(ctx, fsys, procs)
		}},
		{"sequential", walkSeq},
	}
	times, results, err := rounds(ctx, fsys, forms, c.rounds, c.seed)
	if err != nil {
		return err
	}
	want := results[len(forms)-1]
	for i, r := range results[:len(forms)-1] {
		if !slices.Equal(r, want) {
			return fmt.Errorf("%s differs from the sequential walk", forms[i].name)
		}
	}
	var size int64
	for _, h := range want {
		size += h.Size
	}
	fmt.Fprintf(out, "%d files, %s, digest %s (the same from every walk)\n", len(want), mib(size), digest(want))
	fmt.Fprintf(out, "%d paired rounds, GOMAXPROCS %d; median time, and the median over rounds of time / weft's:\n", c.rounds, procs)
	for i, f := range forms {
		fmt.Fprintf(out, "  %-24s %9v  %.2f\n", f.name, median(times[i]).Round(10*time.Microsecond), medianRatio(times[i], times[0]))
	}
	return nil
}

// rounds runs every form once per round, in an order drawn anew each round,
// and returns each one's times and last result; the first error ends it.
func rounds(ctx context.Context, fsys fs.FS, forms []form, k int, seed uint64) ([][]time.Duration, [][]fileHash, error) {
	times := make([][]time.Duration, len(forms))
	results := make([][]fileHash, len(forms))
	r := rand.New(rand.NewPCG(seed, 1))
	for _, i := range r.Perm(len(forms)) { // a round to fill the page cache, untimed
		if _, err := forms[i].walk(ctx, fsys); err != nil {
			return nil, nil, fmt.Errorf("%s: %w", forms[i].name, err)
		}
	}
	for range k {
		for _, i := range r.Perm(len(forms)) {
			runtime.GC() // each walk starts from a clean heap
			t0 := time.Now()
			res, err := forms[i].walk(ctx, fsys)
			times[i] = append(times[i], time.Since(t0))
			if err != nil {
				return nil, nil, fmt.Errorf("%s: %w", forms[i].name, err)
			}
			results[i] = res
		}
	}
	return times, results, nil
}

func median(ts []time.Duration) time.Duration {
	s := slices.Clone(ts)
	slices.Sort(s)
	return s[len(s)/2]
}

// medianRatio is the median over rounds of ts[r] / base[r].
func medianRatio(ts, base []time.Duration) float64 {
	rs := make([]float64, len(ts))
	for r := range ts {
		rs[r] = float64(ts[r]) / float64(base[r])
	}
	slices.Sort(rs)
	return rs[len(rs)/2]
}

// digest is a SHA-256 over the paths and hashes in order, to compare runs.
func digest(hs []fileHash) string {
	h := sha256.New()
	for _, f := range hs {
		io.WriteString(h, f.Path)
		h.Write([]byte{0})
		h.Write(f.Sum[:])
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

func mib(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }

// generate writes a tree of n files under root, fixed by seed: directories
// of 2 to 9 subdirectories, up to 6 deep, the files spread over them; file
// sizes are log-uniform up to 256 KiB (half under 2 KiB, a few large), and
// their bytes are drawn from seed too. It returns the number of files and
// their total size.
func generate(root string, n int, seed uint64) (int, int64, error) {
	r := rand.New(rand.NewPCG(seed, 2))
	dirs := []string{root}
	for len(dirs) < max(1, n/12) {
		parent := dirs[r.IntN(len(dirs))]
		if depth(root, parent) >= 6 {
			continue
		}
		d := filepath.Join(parent, "d"+strconv.Itoa(len(dirs)))
		if err := os.Mkdir(d, 0o755); err != nil {
			return 0, 0, err
		}
		dirs = append(dirs, d)
	}
	var total int64
	buf := make([]byte, 256<<10)
	for i := range n {
		size := int(min(float64(len(buf)), 16*math.Exp2(r.Float64()*14)))
		if r.IntN(8) == 0 {
			size = 0
		}
		for j := 0; j < size; j += 8 {
			v := r.Uint64()
			for k := 0; k < 8 && j+k < size; k++ {
				buf[j+k] = byte(v >> (8 * k))
			}
		}
		name := filepath.Join(dirs[r.IntN(len(dirs))], "f"+strconv.Itoa(i)+".dat")
		if err := os.WriteFile(name, buf[:size], 0o644); err != nil {
			return 0, 0, err
		}
		total += int64(size)
	}
	return n, total, nil
}

func depth(root, dir string) int {
	rel, _ := filepath.Rel(root, dir)
	if rel == "." {
		return 0
	}
	n := 1
	for _, c := range rel {
		if c == filepath.Separator {
			n++
		}
	}
	return n
}
