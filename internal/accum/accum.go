// Package accum catches a fold whose init hands out one accumulator to more
// than one run: par's Fold and FoldRange, and pipe's Fold, merge the
// accumulators of adjacent runs, and an init that returns a map, a pointer
// or a slice it keeps (a package variable, a value captured once) gives
// merge the same accumulator as its left and its right, which counts
// everything twice, or races where no mutex guards it. The library sees the
// two arguments before it calls merge, so it panics there instead of
// returning a wrong result.
package accum

import (
	"fmt"
	"reflect"
)

// Distinct panics when left and right are one accumulator (Same), with a
// message that names the package, the function (pkg "par", fn "Fold") and
// init. Any goroutine.
func Distinct[A any](pkg, fn string, left, right A) {
	if kind, same := Same(left, right); same {
		panic(fmt.Sprintf("%s: %s: init returned the same %s for two runs of the call, "+
			"so merge would get it as both left and right: init must return a new accumulator at each call", pkg, fn, kind))
	}
}

// Same reports whether a and b refer to the same memory, and names what
// they are: maps or channels that are the same one, non-nil pointers to the
// same variable, slices whose backing arrays overlap up to their capacity
// (an append to one writes into the other). Values of other kinds (numbers,
// strings, structs, arrays) are copies, never the same; a struct that holds
// a map is not looked into, since sharing a field (a configuration, a
// read-only table) is common and harmless. Two functions are never the same
// either: reflect gives only a function's code, which every closure made by
// one func literal shares. Zero-size values (pointers to struct{}, slices
// of capacity 0) are never the same, since Go gives them all one address.
// An interface type is looked through to the dynamic values.
//
// Only values whose type refers to memory are converted to an interface, so
// a fold of numbers or structs pays no allocation for the check.
func Same[A any](a, b A) (kind string, same bool) {
	switch reflect.TypeFor[A]().Kind() {
	case reflect.Map, reflect.Pointer, reflect.Chan, reflect.Slice, reflect.Interface:
	default:
		return "", false
	}
	va, vb := reflect.ValueOf(any(a)), reflect.ValueOf(any(b))
	if !va.IsValid() || !vb.IsValid() || va.Type() != vb.Type() {
		return "", false
	}
	switch va.Kind() {
	case reflect.Map:
		return "map", !va.IsNil() && va.Pointer() == vb.Pointer()
	case reflect.Chan:
		return "channel", !va.IsNil() && va.Pointer() == vb.Pointer()
	case reflect.Pointer:
		if va.Type().Elem().Size() == 0 {
			return "", false
		}
		return "pointer", !va.IsNil() && va.Pointer() == vb.Pointer()
	case reflect.Slice:
		size := va.Type().Elem().Size()
		if size == 0 || va.Cap() == 0 || vb.Cap() == 0 {
			return "", false
		}
		pa, pb := va.Pointer(), vb.Pointer()
		ea, eb := pa+uintptr(va.Cap())*size, pb+uintptr(vb.Cap())*size
		return "backing array of a slice", pa < eb && pb < ea
	}
	return "", false
}
