package pipe

import "fmt"

// FlatMap returns the pipeline of the items that f makes from every item x of
// p, in order: f(x, out) appends zero or more items to out and returns the
// result, as append does, and the items appended for x come after those of
// the items before x and before those of the items after it. f runs in
// parallel; writes made by f happen before the terminal returns.
//
// out is a buffer that FlatMap owns and reuses: it already holds items made
// from earlier x, which f must leave as they are, and f must not keep out or
// a slice of it after it returns. f returning a slice shorter than out
// panics. An f that appends only what fits in out's capacity allocates
// nothing: the buffer grows once to hold the most any one x makes plus a
// batch of 256, and then serves the whole piece, so a FlatMap stage costs a
// call of f per input item and no allocation per item.
//
// The items made from x all have x's source position (see MapIndex). The
// result is not one-to-one: Collect gathers it per piece and concatenates,
// as after a Filter, and Take, Skip, StepBy and Rev refuse it.
//
// The append form was chosen over a yield callback (f(x, yield func(R)))
// and over an iter.Seq per item by measurement. BenchmarkFlatMapShapes: a
// million items making 0 to 3 items each, summed; medians of 5 on this
// project's 2-core machine under load, so as ratios: append 7.1 ms, yield
// 10.4 ms (a call per output item), iter.Seq 105 ms (a closure and three
// allocations per input item), the sequential loop 7.4 ms.
//
// f runs when a terminal runs the pipe, concurrently with itself and with the
// other stages' functions on different items, once per item, never on one out
// at once, on the pool's workers and the terminal's calling goroutine.
func FlatMap[T, R any](p Pipe[T], f func(x T, out []R) []R) Pipe[R] {
	if f == nil {
		panic("pipe: FlatMap: f is nil")
	}
	return Pipe[R]{n: p.n, cover: p.cover, openPos: flatMapPos(p, f), open: func() feeder[R] {
		up := p.open()
		buf := make([]R, 0, 2*batch)
		var sink func([]R)
		each := func(xs []T) {
			for _, x := range xs {
				before := len(buf)
				buf = f(x, buf)
				if len(buf) < before {
					panic(shortOut(before, len(buf)))
				}
				if len(buf) >= batch {
					i := 0
					for ; len(buf)-i >= batch; i += batch {
						sink(buf[i : i+batch])
					}
					buf = buf[:copy(buf, buf[i:])]
				}
			}
		}
		return func(lo, hi int, s func([]R)) {
			sink = s
			buf = buf[:0]
			up(lo, hi, each)
			if len(buf) > 0 {
				sink(buf)
				buf = buf[:0]
			}
		}
	}}
}

// shortOut is the panic message of an f of FlatMap that dropped items.
func shortOut(before, after int) string {
	return fmt.Sprintf("pipe: FlatMap: f returned %d items where out held %d: f must append to out", after, before)
}

// flatMapPos is the positional recipe of FlatMap: every item made from x gets
// x's position.
func flatMapPos[T, R any](p Pipe[T], f func(T, []R) []R) func() posFeeder[R] {
	up := p.positions()
	if up == nil {
		return nil
	}
	return func() posFeeder[R] {
		feed := up()
		buf := make([]R, 0, 2*batch)
		pbuf := make([]int, 0, 2*batch)
		var sink func([]int, []R)
		each := func(pos []int, xs []T) {
			for k, x := range xs {
				before := len(buf)
				buf = f(x, buf)
				if len(buf) < before {
					panic(shortOut(before, len(buf)))
				}
				for len(pbuf) < len(buf) {
					pbuf = append(pbuf, pos[k])
				}
				if len(buf) >= batch {
					i := 0
					for ; len(buf)-i >= batch; i += batch {
						sink(pbuf[i:i+batch], buf[i:i+batch])
					}
					buf = buf[:copy(buf, buf[i:])]
					pbuf = pbuf[:copy(pbuf, pbuf[i:])]
				}
			}
		}
		return func(lo, hi int, s func([]int, []R)) {
			sink = s
			buf, pbuf = buf[:0], pbuf[:0]
			feed(lo, hi, each)
			if len(buf) > 0 {
				sink(pbuf, buf)
				buf, pbuf = buf[:0], pbuf[:0]
			}
		}
	}
}
