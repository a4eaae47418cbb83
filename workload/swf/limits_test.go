package swf

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// gzipBomb returns a gzip stream of n newlines: blank lines, which the
// reader skips, so only a byte limit can stop it.
func gzipBomb(t testing.TB, n int) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	chunk := bytes.Repeat([]byte{'\n'}, 1<<20)
	for left := n; left > 0; left -= len(chunk) {
		if _, err := zw.Write(chunk[:min(left, len(chunk))]); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// readAll reads every job and returns how many and the final error (nil at
// io.EOF).
func readAll(r *Reader) (int, error) {
	n := 0
	for {
		_, err := r.Next()
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, err
		}
		n++
	}
}

// checkLimitError checks that err reports the given limit on the given line
// of file.
func checkLimitError(t *testing.T, err error, file string, line int, what string, limit int64) {
	t.Helper()
	var le *LineError
	var lim *LimitError
	switch {
	case err == nil:
		t.Fatalf("no error; want the %s limit %d", what, limit)
	case !errors.Is(err, ErrLimit) || !errors.As(err, &le) || !errors.As(err, &lim):
		t.Fatalf("error %v (%T); want a *LineError wrapping a *LimitError", err, err)
	}
	if le.File != file || le.Line != line || lim.What != what || lim.Limit != limit {
		t.Errorf("error at %s:%d, limit %s %d; want %s:%d, %s %d", le.File, le.Line, lim.What, lim.Limit, file, line, what, limit)
	}
	if !strings.HasPrefix(err.Error(), fmt.Sprintf("%s:%d: stopped reading: more than %d ", file, line, limit)) {
		t.Errorf("message %q does not start with the file, the line and the limit", err)
	}
}

// A real gzip bomb: 256 MiB of newlines in a few hundred kilobytes. With a
// 16 MiB limit the reader stops after exactly 16 MiB of text: the last byte
// within the limit ends line 16Mi, the next read fails on the line after.
func TestGzipBombStoppedAtByteLimit(t *testing.T) {
	const decompressed, limit = 256 << 20, 16 << 20
	bomb := gzipBomb(t, decompressed)
	if ratio := decompressed / len(bomb); ratio < 500 {
		t.Fatalf("the test bomb expands only %d times; want a bomb", ratio)
	}
	path := filepath.Join(t.TempDir(), "bomb.swf.gz")
	if err := os.WriteFile(path, bomb, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, lenient := range []bool{false, true} {
		r, err := Open(path, Options{Lenient: lenient, Limits: Limits{MaxBytes: limit}})
		if err != nil {
			t.Fatal(err)
		}
		n, err := readAll(r)
		r.Close()
		if n != 0 {
			t.Errorf("lenient %v: %d jobs from a file of blank lines", lenient, n)
		}
		checkLimitError(t, err, path, limit+1, "bytes", limit)
		if !strings.Contains(err.Error(), "gzip bomb") {
			t.Errorf("message %q does not name the likely cause", err)
		}
	}
	// The cache refuses the file; the reader the caller falls back to
	// reports the limit.
	SetDefaultLimits(Limits{MaxBytes: limit})
	defer SetDefaultLimits(Limits{})
	if _, ok := NewCache(1<<30).Load(path, Options{}); ok {
		t.Error("the cache kept a gzip bomb")
	}
}

// The process default applies to every reader whose Options leave the
// limits zero, and resets to the built-in default.
func TestDefaultLimits(t *testing.T) {
	if d := DefaultLimits(); d.MaxBytes != DefaultMaxBytes || d.MaxJobs != DefaultMaxJobs {
		t.Fatalf("built-in defaults %+v", d)
	}
	SetDefaultLimits(Limits{MaxJobs: 2})
	defer SetDefaultLimits(Limits{})
	if d := DefaultLimits(); d.MaxBytes != DefaultMaxBytes || d.MaxJobs != 2 {
		t.Fatalf("after SetDefaultLimits(MaxJobs 2): %+v", d)
	}
	text := "; MaxProcs: 4\n" + jobLine("1", "0") + jobLine("2", "0") + jobLine("3", "0")
	r, err := NewReader(strings.NewReader(text), "three.swf", Options{})
	if err != nil {
		t.Fatal(err)
	}
	n, err := readAll(r)
	if n != 2 {
		t.Errorf("%d jobs before the limit; want 2", n)
	}
	checkLimitError(t, err, "three.swf", 4, "jobs", 2)
	// A negative limit is none.
	r, _ = NewReader(strings.NewReader(text), "three.swf", Options{Limits: Limits{MaxJobs: -1}})
	if n, err := readAll(r); n != 3 || err != nil {
		t.Errorf("no limit: %d jobs, %v; want 3, nil", n, err)
	}
}

// endless is an SWF stream that never ends: one valid job line after
// another, submit times increasing.
type endless struct {
	next int
	buf  []byte
}

func (e *endless) Read(p []byte) (int, error) {
	for len(e.buf) < len(p) {
		e.next++
		e.buf = append(e.buf, jobLine(fmt.Sprint(e.next), fmt.Sprint(e.next))...)
	}
	n := copy(p, e.buf)
	e.buf = e.buf[n:]
	return n, nil
}

// An endless trace is stopped by the job limit (the 1001st job line) or,
// with no job limit, by the byte limit.
func TestEndlessTraceStopped(t *testing.T) {
	r, err := NewReader(&endless{}, "endless.swf", Options{Limits: Limits{MaxJobs: 1000, MaxBytes: -1}})
	if err != nil {
		t.Fatal(err)
	}
	n, err := readAll(r)
	if n != 1000 {
		t.Errorf("%d jobs; want 1000", n)
	}
	checkLimitError(t, err, "endless.swf", 1001, "jobs", 1000)

	line := len(jobLine("1", "1")) // every line up to job 9 has this length
	limit := int64(5*line + 3)     // five lines and three bytes of the sixth
	r, err = NewReader(&endless{}, "endless.swf", Options{Lenient: true, Limits: Limits{MaxJobs: -1, MaxBytes: limit}})
	if err != nil {
		t.Fatal(err)
	}
	n, err = readAll(r)
	if n != 5 {
		t.Errorf("%d jobs; want the 5 whole lines within the limit", n)
	}
	checkLimitError(t, err, "endless.swf", 6, "bytes", limit)
}
