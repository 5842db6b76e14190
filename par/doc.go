// Package par turns a sequential loop over a slice, a range or an iter.Seq
// into a parallel one with one call, on a work-stealing pool.
//
// A call such as Map(xs, f) describes a range of work that can be cut in two.
// The goroutine that makes the call works on the range itself: it first runs
// a short prefix alone, and if the work is not done within about 20 µs it
// cuts the rest in halves, pushes one half on its own deque and works on the
// other. Idle workers steal the oldest, largest halves. A half that is stolen
// keeps cutting itself while there are idle workers to feed (thief-splitting,
// see package split), so a balanced loop is cut into a few pieces per worker
// and an unbalanced one into as many as it takes to keep every core busy. The
// calling goroutine works on its call until the call is done: while it waits
// for a stolen half, it steals and runs other tasks of its own call, never a
// piece of another goroutine's call, however long, so small calls beside a
// large one take about their own time. The pool's workers run any task.
//
// # Ordering
//
// Results keep the order of the input: Map, Filter and the Seq functions
// yield in input order, Find and FindIndex return the first match in order,
// MinFunc and MaxFunc the first of equals, and Reduce combines neighbours
// left to right, so its op needs to be associative but not commutative.
// FindLast and FindLastIndex return the last match in order, Positions the
// indices of every match in increasing order; Partition keeps the order of s
// in both of its results, FilterIndex in its one. FindAny and FindAnyIndex
// return whichever match a piece finds first, which depends on timing.
// Product, like Sum, gives bit-identical float results on every run and
// worker count. CountBy and GroupBy give the same result on every run; within
// a group GroupBy keeps the order of s. Fold, FoldRange and ReduceBy merge
// their accumulators left to right, so their merge and op need to be
// associative but not commutative. Scan, its exclusive and in-place
// forms, and PrefixSum give bit-identical float results on every run and
// worker count: the additions are grouped by blocks fixed by len(s).
// Writes made by the functions a call runs happen before the call returns.
// Which goroutine runs which element, and in which order the elements are
// visited, is not specified.
//
// # Panics
//
// A panic in a function passed to a call reaches the caller of the call with
// its original value, after every task of the call that had started has
// finished; tasks not yet started are skipped. The pool stays usable.
// recover() in the caller gets exactly the value that was panicked.
//
// A panic that nothing recovers crashes the program, and the crash output
// names the function and the file:line that panicked, whichever goroutine it
// ran on. A panic that began on another goroutine, or that a call held while
// its other tasks finished (Scope), is raised again in two steps: a first
// panic whose message is the stack of the goroutine where the panic began,
// recovered at once, then the original value. The runtime prints both:
//
//	panic: weft: the panic raised again below began here:
//
//		goroutine 23 [running]:
//		panic({0x4c7ca0?, 0x5e5550?})
//			/usr/local/go/src/runtime/panic.go:860 +0x13a
//		main.work(...)
//			/home/me/app/main.go:8
//		...
//	 [recovered]
//		panic: assignment to entry in nil map
//
//	goroutine 1 [running]:
//	...
//
// A panic in a part of the call that runs on the caller's own goroutine
// unwinds as it would in the loop, and the crash shows its frames directly.
//
// Functions that write into memory the caller owns say in their doc what it
// holds after a panic: the sorts leave s a permutation of its elements, and
// ScanInPlace and ScanExclusiveInPlace leave each element its original or its
// scanned value.
//
// A bad argument panics at once, whatever the length of the input, with a
// message that names the function and the parameter: a nil function, a
// negative length, a zero Option ("par: Map: opts[1] is a zero Option: ..."),
// or OnPool of a pool after its Close, whose panic value is an error that
// wraps ErrClosed ("par: Sum: OnPool in opts[0]: weft: pool used after
// Close").
//
// When a function calls runtime.Goexit, the goroutine that made the call
// exits too, once the call's tasks have finished. Goexit cannot be stopped
// where it happens, and a worker that waits for a stolen task runs other
// tasks meanwhile, possibly of another call; if one of those calls Goexit,
// the call of the task the worker was running ends by Goexit as well. So do not call
// testing.T.FailNow (or testify's require) inside functions that par runs;
// its documentation already asks for the test's own goroutine.
//
// # Grain
//
// No call needs tuning. Splitting follows demand, down to single elements when
// the elements are few and costly; the timed prefix keeps calls on small or
// cheap inputs off the pool, where they cost about what the plain loop costs.
// The prefix also gives the pace of the elements, and no piece of a longer
// call is left longer than about 50 µs at that pace (nor cut into more than
// 128 pieces per participant by it), so that a core that slows down in the
// middle of a piece holds up the end of the call by little.
// The prefix's chunks grow only as far as the pace of the last one says the
// budget allows, so a range whose cost climbs does not keep the caller alone
// for long, and the prefix ends as soon as it has timed a few microseconds of
// work that show the rest of the call to take 80 µs or more, so that the
// pool's parked workers are woken early; when a worker of the pool is still
// searching as the call begins (workers search for 200 µs after their last
// task, so calls in a stream find one), a rest of 10 µs is enough, unless
// the calls in progress on the pool are as many as the processors
// (GOMAXPROCS), which leaves the searcher none to run on; then a rest of
// 20 µs or less runs alone, and while they are more, or while goroutines
// outside the pool's calls wait for the processors (handlers between two
// calls: the pool's workers find their yields held up by them), a call hands
// nothing over and runs alone, looking again after 20 µs, then twice as long
// each time up to 80 µs, whether a processor has come free. The
// prefix's first chunk is sized by the pace that the last call made with the
// same function measured (a small table keyed by the function's code), about
// 5 µs' worth, or the whole call if that pace says it takes 10.8 µs or less
// (split.ShortCall, too short to hand a rest over from), so that a short
// call runs as one chunk, and reads the clock twice in one call of eight,
// drawn at random (the others run untimed); a
// pace that changed more than twofold is trusted again only once a call
// confirms it (unless a call that ended short at both paces measured it),
// and one more than twice dearer counts only once two calls in a row
// measured it, since a call that the collector or the operating system
// stopped measures the same; a call whose elements became dearer than that
// pace says runs at most 10.8 µs of work at the old pace alone before its
// prefix sees the change (elements a thousand times dearer: about 11 ms),
// and untimed calls as long, some sixteen of them, before two that time
// themselves do. A piece
// that has started still answers demand: it runs in steps (the first about 100 µs' worth, or all of
// it, at the pace of the step before it on its goroutine when that step ended
// where the piece begins, as it does for the second half of a cut, else a
// small part of it; then all the rest if that should take no longer than
// about 100 µs at the pace seen so far, else about 100 µs' worth, by the
// clock), and between two steps it looks once (two atomic loads)
// whether another participant of the pool has nothing to do; if one has, and
// no job of its own waits unstolen, it forks the second half of what it has
// left (lazy binary splitting). So the last pieces of a range whose cost
// climbs toward its end, sized by the cheap start, are shared while they run
// instead of holding the call's end on one core. Calls whose result must not
// depend on timing (Sum of floats) give away only nodes of their fixed tree.
//
// Like a loop on goroutines, the participants of a call do not enter the Go
// scheduler while it has work: the program's other goroutines, and the
// garbage collector's mark workers (with GOMAXPROCS up to 3, only fractional
// ones, which run when a processor schedules), get a processor at the
// runtime's preemption, every 10 ms. A yield once a millisecond is not made:
// it lets in the runtime's memory scavenger as readily as the collector, and
// on W2 with every competitor in the process it cost more than it gained.
//
// WithGrain fixes the piece size for a call and WithMinLen bounds it from
// below, for the rare loop whose elements are so cheap and numerous that the
// adaptive pieces are too small, or so uneven that they are too large.
//
// # Cost
//
// A fork on the library's own split of a range, and Join2 with top-level
// functions, allocate nothing: task records are reused from a per-worker
// cache. Map allocates its result, and a call that forks a few small
// records; one that runs alone as one fold, as most calls of a few
// microseconds do, allocates nothing else, and neither do For, ForEach,
// MapReduce, Reduce, Count, ForRange and ReduceRange. Calls
// run from any goroutine, including from inside another call's function:
// each top-level call borrows a worker handle (a seat) for its length,
// which costs a lock and a few atomic operations. See the benchmarks in this
// package and `go run ./bench` for measured figures.
//
// MapInit, ForEachInit and ForRangeInit call init at most once per piece,
// and in practice about once per goroutine working on the call
// (TestInitCountSmall bounds it by the pool's workers plus the caller).
// Fold, FoldRange and ReduceBy begin an accumulator (a call of init, a map)
// per run of adjacent pieces: at the first piece, and where a stolen piece
// starts before the piece on its left is done, so at most the call's steals
// plus one, a few per participant however long the call runs
// (TestFoldAccumulatorsPerParticipant).
//
// A call costs about 30 ns more than the plain loop when it ends within its
// timed prefix (BenchmarkSmallCall, ForRange over one element), and about
// 75 ns over 100 elements, a call its pace plans as one chunk: the call's
// record stays on the caller's stack unless the call forks, and For, Map,
// ForEach, MapReduce, Reduce and Count build the closure they wrap f in only
// for a call that does not run as one chunk, timed or not. A call of more
// elements
// also reads the clock, once its function's pace is known twice in one call
// of eight (about 35 ns a read: BenchmarkClock), and
// Map, like every function that takes f,
// calls f through a function value, which the compiler cannot inline: on a
// body as cheap as x*2 that is about 1 ns per element (BenchmarkSmallMap: the
// loop calling x*2 through a function value takes 1.4 to 1.5 times the
// inlined loop, and Map 1.6). For such bodies, ForRange with the loop written
// in its body keeps the body inlined (1.2 to 1.3 times the loop on 1,000
// ints).
//
// # Tracing
//
// While an execution trace is being recorded (runtime/trace, go test -trace),
// every call that reaches its range is a trace task named after its function
// ("par.Map", "par.Sum", ...) and each leaf, the piece of the range one
// goroutine runs at once, a region named "leaf", so that `go tool trace` shows
// what each call did on which goroutine. When no trace is recorded the hooks
// cost one atomic load per call (BenchmarkTraceOff).
//
// # Design notes
//
// Go has no goroutine-local storage, so a call cannot find out whether it runs
// on a worker. Rather than keep a map from goroutine to worker (the goroutine
// identity is not exposed, and reading it from runtime.Stack costs
// microseconds), every top-level call brings its own participant: the calling
// goroutine borrows a seat, with a deque that the pool's workers steal from,
// and works on its own call. A nested call from inside a task does the same,
// so nested and concurrent calls never deadlock and never leave a core idle
// while the call waits. Code that recurses in parallel gets the handle
// explicitly instead (Do, Worker.Join, Join2), which makes each fork a push
// and a pop on the worker's own deque, or two plain calls while the deque
// already holds enough forks for the thieves.
//
// Go methods cannot have type parameters, so everything generic is a free
// function (Map, Join2), and the handle's methods are limited to what needs no
// type parameter (Worker.Join).
//
// # Many callers
//
// A process that already runs many goroutines, such as an Apache Beam worker
// running bundles side by side, shares one default pool among all the calls
// they make: each call's goroutine works on its own call, so no call waits for
// a free worker, and the pool's workers take pieces of whichever calls have
// some to spare. When the callers already keep every core busy, the calls
// together take about what their loops would, and weft only evens out the
// end; DefaultStats shows how much the workers took from the callers and how
// busy they were (go run ./examples/beam -callers 4).
package par
