package swf

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/schedfarm/schedfarm/workload"
)

// Limits that keep a hostile or corrupt file from exhausting memory.
const (
	// MaxLineLength is the longest line the reader accepts, in bytes. A
	// longer line is an error (skipped in lenient mode).
	MaxLineLength = 1 << 20
	// MaxHeaderBytes bounds the total text of the comment lines a reader
	// keeps; comments beyond it are errors (skipped in lenient mode).
	MaxHeaderBytes = 16 << 20
	// MaxSkipped is the number of skipped-line errors a lenient reader
	// keeps; it counts all of them.
	MaxSkipped = 1000
)

const bufferSize = 64 << 10

// errClosed is returned by Next after Close.
var errClosed = errors.New("swf: reader is closed")

// Options tune a Reader.
type Options struct {
	// Lenient skips malformed lines (and header fields with malformed
	// numbers) instead of stopping at the first one. Skipped lines are
	// counted and the first MaxSkipped are kept; see Reader.Skipped.
	Lenient bool
	// Limits bound the text and the jobs read (zero fields: the process
	// defaults, see DefaultLimits); reaching one stops the reader with a
	// *LineError wrapping a *LimitError, in lenient mode too.
	Limits Limits
}

// Reader streams the jobs of an SWF file, one per call to Next, holding one
// line in memory at a time. It implements workload.Source. A Reader is not
// safe for concurrent use.
type Reader struct {
	name  string
	opts  Options
	br    *bufio.Reader
	gz    *gzip.Reader
	file  *os.File
	line  int
	long  []byte // assembles lines longer than the buffer
	err   error  // sticky: io.EOF, a *LineError, or errClosed
	hdr   Header
	bytes int // header text kept so far

	pending    workload.Job
	hasPending bool

	jobs int64 // jobs returned so far, for Limits.MaxJobs

	lastSubmit     float64
	lastSubmitLine int

	skipCount int
	skipped   []LineError

	ahead *readAhead // decompresses ahead of the parser, for gzip input
}

// Open opens an SWF file, plain or gzip-compressed (recognised by its magic
// bytes, whatever its name), and reads its header. Error messages name the
// file by path as given. Close releases the file.
func Open(path string, opts Options) (*Reader, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	r, err := NewReader(f, path, opts)
	if err != nil {
		f.Close()
		return nil, err
	}
	r.file = f
	return r, nil
}

// NewReader returns a Reader of the SWF data in src, which may be
// gzip-compressed (recognised by its magic bytes). name is used in error
// messages. NewReader reads the header comments up to the first job line, so
// that Header is complete on return (except for header lines placed after
// jobs); a problem with those lines is returned by the first Next. NewReader
// itself fails only when the data cannot be read or decompressed. Close does
// not close src.
func NewReader(src io.Reader, name string, opts Options) (*Reader, error) {
	return newReader(src, name, opts, nil)
}

// newReader is NewReader reading plain input through buf, reset to src,
// when buf is not nil: ReadPieces's Readers, one after another, share one
// buffer instead of allocating one each.
func newReader(src io.Reader, name string, opts Options, buf *bufio.Reader) (*Reader, error) {
	opts.Limits = opts.Limits.resolve()
	r := &Reader{name: name, opts: opts, lastSubmit: workload.Unknown}
	// Plain input is text: its bytes count against Limits.MaxBytes as they
	// are read. For gzip input the decompressed bytes count instead.
	capped := &capReader{src: src, limit: opts.Limits.MaxBytes}
	br := buf
	if br == nil {
		br = bufio.NewReaderSize(capped, bufferSize)
	} else {
		br.Reset(capped)
	}
	magic, err := br.Peek(2)
	if err != nil && err != io.EOF {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		capped.limit = -1
		gz, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		r.gz = gz
		r.ahead = newReadAhead(&capReader{src: gz, limit: opts.Limits.MaxBytes})
		br = bufio.NewReaderSize(r.ahead, bufferSize)
	}
	r.br = br
	r.pending, err = r.scan()
	r.hasPending = err == nil
	return r, nil
}

