package results

import (
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Plot size and the legend's place: to the right of the data, never over
// it.
const (
	plotWidth  = 7 * vg.Inch
	plotHeight = 4.5 * vg.Inch
)

// PlotOptions choose how Summary.PlotWith draws.
type PlotOptions struct {
	// LogY is "auto" (the default: a logarithmic y axis for a metric whose
	// plotted means are all positive and span a factor of HeavyTailRatio
	// or more, up to MaxLogRatio, as bounded slowdown does between FCFS and
	// backfilling), "on"
	// (logarithmic wherever the means are positive) or "off".
	LogY string
	// Glossary gives the axes their units (nil: NewGlossary(nil)).
	Glossary *Glossary
}

// HeavyTailRatio is the ratio of the largest to the smallest plotted mean
// from which LogY "auto" draws a logarithmic y axis.
const HeavyTailRatio = 20

// MaxLogRatio is the largest ratio of the largest to the smallest plotted
// mean that LogY "auto" draws on a logarithmic axis: a wider span means a
// mean that is a rounding residue of 0 (1e-17 beside 1e3), better read on
// a linear axis.
const MaxLogRatio = 1e6

// useLog decides the y scale of a plot of the given means and CI bounds.
func (o PlotOptions) useLog(means []float64) bool {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, m := range means {
		lo, hi = math.Min(lo, m), math.Max(hi, m)
	}
	if len(means) == 0 || lo <= 0 {
		return false
	}
	switch o.LogY {
	case "on":
		return true
	case "off":
		return false
	}
	return hi/lo >= HeavyTailRatio && hi/lo <= MaxLogRatio
}

// CheckLogY validates a --log-y value.
func CheckLogY(v string) error {
	switch v {
	case "", "auto", "on", "off":
		return nil
	}
	return fmt.Errorf("--log-y %q: want auto, on or off", v)
}

// FormatTick renders a tick value for people: thousands separated
// ("53,000", "2,000,000"), at most four significant digits below 1,000.
func FormatTick(v float64) string {
	if v == 0 {
		return "0"
	}
	a := math.Abs(v)
	if a >= 1000 && a < 1e15 {
		r := math.Round(v)
		if math.Abs(r-v) < 1e-9*a {
			return groupThousands(strconv.FormatInt(int64(r), 10))
		}
		s := strconv.FormatFloat(v, 'f', 1, 64)
		i := strings.IndexByte(s, '.')
		return groupThousands(s[:i]) + s[i:]
	}
	if a < 1e-3 || a >= 1e15 {
		return strconv.FormatFloat(v, 'g', 3, 64)
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

func groupThousands(s string) string {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// readableTicks relabels another ticker's major ticks with FormatTick.
type readableTicks struct{ plot.Ticker }

func (t readableTicks) Ticks(lo, hi float64) []plot.Tick {
	ts := t.Ticker.Ticks(lo, hi)
	for i := range ts {
		if ts[i].Label != "" {
			ts[i].Label = FormatTick(ts[i].Value)
		}
	}
	return ts
}

// valueTicks marks exactly the given values (every grid value of an axis).
func valueTicks(vals []float64) plot.Ticker {
	vals = slices.Clone(vals)
	slices.Sort(vals)
	vals = slices.Compact(vals)
	var ts plot.ConstantTicks
	for _, v := range vals {
		ts = append(ts, plot.Tick{Value: v, Label: FormatTick(v)})
	}
	return ts
}

// logTicks labels 1, 2 and 5 × 10^k over a range of up to three decades
// (only the powers of ten beyond), with minor ticks at the other multiples.
type logTicks struct{}

func (logTicks) Ticks(lo, hi float64) []plot.Tick {
	if lo <= 0 || hi <= lo {
		return nil
	}
	decades := math.Log10(hi / lo)
	var ts []plot.Tick
	for e := math.Floor(math.Log10(lo)); math.Pow(10, e) <= hi; e++ {
		p := math.Pow(10, e)
		for m := 1.0; m < 10; m++ {
			v := m * p
			if v < lo || v > hi {
				continue
			}
			label := ""
			if m == 1 || (decades <= 3 && (m == 2 || m == 5)) {
				label = FormatTick(v)
			}
			ts = append(ts, plot.Tick{Value: v, Label: label})
		}
	}
	return ts
}

// axisLabel is a column's name with its unit from the glossary.
func (o PlotOptions) axisLabel(name, column string) string {
	g := o.Glossary
	if g == nil {
		g = NewGlossary(nil)
	}
	d, ok := g.Describe(column)
	if !ok || d.Unit == "" || d.Unit == "—" || d.Unit == unitInMeaning {
		return name
	}
	return name + " [" + d.Unit + "]"
}

// savePlot writes p with its legend to the right of the data area, as
// base.png and base.svg; it returns the files.
func savePlot(p *plot.Plot, legend plot.Legend, base string) ([]string, error) {
	legend.Top, legend.Left = true, true
	width := vg.Length(0)
	if n := legendWidth(&legend); n > 0 {
		width = n + legend.ThumbnailWidth + 0.3*vg.Inch
	}
	draw1 := func(c draw.Canvas) {
		p.Draw(draw.Crop(c, 0, -width, 0, 0))
		if width > 0 {
			l := legend
			lc := draw.Crop(c, plotWidth-width+0.1*vg.Inch, 0, 0, -0.3*vg.Inch)
			l.Draw(lc)
		}
	}
	var files []string
	png := vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(plotWidth, plotHeight), vgimg.UseDPI(96))}
	draw1(draw.New(png))
	if err := writeCanvas(base+".png", png); err != nil {
		return files, err
	}
	files = append(files, base+".png")
	svg := vgsvg.New(plotWidth, plotHeight)
	draw1(draw.New(svg))
	if err := writeCanvas(base+".svg", svg); err != nil {
		return files, err
	}
	return append(files, base+".svg"), nil
}

// legendWidth is the width the legend's widest entry needs.
func legendWidth(l *plot.Legend) vg.Length {
	c := draw.New(vgimg.New(plotWidth, plotHeight))
	r := l.Rectangle(c)
	return r.Max.X - r.Min.X
}

func writeCanvas(path string, c io.WriterTo) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("plot %s: %w", path, err)
	}
	if _, err := c.WriteTo(f); err != nil {
		f.Close()
		return fmt.Errorf("plot %s: %w", path, err)
	}
	return f.Close()
}
