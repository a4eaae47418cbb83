package results

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/parquet-go/parquet-go"

	"github.com/schedfarm/schedfarm/experiments"
	"github.com/schedfarm/schedfarm/family"
	"github.com/schedfarm/schedfarm/param"
	"github.com/schedfarm/schedfarm/runner"
)

// RowGroupRows bounds the rows of one Parquet row group.
const RowGroupRows = 4096

// column is one column of a dynamically built schema: get reads its value
// from a record for the writer, set writes a value read back into a record
// for ReadFile (nil: a column ReadFile ignores).
type column struct {
	name     string
	kind     string // a param kind name (int, float, string, bool), or "uint" for the seed
	optional bool
	get      func(rec *Record) (any, bool)
	set      func(rec *Record, v parquet.Value) error
}

// fixedColumns is the one table of the fixed columns: their names, kinds
// and how each is written from and read back into a Record. schemaFor
// places them; ReadFile reads them by name through the same table.
func fixedColumns() []column {
	text := func(name string, field func(r *Record) *string) column {
		return column{name: name, kind: param.String.String(),
			get: func(r *Record) (any, bool) { return *field(r), true },
			set: func(r *Record, v parquet.Value) error { *field(r) = string(v.ByteArray()); return nil }}
	}
	integer := func(name string, field func(r *Record) *int) column {
		return column{name: name, kind: param.Int.String(),
			get: func(r *Record) (any, bool) { return int64(*field(r)), true },
			set: func(r *Record, v parquet.Value) error { *field(r) = int(v.Int64()); return nil }}
	}
	return []column{
		text(ColExperiment, func(r *Record) *string { return &r.Cell.Experiment }),
		{name: ColCellID, kind: param.String.String(),
			get: func(r *Record) (any, bool) { return r.Cell.ID, true },
			set: func(r *Record, v parquet.Value) error {
				r.Cell.ID = string(v.ByteArray())
				r.Result.CellID = r.Cell.ID
				return nil
			}},
		integer(ColCellIndex, func(r *Record) *int { return &r.Cell.Index }),
		text(ColScheduler, func(r *Record) *string { return &r.Cell.Scheduler }),
		integer(ColReplication, func(r *Record) *int { return &r.Cell.Replication }),
		{name: ColSeed, kind: "uint",
			get: func(r *Record) (any, bool) { return r.Cell.Seed, true },
			set: func(r *Record, v parquet.Value) error { r.Cell.Seed = uint64(v.Int64()); return nil }},
		text(ColStatus, func(r *Record) *string { return &r.Result.Status }),
		text(ColError, func(r *Record) *string { return &r.Result.Error }),
		{name: ColWallSeconds, kind: param.Float.String(),
			get: func(r *Record) (any, bool) { return r.Result.WallSeconds, true },
			set: func(r *Record, v parquet.Value) error { r.Result.WallSeconds = v.Double(); return nil }},
		text(ColWorker, func(r *Record) *string { return &r.Result.Worker }),
		text(ColVersion, func(r *Record) *string { return &r.Result.Version }),
		text(ColGoVersion, func(r *Record) *string { return &r.Result.GoVersion }),
		text(ColGitCommit, func(r *Record) *string { return &r.Result.Commit }),
		{name: ColPluginSHA256, kind: param.String.String(),
			get: func(r *Record) (any, bool) { return r.Cell.PluginSHA256(), true },
			set: func(r *Record, v parquet.Value) error {
				if s := string(v.ByteArray()); s != "" {
					r.Cell.Plugin = &runner.PluginRef{SHA256: s}
				}
				return nil
			}},
	}
}

// paramKinds returns the column kind of every parameter seen in recs: a
// single kind stays; int mixed with float is float; any other mix is string.
func paramKinds(recs []*Record) map[string]string {
	seen := map[string]map[string]bool{}
	for _, r := range recs {
		for _, p := range r.Cell.Params {
			if seen[p.Name] == nil {
				seen[p.Name] = map[string]bool{}
			}
			seen[p.Name][p.Kind()] = true
		}
	}
	out := map[string]string{}
	for name, ks := range seen {
		switch {
		case len(ks) == 1:
			for k := range ks {
				out[name] = k
			}
		case len(ks) == 2 && ks[param.Int.String()] && ks[param.Float.String()]:
			out[name] = param.Float.String()
		default:
			out[name] = param.String.String()
		}
	}
	return out
}

