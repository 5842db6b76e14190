package carry_test

import (
	"reflect"
	"runtime"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/internal/carry"
)

// A Panic carries the stack of the goroutine where the panic began, across
// every goroutine that raises it again, and recover() sees only its value.

//go:noinline
func panicsWith(v any) { panic(v) }

type myErr struct{ code int }

func (e *myErr) Error() string { return "my error " + strconv.Itoa(e.code) }

// recovered runs f and returns carry.Recovered of what it panicked with, as a
// task's runner does.
func recovered(f func()) (p *carry.Panic) {
	defer func() { p = carry.Recovered(recover()) }()
	f()
	return nil
}

// recoveredElsewhere is recovered on a goroutine of its own; f must not
// return normally.
func recoveredElsewhere(f func()) *carry.Panic {
	ch := make(chan *carry.Panic, 1)
	go func() {
		defer func() { ch <- carry.Recovered(recover()) }() // sent also while a Goexit unwinds
		f()
	}()
	return <-ch
}

func TestPanicKeepsItsFirstStack(t *testing.T) {
	v := &myErr{code: 7}
	first := recoveredElsewhere(func() { panicsWith(v) })
	require.Same(t, v, first.Value)
	require.Contains(t, string(first.Stack), "carry_test.panicsWith(", "the stack where the panic began")

	t.Run("recover sees the original value", func(t *testing.T) {
		require.PanicsWithValue(t, v, first.Repanic)
	})
	t.Run("raised again and recovered on one goroutine", func(t *testing.T) {
		// A thief's runner recovering the panic it raised again in a
		// stolen task carries the first Panic on, not its own stack.
		require.Same(t, first, recovered(first.Repanic))
	})
	t.Run("carried over two goroutines", func(t *testing.T) {
		require.Same(t, first, recoveredElsewhere(first.Repanic))
		require.Same(t, first, recovered(recoveredElsewhere(first.Repanic).Repanic))
	})
	t.Run("another panic on the way", func(t *testing.T) {
		// A deferred call that panics with another value replaces the
		// carried panic: that one is new, with its own stack.
		p := recovered(func() {
			defer panicsWith("replaced")
			first.Repanic()
		})
		require.Equal(t, "replaced", p.Value)
		require.NotSame(t, first, p)
	})
	t.Run("recovered by the caller, then a new panic", func(t *testing.T) {
		require.Panics(t, first.Repanic) // the caller's recover takes it
		p := recovered(func() { panicsWith(v) })
		require.Same(t, v, p.Value)
		require.NotSame(t, first, p, "a new panic of the same value has its own stack")
	})
}

// Any value can be panicked with, including those == cannot compare: a
// slice or a map is recognized by its identity when it comes back, and a
// value that holds one (a struct with a slice in an interface field) reaches
// the caller unchanged, with the stack of its last hop.
func TestPanicOfAnyValueIsCarried(t *testing.T) {
	type holder struct{ v any }
	cases := []struct {
		name  string
		v     func() any // a new value, equal to the last one made
		first bool       // the carried panic keeps its first stack
	}{
		{"string", func() any { return string([]byte("boom")) }, true},
		{"int", func() any { return 1000 }, true},
		{"comparable struct", func() any { return struct{ a, b int }{1, 2} }, true},
		{"slice", func() any { return []int{1, 2} }, true},
		{"empty slice", func() any { return []int{} }, true},
		{"map", func() any { return map[string]int{"a": 1} }, true},
		{"struct holding a slice", func() any { return holder{[]int{1}} }, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v := c.v()
			first := recoveredElsewhere(func() { panicsWith(v) })
			carried := recovered(recoveredElsewhere(first.Repanic).Repanic)
			require.Equal(t, v, carried.Value)
			if c.first {
				require.Same(t, first, carried, "carried with the stack where it began")
			}
			require.NotPanics(t, func() {
				p := recovered(func() {
					defer panicsWith(c.v()) // equal, made anew
					first.Repanic()
				})
				require.Equal(t, v, p.Value)
			})
		})
	}
	t.Run("a slice equal but not the same is a new panic", func(t *testing.T) {
		first := recoveredElsewhere(func() { panicsWith([]int{1, 2}) })
		p := recovered(func() {
			defer panicsWith([]int{1, 2})
			first.Repanic()
		})
		require.NotSame(t, first, p)
	})
	t.Run("a function", func(t *testing.T) {
		f := func() {}
		first := recoveredElsewhere(func() { panicsWith(f) })
		carried := recovered(recoveredElsewhere(first.Repanic).Repanic)
		require.NotNil(t, carried.Value)
		require.Equal(t, reflect.ValueOf(f).Pointer(), reflect.ValueOf(carried.Value).Pointer())
	})
}

func TestGoexitIsCarried(t *testing.T) {
	p := recoveredElsewhere(runtime.Goexit)
	require.True(t, p.Goexit)
	exited := make(chan bool)
	go func() {
		normal := false
		defer func() { exited <- !normal }()
		p.Repanic()
		normal = true
	}()
	require.True(t, <-exited, "Repanic of a Goexit ends the goroutine")
}
