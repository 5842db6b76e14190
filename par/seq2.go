package par

import "iter"

// The ...Seq2 functions take an iter.Seq2, such as maps.All(m) or
// slices.All(s), and run on the engine of the ...Seq functions (seqrun.go).
// The body they pass to seq takes the pair as it comes: alone, it calls f(k,
// v) at once, as the plain loop does, so a pair costs what an element of the
// ...Seq form costs; on the pool, it copies the pair into a piece as a small
// struct, and the pieces call f with its two halves (forEachSeq2, mapSeq2).
// Everything said of the ...Seq functions holds
// for them: the sequence is pulled only by the caller, at most 4×P+2 pieces
// are held at once, results come in the order of the sequence, and every call
// of f happens before the pass returns.

// pair is one element of an iter.Seq2 while it waits in a piece.
type pair[K, V any] struct {
	k K
	v V
}

// ForEachSeq2 calls f(k, v) for every pair of seq, in parallel on batches of
// seq as ForEachSeq does, and returns when every call has returned; writes
// made by f happen before it returns. The order of the calls is not
// specified. A panic in f reaches the caller with its original value once the
// calls in progress have returned.
//
// Cost and memory are as for ForEachSeq, with pieces of pairs: at most 4×P+2 of at
// most 64 KiB each, P being the participants (the caller and at most
// GOMAXPROCS-1 of the pool's workers), however long seq is.
func ForEachSeq2[K, V any](seq iter.Seq2[K, V], f func(K, V), opts ...Option) {
	if seq == nil {
		panic("par: ForEachSeq2: seq is nil")
	}
	if f == nil {
		panic("par: ForEachSeq2: f is nil")
	}
	m := &forEachSeq2[K, V]{f2: f}
	m.init(seqConfigure(opts), m, seqShape{})
	m.run(func() {
		seq(func(k K, v V) bool {
			if m.left <= 0 && m.pooled() {
				return m.push(pair[K, V]{k, v})
			}
			m.left--
			m.f2(k, v)
			return true
		})
	})
}

// MapSeq2 returns a sequence of f(k, v) for every pair of seq, in the order
// of seq. f runs as in MapSeq: on the caller as each pair comes or, when f
// costs enough for the pool to pay, in parallel on batches whose results are
// then yielded together. Nothing happens until the result is ranged over;
// each range pulls seq anew. If the loop stops early, seq is pulled no
// further and the batches in flight are abandoned: those not started are
// dropped, those running are waited for. A panic in f reaches the loop with
// its original value.
//
// Cost and memory are as for MapSeq, with pieces of pairs: at most 4×P+2 of at
// most 64 KiB each, P being the participants (the caller and at most
// GOMAXPROCS-1 of the pool's workers), however long seq is.
func MapSeq2[K, V, R any](seq iter.Seq2[K, V], f func(K, V) R, opts ...Option) iter.Seq[R] {
	if seq == nil {
		panic("par: MapSeq2: seq is nil")
	}
	if f == nil {
		panic("par: MapSeq2: f is nil")
	}
	c := seqConfigure(opts)
	return func(yield func(R) bool) {
		m := &mapSeq2[K, V, R]{f2: f}
		m.yield = yield
		m.init(c, m, seqShape{outBytes: seqOutBytes[R]()})
		m.run(func() {
			seq(func(k K, v V) bool {
				if m.left <= 0 && m.pooled() {
					return m.push(pair[K, V]{k, v})
				}
				m.left--
				if !m.yield(m.f2(k, v)) {
					return m.stop()
				}
				return true
			})
		})
	}
}

// forEachSeq2 and mapSeq2 are forEachSeq and mapSeq over pairs, whose pieces
// call f with the pair's two halves: a function of the pair wrapping f costs
// one more call through a function value per pair.
type forEachSeq2[K, V any] struct {
	forEachSeq[pair[K, V]]
	f2 func(K, V)
}

func (m *forEachSeq2[K, V]) leaf(_ int, in []pair[K, V], lo, hi int) struct{} {
	for _, p := range in[lo:hi] {
		m.f2(p.k, p.v)
	}
	return struct{}{}
}

type mapSeq2[K, V, R any] struct {
	mapSeq[pair[K, V], R]
	f2 func(K, V) R
}

func (m *mapSeq2[K, V, R]) leaf(k int, in []pair[K, V], lo, hi int) struct{} {
	out := m.outs[k][lo:hi]
	for i, p := range in[lo:hi] {
		out[i] = m.f2(p.k, p.v)
	}
	return struct{}{}
}