func convertTo(v any, kind string) any {
	switch kind {
	case param.Float.String():
		if i, ok := v.(int64); ok {
			return float64(i)
		}
	case param.String.String():
		if _, ok := v.(string); !ok {
			return experiments.FormatValue(v)
		}
	}
	return v
}

// schemaFor builds the columns for recs in the order a notebook reads
// them: what identifies a row (experiment, scheduler, the p_* parameters,
// replication), its status, the m_* metrics in the order the simulation
// reports them, the error text, then bookkeeping and provenance (cell id and
// index, seed, wall time, worker, versions, build, plugin hash). keep
// filters metrics (nil keeps all) and gives their order when set.
func schemaFor(recs []*Record, keep []string) []column {
	fixed := map[string]column{}
	for _, c := range fixedColumns() {
		fixed[c.name] = c
	}
	cols := []column{fixed[ColExperiment], fixed[ColScheduler]}
	kinds := paramKinds(recs)
	names := make([]string, 0, len(kinds))
	for n := range kinds {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		name, kind := n, kinds[n]
		cols = append(cols, column{name: ParamColumn(name), kind: kind, optional: true,
			get: func(r *Record) (any, bool) {
				v, ok := r.Cell.Lookup(name)
				if !ok {
					return nil, false
				}
				return convertTo(v, kind), true
			}})
	}
	cols = append(cols, fixed[ColReplication], fixed[ColStatus])
	var mnames []string
	if len(keep) > 0 { // kept metrics get a column even if every cell failed
		mnames = append(mnames, keep...)
	} else {
		seen := map[string]bool{}
		for _, r := range recs {
			for _, m := range r.Result.Metrics {
				if !seen[m.Name] {
					seen[m.Name] = true
					mnames = append(mnames, m.Name)
				}
			}
		}
	}
	for _, m := range mnames {
		name := m
		cols = append(cols, column{name: MetricColumn(name), kind: param.Float.String(), optional: true,
			get: func(r *Record) (any, bool) { return r.Metric(name) }})
	}
	for _, n := range []string{ColError, ColCellID, ColCellIndex, ColSeed, ColWallSeconds, ColWorker, ColVersion, ColGoVersion, ColGitCommit, ColPluginSHA256} {
		cols = append(cols, fixed[n])
	}
	return cols
}

// orderedGroup is a Parquet group whose fields keep the order given, not
// parquet.Group's alphabetical one.
type orderedGroup struct {
	parquet.Group
	order []string
}

func (g orderedGroup) Fields() []parquet.Field {
	by := map[string]parquet.Field{}
	for _, f := range g.Group.Fields() {
		by[f.Name()] = f
	}
	out := make([]parquet.Field, len(g.order))
	for i, n := range g.order {
		out[i] = by[n]
	}
	return out
}

func (g orderedGroup) String() string {
	var b strings.Builder
	b.WriteString("group {")
	for _, f := range g.Fields() {
		fmt.Fprintf(&b, " %s %s;", f.Name(), f.Type())
	}
	b.WriteString(" }")
	return b.String()
}

func leafNode(c column) parquet.Node {
	var n parquet.Node
	switch c.kind {
	case param.Int.String():
		n = parquet.Int(64)
	case "uint":
		n = parquet.Uint(64)
	case param.Float.String():
		n = parquet.Leaf(parquet.DoubleType)
	case param.Bool.String():
		n = parquet.Leaf(parquet.BooleanType)
	default:
		n = parquet.String()
	}
	if c.optional {
		n = parquet.Optional(n)
	}
	return n
}

func parquetValue(v any, kind string) parquet.Value {
	switch kind {
	case param.Int.String():
		return parquet.Int64Value(v.(int64))
	case "uint":
		return parquet.Int64Value(int64(v.(uint64)))
	case param.Float.String():
		return parquet.DoubleValue(v.(float64))
	case param.Bool.String():
		return parquet.BooleanValue(v.(bool))
	}
	return parquet.ByteArrayValue([]byte(v.(string)))
}

