package results

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/schedfarm/schedfarm/experiments"
	"github.com/schedfarm/schedfarm/family"
	"github.com/schedfarm/schedfarm/runner"
)

func TestFormatTick(t *testing.T) {
	for v, want := range map[float64]string{0: "0", 2000000: "2,000,000", 53000: "53,000", 0.9: "0.9", 1234.5: "1,234.5", -45000: "-45,000", 12.3456: "12.35", 0.0001: "0.0001"} {
		if got := FormatTick(v); got != want {
			t.Errorf("FormatTick(%v) = %q; want %q", v, got, want)
		}
	}
}

// Heavy-tailed metrics get a log scale, constant ones are listed instead
// of drawn, every grid value is a tick, and --log-y off keeps it linear.
func TestPlotWithScalesAndConstants(t *testing.T) {
	var recs []*Record
	for rep := 0; rep < 3; rep++ {
		for _, load := range []float64{0.5, 0.6, 0.7, 0.8, 0.9} {
			for _, sched := range []string{"fcfs", "easy"} {
				ps := []runner.Param{{Name: "workload.load", Value: load}}
				c := runner.Cell{Experiment: "s", Scheduler: sched, Params: ps, Replication: rep}
				c.ID = experiments.CellID("s", 0, sched, ps, rep)
				bsld := 2.0 + float64(rep)
				if sched == "fcfs" {
					bsld = 50000 * load
				}
				recs = append(recs, &Record{Cell: c, Result: runner.CellResult{CellID: c.ID, Status: runner.StatusOK, Metrics: []family.Metric{
					{Name: "bsld_mean", Value: bsld}, {Name: "utilization", Value: load * 0.9}, {Name: "killed", Value: 0}}}})
			}
		}
	}
	s := Summarise(recs)
	dir := t.TempDir()
	r, err := s.PlotWith(dir, nil, PlotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(r.Log, []string{"bsld_mean"}) {
		t.Errorf("log-scale metrics %v; want [bsld_mean]", r.Log)
	}
	if v, ok := r.Constant["killed"]; !ok || v != 0 || len(r.Constant) != 1 {
		t.Errorf("constant metrics %v; want killed = 0 only", r.Constant)
	}
	if _, err := os.Stat(filepath.Join(dir, "killed_vs_workload_load.png")); err == nil {
		t.Error("a constant metric was plotted")
	}
	for _, f := range []string{"bsld_mean_vs_workload_load.png", "bsld_mean_vs_workload_load.svg", "utilization_vs_workload_load.png"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	r, err = s.PlotWith(t.TempDir(), []string{"bsld_mean"}, PlotOptions{LogY: "off"})
	if err != nil || len(r.Log) != 0 {
		t.Errorf("--log-y off: log-scale metrics %v, %v; want none", r.Log, err)
	}
	ticks := valueTicks([]float64{0.5, 0.9, 0.6, 0.7, 0.8, 0.5}).Ticks(0, 1)
	var labels []string
	for _, tk := range ticks {
		labels = append(labels, tk.Label)
	}
	if !slices.Equal(labels, []string{"0.5", "0.6", "0.7", "0.8", "0.9"}) {
		t.Errorf("x ticks %v; want every grid value", labels)
	}
	if CheckLogY("sometimes") == nil {
		t.Error("CheckLogY accepted a bad value")
	}
}

// A metric whose means span more decades than float64 can subtract in
// (a rounding residue of 1e-17 beside means of 1e3; CI's quick
// reproduction panicked on such a plot) is still plotted, and a lower error bar never reaches
// 0 on a log axis: gonum's LogScale panics on a value ≤ 0.
func TestPlotWithTinyPositiveMeans(t *testing.T) {
	var recs []*Record
	for rep := 0; rep < 3; rep++ {
		for _, load := range []float64{0.5, 0.7, 0.9} {
			for _, sched := range []string{"fcfs", "easy"} {
				ps := []runner.Param{{Name: "workload.load", Value: load}}
				c := runner.Cell{Experiment: "s", Scheduler: sched, Params: ps, Replication: rep}
				c.ID = experiments.CellID("s", 0, sched, ps, rep)
				v := 1e-17 * float64(1+rep)
				if sched == "fcfs" {
					v = 1000 * load * float64(1+rep)
				}
				recs = append(recs, &Record{Cell: c, Result: runner.CellResult{CellID: c.ID, Status: runner.StatusOK, Metrics: []family.Metric{
					{Name: "cost", Value: v}}}})
			}
		}
	}
	s := Summarise(recs)
	for _, logY := range []string{"auto", "on"} {
		if _, err := s.PlotWith(t.TempDir(), nil, PlotOptions{LogY: logY}); err != nil {
			t.Errorf("--log-y %s: %v", logY, err)
		}
	}
	p := &errPoints{x: []float64{1, 2}, y: []float64{1e3, 2e3}, e: []float64{5e3, 1}, floor: 1e-14}
	for i := range p.y {
		lo, _ := p.YError(i)
		if p.y[i]-lo <= 0 {
			t.Errorf("point %d: lower bar ends at %g on a log axis", i, p.y[i]-lo)
		}
	}
}

// The floor of a log axis is never above the lowest mean: one line's
// narrow interval high up (2.5 ± …) beside a low mean with a wide interval
// (0.21 ± 5.3) put the floor at 2.5, and gonum drew the low mean's bar to
// |0.21 − 2.5| below it, under 0 (seed002-fig10 in CI's quick run).
func TestLogFloorAtMostLowestMean(t *testing.T) {
	lines := map[string]*errPoints{
		"low":  {x: []float64{0}, y: []float64{0.2132}, e: []float64{5.299}},
		"high": {x: []float64{0, 1}, y: []float64{1.0189, 5.3988}, e: []float64{2.7433, 2.8895}},
	}
	floor := logFloor(lines)
	if floor <= 0 || floor > 0.2132 {
		t.Fatalf("logFloor = %g; want in (0, 0.2132]", floor)
	}
	for name, pts := range lines {
		pts.floor = floor
		for i := range pts.y {
			lo, _ := pts.YError(i)
			if lo < 0 || pts.y[i]-lo < floor*(1-1e-12) {
				t.Errorf("%s point %d: lower error %g reaches %g, under the floor %g", name, i, lo, pts.y[i]-lo, floor)
			}
		}
	}
}
