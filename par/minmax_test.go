package par_test

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
)

// Min, Max, MinFunc and MaxFunc: the result of slices.Min and slices.Max
// exactly, bits of floats, signed zeros and NaNs included; the first of equal
// elements wins; an empty input panics.

func TestMinMaxInts(t *testing.T) {
	eachCase(t, func(r *rand.Rand, n int) [2][]int {
		return [2][]int{randInts(r, n), smallInts(r, n, 3)} // the second has many equal extremes
	}, func(t *testing.T, n int, c [2][]int, s setup) {
		if n == 0 {
			return // TestMinMaxEmptyPanics
		}
		for _, in := range c {
			require.Equal(t, slices.Min(in), par.Min(in, s.opts...))
			require.Equal(t, slices.Max(in), par.Max(in, s.opts...))
		}
	})
}

// floatLayouts returns named float inputs of length n: plain values, NaN at
// the front, middle, end and in several places, signed zeros only, and
// signed zeros with a NaN.
func floatLayouts(r *rand.Rand, n int) map[string][]float64 {
	plain := func() []float64 {
		s := make([]float64, n)
		for i := range s {
			s[i] = r.NormFloat64()
		}
		return s
	}
	zeros := func() []float64 {
		s := make([]float64, n)
		for i := range s {
			if r.IntN(2) == 0 {
				s[i] = math.Copysign(0, -1)
			}
		}
		return s
	}
	with := func(s []float64, v float64, at ...int) []float64 {
		for _, i := range at {
			s[i] = v
		}
		return s
	}
	nan := math.NaN()
	l := map[string][]float64{
		"plain":       plain(),
		"nan-front":   with(plain(), nan, 0),
		"nan-middle":  with(plain(), nan, n/2),
		"nan-end":     with(plain(), nan, n-1),
		"nan-several": with(plain(), nan, n/3, n/2, n-1),
		"zeros":       zeros(),
		"zeros+nan":   with(zeros(), nan, n/2),
		"inf":         with(plain(), math.Inf(1), n/2),
		"-inf":        with(plain(), math.Inf(-1), n-1),
		"plus-zeros":  make([]float64, n),
		"minus-zero":  with(make([]float64, n), math.Copysign(0, -1), n-1),
	}
	return l
}

// TestMinMaxFloat compares with slices.Min and slices.Max bit for bit, so
// that -0 and +0 are told apart, and checks that a NaN anywhere gives NaN.
// The bits of a NaN result are not compared: the built-in min and max make a
// NaN's payload from the operands' bits, so it depends on the grouping (see
// TestMinMaxNaNBits).
func TestMinMaxFloat(t *testing.T) {
	type layout struct {
		name         string
		in           []float64
		in32         []float32
		min, max     float64
		min32, max32 float32
	}
	eachCase(t, func(r *rand.Rand, n int) []layout {
		if n == 0 {
			return nil
		}
		var c []layout
		layouts := floatLayouts(r, n)
		for _, name := range slices.Sorted(maps.Keys(layouts)) {
			if n >= bigN() && !slices.Contains([]string{"plain", "nan-end", "zeros+nan"}, name) {
				continue // a few layouts suffice at the largest size, where each call is slow
			}
			in := layouts[name]
			in32 := make([]float32, n)
			for i, x := range in {
				in32[i] = float32(x)
			}
			c = append(c, layout{name, in, in32, slices.Min(in), slices.Max(in), slices.Min(in32), slices.Max(in32)})
		}
		return c
	}, func(t *testing.T, n int, c []layout, s setup) {
		for _, l := range c {
			sameFloat(t, l.min, par.Min(l.in, s.opts...), "Min, "+l.name)
			sameFloat(t, l.max, par.Max(l.in, s.opts...), "Max, "+l.name)
			sameFloat(t, float64(l.min32), float64(par.Min(l.in32, s.opts...)), "Min float32, "+l.name)
			sameFloat(t, float64(l.max32), float64(par.Max(l.in32, s.opts...)), "Max float32, "+l.name)
		}
	})
}

// sameFloat requires got to have want's bits, or to be NaN if want is.
func sameFloat(t *testing.T, want, got float64, msg string) {
	t.Helper()
	if math.IsNaN(want) {
		require.True(t, math.IsNaN(got), "%s: want NaN, got %v", msg, got)
		return
	}
	require.Equal(t, math.Float64bits(want), math.Float64bits(got), "%s: want %v, got %v", msg, want, got)
}

