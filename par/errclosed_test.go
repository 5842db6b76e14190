package par_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/weftgo/weft/par"
)

func TestErrClosedMatches(t *testing.T) {
	p := par.NewPool(par.Workers(1))
	p.Close()
	defer func() {
		err, ok := recover().(error)
		require.True(t, ok)
		require.True(t, errors.Is(err, par.ErrClosed))
	}()
	par.For(10, func(int) {}, par.OnPool(p))
	t.Fatal("no panic")
}
