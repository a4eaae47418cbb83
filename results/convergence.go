package results

import (
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
)

// IsTuneTable reports whether a table is a tuner's evaluations (its
// metadata says so).
func IsTuneTable(t Table) bool { return IsTuneMeta(t.Meta) }

// IsTuneMeta reports whether a file's metadata (FileMeta) marks a tuner's
// evaluations.
func IsTuneMeta(meta map[string]string) bool { return meta["schedfarm.kind"] == "tune" }

// PlotTune draws a tuner's evaluations table into dir: convergence.{png,svg}
// (the best feasible objective so far and each generation's mean objective,
// against the generation; with a racing tune also every genome a race
// eliminated, and every genome its indifference zone stopped as
// equivalent, at the generation of that race and its objective over the
// replications it got) and, with a second objective, front.{png,svg}
// (every distinct evaluation's two objectives, the Pareto front joined).
// It returns the files written.
func PlotTune(t Table, dir string) ([]string, error) {
	objective := strings.Fields(t.Meta["schedfarm.objective"])
	maximize := len(objective) > 1 && objective[1] == "maximize"
	name := "objective"
	if len(objective) > 0 {
		name = objective[0]
	}
	type gen struct {
		sum  float64
		n    int
		best float64
	}
	byGen := map[int64]*gen{}
	maxGen := int64(-1)
	better := func(a, b float64) bool {
		if maximize {
			return a > b
		}
		return a < b
	}
	for r := range t.Rows {
		if t.Value(r, "phase") != "search" {
			continue
		}
		g, _ := t.Value(r, "generation").(int64)
		obj, ok := t.Value(r, "objective").(float64)
		if !ok {
			continue
		}
		s := byGen[g]
		if s == nil {
			s = &gen{best: math.NaN()}
			byGen[g] = s
		}
		s.sum += obj
		s.n++
		if feasible, _ := t.Value(r, "feasible").(bool); feasible && (math.IsNaN(s.best) || better(obj, s.best)) {
			s.best = obj
		}
		maxGen = max(maxGen, g)
	}
	if maxGen < 0 {
		return nil, fmt.Errorf("no search evaluations to plot")
	}
	var bestPts, meanPts plotter.XYs
	so := math.NaN()
	for g := int64(0); g <= maxGen; g++ {
		s := byGen[g]
		if s == nil {
			continue
		}
		if !math.IsNaN(s.best) && (math.IsNaN(so) || better(s.best, so)) {
			so = s.best
		}
		if !math.IsNaN(so) {
			bestPts = append(bestPts, plotter.XY{X: float64(g), Y: so})
		}
		meanPts = append(meanPts, plotter.XY{X: float64(g), Y: s.sum / float64(s.n)})
	}
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s: convergence", t.Meta["schedfarm.tune"])
	p.X.Label.Text = "generation"
	p.Y.Label.Text = PlotOptions{}.axisLabel(name, MetricColumn(name))
	if maxGen <= 40 {
		var gens []float64
		for g := int64(0); g <= maxGen; g++ {
			gens = append(gens, float64(g))
		}
		p.X.Tick.Marker = valueTicks(gens)
	}
	for i, series := range []struct {
		label string
		pts   plotter.XYs
	}{{"best feasible so far", bestPts}, {"generation mean", meanPts}} {
		if len(series.pts) == 0 {
			continue
		}
		l, sc, err := plotter.NewLinePoints(series.pts)
		if err != nil {
			return nil, err
		}
		l.Color, sc.Color, sc.Shape = plotutil.Color(i), plotutil.Color(i), plotutil.Shape(i)
		p.Add(l, sc)
		p.Legend.Add(series.label, l, sc)
	}
	for i, marks := range []struct {
		label string
		pts   plotter.XYs
	}{{"eliminated by the race", TuneEliminations(t)}, {"stopped as equivalent to a round's best", TuneEquivalents(t)}} {
		if len(marks.pts) == 0 {
			continue
		}
		sc, err := plotter.NewScatter(marks.pts)
		if err != nil {
			return nil, err
		}
		sc.Color, sc.Shape = plotutil.Color(3+i), plotutil.Shape(3+i)
		p.Add(sc)
		p.Legend.Add(fmt.Sprintf("%s (%d)", marks.label, len(marks.pts)), sc)
	}
	p.Add(plotter.NewGrid())
	var files []string
	// The legend goes beside the data, never over a point; numbers are
	// thousands-separated.
	save := func(p *plot.Plot, base string) error {
		legend := p.Legend
		p.Legend = plot.NewLegend()
		pad(&p.X, 0.05) // no point on the frame
		pad(&p.Y, 0.08)
		p.Y.Tick.Marker = readableTicks{plot.DefaultTicks{}}
		if _, isValues := p.X.Tick.Marker.(plot.ConstantTicks); !isValues {
			p.X.Tick.Marker = readableTicks{plot.DefaultTicks{}}
		}
		fs, err := savePlot(p, legend, filepath.Join(dir, base))
		files = append(files, fs...)
		return err
	}
	if err := save(p, "convergence"); err != nil {
		return files, err
	}
	second := strings.Fields(t.Meta["schedfarm.second"])
	if len(second) == 0 {
		return files, nil
	}
	var all, front plotter.XYs
	for r := range t.Rows {
		if t.Value(r, "phase") != "search" || t.Value(r, "cached") == true {
			continue
		}
		x, ok1 := t.Value(r, "objective").(float64)
		y, ok2 := t.Value(r, "second").(float64)
		if !ok1 || !ok2 {
			continue
		}
		all = append(all, plotter.XY{X: x, Y: y})
		if t.Value(r, "front") == true {
			front = append(front, plotter.XY{X: x, Y: y})
		}
	}
	q := plot.New()
	q.Title.Text = fmt.Sprintf("%s: evaluations and Pareto front", t.Meta["schedfarm.tune"])
	q.X.Label.Text = PlotOptions{}.axisLabel(name, MetricColumn(name))
	q.Y.Label.Text = PlotOptions{}.axisLabel(second[0], MetricColumn(second[0]))
	sc, err := plotter.NewScatter(all)
	if err != nil {
		return files, err
	}
	sc.Color = plotutil.Color(1)
	q.Add(sc)
	q.Legend.Add("evaluations", sc)
	if len(front) > 0 {
		l, fs, err := plotter.NewLinePoints(front)
		if err != nil {
			return files, err
		}
		l.Color, fs.Color, fs.Shape = plotutil.Color(0), plotutil.Color(0), plotutil.Shape(1)
		q.Add(l, fs)
		q.Legend.Add("Pareto front", l, fs)
	}
	q.Add(plotter.NewGrid())
	return files, save(q, "front")
}

// TuneEliminations returns the genomes a racing tune eliminated (its
// evaluations table's distinct search rows with an eliminated_generation):
// at the generation of the race that eliminated each and its objective
// over the replications it got.
func TuneEliminations(t Table) plotter.XYs { return raceMarks(t, "eliminated_generation") }

// TuneEquivalents returns the genomes a racing tune's indifference zone
// stopped as equivalent to a round's best (rows with an
// equivalent_generation), placed as TuneEliminations places its genomes.
func TuneEquivalents(t Table) plotter.XYs { return raceMarks(t, "equivalent_generation") }

// raceMarks returns, for the distinct search rows whose column genCol is
// set, the point (that generation, the row's objective).
func raceMarks(t Table, genCol string) plotter.XYs {
	var out plotter.XYs
	for r := range t.Rows {
		if t.Value(r, "phase") != "search" || t.Value(r, "cached") == true {
			continue
		}
		g, ok1 := t.Value(r, genCol).(int64)
		y, ok2 := t.Value(r, "objective").(float64)
		if ok1 && ok2 {
			out = append(out, plotter.XY{X: float64(g), Y: y})
		}
	}
	return out
}
