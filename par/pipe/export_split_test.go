package pipe

// TextRead runs the feeder of the text source named source ("Split" with
// separator ',', "Lines" or "Fields") over every piece [lo, lo+piece) of
// its positions, one after the other, and returns how many bytes of s the
// feeders read in all: each looked at the bytes from lo-1 to how far it read.
func TextRead(source, s string, piece int) int {
	t := newText(s)
	buf := make([]string, 0, batch)
	sink := func([]int, []string) {}
	var feed func(lo, hi int) int
	n := len(s)
	switch source {
	case "Split":
		c := splitCutter(t, ',')
		feed = func(lo, hi int) int { return feedCut(t, c, lo, hi, buf, nil, sink) }
		n++
	case "Lines":
		c := linesCutter(t)
		feed = func(lo, hi int) int { return feedCut(t, c, lo, hi, buf, nil, sink) }
	case "Fields":
		feed = func(lo, hi int) int { return feedFields(t, lo, hi, buf, nil, sink) }
	default:
		panic("TextRead: no source " + source)
	}
	read := 0
	for lo := 0; lo < n; lo += piece {
		read += max(0, feed(lo, min(n, lo+piece))-max(0, lo-1))
	}
	return read
}
