package results

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/schedfarm/schedfarm/internal/lockfile"
	"github.com/schedfarm/schedfarm/runner"
)

// Options configure a Writer.
type Options struct {
	// Path is the per-cell Parquet output. Its journal is JournalPath(Path).
	Path string
	// JobsPath is the optional per-job Parquet output ("" for none); its
	// journal is JournalPath(JobsPath).
	JobsPath string
	// Metrics lists the metrics to keep as columns; nil keeps all.
	Metrics []string
	// Glossary describes the columns in the file's metadata (the family
	// catalog's: NewGlossary); nil knows the fixed columns, the runner's
	// fields and metrics only.
	Glossary *Glossary
	// Meta is stored as Parquet key-value metadata (e.g. the spec text).
	Meta map[string]string
	// RewriteEvery is the least time between two Parquet rewrites by Flush
	// (DefaultRewriteEvery when zero). Flush always syncs the journals (the
	// durability point); rebuilding the Parquet files from them costs time
	// proportional to the results so far, so Flush also waits at least ten
	// times the last rewrite's duration, keeping rewrites under a tenth of
	// the sweep. The first Flush and Close always rewrite.
	RewriteEvery time.Duration
	// Experiment, when set, is the only experiment the outputs may hold:
	// Open refuses a journal or Parquet file at the output path with rows
	// of another experiment (a file left there by another spec), instead
	// of mixing its rows in and then overwriting the file.
	Experiment string
	// Logf receives notable recoveries (a torn journal line cut off);
	// silent when nil.
	Logf func(format string, args ...any)
	// Owner says what the writing process does (e.g. "schedfarm run of
	// experiment quickstart"); it is written into the output's lock file
	// for a refused second process to read.
	Owner string
	// Build is the build of the process that will add results (see
	// buildinfo.Commit). When set, Open refuses an output whose ok rows
	// were made by another build (*OtherBuildError), unless AcceptBuilds.
	Build        string
	AcceptBuilds bool
	// Repair sets the damaged complete lines of a journal aside (appended
	// to "<journal>.damaged") instead of refusing it with a
	// *DamagedJournalError; their cells run again.
	Repair bool
}

// glossary returns Glossary or the glossary of no families.
func (o Options) glossary() *Glossary {
	if o.Glossary != nil {
		return o.Glossary
	}
	return NewGlossary(nil)
}

// DefaultRewriteEvery is the default Options.RewriteEvery.
const DefaultRewriteEvery = 10 * time.Second

// Writer records cell results crash-safely and writes the Parquet files.
//
// Every Write appends one JSON line to the journal next to the output
// (JournalPath) with a single write call, so a process killed at any moment
// leaves every completed Write on disk (a torn last line is cut off on the
// next Open). The journal is fsynced by Flush and Close. The Parquet file,
// valid only once its footer is written, is (re)built from the journal by
// Close and, at most every Options.RewriteEvery, by Flush, into a temporary file renamed over the output, so readers
// never see a half-written file. Open on an existing output resumes: the
// journal's records are kept and Done reports the cells already finished.
// A Writer is safe for concurrent use.
type Writer struct {
	mu     sync.Mutex
	opt    Options
	lock   *lockfile.Lock
	builds map[string]int // build -> ok rows of it, as opened
	// fresh: Open created the journal (there was none, nor an output);
	// Abandon removes it again while it is empty.
	fresh   bool
	journal *os.File
	jobs    *os.File
	broken  error             // a journal append failed and could not be undone: refuse more
	status  map[string]string // cell ID -> best status so far
	closed  bool

	rewritten   time.Time     // end of the last Parquet rewrite (zero: none yet)
	rewriteCost time.Duration // how long it took
}

