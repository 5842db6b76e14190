//go:build !amd64 && !arm64

package pipe

import "unsafe"

// prefetchLines does nothing where no assembly gives the hint.
func prefetchLines(p unsafe.Pointer, lines int) {}
