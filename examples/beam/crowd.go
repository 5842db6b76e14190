package main

import (
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/weftgo/weft/par"
)

// crowdTiming is what crowd measured of one element step.
type crowdTiming struct {
	weft    bool
	wall    time.Duration // the median time to render all the tiles
	perCall time.Duration // the median time of one element step, over all runs
	mean    time.Duration // the mean time of one element step, over all runs
	// Of the default pool, over all the runs, for the weft step only:
	workers       int             // the pool's worker goroutines
	pool, callers par.WorkerStats // the pool's workers summed, and the callers
	wallsSummed   time.Duration   // the runs' wall times added up
}

// crowd renders tiles from callers goroutines at once, each taking the next
// tile until none is left, as a Beam worker running that many bundles side
// by side would; first with the plain loop inside the step, then with weft.
// It prints, for each step, the median wall time of runs rounds, the median
// time of one step, and the default pool's counters over the weft rounds:
// every weft step shares that pool, and the counters show how much the
// callers ran themselves and how much the pool's workers took from them.
func crowd(out io.Writer, tiles []Tile, callers, runs int) ([2]crowdTiming, error) {
	var res [2]crowdTiming
	if callers < 1 || runs < 1 || len(tiles) == 0 {
		return res, errors.New("crowd: need callers >= 1, runs >= 1 and a tile")
	}
	want := make([]Histogram, len(tiles))
	for i, withWeft := range []bool{false, true} {
		before := par.DefaultStats()
		var walls, calls []time.Duration
		for range runs {
			got := make([]Histogram, len(tiles))
			perCall := make([]time.Duration, len(tiles))
			var next atomic.Int64
			var wg sync.WaitGroup
			start := time.Now()
			for range callers {
				wg.Go(func() {
					for {
						j := int(next.Add(1) - 1)
						if j >= len(tiles) {
							return
						}
						t0 := time.Now()
						n := tiles[j].escapes(withWeft)
						perCall[j] = time.Since(t0)
						got[j] = tiles[j].histogram(n)
					}
				})
			}
			wg.Wait()
			walls = append(walls, time.Since(start))
			calls = append(calls, perCall...)
			if want[0].Tiles == 0 {
				copy(want, got)
			} else if !slices.EqualFunc(want, got, equalHistograms) {
				return res, errors.New("crowd: the tiles rendered with weft differ from those rendered by the loop")
			}
		}
		res[i] = crowdTiming{weft: withWeft, perCall: median(calls), mean: mean(calls)}
		for _, w := range walls {
			res[i].wallsSummed += w
		}
		res[i].wall = median(walls)
		if withWeft {
			// The pool's workers publish their counters when they run out
			// of work, which they do just after the last call returns.
			time.Sleep(10 * time.Millisecond)
			after := par.DefaultStats()
			res[i].callers = diff(after.Callers, before.Callers)
			res[i].pool = diff(diff(after.Total(), after.Callers), diff(before.Total(), before.Callers))
			res[i].workers = len(after.Workers)
		}
	}

	fmt.Fprintf(out, "%d tiles of %dx%d pixels from %d goroutines at once, on %d cores (GOMAXPROCS), %d rounds\n",
		len(tiles), tiles[0].Width, tiles[0].Height, callers, runtime.GOMAXPROCS(0), runs)
	for _, r := range res {
		fmt.Fprintf(out, "%-21s all tiles %v (median), one tile %v (median), %v (mean)\n",
			stepName(r.weft)+":", r.wall.Round(time.Millisecond), r.perCall.Round(time.Millisecond), r.mean.Round(time.Millisecond))
	}
	r := res[1]
	fmt.Fprintf(out, "par.DefaultStats over the weft rounds: the pool's %d workers ran %d tasks (%d steals of %d tries), parked %d times, busy %.0f%% of the time;\n",
		r.workers, r.pool.Tasks, r.pool.Steals, r.pool.StealTries, r.pool.Parks,
		100*float64(r.pool.Busy)/float64(r.wallsSummed)/float64(r.workers))
	fmt.Fprintf(out, "  the callers ran %d tasks of their own calls that another participant had forked (%d steals of %d tries)\n",
		r.callers.Tasks, r.callers.Steals, r.callers.StealTries)
	return res, nil
}

func equalHistograms(a, b Histogram) bool {
	return a.Tiles == b.Tiles && a.Pixels == b.Pixels && a.Inside == b.Inside &&
		a.Area == b.Area && a.Iterations == b.Iterations && slices.Equal(a.Escapes, b.Escapes)
}

// diff returns the counts of a that b did not have.
func diff(a, b par.WorkerStats) par.WorkerStats {
	return par.WorkerStats{
		Tasks:      a.Tasks - b.Tasks,
		Inline:     a.Inline - b.Inline,
		StealTries: a.StealTries - b.StealTries,
		Steals:     a.Steals - b.Steals,
		Injected:   a.Injected - b.Injected,
		Parks:      a.Parks - b.Parks,
		Busy:       a.Busy - b.Busy,
	}
}

func mean(ds []time.Duration) time.Duration {
	var sum time.Duration
	for _, d := range ds {
		sum += d
	}
	return sum / time.Duration(len(ds))
}

// median returns the median of ds, which it sorts.
func median(ds []time.Duration) time.Duration {
	slices.Sort(ds)
	return ds[len(ds)/2]
}