// Open opens (creating or resuming) the outputs described by opt. When the
// journal is missing but the Parquet output exists (e.g. copied from
// elsewhere), its rows seed a new journal so that nothing is lost.
func Open(opt Options) (*Writer, error) {
	if opt.Path == "" {
		return nil, errors.New("results: no output path")
	}
	if opt.Logf == nil {
		opt.Logf = func(string, ...any) {}
	}
	if err := checkWritableDir(opt.Path); err != nil {
		return nil, err
	}
	lock, err := lockfile.Acquire(LockPath(opt.Path), lockfile.Self(opt.Owner))
	if err != nil {
		return nil, fmt.Errorf("results: %s has an owner already: %w: one experiment, one owner; wait for that run to end, or stop it (kill %s), then run again", opt.Path, err, pidOf(err))
	}
	w := &Writer{opt: opt, status: map[string]string{}, lock: lock, builds: map[string]int{}}
	if _, err := os.Stat(JournalPath(opt.Path)); errors.Is(err, fs.ErrNotExist) {
		if _, err := os.Stat(opt.Path); errors.Is(err, fs.ErrNotExist) {
			w.fresh = true
		}
	}
	fail := func(err error) (*Writer, error) {
		if w.journal != nil {
			w.journal.Close()
		}
		lock.Release()
		return nil, err
	}
	if err := w.checkParquetExperiment(); err != nil {
		return fail(err)
	}
	w.journal, err = openJournal(opt.Path, func(line []byte) error {
		var rec Record
		if err := json.Unmarshal(line, &rec); err != nil {
			return err
		}
		if rec.Cell.ID == "" {
			return errors.New("record without a cell id")
		}
		if err := w.checkExperiment(rec.Cell.Experiment); err != nil {
			return notDamage{err}
		}
		w.note(rec.Cell.ID, rec.Result.Status)
		if rec.Result.Status == runner.StatusOK {
			w.builds[rec.Result.Commit]++
		}
		return nil
	}, func() { w.status, w.builds = map[string]string{}, map[string]int{} }, func(f *os.File) error { return w.importCells(f) }, opt)
	if err != nil {
		return fail(err)
	}
	if err := w.checkBuilds(); err != nil {
		return fail(err)
	}
	if opt.JobsPath != "" {
		w.jobs, err = openJournal(opt.JobsPath, func(line []byte) error {
			var l jobsLine
			if err := json.Unmarshal(line, &l); err != nil {
				return err
			}
			if l.CellID == "" {
				return errors.New("per-job line without a cell id")
			}
			return nil
		}, func() {}, importJobs(opt.JobsPath), opt)
		if err != nil {
			return fail(err)
		}
	}
	return w, nil
}

// LockPath returns the path of the lock file of an output: the output path
// with ".lock" appended. A run holds it (flock) while it owns the output.
func LockPath(output string) string { return output + ".lock" }

// pidOf returns the holder's process id named by a lock error, or "its
// process".
func pidOf(err error) string {
	var busy *lockfile.BusyError
	if errors.As(err, &busy) && busy.Holder.PID != 0 {
		return fmt.Sprint(busy.Holder.PID)
	}
	return "its process"
}

// openJournal opens the journal of output for appending: it replays the
// existing lines through each, or imports the existing Parquet output
// through imp when there is no journal. A damaged complete line refuses the
// journal (*DamagedJournalError) unless opt.Repair, which sets such lines
// aside and replays the rest.
func openJournal(output string, each func([]byte) error, reset func(), imp func(*os.File) error, opt Options) (*os.File, error) {
	logf := opt.Logf
	jp := JournalPath(output)
	good, err := readJournal(jp, each)
	var damaged *DamagedJournalError
	if errors.As(err, &damaged) && opt.Repair {
		moved, rerr := repairJournal(jp, func(line []byte) error {
			if err := each(line); err != nil && !errors.As(err, new(notDamage)) {
				return err
			}
			return nil
		})
		if rerr != nil {
			return nil, fmt.Errorf("results: repairing %s: %w", jp, rerr)
		}
		logf("results: %s: set %d damaged line(s) aside in %s; their cells, if any, run again", jp, moved, jp+".damaged")
		reset()
		good, err = readJournal(jp, each)
	}
	if err == nil {
		if st, serr := os.Stat(jp); serr == nil && st.Size() > good {
			logf("results: %s: cut off a torn last line (%d bytes at offset %d, a write cut short by a crash or a truncated copy); its cell, if any, counts as not done and runs again",
				jp, st.Size()-good, good)
		}
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		f, err := openAppend(jp, 0)
		if err != nil {
			return nil, err
		}
		if _, err := os.Stat(output); err == nil {
			if err := imp(f); err != nil {
				f.Close()
				return nil, fmt.Errorf("results: importing %s into a new journal: %w", output, err)
			}
		}
		return f, nil
	case err != nil:
		return nil, fmt.Errorf("results: %w", err)
	}
	return openAppend(jp, good)
}

