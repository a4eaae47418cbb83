package swf

import (
	"errors"
	"fmt"
	"io"
	"sync/atomic"
)

// Default limits of a Reader (see [Limits]). They are far above the largest
// logs of the Parallel Workloads Archive (a few million jobs, under a
// gigabyte of text) and low enough that a gzip bomb or an endless stream is
// stopped before it exhausts a worker: ten million parsed jobs take about
// 1.4 GB.
const (
	// DefaultMaxBytes is the default Limits.MaxBytes: 2 GiB of SWF text.
	DefaultMaxBytes int64 = 2 << 30
	// DefaultMaxJobs is the default Limits.MaxJobs.
	DefaultMaxJobs int64 = 10_000_000
)

// Limits bound what a Reader reads, so that a hostile or broken file (a
// gzip bomb: a few megabytes that decompress to terabytes; an endless
// stream such as a FIFO or /dev/zero) ends with an error instead of
// exhausting time or memory. A zero field takes the process default
// ([SetDefaultLimits]; [DefaultMaxBytes] and [DefaultMaxJobs] unless
// changed); a negative one means no limit.
type Limits struct {
	// MaxBytes bounds the bytes of SWF text read: after decompression for
	// gzip input, the file's bytes otherwise. Comments and blank lines
	// count, so a stream of nothing but newlines is stopped too.
	MaxBytes int64
	// MaxJobs bounds the job lines accepted.
	MaxJobs int64
}

// ErrLimit is wrapped by the error a Reader returns when a [Limits] bound is
// reached: errors.Is(err, ErrLimit) tells it from a malformed file.
var ErrLimit = errors.New("swf: reader limit reached")

// LimitError reports a file that goes beyond one of a Reader's [Limits]. A
// Reader returns it wrapped in a *LineError naming the file and line; it
// stops the reader in lenient mode too.
type LimitError struct {
	What  string // "bytes" (of text, after decompression) or "jobs"
	Limit int64  // the limit that was reached
}

// Error says which limit was reached and how to raise it.
func (e *LimitError) Error() string {
	if e.What == "jobs" {
		return fmt.Sprintf("more than %d jobs, the reader's limit (swf.Limits.MaxJobs; schedfarm --max-trace-jobs or SCHEDFARM_MAX_TRACE_JOBS): "+
			"an endless or corrupt trace? raise the limit for a trace that really is this long", e.Limit)
	}
	return fmt.Sprintf("more than %d bytes of SWF text (after decompression), the reader's limit (swf.Limits.MaxBytes; schedfarm --max-trace-bytes or SCHEDFARM_MAX_TRACE_BYTES): "+
		"a gzip bomb or an endless stream? raise the limit for a trace that really is this large", e.Limit)
}

// Is makes errors.Is(err, ErrLimit) true.
func (e *LimitError) Is(target error) bool { return target == ErrLimit }

var defaultLimits atomic.Pointer[Limits]

// SetDefaultLimits sets the limits that zero fields of Options.Limits take
// in this process (a command-line flag sets it once at start). A zero field
// of l restores the built-in default; a negative one means no limit.
func SetDefaultLimits(l Limits) {
	if l.MaxBytes == 0 {
		l.MaxBytes = DefaultMaxBytes
	}
	if l.MaxJobs == 0 {
		l.MaxJobs = DefaultMaxJobs
	}
	defaultLimits.Store(&l)
}

// DefaultLimits returns the limits that zero fields of Options.Limits take.
func DefaultLimits() Limits {
	if l := defaultLimits.Load(); l != nil {
		return *l
	}
	return Limits{MaxBytes: DefaultMaxBytes, MaxJobs: DefaultMaxJobs}
}

// resolve fills zero fields from the process defaults.
func (l Limits) resolve() Limits {
	d := DefaultLimits()
	if l.MaxBytes == 0 {
		l.MaxBytes = d.MaxBytes
	}
	if l.MaxJobs == 0 {
		l.MaxJobs = d.MaxJobs
	}
	return l
}

// capReader passes src through until more than limit bytes have been read
// (no limit when negative), then fails with a *LimitError.
type capReader struct {
	src   io.Reader
	limit int64
	n     int64
}

func (c *capReader) Read(p []byte) (int, error) {
	if c.limit < 0 {
		return c.src.Read(p)
	}
	if c.n > c.limit {
		return 0, &LimitError{What: "bytes", Limit: c.limit}
	}
	// Read at most one byte past the limit: that byte proves the stream
	// goes on.
	if rest := c.limit - c.n + 1; int64(len(p)) > rest {
		p = p[:rest]
	}
	m, err := c.src.Read(p)
	c.n += int64(m)
	if c.n > c.limit {
		return m - int(c.n-c.limit), &LimitError{What: "bytes", Limit: c.limit}
	}
	return m, err
}
