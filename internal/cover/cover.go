// Package cover carries, from a pipe to the par call that runs it, what a
// source knows of the stretches of its range that the work already done has
// covered: a text source whose first piece reads a long line to its end
// knows that the positions inside that line start no piece. Without it, the
// call would time that first piece as one very slow element and cut the
// rest of the line, which costs nothing, into the most pieces it allows.
//
// Package par sets Option and Fixed when it is initialized; package pipe
// calls them.
package cover

// Func returns how far from pos the work already done covers: an end e >=
// pos such that folding [pos, e) costs next to nothing, or pos when it knows
// of none. Any goroutine may call it, at any time during the call.
type Func func(pos int) int

// Option returns the par.Option (as any: this package cannot import par)
// that gives a call f. Set by package par's init. The result is boxed (two
// allocations): package pipe makes a text source's at each terminal's call
// that needs it, not with the source, which Collect may run without one;
// and the options of Collect's two counted calls once for the package and
// once a call (the second composes the source's).
var Option func(f Func) any

// Fixed reports whether a call's options (a []par.Option, as any) fix its
// pieces (WithGrain): a pipe terminal that would run a small text on the
// calling goroutine alone cuts it as asked instead. Set by package par's
// init.
var Fixed func(opts any) bool