func (w *Writer) importCells(f *os.File) error {
	recs, err := ReadFile(w.opt.Path)
	if err != nil {
		return err
	}
	for _, rec := range recs {
		if err := w.checkExperiment(rec.Cell.Experiment); err != nil {
			return err
		}
	}
	for _, rec := range recs {
		if err := appendJSON(f, rec); err != nil {
			return err
		}
		w.note(rec.Cell.ID, rec.Result.Status)
	}
	return f.Sync()
}

// note records a status; ok beats failed.
func (w *Writer) note(id, status string) {
	if w.status[id] != runner.StatusOK {
		w.status[id] = status
	}
}

func appendJSON(f *os.File, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	b = append(b, '\n')
	_, err = f.Write(b) // one write call per line: no interleaving, torn only by a crash
	return err
}

// jobsLine is one line of the per-job journal: the jobs of one cell.
type jobsLine struct {
	CellID string             `json:"cell_id"`
	Jobs   []runner.JobRecord `json:"jobs"`
}

// Write records the result of cell c. The result's Jobs go to the per-job
// journal (when configured) and are not kept in the cell journal.
func (w *Writer) Write(c runner.Cell, r runner.CellResult) error {
	if r.CellID == "" {
		r.CellID = c.ID
	}
	if r.CellID != c.ID {
		return fmt.Errorf("results: result for cell %s written with cell %s", r.CellID, c.ID)
	}
	if r.Status != runner.StatusOK && r.Status != runner.StatusFailed {
		return fmt.Errorf("results: cell %s: status %q; accepted: %s, %s", c.ID, r.Status, runner.StatusOK, runner.StatusFailed)
	}
	jobs := r.Jobs
	r.Jobs = nil
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return errors.New("results: write after Close")
	}
	if w.broken != nil {
		return w.broken
	}
	if w.jobs != nil && len(jobs) > 0 {
		if err := w.append(w.jobs, jobsLine{CellID: c.ID, Jobs: jobs}); err != nil {
			return err
		}
	}
	if err := w.append(w.journal, Record{Cell: c, Result: r}); err != nil {
		return err
	}
	w.note(c.ID, r.Status)
	return nil
}

// Done returns the IDs of the cells that finished with status ok so far
// (including those of earlier runs); a resumed sweep skips them. Failed
// cells are not in it: a rerun retries them.
func (w *Writer) Done() map[string]struct{} {
	w.mu.Lock()
	defer w.mu.Unlock()
	return okSet(w.status)
}

// Status returns the best status recorded for every cell (ok beats failed).
func (w *Writer) Status() map[string]string {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := make(map[string]string, len(w.status))
	for k, v := range w.status {
		out[k] = v
	}
	return out
}

func okSet(status map[string]string) map[string]struct{} {
	out := map[string]struct{}{}
	for id, s := range status {
		if s == runner.StatusOK {
			out[id] = struct{}{}
		}
	}
	return out
}

// Flush syncs the journals, so every Write so far survives a crash, and
// rewrites the Parquet files from them when Options.RewriteEvery allows, so a
// notebook can look at a sweep still running.
func (w *Writer) Flush() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return errors.New("results: flush after Close")
	}
	if err := w.syncLocked(); err != nil {
		return err
	}
	every := w.opt.RewriteEvery
	if every <= 0 {
		every = DefaultRewriteEvery
	}
	if !w.rewritten.IsZero() && time.Since(w.rewritten) < max(every, 10*w.rewriteCost) {
		return nil
	}
	return w.rewriteLocked()
}

func (w *Writer) syncLocked() error {
	if err := w.journal.Sync(); err != nil {
		return err
	}
	if w.jobs != nil {
		return w.jobs.Sync()
	}
	return nil
}

// rewriteLocked rebuilds the Parquet files from the journals.
func (w *Writer) rewriteLocked() error {
	start := time.Now()
	defer func() { w.rewritten, w.rewriteCost = time.Now(), time.Since(start) }()
	recs, err := loadJournal(JournalPath(w.opt.Path))
	if err != nil {
		return err
	}
	meta := map[string]string{"schedfarm.columns": "one key per column, " + MetaColumnPrefix + "<column> = {\"unit\", \"meaning\"}; the same glossary: docs/columns.md"}
	for k, v := range w.opt.Meta {
		meta[k] = v
	}
	if err := writeParquet(w.opt.Path, recs, w.opt.Metrics, meta, w.opt.glossary()); err != nil {
		return rebuildError(w.opt.Path, err)
	}
	if w.jobs != nil {
		if err := writeJobs(w.opt.JobsPath, recs); err != nil {
			return rebuildError(w.opt.JobsPath, err)
		}
	}
	return nil
}