// writeParquet writes recs to path atomically (a temporary file renamed into
// place), zstd-compressed, in row groups of at most RowGroupRows rows.
func writeParquet(path string, recs []*Record, keep []string, meta map[string]string, g *Glossary) error {
	cols := schemaFor(recs, keep)
	all := g.columnMeta(cols)
	for k, v := range meta {
		all[k] = v
	}
	meta = all
	group := orderedGroup{Group: parquet.Group{}}
	for _, c := range cols {
		group.Group[c.name] = leafNode(c)
		group.order = append(group.order, c.name)
	}
	schema := parquet.NewSchema("cell", group)
	return replaceFile(path, func(f io.Writer) error {
		opts := []parquet.WriterOption{
			schema,
			parquet.Compression(&parquet.Zstd),
			parquet.MaxRowsPerRowGroup(RowGroupRows),
			parquet.CreatedBy("schedfarm", "", ""),
		}
		keys := make([]string, 0, len(meta))
		for k := range meta {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			opts = append(opts, parquet.KeyValueMetadata(k, meta[k]))
		}
		w := parquet.NewWriter(f, opts...)
		rows := make([]parquet.Row, 0, 256)
		flush := func() error {
			if _, err := w.WriteRows(rows); err != nil {
				return err
			}
			rows = rows[:0]
			return nil
		}
		for _, rec := range recs {
			row := make(parquet.Row, len(cols))
			for i, c := range cols {
				v, ok := c.get(rec)
				switch {
				case !ok && c.optional:
					row[i] = parquet.NullValue().Level(0, 0, i)
				case !ok:
					return fmt.Errorf("cell %s: column %s has no value", rec.Cell.ID, c.name)
				case c.optional:
					row[i] = parquetValue(v, c.kind).Level(0, 1, i)
				default:
					row[i] = parquetValue(v, c.kind).Level(0, 0, i)
				}
			}
			rows = append(rows, row)
			if len(rows) == cap(rows) {
				if err := flush(); err != nil {
					return err
				}
			}
		}
		if err := flush(); err != nil {
			return err
		}
		return w.Close()
	})
}

// ReadFile reads a per-cell Parquet file written by Writer back into
// records: parameters typed as their columns (int64, float64, string, bool;
// null columns absent), metrics from the m_* columns (null metrics absent).
func ReadFile(path string) ([]*Record, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	pf, err := parquet.OpenFile(f, st.Size())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	fixed := map[string]column{}
	for _, c := range fixedColumns() {
		fixed[c.name] = c
	}
	fields := pf.Schema().Fields()
	setters := make([]func(*Record, parquet.Value) error, len(fields))
	for i, fld := range fields {
		name := fld.Name()
		kind := fld.Type().Kind()
		val := func(v parquet.Value) any {
			switch kind {
			case parquet.Int64, parquet.Int32:
				return v.Int64()
			case parquet.Double:
				return v.Double()
			case parquet.Float:
				return float64(v.Float())
			case parquet.Boolean:
				return v.Boolean()
			}
			return string(v.ByteArray())
		}
		if c, ok := fixed[name]; ok {
			setters[i] = c.set
		} else if p, ok := ParamName(name); ok {
			setters[i] = func(r *Record, v parquet.Value) error {
				if !v.IsNull() {
					r.Cell.Params = append(r.Cell.Params, runner.Param{Name: p, Value: val(v)})
				}
				return nil
			}
		} else if m, ok := MetricName(name); ok {
			setters[i] = func(r *Record, v parquet.Value) error {
				if !v.IsNull() {
					f, ok := val(v).(float64)
					if !ok {
						return fmt.Errorf("metric column %s is not a double", name)
					}
					r.Result.Metrics = append(r.Result.Metrics, family.Metric{Name: m, Value: f})
				}
				return nil
			}
		}
	}
	var recs []*Record
	buf := make([]parquet.Row, 256)
	for _, rg := range pf.RowGroups() {
		rows := rg.Rows()
		for {
			n, err := rows.ReadRows(buf)
			for _, row := range buf[:n] {
				rec := &Record{}
				for _, v := range row {
					if s := setters[v.Column()]; s != nil {
						if err := s(rec, v); err != nil {
							rows.Close()
							return nil, fmt.Errorf("%s: %w", path, err)
						}
					}
				}
				sortRecord(rec)
				recs = append(recs, rec)
			}
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				rows.Close()
				return nil, fmt.Errorf("%s: %w", path, err)
			}
		}
		rows.Close()
	}
	return recs, nil
}

func sortRecord(rec *Record) {
	ps := rec.Cell.Params
	sort.Slice(ps, func(i, j int) bool { return ps[i].Name < ps[j].Name })
}

// replaceFile replaces path atomically: write fills a temporary file in the
// same directory, which is then synced, made readable (0644) and renamed
// over path. On any error the temporary file is closed and removed and path
// is left as it was.
func replaceFile(path string, write func(io.Writer) error) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if err := write(tmp); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
