// Package split decides how a parallel call cuts its range into pieces and
// how long each piece runs before it looks up. It knows nothing of the
// scheduler: the engine (internal/engine) drives a call and asks split at each turn,
// passing what it measured (elements done and the time they took, read from
// a clock the engine owns, so that tests drive the same rules on a fake one).
//
// A call over a range of n elements goes through three stages.
//
// # The timed prefix (Prefix)
//
// The caller first works alone on chunks of 1, 8, 64, ... elements
// (PrefixGrowth-fold growth while young, then doubling, and never more than
// what is left of the budget at the last chunk's pace), reading the clock
// once a chunk. A call that ends within PrefixBudget (20 µs) never touches
// the pool, unless it is warm (below), and costs what the plain loop costs:
// the wake-up of a parked worker costs tens of microseconds, so parallelism
// cannot pay below that.
// The prefix hands the rest to the pool as soon as it has timed an eighth of
// its budget and the rest promises LongCall (80 µs) or more at its pace: the
// pool's help is then sure to pay, and every microsecond alone delays the
// second core. A warm prefix (Prefix.Warm: a worker of the pool is searching
// as the call begins, and takes a fork with no wake-up) hands over a rest of
// twice WarmLook (10 µs) as soon as a chunk of an eighth of it has timed the
// pace. A prefix that ends while its call's pool has no processor to spare
// can go on alone instead (Prefix.Stay), a chunk of PrefixBudget's worth at
// a time, and so can one whose rest is no longer than PrefixBudget while
// every processor has a call (Prefix.ShortRest). Its pace also bounds the leaves (below).
//
// # Cutting (Splitter)
//
// The rest is cut in halves while a budget of splits remains (Rayon's
// thief-splitting): the budget starts at the number of participants, the
// goroutines that may run pieces at once, and halves with each cut, so an
// undisturbed call makes about two pieces per participant and costs little
// more than a loop. A piece that is stolen has its budget refilled: a thief
// is evidence of an idle participant, so stolen pieces keep splitting while
// demand lasts. A call over a slice or a range counts the pool's workers and
// its caller, which works on its own call; a batch of a sequence counts the
// workers alone, since the caller goes on pulling the sequence (ForRange).
// No piece is cut below the minimum length (WithMinLen), and a long call's
// pieces are cut down to LeafTarget (50 µs) at the prefix's pace, but to no
// fewer elements than make MaxLeavesPerWorker leaves per participant: two
// pieces per participant leave a call at the mercy of a core that turns slow
// in the middle of one (another process, a busy sibling hyperthread, a
// descheduled virtual CPU), while a fork per 50 µs costs about 0.1% (go test
// -bench JoinEmpty ./par). Nor is a piece cut, however often it is stolen,
// into halves of less than MinPiece (1 µs) at the prefix's pace: a fork, its
// steal and its join cost about half that. A stream of calls of W1's body
// over 30,000 elements on a pool whose worker was always searching made 19-20
// forks a call, of pieces down to a few hundred nanoseconds, and took 16.4
// µs a call; with the floor, 4.8 forks and 9.9 µs, some 0.45 µs for each
// fork saved (go test ./par -run '^$' -bench ForksShortCall, before and after
// it). A fixed grain (Fixed) cuts every piece longer than the grain and no
// other, whatever the demand.
//
// # Running leaves (Splitter.FirstStep, Splitter.NextStep, Splitter.TailStep)
//
// A piece the splitter will not cut is a leaf, and an adaptive leaf runs in
// steps; between two steps it looks once whether another participant is
// hungry, and if so gives away half of what it has left (lazy binary
// splitting: Tzannes, Caragea, Barua and Vishkin, PPoPP 2010), if that half
// holds MinPiece at the pace of the step just run (WorthHalving): the pace
// of the leaf's own elements, not the prefix's, which cost that climbs along
// the range leaves far behind. Pieces cut
// before the costly end of a range was reached were sized by its cheap
// start; without this, the last of them ran to its end on one participant
// while the others waited. A leaf that begins where the step before it on
// the same goroutine ended, in the same range (the right half of a cut whose
// left half ran there), takes StepTarget (100 µs) at that step's pace, or all
// of itself; any other leaf runs a blind LeafSteps-th (1/256) of itself
// first, since a leaf sized by a cheap start can cost far more than planned.
// Each later step takes all the rest if that should fit StepTarget at the
// pace of the step before, else about StepTarget's worth, and grows at most
// StepGrowth-fold. StepTarget is long enough that what a leaf pays at each
// step (a pipe's buffers, a map, an init) is paid rarely, and short enough
// that a hungry participant waits at most about that long for its half. But
// a participant whose deque holds no job of its own has nothing left for a
// thief but what its leaf gives away, and at the end of a call the others
// run out one after the other: while none is hungry yet, such a leaf takes
// at most half of what it has left in a step, and no less than TailTarget's
// worth (TailStep), so that it looks again at a sixteenth of StepTarget at
// the end. No step leaves a rest shorter than the minimum length. A leaf of
// a fixed tree (deterministic sums) walks its canonical tree instead, in
// about TreeSteps nodes (tree.go).
//
// # A call over 10M cheap elements
//
// W1 of `go run ./bench`: x*x summed over 10M elements on 2 cores, a pool of
// one worker plus the caller. Just after a collection the prefix runs at
// about 1 ns an element: chunks of 1, 8, 64, 512 and 4,096 elements, 4.7 µs
// in all; it has then timed more than an eighth of its budget and the rest
// promises 10 ms, so it ends at 4,681 elements. LeafTarget at that pace is
// 50,000 elements, above the floor of 10M/(2*128) = 39,062, so the rest is
// cut in halves down to 256 leaves of 39,044 elements. A leaf that continues
// where its left sibling ran on the same goroutine takes StepTarget's worth
// at that sibling's pace, which is all of it, in one step; any other leaf
// runs a blind step of 152 elements (1/256), then 2,432 (sixteen times as
// many), then the rest. Warm, the elements take about a third of a
// nanosecond, so a leaf takes about 13 µs. A piece that a thief takes has its
// budget refilled and is cut into four. Example
// (example_test.go) computes these figures from this package alone, on a
// fake clock.
//
// # Streams
//
// StreamLen is the length below which a call that streams through memory (a
// sum, a count) runs on the caller alone: half a core's level-2 cache, a pass
// of a few microseconds, the order of a wake-up.
package split
