package sim

import "time"

// Machine is what the simulated machine charges for each thing the
// scheduler does. Calibrated figures come from a measurement on the machine
// where the simulator runs (go run ./bench -sim measures them); Bare stands
// for a server on bare metal.
type Machine struct {
	Name string
	// Wake is the time from the unpark of a parked goroutine to the moment
	// it runs: a futex wake-up, and on a virtual machine the wake-up of a
	// halted virtual processor.
	Wake time.Duration
	// Steal is the time from a searching worker's first look at a victim
	// that holds a job to the moment the job runs on the thief: the
	// compare-and-swap and the transfer of the job's cache lines.
	Steal time.Duration
	// Try is one fruitless look at a victim's deque.
	Try time.Duration
	// Yield is a searching worker's yield of its processor and thread,
	// made every few fruitless rounds (and after every round of a caller
	// waiting for a stolen half).
	Yield time.Duration
	// Fork is what a cut of a range costs its owner: the job's record, the
	// push, and the pop that takes it back, or the failed pop.
	Fork time.Duration
	// Clock is one read of the monotonic clock.
	Clock time.Duration
	// Call is the fixed cost of a call to the library beyond its loop (the
	// site's record, the pool's lookup), and Seat the cost of taking a seat
	// on the pool for a call that forks (the call's copy to the heap).
	Call, Seat time.Duration
	// Step is the cost of one fold of a step beyond its elements (a call
	// through a function value, the accumulator carried).
	Step time.Duration
	// Unpark is what waking a parked goroutine costs the goroutine that
	// wakes it: sched's unpark sends it a token and starts a goroutine
	// (nudge), and the runtime wakes a thread for an idle processor. sched
	// times a promotion with the unparks it makes (split.Period's cost).
	// go run ./bench -sim times the same send and go statement on the
	// waker, its receiver parked on its channel.
	Unpark time.Duration
}

// Bare is a server on bare metal: a wake-up of a few microseconds, steals
// and yields of a cache miss or a system call, and this machine's fork and
// clock (go run ./bench -sim prints the measured ones). Its unpark is not
// known, and is left at nothing: at 0.5 µs W1-W3 at 64 participants read
// 0.91, 0.97 and 0.91 of T1/P and W4 0.81 at 1.2 ns a call, at 1 µs 0.90,
// 0.97, 0.88 and 0.80 (five seeds, go test ./internal/sim -run AtScale -v
// with the field set).
var Bare = Machine{
	Name:   "bare metal",
	Wake:   4 * time.Microsecond,
	Steal:  200 * time.Nanosecond,
	Try:    20 * time.Nanosecond,
	Yield:  300 * time.Nanosecond,
	Fork:   40 * time.Nanosecond,
	Clock:  20 * time.Nanosecond,
	Call:   30 * time.Nanosecond,
	Seat:   300 * time.Nanosecond,
	Step:   5 * time.Nanosecond,
	Unpark: 0, // not measured; see the comment above
}

// VM is this repository's 2-vCPU virtual machine as its benchmarks
// measured it (go test -bench 'Wake|Yield' ./internal/sched, go test
// -bench 'Clock|Split|SmallCall' ./par; the unpark, 15.8 and 16.2 µs, by
// go run ./bench -sim), for tests and for a run of the simulator that does
// not measure: go run ./bench -sim measures anew.
var VM = Machine{
	Name:   "this VM",
	Wake:   100 * time.Microsecond,
	Steal:  2 * time.Microsecond,
	Try:    30 * time.Nanosecond,
	Yield:  900 * time.Nanosecond,
	Fork:   60 * time.Nanosecond,
	Clock:  35 * time.Nanosecond,
	Call:   30 * time.Nanosecond,
	Seat:   500 * time.Nanosecond,
	Step:   5 * time.Nanosecond,
	Unpark: 16 * time.Microsecond,
}