// Header returns a copy of the header comments read so far: all of them
// once Next has returned io.EOF.
func (r *Reader) Header() Header { return r.hdr.Clone() }

// Next returns the next job. It returns io.EOF after the last job, and a
// *LineError for a malformed line (in strict mode) or a read error; after an
// error every call returns the same error.
func (r *Reader) Next() (workload.Job, error) {
	if r.hasPending {
		r.hasPending = false
		return r.pending, nil
	}
	return r.scan()
}

// Line returns the number of the last line read.
func (r *Reader) Line() int { return r.line }

// SkipCount returns the number of lines skipped so far in lenient mode.
func (r *Reader) SkipCount() int { return r.skipCount }

// Skipped returns the errors of the first MaxSkipped skipped lines, in file
// order; SkipCount tells how many there were in all.
func (r *Reader) Skipped() []LineError {
	return append([]LineError(nil), r.skipped...)
}

// Close releases the decompressor and, for a Reader made by Open, the file.
// Next returns an error after Close.
func (r *Reader) Close() error {
	var err error
	if r.ahead != nil {
		r.ahead.Close()
		r.ahead = nil
	}
	if r.gz != nil {
		err = r.gz.Close()
		r.gz = nil
	}
	if r.file != nil {
		if e := r.file.Close(); err == nil {
			err = e
		}
		r.file = nil
	}
	r.hasPending = false
	r.err = errClosed
	return err
}

// scan reads lines until it has a job, recording header comments on the way.
func (r *Reader) scan() (workload.Job, error) {
	for r.err == nil {
		line, err := r.readLine()
		var lerr *LineError
		switch {
		case err == io.EOF:
			r.err = io.EOF
			continue
		case err != nil:
			lerr = err.(*LineError)
		default:
			var job workload.Job
			var isJob bool
			job, isJob, lerr = r.handle(line)
			if lerr == nil && isJob {
				if r.jobs++; r.opts.Limits.MaxJobs >= 0 && r.jobs > r.opts.Limits.MaxJobs {
					r.err = r.errorf(0, &LimitError{What: "jobs", Limit: r.opts.Limits.MaxJobs}, "stopped reading")
					continue
				}
				return job, nil
			}
		}
		if lerr == nil {
			continue
		}
		if r.opts.Lenient && lerr.Err == nil {
			r.skip(lerr)
			continue
		}
		r.err = lerr
	}
	return workload.Job{}, r.err
}

func (r *Reader) skip(e *LineError) {
	r.skipCount++
	if len(r.skipped) < MaxSkipped {
		r.skipped = append(r.skipped, *e)
	}
}

// readLine returns the next line without its "\n". It returns io.EOF at the
// end of the data and a *LineError for a line that is too long or cannot be
// read.
func (r *Reader) readLine() ([]byte, error) {
	b, err := r.br.ReadSlice('\n')
	switch {
	case err == nil:
		r.line++
		return b[:len(b)-1], nil
	case err == bufio.ErrBufferFull:
		r.line++
		return r.readLongLine(b)
	case err == io.EOF && len(b) > 0:
		r.line++
		return b, nil
	case err == io.EOF:
		return nil, io.EOF
	}
	r.line++
	return nil, r.readError(err)
}

// readLongLine finishes a line that did not fit in the buffer, of which
// first is the beginning.
func (r *Reader) readLongLine(first []byte) ([]byte, error) {
	r.long = append(r.long[:0], first...)
	for {
		b, err := r.br.ReadSlice('\n')
		if len(r.long)+len(b) > MaxLineLength+1 {
			r.long = r.long[:0]
			return nil, r.discardLine(err)
		}
		r.long = append(r.long, b...)
		switch {
		case err == nil:
			return r.long[:len(r.long)-1], nil
		case err == io.EOF && len(r.long) > MaxLineLength:
			r.long = r.long[:0]
			return nil, r.discardLine(err)
		case err == io.EOF:
			return r.long, nil
		case err != bufio.ErrBufferFull:
			return nil, r.readError(err)
		}
	}
}

