package main

import (
	"fmt"
	"math"
	"strings"
)

// The chart's panels for the grain sweep and the scaling counts.

// sweepPanel plots time relative to the adaptive default against the grain.
func (s *svgBuf) sweepPanel(row *sweepRow, x0, y0, w float64) {
	s.f(`<rect x="%.1f" y="%.1f" width="%.1f" height="%d" fill="#fafafa" stroke="#ddd" rx="4"/>`, x0-8, y0-4, w+16, sweepPanH-6)
	s.text(x0, y0+14, 13, "start", colText, "bold", fmt.Sprintf("%s grain sweep, n = %s", row.Workload, commas(row.N)))
	verdict := fmt.Sprintf("adaptive / best = %.3f (paired %.3f)", row.Ratio, row.Paired)
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
