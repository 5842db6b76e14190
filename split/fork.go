package split

import "time"

// The forks of a recursion (par.Join2): the planner's one rule for them.
//
// A fork of a recursion runs its two halves as plain calls, unless its
// participant's gate is open; then it asks Fork what to do, passing what the
// scheduler reports. Heartbeat scheduling (Acar, Charguéraud and Rainey,
// PLDI 2018) is the model: a fork is a call until someone wants work, and
// then the oldest fork still pending, the one with the most work left, is
// made stealable. Go cannot record every fork as cheaply as a call, so a
// recursion records only its first RecordDepth levels (the forks a thief
// most wants: halves of the whole, of the halves, ...), privately, and
// promotes the oldest of them that is still pending when asked. A
// participant is asked by a hungry one (a searching worker, a caller waiting
// for a stolen half), and, on behalf of parked workers, by its pool's
// heartbeat; it promotes only once Period has passed since its recursion
// began or it last promoted, so that promotions cost at most a 1/PeriodCosts
// share of the work, and a call shorter than the pool's wake-up (or
// PrefixBudget) never leaves its caller. Since nobody asks a recursion of
// the participant's own call before a period has passed, a record whose
// fork ends sooner is never promoted: until its first promotion, such a
// recursion records only its first path (Looks).

// RecordDepth is how many levels of a recursion record their forks: a
// thief's first take is half the recursion, and RecordDepth promotions in a
// row reach a sixteenth. A thief that takes a record runs it as a recursion
// of its own, recording its first levels in turn, so the records of a pool
// follow the work wherever it goes. It is also how many pushed forks wait
// unstolen before a participant's next ones are plain calls (Crowded): a
// participant holds about RecordDepth forks of a recursion for thieves.
const RecordDepth = 4

// PeriodCosts is how many times its own cost Period leaves between two
// promotions on one participant: at most about 1/PeriodCosts of the work goes
// to promoting.
const PeriodCosts = 20

// Period returns the time between two promotions on one participant, from
// cost, what a promotion costs its promoter on this pool as the pool
// measured it (the push, and the wake-up of a parked worker when it needs
// one; 0 before the first), and wake, how long the pool's workers take from
// a wake-up to the work it was for (Load.Wake; 0: not measured). It is
// never under the wake-up, within MinStep and PrefixBudget (PrefixBudget
// while unmeasured): a worker that a promotion wakes takes the record a
// wake-up later, so a participant that promoted sooner would only hand
// out the next record before anyone can take the last, and a recursion
// that takes less than PrefixBudget, or on a pool that wakes faster, less
// than its wake-up, runs on its caller alone, where a handoff and the wait
// for its return would cost more than they gain (a tree sum of 1,023 nodes
// takes 2.6 µs; go test ./par -run '^$' -bench TreeSum/nodes=1023). On a
// VM whose wake-up is 47-105 µs that is PrefixBudget, 20 µs; on the
// simulator's bare metal (a wake-up of 4 µs) it is 4 µs, where W4 at 64
// participants, at a call of fib of 1.2 ns, runs at 0.80 of T1/P over five
// seeds (go test ./internal/sim -run FibAtScale -v; bench/RESULTS.md gives
// the 20 µs floor's figure). Nor is it over the linger of the pool's workers
// (Linger), the longest a hungry worker asks before it parks: past it the
// searchers that asked are parked, and each promotion pays a wake-up, which
// the cost the period follows then counts. Unbounded, the period followed
// the cost's spikes, and W4 ran at 0.87-0.90 of the speed at GOMAXPROCS 2
// and 8, alone and beside a busy process (go run ./bench -w W4,W14 -c none
// -scaling=false -sweep=false -reps 3, 17-20 alternated rounds).
func Period(cost, wake time.Duration) time.Duration {
	floor := PrefixBudget
	if wake > 0 {
		floor = min(max(wake, MinStep), PrefixBudget)
	}
	return min(max(PeriodCosts*cost, floor), Linger(wake))
}

// ForkPlan is what a fork does (Fork).
type ForkPlan struct {
	// Record makes this fork's second half a private record, which a later
	// promotion may hand to a thief; else the fork makes plain calls.
	Record bool
	// Promote pushes the oldest pending record, this fork's if it is the only
	// one, for thieves to take.
	Promote bool
	// Look is whether the participant's next fork asks again unasked: while
	// its recursion has fewer than RecordDepth records.
	Look bool
}