// readError reports an error of the underlying reader: a reached limit, or
// an I/O or decompression error.
func (r *Reader) readError(err error) *LineError {
	if errors.Is(err, ErrLimit) {
		return r.errorf(0, err, "stopped reading")
	}
	if r.gz != nil && errors.Is(err, io.ErrUnexpectedEOF) {
		return r.errorf(0, err, "the file is cut off: its gzip stream ends before its end (a copy or download cut short?); get the whole file again")
	}
	return r.errorf(0, err, "cannot read line")
}

// discardLine skips the rest of a line that is too long; err is the result
// of the last ReadSlice.
func (r *Reader) discardLine(err error) error {
	for err == bufio.ErrBufferFull {
		_, err = r.br.ReadSlice('\n')
	}
	if err != nil && err != io.EOF {
		return r.readError(err)
	}
	return r.errorf(0, nil, "line is longer than %d bytes", MaxLineLength)
}

// handle interprets one line: blank, comment or job.
func (r *Reader) handle(line []byte) (workload.Job, bool, *LineError) {
	start := 0
	for start < len(line) && isBlank(line[start]) {
		start++
	}
	end := len(line)
	for end > start && isBlank(line[end-1]) {
		end--
	}
	if start == end {
		return workload.Job{}, false, nil
	}
	if line[start] == ';' {
		return workload.Job{}, false, r.comment(string(line[start+1 : end]))
	}
	job, err := r.parseJob(line[start:end])
	return job, err == nil, err
}

// comment records a header comment line; text follows the ';'.
func (r *Reader) comment(text string) *LineError {
	r.bytes += len(text)
	if r.bytes > MaxHeaderBytes {
		return r.errorf(0, nil, "comments exceed %d bytes in all; not kept", MaxHeaderBytes)
	}
	entries := r.hdr.Entries
	afterKeyword := len(entries) > 0 && entries[len(entries)-1].Keyword != ""
	kind, kw, value := classify(text, afterKeyword)
	switch kind {
	case lineContinuation:
		last := &r.hdr.Entries[len(entries)-1]
		last.More = append(last.More, text)
	case lineKeyword:
		r.hdr.Entries = append(entries, Entry{Keyword: kw, Value: value})
		if IsIntegerKeyword(kw) {
			if _, err := headerInt(value); err != nil {
				return r.errorf(0, nil, "header %s: %q does not start with an integer", kw, value)
			}
		}
	default:
		r.hdr.Entries = append(entries, Entry{Value: text})
	}
	return nil
}

// parseJob parses and checks a job line (without surrounding blanks). It
// splits the line and converts plain integers, by far the most common
// fields, in one pass; a line of plain integers is then built directly, and
// only a line with other forms goes through the field-by-field path.
func (r *Reader) parseJob(line []byte) (workload.Job, *LineError) {
	// The fast path: 18 whole numbers, none below -1 (almost every line
	// of a real trace). Anything else is parsed again field by field.
	var nums [NumFields]int64
	i := 0
	for f := 0; f < NumFields; f++ {
		for i < len(line) && isBlank(line[i]) {
			i++
		}
		if i == len(line) {
			return workload.Job{}, r.fieldCount(line)
		}
		n, ok, end := scanInt(line, i)
		if !ok || n < workload.Unknown || (end < len(line) && !isBlank(line[end])) {
			return r.parseFields(line)
		}
		nums[f], i = n, end
	}
	if i < len(line) {
		return workload.Job{}, r.fieldCount(line)
	}
	job := jobFromInts(&nums)
	return job, r.checkOrder(job.Submit)
}

