package par_test

import (
	"cmp"
	"fmt"
	"math"
	"strings"

	"github.com/weftgo/weft/par"
)

func ExampleSort() {
	s := []float64{2.5, math.NaN(), -1, math.Inf(1), 0, math.Inf(-1)}
	par.Sort(s)
	fmt.Println(s)
	// Output: [NaN -Inf -1 0 2.5 +Inf]
}

func ExampleSortFunc() {
	words := []string{"Banana", "apple", "Cherry"}
	par.SortFunc(words, func(a, b string) int {
		return strings.Compare(strings.ToLower(a), strings.ToLower(b))
	})
	fmt.Println(words)
	// Output: [apple Banana Cherry]
}

func ExampleSortStableFunc() {
	type person struct {
		name string
		age  int
	}
	people := []person{{"Ada", 36}, {"Brian", 28}, {"Carol", 36}, {"Dan", 28}}
	par.SortStableFunc(people, func(a, b person) int { return cmp.Compare(a.age, b.age) })
	fmt.Println(people)
	// Output: [{Brian 28} {Dan 28} {Ada 36} {Carol 36}]
}
