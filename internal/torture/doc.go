// Package torture is the machinery that the torture tests of weft's packages
// share: the tests that run random fork-join trees and random calls from many
// goroutines at once, with panics injected at random places, and compare what
// happened with a model of the same seed.
//
// It is imported only by _test files (internal/sched's, par's and pipe's), never by
// the library: it imports nothing of weft, so the import rule of docs/DESIGN.md
// holds (nothing under internal/ imports par) and a test of any layer may use
// it.
//
// What it holds, one concept a file:
//
//   - flags.go: the flags -torture.seed, -torture.dur, -torture.case and
//     -torture.reps, and what a test derives from them (Master, Budget,
//     Replay); Thorough, which says whether the tests run at full length
//     (WEFT_THOROUGH=1, as CI sets it) or shrunk to keep go test ./... near
//     half a minute;
//   - seed.go: Mix, which derives the seed of a round or a case from the
//     master seed, so that a failure names a seed that replays it;
//   - boom.go: Boom, the injected panic value compared by identity, and
//     Catch;
//   - log.go: Log, where the goroutines of a round record failures;
//   - round.go: Round, which runs cases from many goroutines with a watchdog
//     that dumps every stack on a hang, Rounds, which repeats rounds until
//     the budget is spent, and the bounded waits (WaitOrDump,
//     WaitGoroutines);
//   - tree.go and check.go: Tree, a random fork-join tree whose node kinds
//     the package that runs it chooses, Visit, which runs a node and records
//     how it ran, and Check, the rules of the fork protocol that the record
//     must obey (no node runs twice, everything started has finished when
//     the call returns, the panic that goes on is the one the rules choose);
//   - spin.go: Spin and Keep, busy work the compiler cannot remove;
//   - alloc.go: Allocated, the bytes a call allocates, for the tests that
//     bound memory (par's collecting functions, pipe's text sources).
//
// A failure prints the seed of its case and the master seed of the run:
//
//	go test ./par -run Torture -torture.case=0x1234    # replay one case, alone
//	go test ./par -run Torture -torture.seed=42        # the same rounds again
//	go test ./par -run Torture -torture.dur=5m         # a long run
//
// The same flags work for ./internal/sched.
package torture
