package pipe

import (
	"fmt"

	"github.com/weftgo/weft/par"
)

// adder is the type of a Pipe's add field for items of type T: it adds the
// items of the source positions [lo, hi) to four accumulators in the pattern
// of pairwise.Add4, and returns them.
type adder[T par.Number] = func(lo, hi int, a0, a1, a2, a3 T) (T, T, T, T)

// zipAdder returns Zip's adder when T is one of Go's predeclared number
// types, and nil otherwise (a named type such as `type Celsius float64`,
// which Sum then adds through the batch buffer). Zip's T is any, so it cannot
// add; Sum's T is a number but knows nothing of A and B: the type switch on
// f, here where both are known, is what lets one function call f and add.
func zipAdder[A, B, T any](a []A, b []B, f func(A, B) T) any {
	switch f := any(f).(type) {
	case func(A, B) float64:
		return zipAdd(a, b, f)
	case func(A, B) float32:
		return zipAdd(a, b, f)
	case func(A, B) int:
		return zipAdd(a, b, f)
	case func(A, B) int64:
		return zipAdd(a, b, f)
	case func(A, B) int32:
		return zipAdd(a, b, f)
	case func(A, B) uint:
		return zipAdd(a, b, f)
	case func(A, B) uint64:
		return zipAdd(a, b, f)
	case func(A, B) uint32:
		return zipAdd(a, b, f)
	}
	return nil
}

func zipAdd[A, B any, T par.Number](a []A, b []B, f func(A, B) T) adder[T] {
	return func(lo, hi int, a0, a1, a2, a3 T) (T, T, T, T) {
		return zipAdd4(a[lo:hi], b[lo:hi], f, a0, a1, a2, a3)
	}
}

// zipAdd4 is pairwise.Add4 over f(a[i], b[i]): the same accumulator for every
// i, in the same order, so the same bits, with each result added as it comes
// back from f rather than written to a batch buffer that Add4 then reads. Go's
// calls save no register, so everything live across a call of f is reloaded
// after it: the accumulators sit in an array, which the compiler loads and
// stores one at a time, where four locals were all moved between registers
// and the stack at every turn; and the slices advance by four, which drops
// the index and the bounds checks (go tool objdump -s 'pipe\.zipAdd4').
//
//go:noinline
func zipAdd4[A, B any, T par.Number](a []A, b []B, f func(A, B) T, a0, a1, a2, a3 T) (T, T, T, T) {
	acc := [4]T{a0, a1, a2, a3}
	for len(a) >= 4 && len(b) >= 4 {
		x, y := (*[4]A)(a), (*[4]B)(b)
		acc[0] += f(x[0], y[0])
		acc[1] += f(x[1], y[1])
		acc[2] += f(x[2], y[2])
		acc[3] += f(x[3], y[3])
		a, b = a[4:], b[4:]
	}
	b = b[:len(a)]
	for i := range a {
		acc[0] += f(a[i], b[i])
	}
	return acc[0], acc[1], acc[2], acc[3]
}

// Dot returns the dot product of a and b, the sum of a[i]*b[i]: the same
// bits as Sum(Zip(a, b, mul)) and as par.Sum over the products, on every run
// and every number of workers (see Sum). It panics at once if the slices
// differ in length, naming both lengths.
//
// Dot is Sum of a Zip whose multiplication is compiled into the fold: Go
// cannot inline a function value, so Sum(Zip(a, b, mul)) calls mul once per
// pair, and that call, not the memory, is what it waits on. Over 50,000,000
// float64 pairs on 2 cores (BenchmarkDot) Dot reads both slices as fast as
// a goroutine per core running the plain loop, where Sum(Zip) takes about
// four times as long. The slices must not be modified until Dot returns.
func Dot[E par.Number](a, b []E, opts ...par.Option) E {
	if len(a) != len(b) {
		panic(fmt.Sprintf("pipe: Dot: len(a) = %d, len(b) = %d", len(a), len(b)))
	}
	p := Zip(a, b, func(x, y E) E { return E(x * y) })
	p.add = adder[E](func(lo, hi int, a0, a1, a2, a3 E) (E, E, E, E) {
		return dotAdd4(a[lo:hi], b[lo:hi], a0, a1, a2, a3)
	})
	return Sum(p, opts...)
}

// dotAdd4 is zipAdd4 with the multiplication written in: the pattern of
// pairwise.Add4 over a[i]*b[i]. The conversion E(x*y) rounds each product,
// so that no compiler fuses the multiplication and the addition (into an
// FMA, as arm64's does), which would change the bits.
func dotAdd4[E par.Number](a, b []E, a0, a1, a2, a3 E) (E, E, E, E) {
	for len(a) >= 4 && len(b) >= 4 {
		x, y := (*[4]E)(a), (*[4]E)(b)
		a0 += E(x[0] * y[0])
		a1 += E(x[1] * y[1])
		a2 += E(x[2] * y[2])
		a3 += E(x[3] * y[3])
		a, b = a[4:], b[4:]
	}
	b = b[:len(a)]
	for i := range a {
		a0 += E(a[i] * b[i])
	}
	return a0, a1, a2, a3
}