// parseFields parses a job line that is not 18 plain whole numbers: each
// field by its own rules (setField), or the error for the line.
func (r *Reader) parseFields(line []byte) (workload.Job, *LineError) {
	var toks [NumFields][]byte
	i := 0
	for f := 0; f < NumFields; f++ {
		for i < len(line) && isBlank(line[i]) {
			i++
		}
		if i == len(line) {
			return workload.Job{}, r.fieldCount(line)
		}
		start := i
		for i < len(line) && !isBlank(line[i]) {
			i++
		}
		toks[f] = line[start:i]
	}
	if i < len(line) {
		return workload.Job{}, r.fieldCount(line)
	}
	var job workload.Job
	for f := 1; f <= NumFields; f++ {
		if err := r.setField(&job, f, toks[f-1]); err != nil {
			return workload.Job{}, err
		}
	}
	return job, r.checkOrder(job.Submit)
}

// jobFromInts builds a job from 18 integer field values. Converting an
// integer to float64 rounds exactly as parsing its digits would.
func jobFromInts(v *[NumFields]int64) workload.Job {
	return workload.Job{
		ID: v[0], Submit: float64(v[1]), Wait: float64(v[2]), RunTime: float64(v[3]),
		AllocProcs: v[4], AvgCPUTime: float64(v[5]), UsedMemory: float64(v[6]),
		ReqProcs: v[7], ReqTime: float64(v[8]), ReqMemory: float64(v[9]), Status: v[10],
		UserID: v[11], GroupID: v[12], Executable: v[13], Queue: v[14], Partition: v[15],
		PrecedingJob: v[16], ThinkTime: float64(v[17]),
	}
}

// scanInt reads an optional '-' and up to 18 digits from line[i:]; ok says
// whether that made a whole number, end is where it stopped.
func scanInt(line []byte, i int) (n int64, ok bool, end int) {
	neg := line[i] == '-'
	if neg {
		i++
	}
	start := i
	for i < len(line) && i-start < 19 && line[i]-'0' < 10 {
		n = n*10 + int64(line[i]-'0')
		i++
	}
	ok = i > start && i-start <= 18
	if neg {
		n = -n
	}
	return n, ok, i
}

// fieldCount reports a line that does not have 18 fields.
func (r *Reader) fieldCount(line []byte) *LineError {
	n := 0
	for i := 0; i < len(line); {
		for i < len(line) && isBlank(line[i]) {
			i++
		}
		if i == len(line) {
			break
		}
		n++
		for i < len(line) && !isBlank(line[i]) {
			i++
		}
	}
	return r.errorf(0, nil, "%d fields, want %d whitespace-separated numbers", n, NumFields)
}

// setField parses token tok into field f of job.
func (r *Reader) setField(job *workload.Job, f int, tok []byte) *LineError {
	var v float64
	var msg string
	if isIntField(f) {
		var n int64
		n, msg = parseInt(tok)
		*intField(job, f) = n
		v = float64(n)
	} else {
		v, msg = parseFloat(tok)
		*floatField(job, f) = v
	}
	if msg == "" && !validValue(v) {
		msg = msgNegative
	}
	if msg != "" {
		return r.errorf(f, nil, "%s %s", quoteToken(tok), msg)
	}
	return nil
}

// checkOrder enforces non-decreasing submit times (unknown ones excepted).
func (r *Reader) checkOrder(submit float64) *LineError {
	if submit == workload.Unknown {
		return nil
	}
	if r.lastSubmitLine > 0 && submit < r.lastSubmit {
		return r.errorf(2, nil, "%s is earlier than %s, the submit time on line %d (jobs must be sorted by submit time)",
			formatNumber(submit), formatNumber(r.lastSubmit), r.lastSubmitLine)
	}
	r.lastSubmit, r.lastSubmitLine = submit, r.line
	return nil
}

func (r *Reader) errorf(field int, err error, format string, args ...any) *LineError {
	return &LineError{File: r.name, Line: r.line, Field: field, Msg: fmt.Sprintf(format, args...), Err: err}
}

// quoteToken quotes a field for an error message, shortening a long one.
func quoteToken(tok []byte) string {
	const max = 40
	if len(tok) > max {
		return strconv.Quote(string(tok[:max])) + "..."
	}
	return strconv.Quote(string(tok))
}
