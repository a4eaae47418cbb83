package results

import (
	"cmp"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"

	"github.com/schedfarm/schedfarm/experiments"
	"github.com/schedfarm/schedfarm/internal/numeric"
	"github.com/schedfarm/schedfarm/runner"
)

// Level is the confidence level of the intervals in summaries.
const Level = 0.95

// Group is one (scheduler, parameters) combination and the statistics of
// its replications.
type Group struct {
	Scheduler string
	// Params are the group's parameters (every cell parameter, sorted).
	Params []runner.Param
	// OK and Failed count the group's replications by status.
	OK, Failed int
	// Stats holds one Stat per metric, over the ok replications.
	Stats map[string]Stat
}

// Value returns the group's value of parameter name.
func (g *Group) Value(name string) (any, bool) {
	c := runner.Cell{Params: g.Params}
	return c.Lookup(name)
}

// Summary is the per-group summary of a results file.
type Summary struct {
	Groups []*Group
	// Axes are the parameters whose value differs between groups (sorted).
	Axes []string
	// Fixed are the parameters every group shares.
	Fixed []runner.Param
	// Metrics are the metric names present, sorted.
	Metrics []string
	// Schedulers in order of first appearance.
	Schedulers []string
	// Cells counts the records; Failed those with status failed.
	Cells, Failed int

	baseline string // scheduler WriteText compares against (SetBaseline)
}

// SetBaseline makes WriteText add a column with each group's mean relative
// to the baseline scheduler's mean at the same point: the group of
// scheduler name whose parameters equal the group's once every scheduler.*
// parameter is left out (schedulers of one cell share its seed, so this is
// a paired comparison). An unknown name is an error listing the schedulers.
func (s *Summary) SetBaseline(name string) error {
	if !contains(s.Schedulers, name) {
		return fmt.Errorf("baseline scheduler %q not in the results; present: %s", name, strings.Join(s.Schedulers, ", "))
	}
	s.baseline = name
	return nil
}

// pointKey identifies a group's grid point: its parameters without
// scheduler.* ones.
func pointKey(ps []runner.Param) string {
	var keep []runner.Param
	for _, p := range ps {
		if !strings.HasPrefix(p.Name, "scheduler.") {
			keep = append(keep, p)
		}
	}
	return runner.ParamsKey(keep)
}

// baselineGroups maps point keys to the baseline scheduler's groups.
func (s *Summary) baselineGroups() map[string]*Group {
	out := map[string]*Group{}
	for _, g := range s.Groups {
		if g.Scheduler == s.baseline {
			out[pointKey(g.Params)] = g
		}
	}
	return out
}

// schedulerLabels returns the name a record's scheduler is summarised
// under: its name, or name@<12 hex digits> when the records hold the name
// with more than one plugin binary, so different builds never mix.
func schedulerLabels(recs []*Record) func(*Record) string {
	shas := map[string]map[string]bool{}
	for _, r := range recs {
		if shas[r.Cell.Scheduler] == nil {
			shas[r.Cell.Scheduler] = map[string]bool{}
		}
		shas[r.Cell.Scheduler][r.Cell.PluginSHA256()] = true
	}
	return func(r *Record) string {
		sha := r.Cell.PluginSHA256()
		if len(shas[r.Cell.Scheduler]) < 2 || sha == "" {
			return r.Cell.Scheduler
		}
		return r.Cell.Scheduler + "@" + sha[:min(12, len(sha))]
	}
}

