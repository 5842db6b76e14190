package pipe

// TextReach runs the feeder of the text source named source ("Split" with
// separator ',', "Lines" or "Fields") over the positions [lo, hi) of s, and
// returns how far it read s: it looked at no byte at or after that.
func TextReach(source, s string, lo, hi int) int {
	t := newText(s)
	buf := make([]string, 0, batch)
	sink := func([]int, []string) {}
	switch source {
	case "Split":
		return feedCut(t, splitCutter(t, ','), lo, hi, buf, nil, sink)
	case "Lines":
		return feedCut(t, linesCutter(t), lo, hi, buf, nil, sink)
	case "Fields":
		return feedFields(t, lo, hi, buf, nil, sink)
	}
	panic("TextReach: no source " + source)
}
