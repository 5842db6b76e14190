package torture

import (
	"flag"
	"os"
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

// ThoroughEnv is the environment variable that makes the tests of weft's
// packages run at full length: the largest inputs, every pool and grain at
// every size, and the torture tests' full budget. CI sets it (WEFT_THOROUGH=1
// go test ./...); without it, go test ./... checks the same things on smaller
// inputs and shorter torture runs (on 2 cores, once built: 32 s against
// 78 s, go test -count=1 ./...).
const ThoroughEnv = "WEFT_THOROUGH"

// Thorough reports whether ThoroughEnv is set to anything but "" or "0". A
// test that shrinks its sizes or rounds without it keeps every check, and
// -short and the race detector shrink them as before, whatever it says.
// Any goroutine. (go test's cache keys a package's result on the variables
// its tests read, so a change of it reruns them.)
func Thorough() bool {
	v := os.Getenv(ThoroughEnv)
	return v != "" && v != "0"
}

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

// Budget is how long a torture test runs rounds: -torture.dur, else normal
// when the tests are Thorough, or a third of it when small (under -short or
// the race detector) or not Thorough. It bounds the work, it is not a
// measurement: a test passes whatever a round takes.
func Budget(normal time.Duration, small bool) time.Duration {
	if *durFlag > 0 {
		return *durFlag
	}
	if small || !Thorough() {
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
