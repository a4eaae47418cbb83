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
	for _, c := range []string{"generation", "phase", "cached", "objective", "feasible", "eliminated_generation", "eliminated_by", "equivalent_generation"} {
		tab.Columns = append(tab.Columns, TableColumn{Name: c})
	}
	tab.Rows = [][]any{
		{int64(0), "search", false, 10.0, true, nil, nil, nil},
		{int64(0), "search", false, 20.0, true, int64(0), "paired-t-holm", nil},
		{int64(0), "search", false, 15.0, true, int64(1), "paired-t-holm", nil}, // eliminated by a later race
		{int64(1), "search", true, 20.0, true, int64(0), "paired-t-holm", nil},  // a repeat
		{int64(1), "search", false, 9.0, true, nil, nil, nil},
		{int64(1), "search", false, 9.5, true, nil, nil, int64(2)}, // stopped as equivalent in a later race
		{int64(2), "search", true, 9.5, true, nil, nil, int64(2)},  // a repeat
	}
	got := TuneEliminations(tab)
	if len(got) != 2 || got[0].X != 0 || got[0].Y != 20 || got[1].X != 1 || got[1].Y != 15 {
		t.Errorf("eliminations %v; want (0, 20) and (1, 15)", got)
	}
	if eq := TuneEquivalents(tab); len(eq) != 1 || eq[0].X != 2 || eq[0].Y != 9.5 {
		t.Errorf("stopped as equivalent %v; want (2, 9.5)", eq)
	}
	dir := t.TempDir()
	if _, err := PlotTune(tab, dir); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(filepath.Join(dir, "convergence.png")); err != nil || st.Size() == 0 {
		t.Errorf("convergence.png: %v", err)
	}
}
