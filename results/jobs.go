package results

import (
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"sort"

	"github.com/parquet-go/parquet-go"

	"github.com/schedfarm/schedfarm/runner"
)

// JobRow is one row of the per-job Parquet file.
type JobRow struct {
	CellID string  `parquet:"cell_id"`
	JobID  int64   `parquet:"job_id"`
	Submit float64 `parquet:"submit"`
	Start  float64 `parquet:"start"`
	End    float64 `parquet:"end"`
	Procs  int64   `parquet:"procs"`
	Wait   float64 `parquet:"wait"`
	Bsld   float64 `parquet:"bsld"`
	State  string  `parquet:"state"`
}

func jobRow(cellID string, j runner.JobRecord) JobRow {
	return JobRow{CellID: cellID, JobID: j.ID, Submit: j.Submit, Start: j.Start, End: j.End,
		Procs: j.Procs, Wait: j.Wait, Bsld: j.Bsld, State: j.State}
}

// writeJobs rebuilds the per-job Parquet file from its journal, keeping the
// last batch of jobs of each cell, ordered like the cells in recs.
func writeJobs(path string, recs []*Record) error {
	last := map[string][]runner.JobRecord{}
	if _, err := readJournal(JournalPath(path), func(line []byte) error {
		var jl jobsLine
		if err := json.Unmarshal(line, &jl); err != nil {
			return err
		}
		last[jl.CellID] = jl.Jobs
		return nil
	}); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return replaceFile(path, func(f io.Writer) error {
		w := parquet.NewGenericWriter[JobRow](f,
			parquet.Compression(&parquet.Zstd),
			parquet.MaxRowsPerRowGroup(64*RowGroupRows),
			parquet.CreatedBy("schedfarm", "", ""))
		order := make([]string, 0, len(last))
		seen := map[string]bool{}
		for _, r := range recs {
			if _, ok := last[r.Cell.ID]; ok {
				order = append(order, r.Cell.ID)
				seen[r.Cell.ID] = true
			}
		}
		var rest []string
		for id := range last {
			if !seen[id] {
				rest = append(rest, id)
			}
		}
		sort.Strings(rest)
		order = append(order, rest...)
		rows := make([]JobRow, 0, 1024)
		for _, id := range order {
			jobs := last[id]
			for _, j := range jobs {
				rows = append(rows, jobRow(id, j))
				if len(rows) == cap(rows) {
					if _, err := w.Write(rows); err != nil {
						return err
					}
					rows = rows[:0]
				}
			}
		}
		if _, err := w.Write(rows); err != nil {
			return err
		}
		return w.Close()
	})
}

// ReadJobs reads a per-job Parquet file.
func ReadJobs(path string) ([]JobRow, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := parquet.NewGenericReader[JobRow](f)
	defer r.Close()
	out := make([]JobRow, 0, r.NumRows())
	buf := make([]JobRow, 1024)
	for {
		n, err := r.Read(buf)
		out = append(out, buf[:n]...)
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return out, err
		}
	}
}

// importJobs returns an importer that seeds a new per-job journal from an
// existing per-job Parquet file.
func importJobs(path string) func(*os.File) error {
	return func(f *os.File) error {
		rows, err := ReadJobs(path)
		if err != nil {
			return err
		}
		var cur *jobsLine
		flush := func() error {
			if cur == nil {
				return nil
			}
			return appendJSON(f, cur)
		}
		for _, r := range rows {
			if cur == nil || cur.CellID != r.CellID {
				if err := flush(); err != nil {
					return err
				}
				cur = &jobsLine{CellID: r.CellID}
			}
			cur.Jobs = append(cur.Jobs, runner.JobRecord{ID: r.JobID, Submit: r.Submit, Start: r.Start,
				End: r.End, Procs: r.Procs, Wait: r.Wait, Bsld: r.Bsld, State: r.State})
		}
		if err := flush(); err != nil {
			return err
		}
		return f.Sync()
	}
}
