package results

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/schedfarm/schedfarm/param"
)

// A table round-trips through Parquet: every kind, nulls, metadata; the
// columns come back in name order.
func TestTableRoundTrip(t *testing.T) {
	p := filepath.Join(t.TempDir(), "t.parquet")
	in := Table{
		Columns: []TableColumn{{"gen", param.Int.String()}, {"obj", param.Float.String()}, {"name", param.String.String()}, {"ok", param.Bool.String()}},
		Rows:    [][]any{{int64(0), 1.5, "a", true}, {int64(1), nil, "b", false}},
		Meta:    map[string]string{"schedfarm.kind": "tune"},
	}
	if err := WriteTable(p, in); err != nil {
		t.Fatal(err)
	}
	out, err := ReadTable(p)
	if err != nil {
		t.Fatal(err)
	}
	if out.Meta["schedfarm.kind"] != "tune" || !IsTuneTable(out) {
		t.Errorf("meta %v", out.Meta)
	}
	if meta, err := FileMeta(p); err != nil || !IsTuneMeta(meta) {
		t.Errorf("FileMeta: %v, %v", meta, err)
	}
	for r := range in.Rows {
		for i, c := range in.Columns {
			if got := out.Value(r, c.Name); !reflect.DeepEqual(got, in.Rows[r][i]) {
				t.Errorf("row %d column %s: %v, want %v", r, c.Name, got, in.Rows[r][i])
			}
		}
	}
}
