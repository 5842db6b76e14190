package par

import "fmt"

// For calls f(i) for every i in [0, n), in parallel, and returns when every
// call has returned. Writes made by the calls happen before For returns. The
// range is cut adaptively (see package split); WithGrain and WithMinLen
// override that. A panic in f reaches the caller with its original value once
// the calls in progress have returned; pieces not yet started are skipped.
func For(n int, f func(i int), opts ...Option) {
	if f == nil {
		panic("par: For: f is nil")
	}
	if n < 0 {
		panic(fmt.Sprintf("par: For: n = %d, want n >= 0", n))
	}
	if n <= 1 {
		if n == 1 {
			f(0)
		}
		return
	}
	c := configure(opts)
	run(&c, n, &body[struct{}]{leaf: func(lo, hi int) struct{} {
		for i := lo; i < hi; i++ {
			f(i)
		}
		return struct{}{}
	}})
}
