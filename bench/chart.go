package main

import (
	"fmt"
	"html"
	"math"
	"strings"
	"time"
)

// The chart: one SVG, drawn by hand so that the page needs nothing from
// outside. A panel per workload shows every implementation's speedup over
// the sequential loop as a bar on one linear scale shared by all panels, with
// the sequential (1x) and ideal (workers) lines, and weft's per-worker
// utilization under it; then the grain sweep and the scaling counts.

const (
	chartW    = 1160
	margin    = 24
	colGap    = 28
	panelW    = (chartW - 2*margin - colGap) / 2
	labelW    = 112 // implementation names
	valueW    = 128 // the numbers right of a bar
	rowH      = 17
	barH      = 11
	fontFam   = `font-family="DejaVu Sans, Helvetica, Arial, sans-serif"`
	colWeft   = "#d95f02"
	colSeq    = "#9a9a9a"
	colHand   = "#7570b3"
	colLib    = "#1b9e77"
	colGrid   = "#e4e4e4"
	colText   = "#222"
	colMuted  = "#777"
	colBad    = "#c0392b"
	colIdeal  = "#444"
	utilBarW  = 220
	sweepPanH = 190
	scalePanH = 230
	sweepClip = 2.5 // the sweep's y axis ends here; slower grains are marked at the top
)

func kindColor(k kind) string {
	switch k {
	case kindWeft:
		return colWeft
	case kindSeq:
		return colSeq
	case kindHand:
		return colHand
	}
	return colLib
}

// svgBuf collects SVG elements with the y offset of the panel being drawn.
type svgBuf struct {
	b strings.Builder
}

func (s *svgBuf) f(format string, args ...any) {
	fmt.Fprintf(&s.b, format, args...)
	s.b.WriteByte('\n')
}

func (s *svgBuf) text(x, y float64, size int, anchor, color, weight, txt string) {
	s.f(`<text x="%.1f" y="%.1f" font-size="%d" text-anchor="%s" fill="%s" font-weight="%s">%s</text>`,
		x, y, size, anchor, color, weight, html.EscapeString(txt))
}

// halo writes text with a white outline, to stay legible over grid lines.
func (s *svgBuf) halo(x, y float64, size int, color, weight, txt string) {
	s.f(`<text x="%.1f" y="%.1f" font-size="%d" fill="%s" font-weight="%s" stroke="white" stroke-width="3" paint-order="stroke">%s</text>`,
		x, y, size, color, weight, html.EscapeString(txt))
}

func (s *svgBuf) rect(x, y, w, h float64, fill string) {
	s.f(`<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"/>`, x, y, max(w, 0), h, fill)
}

func (s *svgBuf) line(x1, y1, x2, y2 float64, color string, width float64, dash string) {
	d := ""
	if dash != "" {
		d = fmt.Sprintf(` stroke-dasharray="%s"`, dash)
	}
	s.f(`<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="%.1f"%s/>`, x1, y1, x2, y2, color, width, d)
}

