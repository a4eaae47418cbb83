package results

import (
	"bytes"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// This file holds the Writer's answers to disk and output faults; see the
// README's "Limits and faults" for the behaviour as a whole:
//
//   - an output directory that cannot be created or written: Open fails,
//     naming the directory, before anything runs;
//   - a file of another experiment at the output path (Options.Experiment
//     set): Open fails, naming both experiments, and leaves the file alone;
//   - a journal append cut short (disk full): the partial line is cut off,
//     Write fails and the journal is as it was before that result;
//   - a Parquet rebuild that fails (disk full): the old file stays, the
//     temporary one is removed, and the journal, synced before any rebuild,
//     holds every result; a rerun of the spec rebuilds the file;
//   - a journal whose last line is torn (a crash, a truncated copy): the
//     line is cut off on Open and reported through Options.Logf.

// checkWritableDir makes sure the directory of output exists and accepts
// new files, and that output itself is not a directory.
func checkWritableDir(output string) error {
	if st, err := os.Stat(output); err == nil && st.IsDir() {
		return fmt.Errorf("results: output %s is a directory; want a file path such as %s", output, filepath.Join(output, "results.parquet"))
	}
	dir := filepath.Dir(output)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("results: output directory %s cannot be created: %w; give the spec an output path in a writable directory", dir, err)
	}
	f, err := os.CreateTemp(dir, ".schedfarm-probe-*")
	if err != nil {
		return fmt.Errorf("results: output directory %s is not writable: %w; the journal and the Parquet file are written there: give the spec an output path in a writable directory%s", dir, err, WritableHint())
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}

// checkExperiment refuses a record of another experiment than
// Options.Experiment (when set).
func (w *Writer) checkExperiment(exp string) error {
	if w.opt.Experiment == "" || exp == w.opt.Experiment {
		return nil
	}
	return fmt.Errorf("holds a result of experiment %q, not %q: the output path is another spec's; give this spec another output path or move the file away", exp, w.opt.Experiment)
}

// checkParquetExperiment refuses a Parquet file at the output path that is
// not a schedfarm results file or holds rows of another experiment than
// Options.Experiment (when set), before anything would overwrite it.
func (w *Writer) checkParquetExperiment() error {
	if w.opt.Experiment == "" {
		return nil
	}
	if _, err := os.Stat(w.opt.Path); err != nil {
		return nil
	}
	recs, err := ReadFile(w.opt.Path)
	if err != nil {
		return fmt.Errorf("results: %s exists but is not a schedfarm results file (%w); move it away or give the spec another output path", w.opt.Path, err)
	}
	for i, rec := range recs {
		if err := w.checkExperiment(rec.Cell.Experiment); err != nil {
			return fmt.Errorf("results: %s row %d %w", w.opt.Path, i+1, err)
		}
	}
	return nil
}

// append writes v as one journal line of f. A write cut short (a full
// disk) is undone, so the journal keeps ending on a line boundary and a
// later append after freeing space is read back; if even that fails, the
// Writer refuses every later Write.
func (w *Writer) append(f *os.File, v any) error {
	off, err := f.Seek(0, io.SeekCurrent)
	if err != nil {
		return fmt.Errorf("results: %s: %w", f.Name(), err)
	}
	err = appendJSON(f, v)
	if err == nil {
		return nil
	}
	if terr := f.Truncate(off); terr != nil {
		w.broken = fmt.Errorf("results: %s: a failed append (%v) could not be undone (%v); the next Open cuts the torn line off: run the same spec again", f.Name(), err, terr)
		return w.broken
	}
	if _, serr := f.Seek(off, io.SeekStart); serr != nil {
		w.broken = fmt.Errorf("results: %s: %v after a failed append (%v); run the same spec again", f.Name(), serr, err)
		return w.broken
	}
	return fmt.Errorf("results: append to %s: %w; the journal is as it was before this result: free space and run the same spec again (what is in the journal is kept)", f.Name(), err)
}

// WritableHint says as whom this process writes, and under docker compose
// (SCHEDFARM_COMPOSE=1, set by the shipped compose files) how to change it.
func WritableHint() string {
	s := fmt.Sprintf(" (this process runs as uid %d, gid %d)", os.Getuid(), os.Getgid())
	if os.Getenv("SCHEDFARM_COMPOSE") == "1" {
		s += "; under docker compose the coordinator runs as $SCHEDFARM_UID:$SCHEDFARM_GID (default 65532): export SCHEDFARM_UID=$(id -u) SCHEDFARM_GID=$(id -g) before docker compose up, so that it writes as you"
	}
	return s
}

// DamagedJournalError is Open's refusal of a journal with a complete line
// that is not a record of a cell (a write of something else into it, a
// disk error): the results before and after it are kept, but nothing is
// appended to a journal that cannot be read back. Options.Repair (the
// --repair flag of run and coordinator) sets such lines aside.
type DamagedJournalError struct {
	Path string
	Line int
	Err  error
}

func (e *DamagedJournalError) Error() string {
	return fmt.Sprintf("%s:%d: damaged journal line: %v", e.Path, e.Line, e.Err)
}

func (e *DamagedJournalError) Unwrap() error { return e.Err }

// OtherBuildError is Open's refusal of an output whose ok rows were made by
// another build than Options.Build: resuming would mix the numbers of two
// builds in one file. Options.AcceptBuilds (--accept-builds) takes them.
type OtherBuildError struct {
	Output string
	This   string
	Rows   map[string]int // build -> ok rows
}

func (e *OtherBuildError) Error() string {
	var parts []string
	for b, n := range e.Rows {
		if b != e.This {
			parts = append(parts, fmt.Sprintf("%d rows of build %s", n, b))
		}
	}
	sort.Strings(parts)
	return fmt.Sprintf("results: %s holds %s; this is build %s (schedfarm version prints it): resuming would mix two builds in one output", e.Output, strings.Join(parts, ", "), e.This)
}

// checkBuilds refuses ok rows of another build unless told to accept them.
func (w *Writer) checkBuilds() error {
	if w.opt.Build == "" || w.opt.AcceptBuilds {
		return nil
	}
	for b := range w.builds {
		if b != w.opt.Build {
			return &OtherBuildError{Output: w.opt.Path, This: w.opt.Build, Rows: maps.Clone(w.builds)}
		}
	}
	return nil
}

// Builds returns the number of ok rows per build in the output as opened.
func (w *Writer) Builds() map[string]int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return maps.Clone(w.builds)
}

// repairJournal rewrites the journal at path without its damaged complete
// lines (those each refuses), which are appended to path+".damaged"; a torn
// last line is left for openAppend to cut. It returns how many lines moved.
func repairJournal(path string, each func([]byte) error) (int, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	var keep, bad []byte
	moved := 0
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			keep = append(keep, data...) // torn tail: cut on open
			break
		}
		line := data[:i+1]
		data = data[i+1:]
		if len(bytes.TrimSpace(line)) > 0 && each(line) != nil {
			bad = append(bad, line...)
			moved++
			continue
		}
		keep = append(keep, line...)
	}
	side, err := os.OpenFile(path+".damaged", os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return 0, err
	}
	if _, err := side.Write(bad); err != nil {
		side.Close()
		return 0, err
	}
	if err := side.Sync(); err != nil {
		side.Close()
		return 0, err
	}
	side.Close()
	tmp := path + ".repair"
	if err := os.WriteFile(tmp, keep, 0o644); err != nil {
		return 0, err
	}
	f, err := os.Open(tmp)
	if err == nil {
		err = f.Sync()
		f.Close()
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return 0, err
	}
	return moved, nil
}
