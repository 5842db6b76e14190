package split

import "time"

// Searching and waking: what a participant that has run out of work does
// before it parks, when a push wakes a parked one, and when a fork stays a
// plain call because enough forks wait to be stolen. The scheduler
// (internal/sched) counts rounds, searchers and queued jobs, and asks.

// SearchRounds is how many fruitless rounds over every victim a participant
// makes before it parks: a few microseconds, long enough to catch the next
// cut of a busy call. A pool worker also goes on until Linger has passed.
const SearchRounds = 32

// LookEvery is how many tries a participant out of work makes between two
// looks away from the deques: a searching pool worker yields its processor
// (and asks for work) every LookEvery fruitless rounds, spinning a little
// between the others (Yields), and a participant waiting for a stolen half
// looks at its latch every LookEvery victims of a round of stealing,
// besides its look after each round (LooksAtLatch).
//
// Every yield (runtime.Gosched) takes the Go scheduler's global lock, which
// runtime.GOMAXPROCS(0), read by every call on the default pool, takes too:
// the read costs less than half as much during a search that yields every
// eighth round as during one that yields every round
// (go test ./par -run '^$' -bench 'LookupWhileSearching|SmallCallW2').
// On a pool of many workers a round is long, 63 tries on 64 cores, and at a
// call's end the joins of stolen pieces come one after another up the tree
// of steals, each seen by its waiting owner half a round late on average:
// on 64 simulated participants with bare metal's costs, W1 from 0.89 to
// 0.93 of T1/P with a look every 8 victims, its idle time after the last
// fold from 14 to 3 µs a participant, about what a look before every victim
// gives (go test ./internal/sim -run LatchAtScale -v). On pools of 9 or
// fewer a round is short and the look never comes before the round's end.
const LookEvery = 8

// LooksAtLatch reports whether a waiting participant looks at its latch
// before the victim it tries i-th in a round (from 0), on a pool of procs
// processors on a machine of cpus. Not where processors outnumber CPUs: a
// waiter that runs holds one of too few CPUs, and the job it would take
// next waits for a searcher that must first get one (on this repository's
// 2 CPUs beside a busy process, W3 took 1.09-1.16 times as long at
// GOMAXPROCS 8 with a look before every victim, in three sets of rounds,
// and 1.05 and 1.09 at 32 with a look every 8, in two; alone, level).
func LooksAtLatch(i, procs, cpus int) bool { return i%LookEvery == 0 && i > 0 && procs <= cpus }

// Linger returns how long a pool worker that runs out of work keeps
// searching before it parks, counted from its last task or its wake-up, on
// a pool whose workers take wake from a wake-up to its work (Load.Wake; 0:
// not measured): twice longCall of the pool's budget (Budget), eight
// budgets, so that the next call of a stream, which runs alone on its
// prefix at most that long before it hands its rest over, finds a thief
// already running even after a gap as long between the calls, where a
// wake-up takes tens of microseconds (go test ./internal/sched -run '^$'
// -bench Wake), longer than a call of that size lasts: calls of 20 µs to 2
// ms back to back show it (W11 of go run ./bench; without a linger, W2's
// body at 700 to 3,000 elements from one caller ran at 0.68-0.85 of the
// speed at GOMAXPROCS 2). Longer than a running leaf's step of most calls
// (a Steps-th of a participant's share: 78 µs of a 10 ms call on two), so
// that a worker that runs out in the middle of a call is still searching
// when a leaf of the call next looks for a hungry participant. It is also
// the most CPU the end of a stream costs a worker. Where a wake-up takes 5
// µs or more, 160 µs; on the simulator's bare metal (4 µs), 128 µs.
func Linger(wake time.Duration) time.Duration { return 2 * longCall(Budget(wake)) }

// Searches reports whether a searching pool worker that has made round
// fruitless rounds, the last of them searched after its last task or
// wake-up, goes on searching, on a pool whose wake-up is wake: for
// SearchRounds rounds, and until Linger(wake) has passed unless its pool is
// closing.
func Searches(round int, searched, wake time.Duration, closing bool) bool {
	return round < SearchRounds || searched < Linger(wake) && !closing
}

// Yields reports whether a searching pool worker yields its processor after
// fruitless round number round (else it spins a little).
func Yields(round int) bool { return round%LookEvery == 0 }

// Wakes reports whether a push wakes a parked worker, while searching pool
// workers search and queued jobs wait to be taken (counted only while some
// search): when none search, or, for a job of a call whose rest is long
// (Prefix.Long: most jobs), fewer than the jobs waiting. Each worker so
// woken steals one job, cuts it and pushes its halves, whose pushes wake
// others in turn, so that a parked pool comes up in about log2(P) wake-up
// times rather than one after another (W2 at 2M elements on 64 simulated
// participants, on this machine's costs, reached all of them in 3.22 ms
// with a wake-up only while none searched, and in 176 µs with a wake per
// job; go run ./bench -sim). Rayon wakes as many sleepers as new jobs less
// idle threads the same way. A call whose prefix handed over a shorter
// rest is done, by its caller and the workers that search, before most
// workers woken for it would run, and each wake-up costs its waker the
// unpark (15.6-16.7 µs on this VM: go run ./bench -sim prints it): the
// pieces it cuts wake a worker only while none searches, which keeps one
// searching for the next call of a stream. On this machine's costs, 16
// simulated participants running W2's body over 1,500 elements back to
// back woke 4 workers a call and ran at 1.17 of the loop's speed with a
// wake per job, and 1 and 1.64 so (go test ./internal/sim -run
// ShortRestWakesOne; bench/RESULTS.md, "A short rest wakes one").
func Wakes(searching, queued int, long bool) bool {
	return searching == 0 || long && queued > searching
}

// Crowded reports whether a participant whose deque holds queued jobs that
// no thief has taken runs its next fork as plain calls: once RecordDepth
// wait, as a recursion's forks past its first RecordDepth levels are plain
// calls until asked (Fork), so that a participant holds about RecordDepth
// forks of a recursion for thieves, pushed or recorded. Thieves take the
// oldest job, which in a divide-and-conquer recursion is the largest piece
// left, so while RecordDepth wait, a job pushed now would wait behind them
// and most likely be popped back by its own fork: the record, the push and
// the pop (a fence) would be spent for nothing. This is the max-tasks
// cut-off of task runtimes (Duran, Corbalán and Ayguadé, SC 2008), kept per
// participant. The fewer wait, the cheaper a fork at every level (go test
// ./par -run '^$' -bench 'Fib/|Split'); a thief must still find some. A
// range's cuts are not a recursion's forks and always push: some 64 a
// participant, each before a leaf of a step or more, they cost nothing worth
// sparing, and a half run inline waits on its cutter's stack, out of the
// thieves' reach, for as long as the cutter waits for a stolen piece below
// it (W1 over 50M elements on 64 simulated participants with bare metal's
// costs: 0.80 of T1/P with range cuts crowded, 0.89 without; go test
// ./internal/sim -run StepsAtScale -v).
func Crowded(queued int) bool { return queued >= RecordDepth }