// wrap cuts txt into lines of at most n characters at spaces.
func wrap(txt string, n int) []string {
	var lines []string
	var cur string
	for _, w := range strings.Fields(txt) {
		if cur != "" && len(cur)+1+len(w) > n {
			lines = append(lines, cur)
			cur = w
			continue
		}
		if cur != "" {
			cur += " "
		}
		cur += w
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	return lines
}

// speedScale is the right end of the speedup axis shared by every panel.
func speedScale(r *report) float64 {
	m := float64(r.Workers) + 0.25
	for _, w := range r.Workloads {
		for _, x := range w.Results {
			m = max(m, x.Speedup*1.05)
		}
	}
	return m
}

func tickStep(m float64) float64 {
	switch {
	case m <= 3:
		return 0.5
	case m <= 8:
		return 1
	case m <= 20:
		return 2
	}
	return math.Ceil(m / 10)
}

// panelHeight is the height of a workload's panel.
func panelHeight(w *wlReport, cap time.Duration) float64 {
	h := 44.0 // title, size line
	for _, x := range w.Results {
		if x.Skip == "" {
			h += rowH
		}
	}
	h += 22 // axis
	h += 13 * float64(len(skippedLines(w, cap)))
	if wf := w.result("weft"); wf != nil && wf.Util != nil {
		if idle(wf.Util) {
			h += 20
		} else {
			h += 20 + 14*float64(len(wf.Util.Workers)+1)
		}
	}
	return h + 12
}

// skippedLines say which implementations did not run and why, briefly: the
// ones projected over the time cap with their projections, the others
// grouped by reason.
func skippedLines(w *wlReport, cap time.Duration) []string {
	var over []string
	why := map[string][]string{}
	var order []string
	for _, x := range w.Results {
		switch {
		case x.Skip == "":
		case x.Projected > 0:
			over = append(over, fmt.Sprintf("%s %s", x.Impl, fmtDur(x.Projected)))
		default:
			short := shortReason(x.Skip)
			if _, ok := why[short]; !ok {
				order = append(order, short)
			}
			why[short] = append(why[short], x.Impl)
		}
	}
	var lines []string
	if len(over) > 0 {
		lines = append(lines, wrap(fmt.Sprintf("not run, a run projected over the %s cap: %s", cap, strings.Join(over, ", ")), 92)...)
	}
	for _, r := range order {
		lines = append(lines, wrap(fmt.Sprintf("not run, %s: %s", r, strings.Join(why[r], ", ")), 92)...)
	}
	return lines
}

// shortReason is a reason for not running, in a few words.
func shortReason(why string) string {
	switch why {
	case notSort:
		return "not a sort"
	case onlySort:
		return "a sort library"
	case noForkJoin:
		return "no fork-join API"
	case notRecurse:
		return "a bounded pool deadlocks in fork-join recursion"
	case notLoopOnly:
		return "a loop, no range to cut in fib"
	}
	return why
}

func (s *svgBuf) workloadPanel(r *report, w *wlReport, x0, y0, scale float64) {
	s.f(`<rect x="%.1f" y="%.1f" width="%d" height="%.1f" fill="#fafafa" stroke="#ddd" rx="4"/>`,
		x0-8, y0-4, panelW+16, panelHeight(w, r.Cap)-6)
	s.text(x0, y0+14, 15, "start", colText, "bold", fmt.Sprintf("%s %s", w.ID, w.Name))
	sub := w.Size
	if w.N != w.FullN {
		sub += " (quick)"
	}
	if w.PerCall {
		sub += ", time per call"
	}
	sub += "   checksum " + shortSum(w.Checksum)
	if w.RefOK != nil && *w.RefOK {
		sub += " ✓ reference"
	}
	s.text(x0, y0+31, 11, "start", colMuted, "normal", sub)
	barX := x0 + labelW
	barW := float64(panelW - labelW - valueW)
	px := func(v float64) float64 { return barX + barW*min(v, scale)/scale }
	y := y0 + 42
	top := y
	var rows []*result
	for _, x := range w.Results {
		if x.Skip == "" {
			rows = append(rows, x)
		}
	}
	bottom := top + float64(len(rows))*rowH
	// Grid and reference lines under the bars.
	step := tickStep(scale)
	for t := 0.0; t <= scale+1e-9; t += step {
		s.line(px(t), top-2, px(t), bottom+2, colGrid, 1, "")
	}
	for i, x := range rows {
		yy := y + float64(i)*rowH
		weight := "normal"
		if x.Kind == kindWeft {
			weight = "bold"
		}
		s.text(barX-6, yy+barH-1, 12, "end", colText, weight, x.Impl)
		s.rect(barX, yy, px(x.Speedup)-barX, barH, kindColor(x.Kind))
		label := fmt.Sprintf("%s×  %s", fmtRatio(x.Speedup), fmtDur(x.Median))
		if x.Capped != "" {
			label += " (1 run, capped)"
		}
		color := colText
		if x.Checksum != w.Checksum {
			label += " WRONG SUM"
			color = colBad
		}
		lx := px(x.Speedup) + 4
		if x.Speedup > scale {
			lx = barX + barW + 4
		}
		s.halo(lx, yy+barH-1, 11, color, weight, label)
	}
	s.line(px(1), top-4, px(1), bottom+4, colIdeal, 1, "3,2")
	s.line(px(float64(r.Workers)), top-4, px(float64(r.Workers)), bottom+4, colIdeal, 1.5, "")
	y = bottom + 4
	for t := 0.0; t <= scale+1e-9; t += step {
		s.text(px(t), y+11, 10, "middle", colMuted, "normal", trimFloat(t)+"×")
	}
	y += 22
	for _, l := range skippedLines(w, r.Cap) {
		s.text(x0, y+2, 10, "start", colMuted, "normal", l)
		y += 13
	}
	if wf := w.result("weft"); wf != nil && wf.Util != nil && idle(wf.Util) {
		s.text(x0, y+14, 11, "start", colText, "bold", "weft utilization: no task reached the pool; every call ran on the caller alone")
	} else if wf != nil && wf.Util != nil {
		u := wf.Util
		y += 6
		s.text(x0, y+8, 11, "start", colText, "bold",
			fmt.Sprintf("weft utilization (busy / wall, %d runs); %s tasks, %s steals a run",
				len(wf.Times), fmtCount(u.Tasks), fmtCount(u.Steals)))
		y += 14
		draw := func(name string, f float64) {
			s.text(barX-6, y+9, 11, "end", colText, "normal", name)
			s.rect(barX, y+1, utilBarW, 9, "#eee")
			s.rect(barX, y+1, utilBarW*min(max(f, 0), 1), 9, colWeft)
			s.text(barX+utilBarW+6, y+9, 11, "start", colText, "normal", fmt.Sprintf("%.0f%%", 100*f))
			y += 14
		}
		for i, f := range u.Workers {
			draw(fmt.Sprintf("worker %d", i), f)
		}
		draw("caller", u.Caller)
	}
}

// idle reports whether no task of the runs reached weft's pool.
func idle(u *utilization) bool { return u.Tasks == 0 && u.Tries == 0 }

func shortSum(c string) string {
	if len(c) > 44 {
		return c[:41] + "..."
	}
	return c
}

func trimFloat(t float64) string {
	if t == math.Trunc(t) {
		return fmt.Sprintf("%.0f", t)
	}
	return fmt.Sprintf("%.1f", t)
}

// sweepPanel plots time relative to the adaptive default against the grain.
func (s *svgBuf) sweepPanel(row *sweepRow, x0, y0, w float64) {
	s.f(`<rect x="%.1f" y="%.1f" width="%.1f" height="%d" fill="#fafafa" stroke="#ddd" rx="4"/>`, x0-8, y0-4, w+16, sweepPanH-6)
	s.text(x0, y0+14, 13, "start", colText, "bold", fmt.Sprintf("%s grain sweep, n = %s", row.Workload, commas(row.N)))
	verdict := fmt.Sprintf("adaptive / best = %.3f", row.Ratio)
	vcol := colMuted
	if !row.OK {
		verdict += " (over 1.05)"
		vcol = colBad
	}
	s.text(x0, y0+29, 11, "start", vcol, "normal", verdict)
	if len(row.Grains) == 0 || row.Adaptive == 0 {
		return
	}
	px0, py0 := x0+36, y0+40
	pw, ph := w-48, float64(sweepPanH-80)
	hi := 1.2
	for _, g := range row.Grains {
		hi = max(hi, float64(g.Median)/float64(row.Adaptive))
	}
	hi = min(math.Ceil(hi*10)/10, sweepClip)
	lo := 0.8
	for _, g := range row.Grains {
		lo = min(lo, float64(g.Median)/float64(row.Adaptive))
	}
	lo = math.Floor(lo*10) / 10
	ly := func(v float64) float64 { return py0 + ph - ph*(v-lo)/(hi-lo) }
	gmin, gmax := math.Log(float64(row.Grains[0].Grain)), math.Log(float64(row.Grains[len(row.Grains)-1].Grain))
	lx := func(g int) float64 {
		if gmax == gmin {
			return px0 + pw/2
		}
		return px0 + pw*(math.Log(float64(g))-gmin)/(gmax-gmin)
	}
	// The band within 5% of the adaptive default.
	s.f(`<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="#fdebd9"/>`, px0, ly(min(1.05, hi)), pw, ly(max(0.95, lo))-ly(min(1.05, hi)))
	st := tickStepRel(hi - lo)
	for v := math.Ceil(lo/st-1e-9) * st; v <= hi+1e-9; v += st {
		s.line(px0, ly(v), px0+pw, ly(v), colGrid, 1, "")
		s.text(px0-4, ly(v)+3, 9, "end", colMuted, "normal", fmt.Sprintf("%.1f", v))
	}
	s.line(px0, ly(1), px0+pw, ly(1), colWeft, 1.5, "4,3")
	s.text(px0+pw, ly(1)-3, 9, "end", colWeft, "normal", "adaptive default")
	var pts []string
	for _, g := range row.Grains {
		v := min(float64(g.Median)/float64(row.Adaptive), hi)
		pts = append(pts, fmt.Sprintf("%.1f,%.1f", lx(g.Grain), ly(v)))
	}
	s.f(`<polyline points="%s" fill="none" stroke="%s" stroke-width="1.5"/>`, strings.Join(pts, " "), colHand)
	for _, g := range row.Grains {
		v := float64(g.Median) / float64(row.Adaptive)
		cx, cy := lx(g.Grain), ly(min(v, hi))
		fill := colHand
		if g == row.Best {
			fill = "#111"
		}
		if v > hi {
			// Off the scale: a triangle at the top, with its value.
			s.f(`<path d="M%.1f,%.1f l-4,7 h8 z" fill="%s"/>`, cx, cy-3, fill)
			s.halo(cx+6, cy+8, 9, colMuted, "normal", fmt.Sprintf("%.1f", v))
		} else {
			s.f(`<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>`, cx, cy, fill)
		}
		s.text(cx, py0+ph+12, 9, "middle", colMuted, "normal", fmtCount(float64(g.Grain)))
	}
	s.text(px0+pw/2, py0+ph+25, 10, "middle", colMuted, "normal", "fixed grain (par.WithGrain); y: time / adaptive time")
}

func tickStepRel(span float64) float64 {
	switch {
	case span <= 0.6:
		return 0.1
	case span <= 1.5:
		return 0.2
	case span <= 4:
		return 0.5
	}
	return math.Ceil(span / 6)
}

// scalePanel plots tasks and steals per run against the number of workers,
// both axes logarithmic.
func (s *svgBuf) scalePanel(rows []*scaleRow, x0, y0, w float64) {
	s.f(`<rect x="%.1f" y="%.1f" width="%.1f" height="%d" fill="#fafafa" stroke="#ddd" rx="4"/>`, x0-8, y0-4, w+16, scalePanH-6)
	s.text(x0, y0+14, 13, "start", colText, "bold", "Scaling: tasks (solid) and steals (dashed) per run, by pool size")
	s.text(x0, y0+29, 11, "start", colMuted, "normal", "oversubscribed above the core count: events are counted, not time")
	px0, py0 := x0+48, y0+42
	pw, ph := w-230, float64(scalePanH-90)
	hi := 1.0
	for _, r := range rows {
		hi = max(hi, r.Tasks, r.Steals)
	}
	top := math.Ceil(math.Log10(hi))
	ly := func(v float64) float64 {
		v = max(v, 1)
		return py0 + ph - ph*math.Log10(v)/max(top, 1)
	}
	maxW := float64(scalingWorkers[len(scalingWorkers)-1])
	lx := func(k int) float64 { return px0 + pw*math.Log2(float64(k))/math.Log2(maxW) }
	for e := 0.0; e <= top; e++ {
		v := math.Pow(10, e)
		s.line(px0, ly(v), px0+pw, ly(v), colGrid, 1, "")
		s.text(px0-4, ly(v)+3, 9, "end", colMuted, "normal", fmtCount(v))
	}
	for _, k := range scalingWorkers {
		s.text(lx(k), py0+ph+12, 10, "middle", colMuted, "normal", fmt.Sprint(k))
	}
	s.text(px0+pw/2, py0+ph+26, 10, "middle", colMuted, "normal", "workers")
	colors := []string{"#1b9e77", "#d95f02", "#7570b3", "#e7298a"}
	var ids []string
	byID := map[string][]*scaleRow{}
	for _, r := range rows {
		if _, ok := byID[r.Workload]; !ok {
			ids = append(ids, r.Workload)
		}
		byID[r.Workload] = append(byID[r.Workload], r)
	}
	for i, id := range ids {
		c := colors[i%len(colors)]
		var tp, sp []string
		for _, r := range byID[id] {
			tp = append(tp, fmt.Sprintf("%.1f,%.1f", lx(r.Workers), ly(r.Tasks)))
			sp = append(sp, fmt.Sprintf("%.1f,%.1f", lx(r.Workers), ly(r.Steals)))
		}
		s.f(`<polyline points="%s" fill="none" stroke="%s" stroke-width="2"/>`, strings.Join(tp, " "), c)
		s.f(`<polyline points="%s" fill="none" stroke="%s" stroke-width="2" stroke-dasharray="5,3"/>`, strings.Join(sp, " "), c)
		last := byID[id][len(byID[id])-1]
		s.text(px0+pw+8, y0+50+float64(i)*30, 11, "start", c, "bold", id)
		s.text(px0+pw+8, y0+63+float64(i)*30, 10, "start", colMuted, "normal",
			fmt.Sprintf("%d workers: %s tasks, %s steals", last.Workers, fmtCount(last.Tasks), fmtCount(last.Steals)))
	}
}

// chartSVG draws the whole report as one SVG.
func chartSVG(r *report) string {
	var s svgBuf
	scale := speedScale(r)
	// Lay the workload panels out in two columns, row by row.
	type placed struct {
		w    *wlReport
		x, y float64
	}
	var ps []placed
	y := 96.0
	for i := 0; i < len(r.Workloads); i += 2 {
		h := panelHeight(r.Workloads[i], r.Cap)
		ps = append(ps, placed{r.Workloads[i], margin + 8, y})
		if i+1 < len(r.Workloads) {
			h = max(h, panelHeight(r.Workloads[i+1], r.Cap))
			ps = append(ps, placed{r.Workloads[i+1], margin + 8 + panelW + colGap, y})
		}
		y += h + 14
	}
	sweepY := y
	if len(r.Sweep) > 0 {
		y += sweepPanH + 14
	}
	scaleY := y
	if len(r.Scaling) > 0 {
		y += scalePanH + 14
	}
	notes := chartNotes(r)
	notesY := y
	if len(notes) > 0 {
		y += 20 + 13*float64(len(notes))
	}
	height := y + margin

	s.f(`<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%.0f" viewBox="0 0 %d %.0f" %s>`, chartW, height, chartW, height, fontFam)
	s.f(`<rect width="100%%" height="100%%" fill="white"/>`)
	mode := "quick sizes"
	if r.Full {
		mode = "DESIGN.md sizes"
	}
	s.text(margin, 32, 22, "start", colText, "bold", "weft against the other ways to run it in parallel")
	s.text(margin, 52, 12, "start", colMuted, "normal",
		fmt.Sprintf("speedup over the sequential loop (median of %d runs, %s); %d workers on %d CPUs, %s %s/%s",
			r.Reps, mode, r.Workers, r.CPUs, r.GoVersion, r.OS, r.Arch))
	// Legend.
	lx := float64(margin)
	for _, k := range []struct {
		name string
		c    string
	}{{"weft", colWeft}, {"sequential", colSeq}, {"hand-written", colHand}, {"library", colLib}} {
		s.rect(lx, 64, 14, 10, k.c)
		s.text(lx+18, 73, 11, "start", colText, "normal", k.name)
		lx += 30 + 7*float64(len(k.name))
	}
	s.line(lx+6, 62, lx+6, 76, colIdeal, 1, "3,2")
	s.text(lx+12, 73, 11, "start", colText, "normal", "1× (sequential)")
	lx += 120
	s.line(lx, 62, lx, 76, colIdeal, 1.5, "")
	s.text(lx+6, 73, 11, "start", colText, "normal", fmt.Sprintf("%d× (ideal on %d workers)", r.Workers, r.Workers))
	for _, p := range ps {
		s.workloadPanel(r, p.w, p.x, p.y, scale)
	}
	if len(r.Sweep) > 0 {
		n := float64(len(r.Sweep))
		w := (float64(chartW-2*margin) - (n-1)*colGap) / n
		for i, row := range r.Sweep {
			s.sweepPanel(row, margin+8+float64(i)*(w+colGap), sweepY, w-16)
		}
	}
	if len(r.Scaling) > 0 {
		s.scalePanel(r.Scaling, margin+8, scaleY, float64(chartW-2*margin-16))
	}
	if len(notes) > 0 {
		s.text(margin, notesY+12, 12, "start", colText, "bold", "Notes")
	}
	for i, l := range notes {
		s.text(margin, notesY+28+13*float64(i), 10, "start", colMuted, "normal", l)
	}
	s.f(`</svg>`)
	return s.b.String()
}

// chartNotes are the implementations that ran once for being over the cap,
// and the errors, wrapped to the chart's width.
func chartNotes(r *report) []string {
	var out []string
	for _, w := range r.Workloads {
		for _, x := range w.Results {
			if x.Capped != "" {
				out = append(out, wrap(fmt.Sprintf("%s %s: %s", w.ID, x.Impl, x.Capped), 190)...)
			}
		}
	}
	for _, e := range r.Errors {
		out = append(out, wrap("ERROR: "+e, 190)...)
	}
	return out
}

// chartHTML wraps the chart in a self-contained page.
func chartHTML(r *report) string {
	var b strings.Builder
	b.WriteString("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n")
	b.WriteString("<title>weft benchmark</title>\n")
	b.WriteString("<style>body{margin:0;background:#fff;color:#222;font-family:'DejaVu Sans',Helvetica,Arial,sans-serif}" +
		"main{width:1160px;margin:0 auto}p,dl{font-size:13px;margin:6px 24px}dt{font-weight:bold;margin-top:6px}dd{margin-left:16px;color:#555}</style>\n")
	b.WriteString("</head><body><main>\n")
	b.WriteString(chartSVG(r))
	b.WriteString("<dl>\n")
	for _, w := range r.Workloads {
		fmt.Fprintf(&b, "<dt>%s %s</dt><dd>%s; %s; checksum %s</dd>\n", html.EscapeString(w.ID), html.EscapeString(w.Name),
			html.EscapeString(w.Def), html.EscapeString(w.Size), html.EscapeString(w.Checksum))
		for _, x := range w.Results {
			why := x.Skip
			if why == "" {
				why = x.Capped
			}
			if why != "" {
				fmt.Fprintf(&b, "<dd>%s: %s</dd>\n", html.EscapeString(x.Impl), html.EscapeString(why))
			}
		}
	}
	b.WriteString("<dt>competitors</dt>\n")
	seen := map[string]bool{}
	for _, w := range r.Workloads {
		for _, x := range w.Results {
			if (x.Kind == kindHand || x.Kind == kindLib) && !seen[x.Impl] {
				seen[x.Impl] = true
				fmt.Fprintf(&b, "<dd><b>%s</b>: %s</dd>\n", html.EscapeString(x.Impl), html.EscapeString(x.About))
			}
		}
	}
	b.WriteString("</dl>\n</main></body></html>\n")
	return b.String()
}
