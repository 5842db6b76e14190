package main

import (
	"fmt"
	"html"
	"math"
	"strings"
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
func panelHeight(w *wlReport) float64 {
	h := 44.0 // title, size line
	for _, x := range w.Results {
		if x.Skip == "" {
			h += rowH
		}
	}
	h += 22 // axis
	h += 13 * float64(len(skippedLines(w)))
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
func skippedLines(w *wlReport) []string {
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
		lines = append(lines, wrap("not run, a run projected over the cap: "+strings.Join(over, ", "), 92)...)
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
		x0-8, y0-4, panelW+16, panelHeight(w)-6)
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
	for _, l := range skippedLines(w) {
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
		h := panelHeight(r.Workloads[i])
		ps = append(ps, placed{r.Workloads[i], margin + 8, y})
		if i+1 < len(r.Workloads) {
			h = max(h, panelHeight(r.Workloads[i+1]))
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
	callsY := y
	y += callsHeight(r.Calls)
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
		mode = "docs/DESIGN.md sizes"
	}
	s.text(margin, 32, 22, "start", colText, "bold", "weft against the other ways to run it in parallel")
	s.text(margin, 52, 12, "start", colMuted, "normal",
		fmt.Sprintf("speedup over the sequential loop (median of %d runs, %s); %d workers on %d CPUs, %s %s/%s",
			r.Reps, mode, r.Workers, r.CPUs, r.GoVersion, r.OS, r.Arch)+loadNote(r))
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
	s.callsPanels(r.Calls, callsY)
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

func loadNote(r *report) string {
	if r.Load[0] == 0 && r.Load[1] == 0 {
		return ""
	}
	return fmt.Sprintf("; load average %.1f, %.1f", r.Load[0], r.Load[1])
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
