package par

import (
	"github.com/weftgo/weft/internal/accum"
	"github.com/weftgo/weft/internal/keyed"
)

// ReduceBy aggregates the elements of s by key: f(e) gives each element's
// key and value, and the result maps each key to the reduction with op of
// the values of its elements, in their order in s. It holds no other key (an
// empty, non-nil map for an empty s). It is a group-by that reduces instead
// of collecting: Spark's reduceByKey, Java's Collectors.toMap with a merge
// function; CountBy is ReduceBy with a value of 1 per element added up. The
// min, mean and max per station of the One Billion Row Challenge are
//
//	par.ReduceBy(rows, func(r Row) (string, Stats) { return r.Station, Stats{r.T, r.T, r.T, 1} }, Stats.Merge)
//
// op must be associative; it need not be commutative, since the values of a
// key are combined in the order of s, left then right. The result is then the
// same on every run, whatever the timing and the number of workers, as far
// as op's results are (a float sum is grouped differently from run to run).
//
// Use ReduceBy where a value is a few words (a count, a sum, a min and a
// max), which op takes and returns by value; where it is larger or grows (a
// histogram, a struct of many counters, a slice), use FoldBy, which updates
// each key's accumulator in place: an element then builds and copies no
// value.
//
// Each run of adjacent pieces folds into a map of its own, as FoldRange's
// accumulators do: about one map per participant of the call, a few more when
// pieces are stolen. The maps are merged in range order at the end, in
// parallel when there are more than two, each merge moving the smaller map
// into the larger. f runs once per element and op once per element after the
// first of its key in a run, and once per key a run shares with the runs it
// merges with. f and op run concurrently with themselves and with each other,
// on different elements and keys, on the pool's workers and the calling
// goroutine, and op never on one key's value of one run at once; writes made
// by them happen before ReduceBy returns. A panic in either reaches the
// caller with its original value.
func ReduceBy[S ~[]E, E any, K comparable, V any](s S, f func(E) (K, V), op func(V, V) V, opts ...Option) map[K]V {
	switch {
	case f == nil && op == nil:
		panic("par: ReduceBy: f and op are nil")
	case f == nil:
		panic("par: ReduceBy: f is nil")
	case op == nil:
		panic("par: ReduceBy: op is nil")
	}
	c := configure(opts)
	return foldRange("par.ReduceBy", &c, siteKey(f), len(s), newKeyed[K, V], func(m keyed.Map[K, V], lo, hi int) keyed.Map[K, V] {
		for _, e := range s[lo:hi] {
			k, v := f(e)
			m.Add(k, v, op)
		}
		return m
	}, func(a, b keyed.Map[K, V]) keyed.Map[K, V] { return keyed.Merge(a, b, op) }).Values()
}

// FoldBy aggregates the elements of s by key into accumulators updated in
// place: f(e) gives each element's key and value, and fold(acc, v) folds the
// value into the accumulator of its key, which init made when the key was
// first met; merge(acc, other) folds into acc the accumulator of the same
// key from the part of s right after acc's. The result maps each key to its
// accumulator and holds no other key (an empty, non-nil map for an empty s).
// It is Java's groupingBy with a downstream collector (a supplier, an
// accumulator and a combiner per key), and what a hand-written program does
// with a map of pointers: an element costs a call of f, a lookup and a call
// of fold, however large the accumulator. A latency histogram per path:
//
//	hists := par.FoldBy(reqs, func(r Req) (string, time.Duration) { return r.Path, r.Latency },
//		func() Hist { return Hist{} },
//		func(h *Hist, d time.Duration) { h[bucket(d)]++ },
//		func(h, other *Hist) { h.Add(other) })
//
// merge must be associative, and fold must agree with it: folding the
// values of two adjacent parts one after the other into one accumulator
// gives what merging their two folds gives. The result is then that of the
// sequential fold over s, in order, whatever the timing; merge need not be
// commutative.
//
// Each run of adjacent pieces folds into a map of its own, as for ReduceBy:
// init runs once per key per map, merge once per key two runs' maps share,
// at the end, left then right. An accumulator is used by one goroutine at a
// time, and the writes made to it in one call of fold happen before the
// next. f, init, fold and merge run in parallel; writes made by them happen
// before FoldBy returns. A panic in any of them reaches the caller with its
// original value.
func FoldBy[S ~[]E, E any, K comparable, V, A any](s S, f func(E) (K, V), init func() A, fold func(acc *A, v V), merge func(acc, other *A), opts ...Option) map[K]*A {
	checkFoldBy("par: FoldBy", f == nil, init == nil, fold == nil, merge == nil)
	c := configure(opts)
	return foldRange("par.FoldBy", &c, siteKey(f), len(s), newKeyed[K, A], func(m keyed.Map[K, A], lo, hi int) keyed.Map[K, A] {
		for _, e := range s[lo:hi] {
			k, v := f(e)
			fold(m.At(k, init), v)
		}
		return m
	}, func(a, b keyed.Map[K, A]) keyed.Map[K, A] { return keyed.MergeInto(a, b, checkedMerge("par", merge)) })
}

// checkedMerge returns FoldBy's merge with a check that the two
// accumulators of a key are not one (accum.Distinct), which an init that
// hands out one map, pointer or slice to every key would make: the merge
// would then count it twice. The check costs a type switch for an
// accumulator that holds no reference (an array of counts, a struct).
func checkedMerge[A any](pkg string, merge func(acc, other *A)) func(acc, other *A) {
	return func(acc, other *A) {
		accum.Distinct(pkg, "FoldBy", *acc, *other)
		merge(acc, other)
	}
}

// checkFoldBy panics with a message, headed by name, that names the nil
// functions of a FoldBy.
func checkFoldBy(name string, fNil, initNil, foldNil, mergeNil bool) {
	var nils []string
	for _, f := range []struct {
		name  string
		isNil bool
	}{{"f", fNil}, {"init", initNil}, {"fold", foldNil}, {"merge", mergeNil}} {
		if f.isNil {
			nils = append(nils, f.name)
		}
	}
	switch len(nils) {
	case 0:
		return
	case 1:
		panic(name + ": " + nils[0] + " is nil")
	}
	panic(name + ": " + joinNames(nils) + " are nil")
}

func newKeyed[K comparable, V any]() keyed.Map[K, V] { return keyed.Map[K, V]{} }
