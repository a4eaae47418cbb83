package notebooks

import (
	"context"
	"database/sql"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	_ "github.com/duckdb/duckdb-go/v2"
)

// notebook is the part of an .ipynb file the test reads.
type notebook struct {
	Cells []struct {
		Type     string   `json:"cell_type"`
		Source   []string `json:"source"`
		Metadata struct {
			Tags []string `json:"tags"`
		} `json:"metadata"`
	} `json:"cells"`
}

var (
	sqlBlock = regexp.MustCompile(`(?s)(\w+_sql) = """(.*?)"""`)
	setupSQL = regexp.MustCompile(`con\.sql\(f?"((?:set variable|create or replace view)[^"]*)"\)`)
)

// The notebook's DuckDB queries, run as written against the real output of
// the README's main command (SCHEDFARM_QUICKSTART_PARQUET names an existing
// one; otherwise the test builds schedfarm and runs the quickstart, about a
// minute). Each query must run and give the rows the notebook relies on.
func TestNotebookQueriesOnTheQuickstart(t *testing.T) {
	b, err := os.ReadFile("quickstart.ipynb")
	if err != nil {
		t.Fatal(err)
	}
	var nb notebook
	if err := json.Unmarshal(b, &nb); err != nil {
		t.Fatalf("quickstart.ipynb is not a notebook: %v", err)
	}
	parquet := os.Getenv("SCHEDFARM_QUICKSTART_PARQUET")
	if parquet == "" {
		parquet = runQuickstart(t)
	}
	parquet, _ = filepath.Abs(parquet)

	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	conn, err := db.Conn(ctx) // variables belong to a connection
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()

	queries := map[string]string{}
	var order []string
	setups := 0
	for _, c := range nb.Cells {
		if c.Type != "code" {
			continue
		}
		src := strings.Join(c.Source, "")
		for _, m := range setupSQL.FindAllStringSubmatch(src, -1) {
			stmt := strings.ReplaceAll(m[1], "{PARQUET}", strings.ReplaceAll(parquet, "'", "''"))
			if _, err := conn.ExecContext(ctx, stmt); err != nil {
				t.Fatalf("notebook setup %q: %v", stmt, err)
			}
			setups++
		}
		tagged := false
		for _, tag := range c.Metadata.Tags {
			tagged = tagged || tag == "duckdb-sql"
		}
		if !tagged {
			continue
		}
		ms := sqlBlock.FindAllStringSubmatch(src, -1)
		if len(ms) == 0 {
			t.Errorf("a cell tagged duckdb-sql has no name_sql = \"\"\"…\"\"\" query:\n%s", src)
		}
		for _, m := range ms {
			queries[m[1]] = m[2]
			order = append(order, m[1])
		}
	}
	if setups != 2 {
		t.Fatalf("found %d setup statements (set variable, create view); want 2", setups)
	}
	want := []string{"glossary_sql", "tidy_sql", "paired_sql", "summary_sql"}
	if strings.Join(order, " ") != strings.Join(want, " ") {
		t.Fatalf("queries %v; want %v", order, want)
	}
	rows := map[string][]map[string]any{}
	for _, name := range order {
		rows[name] = query(t, conn, name, queries[name])
	}

	// The glossary: every column of the file, with a unit.
	units := map[string]string{}
	for _, r := range rows["glossary_sql"] {
		units[r["column"].(string)] = r["unit"].(string)
	}
	if units["m_bsld_mean"] == "" || units["m_wait_mean"] != "s" || units["p_workload__load"] == "" {
		t.Errorf("glossary from the file's metadata: %v; want units for m_bsld_mean, m_wait_mean (s), p_workload__load", units)
	}
	// Tidy: 100 cells × 3 metrics.
	if n := len(rows["tidy_sql"]); n != 300 {
		t.Errorf("tidy: %d rows; want 300 (100 cells × 3 metrics)", n)
	}
	// Paired: one row per load, 5 pairs each, a finite interval.
	if n := len(rows["paired_sql"]); n != 5 {
		t.Errorf("paired comparison: %d rows; want 5 loads", n)
	}
	for _, r := range rows["paired_sql"] {
		hw, _ := r["ci95_half_width"].(float64)
		if r["n"] != int64(5) || math.IsNaN(hw) || hw < 0 {
			t.Errorf("paired comparison row %v; want n = 5 and a finite half-width", r)
		}
	}
	last := rows["paired_sql"][len(rows["paired_sql"])-1]
	if d, _ := last["mean_diff"].(float64); !(d < 0) {
		t.Errorf("at load 0.9 EASY − FCFS bounded slowdown = %v; the notebook's text says EASY is far below FCFS", last["mean_diff"])
	}
	// Summary for the plot: 4 schedulers × 5 loads.
	if n := len(rows["summary_sql"]); n != 20 {
		t.Errorf("plot summary: %d rows; want 20", n)
	}

	// Every code cell is valid Python (where a python3 is at hand).
	if py, err := exec.LookPath("python3"); err == nil {
		for i, c := range nb.Cells {
			if c.Type != "code" {
				continue
			}
			cmd := exec.Command(py, "-c", "import ast, sys; ast.parse(sys.stdin.read())")
			cmd.Stdin = strings.NewReader(strings.Join(c.Source, ""))
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("cell %d is not valid Python: %v\n%s", i, err, out)
			}
		}
	}
}

func query(t *testing.T, conn *sql.Conn, name, q string) []map[string]any {
	t.Helper()
	rs, err := conn.QueryContext(context.Background(), q)
	if err != nil {
		t.Fatalf("%s: %v\n%s", name, err, q)
	}
	defer rs.Close()
	cols, _ := rs.Columns()
	var out []map[string]any
	for rs.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rs.Scan(ptrs...); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		row := map[string]any{}
		for i, c := range cols {
			row[c] = vals[i]
		}
		out = append(out, row)
	}
	if err := rs.Err(); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if len(out) == 0 {
		t.Fatalf("%s: no rows", name)
	}
	return out
}

// runQuickstart builds schedfarm from this checkout and runs the README's
// main command on a copy of the quickstart spec in a temporary directory;
// it returns the Parquet file.
func runQuickstart(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "schedfarm")
	build := exec.Command("go", "build", "-o", bin, "./cmd/schedfarm")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/schedfarm: %v\n%s", err, out)
	}
	spec, err := os.ReadFile(filepath.Join(root, "experiments", "quickstart.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "quickstart.yaml"), spec, 0o644); err != nil {
		t.Fatal(err)
	}
	run := exec.Command(bin, "run", "--workers", "2", "quickstart.yaml")
	run.Dir = dir
	if out, err := run.CombinedOutput(); err != nil {
		t.Fatalf("schedfarm run quickstart.yaml: %v\n%s", err, out)
	}
	return filepath.Join(dir, "quickstart.parquet")
}
