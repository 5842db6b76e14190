package par_test

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/weftgo/weft/par"
)

// MapErr returns every result, or the error that stopped the call; a failure
// stops the elements not yet started and cancels the context passed to the
// calls running.
func ExampleMapErr() {
	parse := func(_ context.Context, s string) (int, error) { return strconv.Atoi(s) }

	ns, err := par.MapErr(context.Background(), []string{"1", "22", "333"}, parse)
	fmt.Println(ns, err)

	ns, err = par.MapErr(context.Background(), []string{"1", "two", "3"}, parse)
	fmt.Println(ns, err)
	// Output:
	// [1 22 333] <nil>
	// [] strconv.Atoi: parsing "two": invalid syntax
}

var errNoSuchUser = errors.New("no such user")

// ForEachErr is MapErr for functions that return only an error. A context
// that has already ended gives its error without a call of the function.
func ExampleForEachErr() {
	users := map[string]int{"ana": 1, "bo": 2, "cy": 3}
	check := func(_ context.Context, name string) error {
		if _, ok := users[name]; !ok {
			return fmt.Errorf("%s: %w", name, errNoSuchUser)
		}
		return nil
	}

	fmt.Println(par.ForEachErr(context.Background(), []string{"ana", "cy"}, check))

	err := par.ForEachErr(context.Background(), []string{"ana", "dee", "bo"}, check)
	fmt.Println(err, errors.Is(err, errNoSuchUser))

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	calls := 0
	err = par.ForEachErr(ctx, []string{"ana"}, func(context.Context, string) error { calls++; return nil })
	fmt.Println(err, calls)
	// Output:
	// <nil>
	// dee: no such user true
	// context canceled 0
}
