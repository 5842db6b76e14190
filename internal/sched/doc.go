// Package sched is weft's work-stealing pool.
//
// A Pool has N workers, each a goroutine with a Chase-Lev deque (package
// deque), and any number of seats: worker handles that a goroutine outside the
// pool borrows for the length of one top-level call (Pool.Run), so that the
// caller works on its own call instead of blocking. Workers and seats steal
// from one another alike. A worker looks for work in its own deque first,
// then in the injection queue (Inject: tasks that nobody's deque holds,
// such as package par's Spawner.Go and the batches of a sequence), then in
// random victims; after a bounded number of fruitless rounds it parks. The
// parking protocol, which never loses a wake-up and keeps at most about half
// the workers searching, is written up in README.md beside this file.
//
// A fork (Fork, Rec.Join, Rec.End) pushes one half as a Job and runs the
// other; it then pops the job back and runs it inline, or, if a thief took
// it, runs other work until the thief is done. A fork of a recursion that
// found its gate open (Record) records its half privately instead, for the
// planner to promote later (fork.go). A fork's record
// comes from a per-worker stack of records of its type, since a worker's
// forks nest; detached tasks (Spawn, Inject), which may end on another
// worker, use per-worker free lists. Either way a fork allocates nothing. A
// worker whose deque already holds enough unstolen jobs for the thieves is
// Crowded, and package par then runs its forks as plain calls, which makes a
// fork at every level of a recursion cost about a plain call below its first
// few levels. A pool also counts the calls in progress (seats, and callers
// that Arrive before they take one) against the processors, and learns from
// its participants' yields of the processor whether goroutines outside its
// calls want them too (contend.go), and measures its wake-ups (sleep.go):
// the signals by which split's planner hands no work to a searching worker
// that no processor is free to run, and weighs a hand-over against a
// wake-up (Pool.Load, split.Load). The fork protocol is in join.go, the
// records in records.go, a scope's tasks and latch in scope.go, searching,
// parking and waking in worker.go and sleep.go, the statistics in stats.go.
//
// Every function says who may call it: "owner only" means the goroutine that
// currently holds the worker (the pool's goroutine for a worker, the caller of
// Run for a seat); "any goroutine" means what it says.
package sched
