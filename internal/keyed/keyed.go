// Package keyed holds what an aggregation by key keeps (par's ReduceBy and
// FoldBy, and pipe's): per key, the value of one run of adjacent pieces of
// the range, folded in order, and the merge of two runs' maps that keeps the
// order; and, for string keys, an index in front of a run's map that finds
// a key faster than the map does (Strings).
package keyed

// Map maps each key to the value folded so far. The values are held by
// pointer, so that folding one more in costs one lookup, not a lookup and
// an assignment, and so that FoldBy updates them in place.
type Map[K comparable, V any] map[K]*V

// Add folds v into the value of k with op, the value so far on the left; the
// first value of a key is v itself.
func (m Map[K, V]) Add(k K, v V, op func(V, V) V) {
	if p := m[k]; p != nil {
		*p = op(*p, v)
		return
	}
	p := new(V) // here, not &v: a v that escapes would be moved to the heap at every call
	*p = v
	m[k] = p
}

// At returns the value of k, which init makes for a key that has none yet.
// Small enough to be inlined, so that a key met before costs a lookup.
func (m Map[K, V]) At(k K, init func() V) *V {
	if p := m[k]; p != nil {
		return p
	}
	return m.put(k, init)
}

// put gives k a new value that init makes, and returns it.
func (m Map[K, V]) put(k K, init func() V) *V {
	p := new(V)
	*p = init()
	m[k] = p
	return p
}

// Merge merges the maps of two adjacent runs, a's before b's, and returns
// the result: a key of both gets op(a's value, b's value). It takes both
// maps, as MergeInto does.
func Merge[K comparable, V any](a, b Map[K, V], op func(V, V) V) Map[K, V] {
	return MergeInto(a, b, func(acc, other *V) { *acc = op(*acc, *other) })
}

// MergeInto merges the maps of two adjacent runs, a's before b's, and
// returns the result: for a key of both, merge(a's value, b's value) folds
// b's value into a's, which the result holds. It moves the entries of the
// smaller map into the larger, so that it costs the smaller one's length,
// and takes both maps: neither may be used after.
func MergeInto[K comparable, V any](a, b Map[K, V], merge func(acc, other *V)) Map[K, V] {
	if len(a) >= len(b) {
		for k, pb := range b {
			if pa := a[k]; pa != nil {
				merge(pa, pb)
			} else {
				a[k] = pb
			}
		}
		return a
	}
	for k, pa := range a {
		if pb := b[k]; pb != nil {
			merge(pa, pb)
		}
		b[k] = pa
	}
	return b
}

// Values returns a new map of the values of m.
func (m Map[K, V]) Values() map[K]V {
	out := make(map[K]V, len(m))
	for k, p := range m {
		out[k] = *p
	}
	return out
}

// AddBytes is Add for a key held in bytes that the caller may reuse: the
// lookup with string(k) copies nothing, and a key met for the first time is
// copied once, into the string the map keeps.
func AddBytes[V any](m Map[string, V], k []byte, v V, op func(V, V) V) {
	if p := m[string(k)]; p != nil {
		*p = op(*p, v)
		return
	}
	p := new(V)
	*p = v
	m[string(k)] = p
}

// AtBytes is At for a key held in bytes that the caller may reuse, copied
// once when it is met for the first time (see AddBytes).
func AtBytes[V any](m Map[string, V], k []byte, init func() V) *V {
	if p := m[string(k)]; p != nil {
		return p
	}
	p := new(V)
	*p = init()
	m[string(k)] = p
	return p
}
