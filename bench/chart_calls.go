package main

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
)

// The chart's panels for W11: speedup over the loop against the loop's time
// per call, one line per implementation, on a logarithmic time axis.

const callsPanH = 300

// callsPanels draws W11's curves two to a row from y0.
func (s *svgBuf) callsPanels(cs []*callsCurve, y0 float64) {
	w := float64(panelW)
	for i, c := range cs {
		x := margin + 8 + float64(i%2)*(w+colGap)
		y := y0 + float64(i/2)*(callsPanH+14)
		s.callsPanel(c, x, y, w-16)
	}
}

// callsHeight is the height callsPanels takes.
func callsHeight(cs []*callsCurve) float64 {
	return float64((len(cs)+1)/2) * (callsPanH + 14)
}

func (s *svgBuf) callsPanel(c *callsCurve, x0, y0, w float64) {
	s.f(`<rect x="%.1f" y="%.1f" width="%.1f" height="%d" fill="#fafafa" stroke="#ddd" rx="4"/>`, x0-8, y0-4, w+16, callsPanH-6)
	who := "one calling goroutine"
	if c.Callers > 1 {
		who = fmt.Sprintf("%d calling goroutines at once", c.Callers)
	}
	s.text(x0, y0+14, 13, "start", colText, "bold", fmt.Sprintf("W11 %s, %s", c.Body, who))
	s.text(x0, y0+29, 11, "start", colMuted, "normal", fmt.Sprintf("%s; median of %d paired rounds", c.Def, c.Rounds))
	if len(c.Rows) == 0 {
		return
	}
	px0, py0 := x0+36, y0+42
	pw, ph := w-150, float64(callsPanH-90)
	hi := 1.0
	for _, r := range c.Rows {
		for _, v := range r.Ratio {
			hi = max(hi, v)
		}
	}
	hi = math.Ceil(hi*4) / 4
	lo := 0.0
	ly := func(v float64) float64 { return py0 + ph - ph*(min(v, hi)-lo)/(hi-lo) }
	tmin := math.Log10(float64(c.Rows[0].Loop))
	tmax := math.Log10(float64(c.Rows[len(c.Rows)-1].Loop))
	lx := func(r *callsSize) float64 {
		if tmax == tmin {
			return px0 + pw/2
		}
		return px0 + pw*(math.Log10(float64(r.Loop))-tmin)/(tmax-tmin)
	}
	for v := 0.0; v <= hi+1e-9; v += 0.25 {
		col := colGrid
		if math.Abs(v-math.Round(v)) < 1e-9 {
			s.text(px0-4, ly(v)+3, 9, "end", colMuted, "normal", fmt.Sprintf("%.0f×", v))
			col = "#d0d0d0"
		}
		s.line(px0, ly(v), px0+pw, ly(v), col, 1, "")
	}
	s.line(px0, ly(1), px0+pw, ly(1), colIdeal, 1, "3,2")
	for _, r := range c.Rows {
		s.text(lx(r), py0+ph+12, 9, "middle", colMuted, "normal", fmtDur(r.Loop))
	}
	s.text(px0+pw/2, py0+ph+26, 10, "middle", colMuted, "normal", "the loop's time per call (logarithmic); y: the loop's time over each one's")
	// Libraries first, then the hand-written loops, weft last, on top.
	type line struct {
		k     int
		width float64
	}
	var lines []line
	for _, kd := range []kind{kindLib, kindHand, kindWeft} {
		for k, im := range c.Impls {
			if k > 0 && im.Kind == kd {
				wd := 1.0
				if kd != kindLib {
					wd = 2
				}
				lines = append(lines, line{k, wd})
			}
		}
	}
	type label struct {
		y    float64
		name string
		col  string
	}
	var labels []label
	for _, l := range lines {
		im := c.Impls[l.k]
		var pts []string
		end := c.Rows[0]
		for _, r := range c.Rows {
			if r.out(l.k) != callsSkipped {
				pts = append(pts, fmt.Sprintf("%.1f,%.1f", lx(r), ly(r.Ratio[l.k])))
				end = r
			}
		}
		dash := ""
		if im.Kind == kindWeft && strings.Contains(im.Name, "Range") {
			dash = ` stroke-dasharray="5,3"`
		}
		s.f(`<polyline points="%s" fill="none" stroke="%s" stroke-width="%.1f"%s/>`, strings.Join(pts, " "), kindColor(im.Kind), l.width, dash)
		labels = append(labels, label{ly(end.Ratio[l.k]) + 3, im.Name, kindColor(im.Kind)})
	}
	// A label at the end of each line, moved down past the one above it.
	slices.SortFunc(labels, func(a, b label) int { return cmp.Compare(a.y, b.y) })
	for i := range labels {
		if i > 0 {
			labels[i].y = max(labels[i].y, labels[i-1].y+10)
		}
		s.text(px0+pw+6, labels[i].y, 9, "start", labels[i].col, "normal", labels[i].name)
	}
}