// Fork is the rule of a fork that found its gate open. depth is the number of
// records on the participant's stack (in either half of their fork) made
// since its recursion began or it last promoted, pending those whose first
// half still runs and that no promotion pushed, asked whether a hungry
// participant or the heartbeat asked for work, age the time since the
// participant's recursion began or last promoted, and period what Period
// returns, and procs the processors of the pool. A fork records within the
// first RecordDepth levels; asked once period has passed, it promotes the
// oldest pending record, and records itself to be promoted if none is
// pending. On one processor nothing is promoted, so nothing is recorded
// either: a thief could only run in the forker's place, and its wake-up and
// the join cost time.
func Fork(depth, pending int, asked bool, age, period time.Duration, procs int) ForkPlan {
	if procs < 2 {
		return ForkPlan{}
	}
	promote := asked && age >= period && procs > 1
	record := depth < RecordDepth || (promote && pending == 0)
	d := depth
	if record {
		d++
	}
	return ForkPlan{Record: record, Promote: promote, Look: d < RecordDepth}
}

// Looks reports whether a participant with depth records looks at its next
// fork unasked after a recorded fork ends: Fork's Look, unless the
// recursion is young, its participant's own and not yet promoted. A young
// recursion records its first path, the first fork of each of its first
// RecordDepth levels, and no fork after one of them has ended, until an
// ask: nobody asks it sooner than a period after it began, and its first
// promotion takes its oldest pending record, the first fork's second
// half while the first half runs, as when every fork of those levels
// records. So a call of a few microseconds makes RecordDepth records, not
// 2^RecordDepth-1: the tree sum of 1,023 nodes in Worker.Forks' form took
// 1.12 times the plain recursion at GOMAXPROCS 2 and 1.15 at 8, against
// 1.32 and 1.28 with all 15 (go test ./par -run '^$' -bench
// 'TreeSum/nodes=1023', a process per GOMAXPROCS, 5 alternated rounds).
// Where a recursion's first half ends within a period and its second runs
// long, its first promotion hands out the fork it is at, as a recursion
// with no record pending does.
func Looks(depth int, young bool) bool { return depth < RecordDepth && !young }

// A thief's recursion. A piece a participant takes from another (a stolen
// record, an injected task) runs as a recursion of its own, wherever it runs
// (in a worker's loop, or in a wait for a stolen half): its forks' depth
// counts from the piece, so that it records the halves of what it took, the
// largest forks it has, and not whatever levels the recursion it waits in
// had left. Its depth also counts from its last promotion, so that once its
// records are handed away it records the halves of where it is now, not
// the next fork it meets, deep in the tree and tiny. On 64 simulated
// participants with bare metal's costs, W4 (fib(32)) ran at 0.26 of T1/P
// with the depth counted from the recursion's first fork, 0.39 with a
// taken piece's own levels, 0.53 with both (go test ./internal/sim -run
// FibAtScale -v, five seeds).

// StartAge returns the age a recursion begins with, for Fork's age: 0 on the
// participant whose call it is, so that a call shorter than a period never
// leaves its caller, and period in a piece the participant took from
// another, which has left its caller already and is among the largest
// pieces left: it promotes at its first ask (W4 at 64 participants, as
// above, from 0.53 to 0.65).
func StartAge(took bool, period time.Duration) time.Duration {
	if took {
		return period
	}
	return 0
}

// Spreads reports whether a fork that looks promotes unasked and whatever its
// age: in a piece its participant took from another, while parked workers of
// the pool (parked) wait for processors of their own (the pool's procs no
// more than the machine's cpus). Each promotion's push wakes one of them,
// which takes it and does the same, so that a recursion reaches a parked pool
// in a few wake-ups rather than a period per doubling (heartbeat scheduling's
// ramp); a push that finds enough searchers wakes nobody, the next does, and
// spreading ends when none is parked (W4 at 64 participants, as above, from
// 0.65 to 0.81; all 64 at work 40 µs after the call's start, against 199 µs
// under the rules before). Where the pool has more processors than the
// machine has CPUs, a woken worker only shares a CPU with one already
// running, and the wake-ups cost: W4 at GOMAXPROCS 8 on this repository's
// 2-CPU machine took 1.15 times as long with spreading as without (go run
// ./bench -w W4 -full, the median of 8 rounds of alternated binaries that
// differ in this function alone).
func Spreads(took bool, parked, procs, cpus int) bool {
	return took && parked > 0 && procs <= cpus
}
