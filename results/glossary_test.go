package results

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"

	"github.com/schedfarm/schedfarm/experiments"
	"github.com/schedfarm/schedfarm/families"
)

// Every column the writer can write has a glossary entry with a unit and a
// meaning: the fixed columns, every metric of every family, and every
// parameter of every shipped spec.
// testGlossary is the glossary of the shipped families.
var testGlossary = NewGlossary(families.Builtin())

func TestEveryColumnHasAGlossaryEntry(t *testing.T) {
	check := func(col, where string) {
		t.Helper()
		d, ok := testGlossary.Describe(col)
		if !ok || d.Unit == "" || d.Meaning == "" {
			t.Errorf("column %s (%s): glossary entry %+v, %v; want a unit and a meaning in results/glossary.go", col, where, d, ok)
		}
	}
	for _, c := range fixedColumns() {
		check(c.name, "fixed")
	}
	names, where := testGlossary.AllMetricNames()
	if len(names) < 60 {
		t.Fatalf("only %d metric names found", len(names))
	}
	for _, n := range names {
		check(MetricColumn(n), strings.Join(where[n], ","))
	}
	specs, _ := filepath.Glob("../experiments/*.yaml")
	more, _ := filepath.Glob("../experiments/traces/*.yaml")
	specs = append(specs, more...)
	loaded := 0
	for _, p := range specs {
		spec, err := experiments.Load(p, experiments.NewCatalog(families.Builtin()))
		if err != nil {
			t.Logf("%s: %v (skipped)", p, err)
			continue
		}
		loaded++
		params := map[string]bool{}
		for _, c := range spec.Cells() {
			for _, prm := range c.Params {
				params[prm.Name] = true
			}
		}
		for prm := range params {
			check(ParamColumn(prm), filepath.Base(p))
		}
	}
	if loaded < 20 {
		t.Errorf("only %d shipped specs loaded", loaded)
	}
}

// The Parquet file carries one glossary entry per column in its key-value
// metadata, and its columns come in reading order.
func TestParquetCarriesTheGlossary(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out.parquet")
	w, err := Open(Options{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 4; i++ {
		c := testCell(i)
		if err := w.Write(c, testResult(c, i)); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, _ := f.Stat()
	pf, err := parquet.OpenFile(f, st.Size())
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, fld := range pf.Schema().Fields() {
		order = append(order, fld.Name())
		v, ok := pf.Lookup(MetaColumnPrefix + fld.Name())
		var d ColumnDoc
		if !ok || json.Unmarshal([]byte(v), &d) != nil || d.Unit == "" || d.Meaning == "" {
			t.Errorf("column %s: metadata %q; want {unit, meaning}", fld.Name(), v)
		}
	}
	want := "experiment scheduler p_platform__procs p_scheduler__k p_workload__estimates p_workload__jobs p_workload__lenient p_workload__load replication status m_jobs m_wait_mean error cell_id cell_index seed wall_seconds worker schedfarm_version go_version git_commit plugin_sha256"
	if got := strings.Join(order, " "); got != want {
		t.Errorf("column order:\n got %s\nwant %s", got, want)
	}
	if d, _ := pf.Lookup(MetaColumnPrefix + "m_wait_mean"); !strings.Contains(d, `"unit":"s"`) {
		t.Errorf("m_wait_mean metadata %s; want its unit", d)
	}
}

// docs/columns.md is generated from the glossary.
func TestColumnsDoc(t *testing.T) {
	path := filepath.Join("..", "docs", "columns.md")
	want := testGlossary.ColumnsMarkdown()
	if os.Getenv("SCHEDFARM_UPDATE_DOCS") == "1" {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil || string(got) != want {
		t.Fatalf("%s is not the glossary's rendering (%v): regenerate it with SCHEDFARM_UPDATE_DOCS=1 go test ./results -run TestColumnsDoc", path, err)
	}
}

// The units of the parameter columns are the ones the parameters declare
// (param.Spec.Unit): the spec's own fields, a family's workload field, a
// scheduler's parameter; declarations of one name that disagree or give
// none leave the unit to the meaning.
func TestParameterUnitsFromTheirDeclarations(t *testing.T) {
	for column, unit := range map[string]string{
		"p_workload__load":             "fraction 0–1", // runner.Fields
		"p_workload__cpu_usage":        "fraction 0–1", // consolidation's field
		"p_scheduler__slot":            "s",            // sp-stms
		"p_scheduler__sp-stms__c":      "ratio",        // one scheduler's axis
		"p_workload__generator__procs": "processors",
		"p_scheduler__threshold":       unitInMeaning, // declared without a unit
	} {
		d, ok := testGlossary.Describe(column)
		if !ok || d.Unit != unit {
			t.Errorf("%s: %+v, %v; want unit %q", column, d, ok, unit)
		}
	}
	if d, ok := NewGlossary(nil).Describe("p_scheduler__slot"); ok {
		t.Errorf("a glossary without families knows slot: %+v", d)
	}
}