func TestMinMaxSignedZeros(t *testing.T) {
	neg := math.Copysign(0, -1)
	for _, in := range [][]float64{{0, neg}, {neg, 0}, {0, 0, neg, 0}} {
		require.True(t, math.Signbit(par.Min(in)), "Min(%v) must be -0", in)
		require.False(t, math.Signbit(par.Max(in)), "Max(%v) must be +0", in)
	}
}

func TestMinMaxStrings(t *testing.T) {
	in := strings.Fields("pear fig apple quince banana fig apple")
	require.Equal(t, "apple", par.Min(in))
	require.Equal(t, "quince", par.Max(in))
}

// keyed is compared by key alone: idx tells equal keys apart, so a test can
// see which of several equal elements was returned.
type keyed struct{ key, idx int }

func byKey(a, b keyed) int { return cmp.Compare(a.key, b.key) }

func TestMinMaxFuncFirstWins(t *testing.T) {
	type tieCase struct {
		k        int
		in       []keyed
		min, max keyed
	}
	eachCase(t, func(r *rand.Rand, n int) []tieCase {
		if n == 0 {
			return nil
		}
		var c []tieCase
		for _, k := range []int{1, 3, 1000} { // all tied, many ties, few ties
			in := make([]keyed, n)
			for i := range in {
				in[i] = keyed{key: r.IntN(k), idx: i}
			}
			c = append(c, tieCase{k, in, slices.MinFunc(in, byKey), slices.MaxFunc(in, byKey)})
		}
		return c
	}, func(t *testing.T, n int, c []tieCase, s setup) {
		for _, tc := range c {
			require.Equal(t, tc.min, par.MinFunc(tc.in, byKey, s.opts...), "MinFunc, keys < %d", tc.k)
			require.Equal(t, tc.max, par.MaxFunc(tc.in, byKey, s.opts...), "MaxFunc, keys < %d", tc.k)
		}
	})
}

func TestMinMaxOneElement(t *testing.T) {
	require.Equal(t, 5, par.Min([]int{5}))
	require.Equal(t, 5, par.Max([]int{5}))
	require.Equal(t, keyed{1, 2}, par.MinFunc([]keyed{{1, 2}}, byKey))
	require.Equal(t, keyed{1, 2}, par.MaxFunc([]keyed{{1, 2}}, byKey))
	require.True(t, math.IsNaN(par.Min([]float64{math.NaN()})))
}

func TestMinMaxEmptyPanics(t *testing.T) {
	for name, f := range map[string]func(){
		"Min":     func() { par.Min([]int{}) },
		"Max":     func() { par.Max([]float64(nil)) },
		"MinFunc": func() { par.MinFunc([]keyed{}, byKey) },
		"MaxFunc": func() { par.MaxFunc([]keyed(nil), byKey) },
	} {
		v := panicValue(t, f)
		require.Contains(t, v, "empty", "%s on an empty slice", name)
	}
}

// TestMinMaxNaNBits: with a NaN in the input, Min and Max give exactly the
// bits of slices.Min and slices.Max, as documented. (On amd64 the built-in min
// and max make a NaN's payload by or-ing the operands' bits, so the payload
// depends on which values meet the NaN; where the hardware makes a canonical
// NaN the test passes trivially.)
// Once caught: Min({1.1, NaN, 3.3}) was 0x7ff999999999999b where slices.Min gives 0x7ffbffffffffffff (Min started every piece from s[0]).
func TestMinMaxNaNBits(t *testing.T) {
	nan := math.NaN()
	for _, s := range [][]float64{{1.1, nan, 3.3}, {3.3, nan, 1.1}} {
		assert.Equal(t, fmt.Sprintf("%#x", math.Float64bits(slices.Min(s))), fmt.Sprintf("%#x", math.Float64bits(par.Min(s))), "Min(%v)", s)
		assert.Equal(t, fmt.Sprintf("%#x", math.Float64bits(slices.Max(s))), fmt.Sprintf("%#x", math.Float64bits(par.Max(s))), "Max(%v)", s)
	}
}
