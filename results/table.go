package results

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sort"

	"github.com/parquet-go/parquet-go"

	"github.com/schedfarm/schedfarm/param"
)

// TableColumn is one column of a Table: a name and a kind
// (a param kind name: int, float, string or bool); every column is
// optional (a nil value is null).
type TableColumn struct {
	Name, Kind string
}

// Table is a small typed table written as Parquet: results that are not
// one row per cell, such as a tuner's evaluations.
type Table struct {
	Columns []TableColumn
	// Rows hold one value per column: int64, float64, string, bool or nil.
	Rows [][]any
	// Meta is the file's key-value metadata.
	Meta map[string]string
}

// WriteTable writes t to path atomically (a temporary file renamed into
// place), zstd-compressed.
func WriteTable(path string, t Table) error {
	group := parquet.Group{}
	for _, c := range t.Columns {
		group[c.Name] = leafNode(column{name: c.Name, kind: c.Kind, optional: true})
	}
	schema := parquet.NewSchema("row", group)
	// The schema orders its fields by name; rows must follow that order.
	order := make([]int, len(t.Columns))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool { return t.Columns[order[a]].Name < t.Columns[order[b]].Name })
	return replaceFile(path, func(f io.Writer) error {
		opts := []parquet.WriterOption{schema, parquet.Compression(&parquet.Zstd), parquet.CreatedBy("schedfarm", "", "")}
		keys := make([]string, 0, len(t.Meta))
		for k := range t.Meta {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			opts = append(opts, parquet.KeyValueMetadata(k, t.Meta[k]))
		}
		w := parquet.NewWriter(f, opts...)
		for ri, r := range t.Rows {
			if len(r) != len(t.Columns) {
				return fmt.Errorf("table row %d has %d values for %d columns", ri, len(r), len(t.Columns))
			}
			row := make(parquet.Row, len(order))
			for i, ci := range order {
				v := r[ci]
				if v == nil {
					row[i] = parquet.NullValue().Level(0, 0, i)
					continue
				}
				row[i] = parquetValue(v, t.Columns[ci].Kind).Level(0, 1, i)
			}
			if _, err := w.WriteRows([]parquet.Row{row}); err != nil {
				return err
			}
		}
		return w.Close()
	})
}

// FileMeta returns a Parquet file's key-value metadata, reading only its
// footer.
func FileMeta(path string) (map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	pf, err := parquet.OpenFile(f, st.Size(), parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	meta := map[string]string{}
	for _, kv := range pf.Metadata().KeyValueMetadata {
		meta[kv.Key] = kv.Value
	}
	return meta, nil
}

// ReadTable reads a Parquet file as a Table: its columns in the file's
// order, values int64, float64, string, bool or nil.
func ReadTable(path string) (Table, error) {
	f, err := os.Open(path)
	if err != nil {
		return Table{}, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return Table{}, err
	}
	pf, err := parquet.OpenFile(f, st.Size())
	if err != nil {
		return Table{}, fmt.Errorf("%s: %w", path, err)
	}
	var t Table
	t.Meta = map[string]string{}
	for _, kv := range pf.Metadata().KeyValueMetadata {
		t.Meta[kv.Key] = kv.Value
	}
	fields := pf.Schema().Fields()
	for _, fld := range fields {
		kind := param.String.String()
		switch fld.Type().Kind() {
		case parquet.Int64, parquet.Int32:
			kind = param.Int.String()
		case parquet.Double, parquet.Float:
			kind = param.Float.String()
		case parquet.Boolean:
			kind = param.Bool.String()
		}
		t.Columns = append(t.Columns, TableColumn{Name: fld.Name(), Kind: kind})
	}
	rows := make([]parquet.Row, 64)
	for _, rg := range pf.RowGroups() {
		rr := rg.Rows()
		for {
			n, err := rr.ReadRows(rows)
			for _, row := range rows[:n] {
				vals := make([]any, len(t.Columns))
				for _, v := range row {
					i := v.Column()
					if i < 0 || i >= len(vals) || v.IsNull() {
						continue
					}
					switch t.Columns[i].Kind {
					case param.Int.String():
						vals[i] = v.Int64()
					case param.Float.String():
						vals[i] = v.Double()
					case param.Bool.String():
						vals[i] = v.Boolean()
					default:
						vals[i] = string(v.ByteArray())
					}
				}
				t.Rows = append(t.Rows, vals)
			}
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				rr.Close()
				return Table{}, err
			}
		}
		rr.Close()
	}
	return t, nil
}

// Value returns row r's value of the named column (nil when absent).
func (t Table) Value(r int, name string) any {
	for i, c := range t.Columns {
		if c.Name == name {
			return t.Rows[r][i]
		}
	}
	return nil
}

// ReadJournal returns the record of every cell in output's journal (the
// cells whose results were written so far, whether or not the Parquet file
// was rebuilt since; an ok result wins over a failed one), sorted as in the
// Parquet file; none when there is no journal.
func ReadJournal(output string) ([]*Record, error) {
	return loadJournal(JournalPath(output))
}
