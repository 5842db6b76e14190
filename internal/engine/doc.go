// Package engine runs weft's parallel calls: one engine for every shape
// (package par's functions over slices and ranges, par/pipe's terminals,
// the batches of a sequence), each described to it by a split.Work. The
// engine carries one accumulator along a run of adjacent pieces, cuts and
// steps as package split's planner says, and hands pieces to the pool of
// package sched; the shapes keep to their algebra.
//
// A call begins on its caller alone, on a timed prefix (start.go); if its
// rest promises enough work it goes to the pool, cut in halves that thieves
// may steal, and each piece that is not cut further runs as a leaf in steps
// that look for hungry participants between them (reduce.go). Calls made
// with the same function remember their elements' pace (site.go). The
// engine also keeps the default pool, which follows GOMAXPROCS (pool.go),
// and resolves par's options for par/pipe (Configure).
package engine
