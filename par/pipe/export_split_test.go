package pipe

import "slices"

// TextRead runs the feeder of the text source named source ("Split" with
// separator ',', "Lines" or "Fields") over every piece [lo, lo+piece) of
// its positions, one after the other, and returns how many bytes of s the
// feeders read in all: each looked at the bytes from lo-1 to how far it read.
func TextRead(source, s string, piece int) int {
	read, _, _ := textFeed(source, s, piece, func(int, int) {}, false)
	return read
}

// TextPieces runs the feeders of source over s as TextRead does, from the
// first piece of the range to the last, or from the last to the first, and
// returns the pieces they yield with their positions, sorted by position,
// and how many times they called the sink.
func TextPieces(source, s string, piece int, backwards bool) (pieces []string, pos []int, sinks int) {
	_, pieces, pos = textFeed(source, s, piece, func(int, int) { sinks++ }, backwards)
	return pieces, pos, sinks
}

// textFeed is TextRead and TextPieces.
func textFeed(source, s string, piece int, onSink func(int, int), backwards bool) (read int, pieces []string, pos []int) {
	t := newText(s)
	buf, pbuf := make([]string, 0, batch), make([]int, 0, batch)
	type found struct {
		at int
		s  string
	}
	var all []found
	sink := func(p []int, xs []string) {
		onSink(len(p), len(xs))
		for i, x := range xs {
			all = append(all, found{p[i], x})
		}
	}
	var feed func(lo, hi int) int
	n := len(s)
	switch source {
	case "Split":
		feed = func(lo, hi int) int { return feedSep(t, ',', false, lo, hi, buf, pbuf, sink) }
		n++
	case "Lines":
		feed = func(lo, hi int) int { return feedSep(t, '\n', true, lo, hi, buf, pbuf, sink) }
	case "Fields":
		feed = func(lo, hi int) int { return feedFields(t, lo, hi, buf, pbuf, sink) }
	default:
		panic("TextRead: no source " + source)
	}
	var los []int
	for lo := 0; lo < n; lo += piece {
		los = append(los, lo)
	}
	if backwards {
		slices.Reverse(los)
	}
	for _, lo := range los {
		read += max(0, feed(lo, min(n, lo+piece))-max(0, lo-1))
	}
	slices.SortFunc(all, func(a, b found) int { return a.at - b.at })
	for _, f := range all {
		pieces, pos = append(pieces, f.s), append(pos, f.at)
	}
	return read, pieces, pos
}
