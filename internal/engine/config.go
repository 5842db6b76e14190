package engine

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/weftgo/weft/internal/sched"
)

// Config is the resolved form of a call's options: what package par makes
// of them (par.OnPool, par.WithGrain, par.WithMinLen, par.WithLabels).
type Config struct {
	// Pool is the call's own pool, or nil for the default pool.
	Pool *sched.Pool
	// Grain, if positive, fixes the pieces: every piece longer is cut, and
	// no other.
	Grain int
	// MinLen, if positive, is the shortest piece the call may make.
	MinLen int
	// Labels are the profiler labels that the pool's work for the call
	// carries, or nil.
	Labels context.Context
	// Covered, if not nil, becomes the call's split.Work.Covered: package
	// pipe's text sources set it (see split.Work.Covered).
	Covered func(pos int) int

	// def is the default pool as the call first looked it up, when it has
	// no pool of its own.
	def *sched.Pool
}

// Configure resolves a call's options (a []par.Option, as any: this package
// cannot import par) as package par resolves its own calls', panicking as
// they do on a zero Option or a closed pool. Set by package par when it is
// initialized; package pipe, which takes par's options, calls it. A
// non-empty opts costs an allocation (the slice's header, boxed).
var Configure func(opts any) Config

// Lookup returns the call's pool.
func (c *Config) Lookup() *sched.Pool {
	if c.Pool != nil {
		return c.Pool
	}
	if c.def == nil {
		// Looked up once a call: the lookup reads GOMAXPROCS, which takes
		// the Go scheduler's global lock.
		c.def = Default()
	}
	return c.def
}

// Current returns the pool to hand work to now: the call's own, or the
// current default pool, which may be a new one if GOMAXPROCS has changed
// since the call began (a pass over a sequence lasts as long as its
// source). Whether the call's own pool was closed is for its owner to say
// (package par's Pool).
func (c *Config) Current() *sched.Pool {
	if c.Pool != nil {
		return c.Pool
	}
	return Default()
}

// Run calls f with a seat of the call's pool on the calling goroutine (see
// sched.Pool.Run).
func (c *Config) Run(f func(w *sched.Worker)) {
	if c.Pool != nil {
		if !c.Pool.Run(f) { // closed since the call's options were resolved
			panic(ClosedError("OnPool: the pool was closed as the call began"))
		}
		return
	}
	c.def = runDefault(c.Lookup(), f)
}

// ClosedError is the panic value of a call directed at a closed pool: an
// error that names the call (see CallName), says why, and wraps
// sched.ErrClosed.
func ClosedError(why string) error {
	return fmt.Errorf("%s: %s: %w", CallName(), why, sched.ErrClosed)
}

// CallName names the exported function of par or of par/pipe that the
// calling goroutine is in, as "par: Map" or "pipe: Collect", for the message
// of a panic about a call's arguments: the outermost exported function among
// the frames of the two packages above the caller of CallName. The stack is
// only read when a call is about to panic.
func CallName() string {
	pcs := make([]uintptr, 32)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(2, pcs)])
	name := "par"
	for {
		f, more := frames.Next()
		pkg, fn, ok := splitFuncName(f.Function)
		if !ok {
			if more && strings.HasPrefix(f.Function, "github.com/weftgo/weft/internal/") {
				continue // the engine's own frames, below par's
			}
			break // out of the library: into the code that made the call
		}
		if exported(fn) {
			name = pkg + ": " + fn
		}
		if !more {
			break
		}
	}
	return name
}

// splitFuncName splits a function name of the runtime, such as
// "github.com/weftgo/weft/par.(*Worker).Join" or
// "github.com/weftgo/weft/par/pipe.Pipe[...].Collect", into its package
// ("par", "pipe") and the function, without type arguments, receiver
// punctuation or closure suffixes ("Worker.Join", "Collect"); ok is false
// for a function of another package.
func splitFuncName(full string) (pkg, fn string, ok bool) {
	rest, ok := strings.CutPrefix(full, "github.com/weftgo/weft/par.")
	pkg = "par"
	if !ok {
		if rest, ok = strings.CutPrefix(full, "github.com/weftgo/weft/par/pipe."); !ok {
			return "", "", false
		}
		pkg = "pipe"
	}
	rest = strings.ReplaceAll(rest, "[...]", "")
	rest = strings.NewReplacer("(", "", ")", "", "*", "").Replace(rest)
	parts := strings.Split(rest, ".")
	fn = parts[0]
	if len(parts) > 1 && exported(parts[0]) && exported(parts[1]) {
		fn += "." + parts[1] // a method
	}
	if pkg == "pipe" {
		fn = strings.TrimPrefix(fn, "Pipe.") // the messages of pipe name its methods alone
	}
	return pkg, fn, true
}

// exported reports whether a name (or its first element, for a method)
// begins with an upper-case letter.
func exported(name string) bool {
	r, _ := utf8.DecodeRuneInString(name)
	return unicode.IsUpper(r)
}
