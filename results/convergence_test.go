package results

import (
	"os"
	"path/filepath"
	"testing"
)

// A racing tune's eliminations are drawn on the convergence plot, each at
// the generation of the race that eliminated it and its objective; cached
// repeats and genomes never eliminated are not.
func TestTuneEliminations(t *testing.T) {
	tab := Table{Meta: map[string]string{"schedfarm.kind": "tune", "schedfarm.tune": "t", "schedfarm.objective": "wait_mean minimize mean"}}
	for _, c := range []string{"generation", "phase", "cached", "objective", "feasible", "eliminated_generation", "eliminated_by"} {
		tab.Columns = append(tab.Columns, TableColumn{Name: c})
	}
	tab.Rows = [][]any{
		{int64(0), "search", false, 10.0, true, nil, nil},
		{int64(0), "search", false, 20.0, true, int64(0), "paired-t-holm"},
		{int64(0), "search", false, 15.0, true, int64(1), "paired-t-holm"}, // eliminated by a later race
		{int64(1), "search", true, 20.0, true, int64(0), "paired-t-holm"},  // a repeat
		{int64(1), "search", false, 9.0, true, nil, nil},
	}
	got := TuneEliminations(tab)
	if len(got) != 2 || got[0].X != 0 || got[0].Y != 20 || got[1].X != 1 || got[1].Y != 15 {
		t.Errorf("eliminations %v; want (0, 20) and (1, 15)", got)
	}
	dir := t.TempDir()
	if _, err := PlotTune(tab, dir); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(filepath.Join(dir, "convergence.png")); err != nil || st.Size() == 0 {
		t.Errorf("convergence.png: %v", err)
	}
}