// rebuildError reports a failed Parquet rebuild of output and the recovery.
func rebuildError(output string, err error) error {
	return fmt.Errorf("results: rebuilding %s from its journal: %w; the file is left as it was and every result is in the synced journal %s: "+
		"free space (or fix the directory) and run the same spec again, which rebuilds it", output, err, JournalPath(output))
}

// Close syncs the journals, writes the Parquet files and closes. The
// journals stay next to the outputs; they make a later rerun resumable.
func (w *Writer) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return nil
	}
	w.closed = true
	err := w.syncLocked()
	if err == nil {
		err = w.rewriteLocked()
	}
	if cerr := w.journal.Close(); err == nil {
		err = cerr
	}
	if w.jobs != nil {
		if cerr := w.jobs.Close(); err == nil {
			err = cerr
		}
	}
	if lerr := w.lock.Release(); err == nil {
		err = lerr
	}
	return err
}

// Abandon closes a Writer to which nothing was written, without writing the
// Parquet file, and lets its output go: for a run that stops before it
// starts (a broker it cannot reach). A journal that Open created is
// removed again while it is empty, so the output is as it was.
func (w *Writer) Abandon() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return nil
	}
	w.closed = true
	err := w.journal.Close()
	if w.jobs != nil {
		if cerr := w.jobs.Close(); err == nil {
			err = cerr
		}
	}
	if w.fresh {
		for _, p := range []string{JournalPath(w.opt.Path), JournalPath(w.opt.JobsPath)} {
			if st, serr := os.Stat(p); serr == nil && st.Size() == 0 && p != JournalPath("") {
				os.Remove(p)
			}
		}
	}
	if lerr := w.lock.Release(); err == nil {
		err = lerr
	}
	return err
}

// loadJournal reads a cell journal and keeps one record per cell: the last
// ok record, or the last failed one when the cell never succeeded. Records
// are ordered by experiment, cell index and ID, so the output does not
// depend on the order in which cells finished.
func loadJournal(path string) ([]*Record, error) {
	byID := map[string]*Record{}
	if _, err := readRecords(path, func(rec *Record) error {
		if old, ok := byID[rec.Cell.ID]; ok && old.Result.Status == runner.StatusOK && rec.Result.Status != runner.StatusOK {
			return nil
		}
		byID[rec.Cell.ID] = rec
		return nil
	}); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	recs := make([]*Record, 0, len(byID))
	for _, r := range byID {
		recs = append(recs, r)
	}
	sortRecords(recs)
	return recs, nil
}

func sortRecords(recs []*Record) {
	slices.SortStableFunc(recs, func(x, y *Record) int {
		a, b := &x.Cell, &y.Cell
		return cmp.Or(cmp.Compare(a.Experiment, b.Experiment), cmp.Compare(a.Index, b.Index), cmp.Compare(a.ID, b.ID))
	})
}

// ReadStatus returns the best status of every cell recorded for output: from
// its journal and from the Parquet file itself (either may be missing).
func ReadStatus(output string) (map[string]string, error) {
	status := map[string]string{}
	note := func(id, s string) {
		if status[id] != runner.StatusOK {
			status[id] = s
		}
	}
	if _, err := readRecords(JournalPath(output), func(rec *Record) error {
		note(rec.Cell.ID, rec.Result.Status)
		return nil
	}); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	if _, err := os.Stat(output); err == nil {
		recs, err := ReadFile(output)
		if err != nil {
			return nil, err
		}
		for _, r := range recs {
			note(r.Cell.ID, r.Result.Status)
		}
	}
	return status, nil
}

// ReadDone returns the IDs of the cells recorded with status ok for output
// (journal and Parquet file); a rerun of the same spec skips them.
func ReadDone(output string) (map[string]struct{}, error) {
	status, err := ReadStatus(output)
	if err != nil {
		return nil, err
	}
	return okSet(status), nil
}
