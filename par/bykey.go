package par

import "github.com/weftgo/weft/internal/keyed"

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

func newKeyed[K comparable, V any]() keyed.Map[K, V] { return keyed.Map[K, V]{} }
