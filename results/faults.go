package results

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
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
// new files.
func checkWritableDir(output string) error {
	dir := filepath.Dir(output)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("results: output directory %s cannot be created: %w; give the spec an output path in a writable directory", dir, err)
	}
	f, err := os.CreateTemp(dir, ".schedfarm-probe-*")
	if err != nil {
		return fmt.Errorf("results: output directory %s is not writable: %w; the journal and the Parquet file are written there: give the spec an output path in a writable directory", dir, err)
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
