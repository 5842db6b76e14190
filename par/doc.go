// Package par turns a sequential loop over a slice, a range or an iter.Seq
// into a parallel one with one call, on a work-stealing pool. A call returns
// when its loop is done, with results in the order of the input, and writes
// made by the functions it ran happen before it returns. No call needs tuning.
//
// # What to call
//
//   - a new slice, one result per element: [Map], [MapIndex], [FlatMap], [Unzip]
//   - the elements that pass a test: [Filter], [FilterIndex], [Partition]
//   - a loop for its side effects: [ForEach], [ForEachIndex], [For]; [ForRange]
//     hands over whole pieces [lo, hi), for a body that loops itself
//   - a loop that can fail or be cancelled: [MapErr], [ForEachErr]
//   - a fold: [Reduce], [MapReduce], [ReduceRange]; into a map, a slice or a
//     struct: [Fold], [FoldRange]; per key: [ReduceBy], [CountBy], [GroupBy]
//   - a scratch value per goroutine (a buffer, a map to merge): [MapInit],
//     [ForEachInit], [ForRangeInit]
//   - a total, a count, a test: [Sum], [Product], [Count], [Any], [All], [Min],
//     [Max], [MinFunc], [MaxFunc]; a search: [Find], [FindIndex], [FindLast],
//     [FindLastIndex], [FindAny], [FindAnyIndex], [Positions]
//   - running totals: [Scan], [ScanExclusive], [ScanInPlace],
//     [ScanExclusiveInPlace], [PrefixSum], [PrefixSumInPlace]; a sort: [Sort],
//     [SortFunc], [SortStableFunc]
//   - an iter.Seq or an iter.Seq2: [MapSeq], [FilterSeq], [ForEachSeq],
//     [ReduceSeq], [SumSeq], [MapSeq2], [ForEachSeq2]
//   - two computations: [Join]; a recursion: [Do], then [Worker.Join] or [Join2];
//     one whose nodes cost a few nanoseconds: [Join2] when [Worker.Forks],
//     direct calls otherwise
//   - tasks found as you go: [Scope], or [ScopeErr] where they can fail
//   - work that waits (I/O): a pool of its own: [NewPool] with [Workers], then [OnPool]
//
// Package par/pipe fuses chains of stages (Map, then Filter, then Sum) into one
// pass, and cuts texts and files in parallel. Calls take options at the end
// ([OnPool], [WithGrain], [WithMinLen], [WithLabels]), rarely needed.
//
// # Concurrency and order
//
// The functions given to a call run concurrently with themselves on different
// elements, on the pool's workers and on the calling goroutine; which
// goroutine runs which element, and in which order, is not specified. Each
// function's doc says what else runs at once. Results keep the order of the
// input: Find returns the first match, Reduce and the folds combine
// neighbours left to right (op must be associative, not commutative); FindAny
// returns whichever match is found first. Sum, Product, the scans and
// PrefixSum give the same bits on every run and worker count, floats
// included; CountBy and GroupBy the same maps.
//
// # Panics
//
// A panic in a function given to a call reaches the caller with its original
// value, after every task of the call that had started has finished; tasks not
// yet started are skipped, and the pool stays usable. Uncaught, it crashes
// with the stack where it began: a panic from another goroutine is raised
// again after a first panic whose message is that stack. A bad argument (a nil
// function, a negative length, a zero Option, OnPool of a closed pool, an
// init that hands out one accumulator twice) panics at once with a message
// naming the function and the parameter. Do not call runtime.Goexit (nor
// t.FailNow or testify's require) in a function par runs: a worker waiting
// for a stolen task runs other tasks, whose Goexit ends its call too.
//
// # Cost
//
// A call on an input too small to share runs on the calling goroutine and
// costs about 30 ns more than the loop (BenchmarkSmallCall). For, ForEach,
// ForRange, Map (but its result), MapReduce, Reduce, Count and ReduceRange
// allocate nothing of their own when they run alone; a fork on the library's
// split of a range, and Join2 with top-level functions, allocate nothing. A
// fork that nobody wants costs Join2 a load and two calls through function
// values, and a recursion that tests Worker.Forks a load and two direct calls.
// Functions are called through a function value, which the compiler cannot
// inline: for a body as cheap as x*2, write the loop in a ForRange body. Any
// goroutine may call any function, nested calls included: the caller works on
// its own call, so nothing deadlocks. An idle pool uses no CPU. Under
// runtime/trace each call is a task named after it and each piece a region.
//
// # Design notes
//
// Go has no goroutine-local storage, so each top-level call brings its own
// participant (the caller borrows a seat with a deque) instead of looking up
// a worker by goroutine, and a recursion gets its handle explicitly ([Do],
// [Join2]); methods cannot have type parameters, so generic calls are free
// functions. How calls are cut, paced and scheduled is in [docs/DESIGN.md].
//
// [docs/DESIGN.md]: https://github.com/weftgo/weft/blob/main/docs/DESIGN.md
package par
