package torture

import "fmt"

// Boom is an injected panic value. It is used as a pointer, so that the value
// that reaches a caller can be compared by identity with the one injected and
// is never mistaken for the value of another case.
type Boom struct {
	Seed  uint64 // the case that injected it
	Where string // where in the case, for messages
}

func (b *Boom) String() string { return fmt.Sprintf("boom %#x %s", b.Seed, b.Where) }

// Catch calls f and returns what it panicked with. A runtime.Goexit in f is
// not caught: it ends the calling goroutine, and no torture case injects one.
func Catch(f func()) (v any, panicked bool) {
	normal := false
	defer func() {
		if !normal {
			panicked, v = true, recover()
		}
	}()
	f()
	normal = true
	return nil, false
}