// Summarise groups records by (scheduler, parameters) — i.e. across
// replications — and computes the mean and 95% confidence interval of
// every metric over each group's ok records.
func Summarise(recs []*Record) *Summary {
	s := &Summary{Cells: len(recs)}
	byKey := map[string]*Group{}
	values := map[string][]float64{} // group key + "\x00" + metric
	metricSet := map[string]bool{}
	paramVals := map[string]map[string]bool{}
	paramCount := map[string]int{}
	var order []string
	label := schedulerLabels(recs)
	for _, r := range recs {
		name := label(r)
		key := name + "\x00" + r.Cell.PluginSHA256() + "\x00" + runner.ParamsKey(r.Cell.Params)
		g := byKey[key]
		if g == nil {
			g = &Group{Scheduler: name, Params: r.Cell.Params, Stats: map[string]Stat{}}
			byKey[key] = g
			order = append(order, key)
			for _, p := range r.Cell.Params {
				if paramVals[p.Name] == nil {
					paramVals[p.Name] = map[string]bool{}
				}
				paramVals[p.Name][experiments.FormatValue(p.Value)] = true
				paramCount[p.Name]++
			}
			if !contains(s.Schedulers, g.Scheduler) {
				s.Schedulers = append(s.Schedulers, g.Scheduler)
			}
		}
		if r.Result.Status != runner.StatusOK {
			g.Failed++
			s.Failed++
			continue
		}
		g.OK++
		for _, m := range r.Result.Metrics {
			metricSet[m.Name] = true
			values[key+"\x00"+m.Name] = append(values[key+"\x00"+m.Name], m.Value)
		}
	}
	for m := range metricSet {
		s.Metrics = append(s.Metrics, m)
	}
	sort.Strings(s.Metrics)
	for _, key := range order {
		g := byKey[key]
		for _, m := range s.Metrics {
			g.Stats[m] = MeanCI(values[key+"\x00"+m], Level)
		}
		s.Groups = append(s.Groups, g)
	}
	for name, vals := range paramVals {
		if len(vals) > 1 || paramCount[name] < len(s.Groups) {
			s.Axes = append(s.Axes, name)
		}
	}
	sort.Strings(s.Axes)
	if len(s.Groups) > 0 {
		for _, p := range s.Groups[0].Params {
			if !contains(s.Axes, p.Name) {
				s.Fixed = append(s.Fixed, p)
			}
		}
	}
	sort.SliceStable(s.Groups, func(i, j int) bool { return s.less(s.Groups[i], s.Groups[j]) })
	return s
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// less orders groups by axis values (numerically where numbers), then by
// scheduler order of appearance.
func (s *Summary) less(a, b *Group) bool {
	for _, ax := range s.Axes {
		va, oka := a.Value(ax)
		vb, okb := b.Value(ax)
		if oka != okb {
			return !oka
		}
		if c := compareValues(va, vb); c != 0 {
			return c < 0
		}
	}
	return indexOf(s.Schedulers, a.Scheduler) < indexOf(s.Schedulers, b.Scheduler)
}

func indexOf(xs []string, x string) int {
	for i, y := range xs {
		if y == x {
			return i
		}
	}
	return -1
}

func compareValues(a, b any) int {
	fa, oka := numeric.Float(a)
	fb, okb := numeric.Float(b)
	if oka && okb {
		return cmp.Compare(fa, fb)
	}
	return strings.Compare(experiments.FormatValue(a), experiments.FormatValue(b))
}

func formatNum(x float64) string {
	a := math.Abs(x)
	switch {
	case math.IsNaN(x):
		return "—"
	case x == 0:
		return "0"
	case a >= 1e7 || a < 1e-3:
		return strconv.FormatFloat(x, 'e', 3, 64)
	case a >= 1000:
		return strconv.FormatFloat(x, 'f', 0, 64)
	case a >= 100:
		return strconv.FormatFloat(x, 'f', 1, 64)
	case a >= 10:
		return strconv.FormatFloat(x, 'f', 2, 64)
	}
	return strconv.FormatFloat(x, 'f', 3, 64)
}

// selectMetrics returns the requested metrics present in s (all when want
// is empty) and an error naming any that are missing.
func (s *Summary) selectMetrics(want []string) ([]string, error) {
	if len(want) == 0 {
		return s.Metrics, nil
	}
	var missing []string
	for _, m := range want {
		if !contains(s.Metrics, m) {
			missing = append(missing, m)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("metrics %s not in the results; present: %s", strings.Join(missing, ", "), strings.Join(s.Metrics, ", "))
	}
	return want, nil
}

// WriteText prints, for each metric, one line per group: the axis values,
// the scheduler, the replications, the mean and the 95% CI half-width.
func (s *Summary) WriteText(w io.Writer, metrics []string) error {
	ms, err := s.selectMetrics(metrics)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "%d cells, %d failed, %d groups (scheduler × parameters); mean ± 95%% CI half-width (Student t) over replications\n",
		s.Cells, s.Failed, len(s.Groups))
	if len(s.Fixed) > 0 {
		var parts []string
		for _, p := range s.Fixed {
			parts = append(parts, p.Name+"="+experiments.FormatValue(p.Value))
		}
		fmt.Fprintf(w, "fixed: %s\n", strings.Join(parts, " "))
	}
	var base map[string]*Group
	if s.baseline != "" {
		base = s.baselineGroups()
	}
	for _, m := range ms {
		fmt.Fprintf(w, "\n%s\n", m)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		var head []string
		head = append(head, s.Axes...)
		head = append(head, "scheduler", "n", "failed", "mean", "± 95% CI")
		if base != nil {
			head = append(head, "vs "+s.baseline)
		}
		fmt.Fprintln(tw, strings.Join(head, "\t")+"\t")
		for _, g := range s.Groups {
			var row []string
			for _, ax := range s.Axes {
				v, ok := g.Value(ax)
				if !ok {
					row = append(row, "-")
					continue
				}
				row = append(row, experiments.FormatValue(v))
			}
			st := g.Stats[m]
			row = append(row, g.Scheduler, strconv.Itoa(st.N), strconv.Itoa(g.Failed), formatNum(st.Mean), formatNum(st.HalfWidth))
			if base != nil {
				row = append(row, relative(st.Mean, base[pointKey(g.Params)], m))
			}
			fmt.Fprintln(tw, strings.Join(row, "\t")+"\t")
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	return nil
}

// relative formats 100·(x − b)/b for the baseline group's mean b of metric
// m; "—" when there is no baseline group or its mean is 0 or NaN.
func relative(x float64, b *Group, m string) string {
	if b == nil {
		return "—"
	}
	bm := b.Stats[m].Mean
	if bm == 0 || math.IsNaN(bm) || math.IsNaN(x) {
		return "—"
	}
	return fmt.Sprintf("%+.1f%%", 100*(x-bm)/bm)
}

// WriteCSV writes the summary in long form: one row per (group, metric) with
// the axis values, scheduler, n, failed, mean, sd, ci_low, ci_high.
func (s *Summary) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	head := append(append([]string{}, s.Axes...), "scheduler", "metric", "n", "failed", "mean", "sd", "ci95_low", "ci95_high")
	if err := cw.Write(head); err != nil {
		return err
	}
	f := func(x float64) string {
		if math.IsNaN(x) {
			return ""
		}
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	for _, g := range s.Groups {
		for _, m := range s.Metrics {
			var row []string
			for _, ax := range s.Axes {
				v, _ := g.Value(ax)
				if v == nil {
					row = append(row, "")
				} else {
					row = append(row, experiments.FormatValue(v))
				}
			}
			st := g.Stats[m]
			row = append(row, g.Scheduler, m, strconv.Itoa(st.N), strconv.Itoa(g.Failed), f(st.Mean), f(st.SD), f(st.Low()), f(st.High()))
			if err := cw.Write(row); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// errPoints is one plotted line: x, mean and CI half-width per point.
type errPoints struct {
	x, y, e []float64
	floor   float64 // > 0 on a log scale: lower bars end there at the lowest
}

func (p *errPoints) Len() int                    { return len(p.x) }
func (p *errPoints) XY(i int) (float64, float64) { return p.x[i], p.y[i] }
func (p *errPoints) YError(i int) (float64, float64) {
	lo := p.e[i]
	if p.floor > 0 && p.y[i]-lo < p.floor { // log scale: cut at the axis
		// gonum's error bars take |lo|: a floor above this mean, or one
		// lost in y's rounding, gets no lower bar rather than one below 0.
		lo = max(p.y[i]-p.floor, 0)
		if p.y[i]-lo <= 0 {
			lo = 0
		}
	}
	return lo, p.e[i]
}
func (p *errPoints) add(x, y, e float64) {
	p.x, p.y, p.e = append(p.x, x), append(p.y, y), append(p.e, e)
}
func (p *errPoints) sortByX() { sort.Sort(byX{p}) }

type byX struct{ p *errPoints }

func (b byX) Len() int           { return len(b.p.x) }
func (b byX) Less(i, j int) bool { return b.p.x[i] < b.p.x[j] }
func (b byX) Swap(i, j int) {
	p := b.p
	p.x[i], p.x[j] = p.x[j], p.x[i]
	p.y[i], p.y[j] = p.y[j], p.y[i]
	p.e[i], p.e[j] = p.e[j], p.e[i]
}

// Plot draws with the default options (PlotWith) and returns the files
// written.
func (s *Summary) Plot(dir string, metrics []string) ([]string, error) {
	r, err := s.PlotWith(dir, metrics, PlotOptions{})
	return r.Files, err
}

// PlotResult is what PlotWith drew, and what it left out.
type PlotResult struct {
	// Files are the PNG and SVG files written.
	Files []string
	// Constant lists the metrics left unplotted because every group has
	// the same value (a counter that stays 0, say), with that value.
	Constant map[string]float64
	// Log lists the metrics drawn on a logarithmic y axis.
	Log []string
}

// PlotWith writes, for every metric and every axis, a chart of the metric's
// mean against the axis with 95% CI error bars and one line per scheduler
// (and per combination of the other axes' values), as PNG and SVG files
// named <metric>_vs_<axis>.{png,svg} in dir. Axis labels carry the
// glossary's units; a numeric axis has a tick at every grid value, others
// are categories; numbers are thousands-separated; the legend stands to
// the right of the data. A heavy-tailed metric gets a logarithmic y axis
// (o.LogY). A metric with the same value in every group is not drawn but
// listed in the result's Constant.
func (s *Summary) PlotWith(dir string, metrics []string, o PlotOptions) (PlotResult, error) {
	res := PlotResult{Constant: map[string]float64{}}
	ms, err := s.selectMetrics(metrics)
	if err != nil {
		return res, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return res, err
	}
	var plotted []string
	for _, m := range ms {
		if v, ok := s.constant(m); ok {
			res.Constant[m] = v
			continue
		}
		plotted = append(plotted, m)
	}
	logged := map[string]bool{}
	for _, ax := range s.Axes {
		// Category positions for non-numeric axes.
		var cats []string
		var xs []float64
		allNumeric := true
		for _, g := range s.Groups {
			v, ok := g.Value(ax)
			if !ok {
				continue
			}
			if x, isNum := numeric.Float(v); !isNum {
				allNumeric = false
			} else {
				xs = append(xs, x)
			}
			if l := experiments.FormatValue(v); !contains(cats, l) {
				cats = append(cats, l)
			}
		}
		for _, m := range plotted {
			p := plot.New()
			p.X.Label.Text = o.axisLabel(ax, ParamColumn(ax))
			// The y label is the metric and its unit only: "mean, 95% CI"
			// goes in the title's second line, so that neither is cut at
			// the edges of a plot narrowed by its legend.
			p.Y.Label.Text = o.axisLabel(m, MetricColumn(m))
			legend := plot.NewLegend()
			lines := map[string]*errPoints{}
			var names []string
			var means []float64
			for _, g := range s.Groups {
				v, ok := g.Value(ax)
				st := g.Stats[m]
				if !ok || st.N == 0 || math.IsNaN(st.Mean) {
					continue
				}
				name := g.Scheduler
				for _, other := range s.Axes {
					if other == ax {
						continue
					}
					if ov, ok := g.Value(other); ok {
						name += fmt.Sprintf(" %s=%s", shortParam(other), experiments.FormatValue(ov))
					}
				}
				x, isNum := numeric.Float(v)
				if !allNumeric || !isNum {
					x = float64(indexOf(cats, experiments.FormatValue(v)))
				}
				e := st.HalfWidth
				if math.IsNaN(e) {
					e = 0
				}
				if lines[name] == nil {
					lines[name] = &errPoints{}
					names = append(names, name)
				}
				lines[name].add(x, st.Mean, e)
				means = append(means, st.Mean)
			}
			if len(names) == 0 {
				continue
			}
			log := o.useLog(means)
			if log {
				logged[m] = true
				floor := logFloor(lines)
				for _, pts := range lines {
					pts.floor = floor
				}
			}
			for i, name := range names {
				pts := lines[name]
				pts.sortByX()
				l, sc, err := plotter.NewLinePoints(pts)
				if err != nil {
					return res, fmt.Errorf("plot %s vs %s: %w", m, ax, err)
				}
				l.Color = plotutil.Color(i)
				l.Dashes = plotutil.Dashes(i / len(plotutil.DefaultColors))
				sc.Color, sc.Shape = plotutil.Color(i), plotutil.Shape(i)
				eb, err := plotter.NewYErrorBars(pts)
				if err != nil {
					return res, fmt.Errorf("plot %s vs %s: %w", m, ax, err)
				}
				eb.Color = plotutil.Color(i)
				p.Add(l, sc, eb)
				legend.Add(name, l, sc)
			}
			p.Title.Text = fmt.Sprintf("%s vs %s\nmean and 95%% CI", m, ax)
			if !allNumeric {
				p.NominalX(cats...)
			} else {
				p.X.Tick.Marker = valueTicks(xs)
			}
			pad(&p.X, 0.05)
			if log {
				p.Title.Text += " (log scale)"
				p.Y.Scale = plot.LogScale{}
				p.Y.Tick.Marker = logTicks{}
				p.Y.Min /= 1.3
				p.Y.Max *= 1.3
			} else {
				p.Y.Tick.Marker = readableTicks{plot.DefaultTicks{}}
				pad(&p.Y, 0.08)
			}
			p.Add(plotter.NewGrid())
			base := filepath.Join(dir, fileSafe(m)+"_vs_"+fileSafe(ax))
			files, err := savePlot(p, legend, base)
			res.Files = append(res.Files, files...)
			if err != nil {
				return res, err
			}
		}
	}
	for _, m := range plotted {
		if logged[m] {
			res.Log = append(res.Log, m)
		}
	}
	return res, nil
}

// constant reports whether metric m has one value in every group (zero
// spread), and that value.
func (s *Summary) constant(m string) (float64, bool) {
	first, seen := 0.0, false
	for _, g := range s.Groups {
		st, ok := g.Stats[m]
		if !ok || st.N == 0 || math.IsNaN(st.Mean) {
			continue
		}
		if st.HalfWidth > 0 {
			return 0, false
		}
		if !seen {
			first, seen = st.Mean, true
			continue
		}
		if st.Mean != first {
			return 0, false
		}
	}
	return first, seen
}

// logFloor is the lowest value a log-scale plot of lines shows: the lowest
// positive lower CI bound, but no less than a tenth of the lowest mean and
// no more than the lowest mean (lower bars reaching further, or to 0 and
// below, are cut there).
func logFloor(lines map[string]*errPoints) float64 {
	lowMean, lowBound := math.Inf(1), math.Inf(1)
	for _, pts := range lines {
		for i := range pts.y {
			lowMean = math.Min(lowMean, pts.y[i])
			if b := pts.y[i] - pts.e[i]; b > 0 {
				lowBound = math.Min(lowBound, b)
			}
		}
	}
	if math.IsInf(lowBound, 1) {
		return lowMean / 10
	}
	return math.Min(math.Max(lowBound, lowMean/10), lowMean)
}

func shortParam(name string) string {
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		return name[i+1:]
	}
	return name
}

func fileSafe(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-':
			return r
		}
		return '_'
	}, s)
}

// pad widens an axis range by frac of its span on each side, so points and
// error bars at the ends stay inside the frame.
func pad(a *plot.Axis, frac float64) {
	span := a.Max - a.Min
	if span <= 0 {
		span = math.Max(math.Abs(a.Max), 1)
	}
	a.Min -= frac * span
	a.Max += frac * span
}
