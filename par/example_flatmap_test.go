package par_test

import (
	"fmt"
	"strings"

	"github.com/weftgo/weft/par"
)

// Each line gives its words, appended to the buffer FlatMap hands over: no
// slice is made per line.
func ExampleFlatMap() {
	lines := []string{"a b", "", "c d e"}
	words := par.FlatMap(lines, func(line string, out []string) []string {
		for w := range strings.FieldsSeq(line) {
			out = append(out, w)
		}
		return out
	})
	fmt.Println(words, len(words))
	// Output: [a b c d e] 5
}
