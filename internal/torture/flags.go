package torture

import (
	"flag"
	"strconv"
	"time"
)

// The flags of every torture test. They are registered when a test binary
// imports the package, so each package's torture tests take the same ones.
var (
	seedFlag = flag.Uint64("torture.seed", 0, "master seed of the torture tests; 0 picks one from the clock")
	durFlag  = flag.Duration("torture.dur", 0, "how long the torture tests run; 0 means a few seconds")
	caseFlag = flag.String("torture.case", "", "replay only the torture case of this seed (as printed by a failure)")
	repsFlag = flag.Int("torture.reps", 20, "how many times -torture.case runs its case")
)

// Master returns the master seed of a run: -torture.seed, or one from the
// clock. Any goroutine, after the flags are parsed.
func Master() uint64 {
	if *seedFlag != 0 {
		return *seedFlag
	}
	return uint64(time.Now().UnixNano())
}

// Seed returns -torture.seed as given, 0 if it was not.
func Seed() uint64 { return *seedFlag }

// Budget is how long a torture test runs rounds: -torture.dur, else normal,
// or a third of it when small (under -short or the race detector). It bounds
// the work, it is not a measurement: a test passes whatever a round takes.
func Budget(normal time.Duration, small bool) time.Duration {
	if *durFlag > 0 {
		return *durFlag
	}
	if small {
		return normal / 3
	}
	return normal
}

// Replay returns the seed of -torture.case and how many times to run it
// (-torture.reps); ok is false when no case is to be replayed. err reports a
// seed that does not parse.
func Replay() (seed uint64, reps int, ok bool, err error) {
	if *caseFlag == "" {
		return 0, 0, false, nil
	}
	seed, err = strconv.ParseUint(*caseFlag, 0, 64)
	return seed, *repsFlag, true, err
}
