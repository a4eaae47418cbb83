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
