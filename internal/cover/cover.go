// Package cover carries, from a pipe to the par call that runs it, what a
// source knows of the stretches of its range that the work already done has
// covered: a text source whose first piece reads a long line to its end
// knows that the positions inside that line start no piece. Without it, the
// call would time that first piece as one very slow element and cut the
// rest of the line, which costs nothing, into the most pieces it allows.
//
// Package par sets Option when it is initialized; package pipe calls it,
// for the calls it makes with par's options (ReduceBy's over a text).
package cover

// Func returns how far from pos the work already done covers: an end e >=
// pos such that folding [pos, e) costs next to nothing, or pos when it knows
// of none. Any goroutine may call it, at any time during the call.
type Func func(pos int) int

// Option returns the par.Option (as any: this package cannot import par)
// that gives a call f. Set by package par's init. The result is boxed (two
// allocations): package pipe makes a text source's at each call that needs
// it, not with the source. The terminals that resolve their options
// themselves set engine.Config.Covered instead.
var Option func(f Func) any
