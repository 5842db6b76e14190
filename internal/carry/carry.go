// Package carry carries a panic from the goroutine that ran a task to the
// goroutine that waits for it, with its original value and the stack where
// it began, and tells runtime.Goexit apart from a panic (as
// golang.org/x/sync/singleflight does). The pool (package sched) carries its
// jobs' panics with it, and package par its scopes' and sequences'.
package carry

import (
	"bytes"
	"reflect"
	"runtime"
	"runtime/debug"
	"strconv"
	"sync"
)

// The panic policy: a panic in a task run on another goroutine is recovered
// there with that goroutine's stack (Recovered), carried in the task to the
// goroutine that waits for it, and raised again there with its original value
// (Repanic), so that recover() in the caller gets exactly what was panicked.
//
// A value raised again from another goroutine carries none of the frames that
// panicked, and a crash would print only the library's. So Repanic first
// panics with a message that holds the original stack, recovers it at once in
// a deferred call, and panics there with the original value. recover() sees
// only the last panic, the original value; a crash prints both, the first
// marked "[recovered]", so the output names the function and the file:line
// that panicked, on the goroutine where it did.
//
// A carried panic may hop more than once: a worker raises it again inside a
// task that was itself stolen, and that task's runner recovers it to carry it
// on. The runner must then keep the original Panic, not take the stack of the
// hop. Repanic notes the Panic it raises against its goroutine (inflight) and
// Recovered looks it up: the same goroutine recovering the same value (see
// sameValue) while Repanic's frame is still on its stack continues that Panic.

// Panic carries a panic from a task that another goroutine ran to the goroutine
// that waits for it.
type Panic struct {
	Value  any    // what the task panicked with
	Stack  []byte // the stack of the goroutine where the panic began, at the panic
	Goexit bool   // the task called runtime.Goexit instead of panicking
}

// Repanic re-raises p on the calling goroutine: with its original value, or by
// calling runtime.Goexit if that is what the task did. If p has a stack, a
// crash prints it before the value (see the top of this file). Any goroutine.
func (p *Panic) Repanic() {
	if p.Goexit {
		runtime.Goexit()
	}
	if p.Stack == nil {
		panic(p.Value)
	}
	inflight.put(goid(), p)
	defer func() {
		recover() // the message below, and only it: it was raised just now, in this frame
		panic(p.Value)
	}()
	panic(p.message())
}

// message is the first panic of Repanic: the stack of the goroutine where the
// panic began, from the frame that panicked (the frames that recovered it are
// cut).
func (p *Panic) message() string {
	head, rest, _ := bytes.Cut(p.Stack, []byte("\n"))
	if !bytes.HasPrefix(rest, []byte("panic(")) {
		if i := bytes.Index(rest, []byte("\npanic(")); i >= 0 {
			rest = rest[i+1:]
		}
	}
	return "weft: the panic raised again below began here:\n\n" +
		string(head) + "\n" + string(bytes.TrimRight(rest, "\n")) + "\n"
}

// Recovered returns the Panic for what recover returned in a deferred call
// of a function that did not return normally: the value, or runtime.Goexit
// if recover returned nil (the goroutine goes on unwinding after the call).
// A value that Repanic raised on this goroutine keeps its original Panic, and
// so the stack where it began. Any goroutine, in the deferred call.
func Recovered(r any) *Panic {
	if r == nil {
		return &Panic{Goexit: true}
	}
	st := debug.Stack()
	if bytes.Contains(st, repanicFrame) { // the panic being recovered passed through Repanic here
		if p := inflight.take(stackGoid(st), r); p != nil {
			return p
		}
	}
	return &Panic{Value: r, Stack: st}
}

// repanicFrame is how Repanic's frame reads in a stack trace. While a panic
// that Repanic raised unwinds, the deferred call that recovers it runs above
// Repanic's frame; once recovered and unwound, a later panic's stack no longer
// has it, so an entry left behind cannot be mistaken for a later panic of the
// same value.
var repanicFrame = []byte("/internal/carry.(*Panic).Repanic(")

// inflight remembers the Panics that Repanic raised, by goroutine, for
// Recovered. An entry that nobody takes (the caller recovered the value
// itself, or the program crashed) stays until a newer one replaces it, so the
// table keeps at most len(slots) panics alive.
var inflight carried

type carried struct {
	mu    sync.Mutex
	slots [16]carriedSlot
	next  int // the slot put replaces when its goroutine has none
}

type carriedSlot struct {
	g uint64 // goroutine id; 0: empty
	p *Panic
}

// put records that goroutine g raises p again. Any goroutine.
func (c *carried) put(g uint64, p *Panic) {
	c.mu.Lock()
	defer c.mu.Unlock()
	i := c.find(g)
	if i < 0 {
		i = c.next
		c.next = (c.next + 1) % len(c.slots)
	}
	c.slots[i] = carriedSlot{g: g, p: p}
}

// take removes goroutine g's entry and returns its Panic if it was raised
// with the value v; nil otherwise. Any goroutine.
func (c *carried) take(g uint64, v any) *Panic {
	c.mu.Lock()
	defer c.mu.Unlock()
	i := c.find(g)
	if i < 0 {
		return nil
	}
	p := c.slots[i].p
	c.slots[i] = carriedSlot{}
	if !sameValue(p.Value, v) {
		return nil // a newer panic replaced it on the way
	}
	return p
}

func (c *carried) find(g uint64) int {
	for i := range c.slots {
		if c.slots[i].g == g {
			return i
		}
	}
	return -1
}

// sameValue reports whether a and b, a carried value and one just recovered,
// are the same panic value: a == b where == is defined on their dynamic
// values, and otherwise (a slice or a map was panicked with) the same type
// and the same reflect.Value.Pointer, and length for a slice. Unlike ==, it
// never panics. A value it cannot compare (a struct that holds a slice, or a
// function, whose Pointer names its code and not its closure) is never the
// same: such a panic carries the stack of its last hop instead of its first,
// and still its original value. Any goroutine.
func sameValue(a, b any) bool {
	va, vb := reflect.ValueOf(a), reflect.ValueOf(b)
	if !va.IsValid() || !vb.IsValid() || va.Type() != vb.Type() {
		return !va.IsValid() && !vb.IsValid()
	}
	if va.Comparable() && vb.Comparable() { // dynamic: false for an interface field holding a slice
		return a == b
	}
	switch va.Kind() {
	case reflect.Slice:
		return va.Pointer() == vb.Pointer() && va.Len() == vb.Len()
	case reflect.Map:
		return va.Pointer() == vb.Pointer()
	}
	return false
}

// goid returns the calling goroutine's id, read from the header of its
// stack trace ("goroutine 7 [running]:"). Only on the panic path: it costs
// about a microsecond.
func goid() uint64 {
	var buf [64]byte
	return stackGoid(buf[:runtime.Stack(buf[:], false)])
}

// stackGoid returns the goroutine id in the header of a stack trace, or 0.
func stackGoid(st []byte) uint64 {
	st, ok := bytes.CutPrefix(st, []byte("goroutine "))
	if !ok {
		return 0
	}
	if i := bytes.IndexByte(st, ' '); i >= 0 {
		st = st[:i]
	}
	id, _ := strconv.ParseUint(string(st), 10, 64)
	return id
}
