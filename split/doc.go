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
// its budget and the rest promises twice the wake-up its pool measures or
// more at its pace (LongRest, told by Prefix.Meet: from twice WarmLook, 10
// µs, to LongCall, 80 µs, which a VM's wake-up of 50-100 µs gives): the
// pool's help is then sure to pay, and every microsecond alone delays the
// second core. A warm prefix (Prefix.Warm: a worker of the pool is searching
// as the call begins, and takes a fork with no wake-up) hands over a rest of
// twice WarmLook (10 µs) as soon as a chunk of an eighth of it has timed the
// pace. A prefix that ends while its call's pool has no processor to spare
// can go on alone instead (Prefix.Stay), a chunk of PrefixBudget's worth at
// a time, and so can one whose rest is no longer than PrefixBudget while
// every processor has a call (Prefix.ShortRest). Its pace also bounds the leaves (below).
//
// # Cutting (Splitter, StepOf)
//
// How long a piece is, and how long a running leaf goes before it looks
// up, is one length: the step, a Steps-th (1/64) of the elements that the
// call gives each participant, n/(participants*64) (StepOf). A call over a
// slice or a range counts the pool's workers and its caller, which works
// on its own call; a batch of a sequence counts the workers alone, since
// the caller goes on pulling the sequence (ForRange). The rest is cut in
// halves: a piece that holds two steps or more is cut, whatever the
// demand, and one that holds less is not, however often it is stolen. So a
// call makes about 64 leaves per participant, whatever its length and the
// participants, and a thief on 64 cores takes a piece worth a 64th of its
// share, where halving stolen pieces down to MinPiece made thieves cut what
// they took into crumbs and hunt for the next one. A running leaf's step
// is the same length, so a hungry participant waits about a 64th of its
// share for its half, on 2 cores or on 64. The step is counted in
// elements, not time, so that it needs no pace: a prefix that timed a cheap
// start (W3) cannot make it short.
//
// Only where a step would hold less than MinStep (4 µs) at the pace
// measured, in a short call, does time bound it: leaves hold up to
// MinStep's worth at the prefix's pace, and below that a budget of cuts
// decides (Rayon's thief-splitting): it starts at the number of
// participants and halves with each cut, so an undisturbed short call makes
// about two pieces per participant and costs little more than a loop, and
// a stolen piece has its budget refilled, since a thief is evidence of an
// idle participant. Nor is a piece cut, however often it is stolen, into
// halves of less than MinPiece at the prefix's pace, a sixteenth of the
// budget (1.25 µs here, 1 µs where the pool wakes in 4 µs): a fork, its
// steal and its join cost about half that here. A stream of calls of W1's
// body over 30,000 elements on a pool whose worker was always searching
// made 19-20 forks a call, of pieces down to a few hundred nanoseconds, and
// took 16.4 µs a call; with a floor of 1 µs, 4.8 forks and 9.9 µs, some
// 0.45 µs for each fork saved (go test ./par -run '^$' -bench
// ForksShortCall, before and after it). No piece is cut below the minimum
// length (WithMinLen). A fixed grain (Fixed) cuts every piece longer than
// the grain and no other, whatever the demand.
//
// # Running leaves (Splitter.FirstStep, Splitter.NextStep)
//
// A piece the splitter will not cut is a leaf, and an adaptive leaf runs in
// steps; between two steps it looks once whether another participant is
// hungry, and if so gives away half of what it has left (lazy binary
// splitting: Tzannes, Caragea, Barua and Vishkin, PPoPP 2010), if that half
// holds MinPiece of the pool's wake-up at the pace of the step just run
// (WorthHalving): the pace of the leaf's own elements, not the prefix's,
// which cost that climbs along the range leaves far behind. Each step holds
// the call's step, and at least MinStep at the pace of the step before where
// the clock timed one: the leaf's first step if it continues a step of the
// same range on the same goroutine, and every later one. A step costs a clock read and a
// look, and a call of the shape's fold (a pipe's stages run once per step),
// which MinStep keeps rare. A leaf holds less than two steps, so a
// participant that runs out at the end of a call waits at most about a step
// for its half. No step leaves a rest shorter than the minimum length. A leaf of a fixed tree (deterministic
// sums) walks its canonical tree instead, in nodes of about a step
// (tree.go).
//
// # A call over 10M cheap elements
//
// W1 of `go run ./bench`: x*x summed over 10M elements on 2 cores, a pool of
// one worker plus the caller. Just after a collection the prefix runs at
// about 1 ns an element: chunks of 1, 8, 64, 512 and 4,096 elements, 4.7 µs
// in all; it has then timed more than an eighth of its budget and the rest
// promises 10 ms, so it ends at 4,681 elements. The step is a 128th of the
// rest (two participants), 78,089 elements, so the rest is cut in halves
// down to 64 leaves of 156,176 or 156,177 elements, two steps each. Warm,
// the elements take about a third of a nanosecond, so a step takes about
// 26 µs. A piece that a thief takes is cut as any other, down to leaves of
// two steps.
//
// On 64 cores the prefix ends at the same element, since the rest promises
// far more than any pool's LongRest. The step, a 4,096th of the rest, 2,440
// elements, holds less than MinStep at the prefix's pace, 4,000 elements,
// which takes its place: the rest is cut down to 2,048 leaves of 4,880
// elements, 32 a participant, about 1.6 µs each warm, and cut further where
// thieves take pieces (the budget), not below MinPiece (1 µs of a pool
// that wakes in 4 µs). A leaf runs in one step: each holds at least
// MinStep at the pace of the one before. Example and Example_manyCores
// (example_test.go) compute these figures from this package alone, on a
// fake clock.
//
// # Streams
//
// StreamLen is the length below which a call that streams through memory (a
// sum, a count) runs on the caller alone: half a core's level-2 cache, a pass
// of a few microseconds, the order of a wake-up.
package split
