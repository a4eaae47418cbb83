package swf

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/schedfarm/schedfarm/workload"
)

var errWriterClosed = errors.New("swf: writer is closed")

// Writer writes an SWF file: the header comments, then one line per job. It
// buffers its output: call Flush (or Close on a FileWriter) when done. A
// write error is sticky: every later Write and Flush returns it. A job the
// reader would refuse is refused by Write, which then writes nothing for it
// and stays usable. A Writer is not safe for concurrent use.
type Writer struct {
	bw         *bufio.Writer
	buf        []byte
	err        error
	lastSubmit float64
	hasSubmit  bool
}

// NewWriter checks the header, writes it to w and returns a Writer for the
// jobs. Keyword entries are written as "; Keyword: value" (value trimmed of
// surrounding blanks), continuation lines and free comments as ";" followed by
// their text (trailing blanks trimmed), in the order of h.Entries. NewWriter
// refuses a header that would not be read back as the same entries: a
// keyword that is not a word, a newline in any text, a free comment that
// would read as a keyword line or as a continuation, a continuation line
// that is not indented, or a numeric keyword (MaxProcs, ...) whose value does
// not start with an integer.
func NewWriter(w io.Writer, h Header) (*Writer, error) {
	lines, err := headerLines(h)
	if err != nil {
		return nil, err
	}
	wr := &Writer{bw: bufio.NewWriterSize(w, bufferSize)}
	for _, l := range lines {
		wr.bw.WriteString(l)
		if err := wr.bw.WriteByte('\n'); err != nil {
			return nil, err
		}
	}
	return wr, nil
}

// Write writes one job line. See the package documentation for the number
// format and for the jobs it refuses.
func (w *Writer) Write(j *workload.Job) error {
	if w.err != nil {
		return w.err
	}
	if !plainJob(j) || (j.Submit != workload.Unknown && w.hasSubmit && j.Submit < w.lastSubmit) {
		if err := w.check(j); err != nil {
			return err
		}
	}
	b := appendJob(w.buf[:0], j)
	w.buf = b
	if _, err := w.bw.Write(b); err != nil {
		w.err = err
		return err
	}
	if j.Submit != workload.Unknown {
		w.lastSubmit, w.hasSubmit = j.Submit, true
	}
	return nil
}

// plainJob reports whether every field of j is one the reader accepts
// (unknown, or a finite value ≥ 0): what check finds field by field, in
// one pass without its error messages.
func plainJob(j *workload.Job) bool {
	return okInt(j.ID) && okFloat(j.Submit) && okFloat(j.Wait) && okFloat(j.RunTime) &&
		okInt(j.AllocProcs) && okFloat(j.AvgCPUTime) && okFloat(j.UsedMemory) &&
		okInt(j.ReqProcs) && okFloat(j.ReqTime) && okFloat(j.ReqMemory) && okInt(j.Status) &&
		okInt(j.UserID) && okInt(j.GroupID) && okInt(j.Executable) && okInt(j.Queue) &&
		okInt(j.Partition) && okInt(j.PrecedingJob) && okFloat(j.ThinkTime)
}

// okInt and okFloat are check's two tests in one: validValue (what the
// reader accepts), and for a float also finite (validValue already refuses
// NaN and −Inf).
func okInt(v int64) bool { return validValue(float64(v)) }

func okFloat(v float64) bool { return validValue(v) && v <= math.MaxFloat64 }

// appendJob appends j's line, fields 1 to 18 in order, and a newline.
func appendJob(b []byte, j *workload.Job) []byte {
	b = appendInt(b, j.ID)
	b = formatFloat(append(b, ' '), j.Submit)
	b = formatFloat(append(b, ' '), j.Wait)
	b = formatFloat(append(b, ' '), j.RunTime)
	b = appendInt(append(b, ' '), j.AllocProcs)
	b = formatFloat(append(b, ' '), j.AvgCPUTime)
	b = formatFloat(append(b, ' '), j.UsedMemory)
	b = appendInt(append(b, ' '), j.ReqProcs)
	b = formatFloat(append(b, ' '), j.ReqTime)
	b = formatFloat(append(b, ' '), j.ReqMemory)
	b = appendInt(append(b, ' '), j.Status)
	b = appendInt(append(b, ' '), j.UserID)
	b = appendInt(append(b, ' '), j.GroupID)
	b = appendInt(append(b, ' '), j.Executable)
	b = appendInt(append(b, ' '), j.Queue)
	b = appendInt(append(b, ' '), j.Partition)
	b = appendInt(append(b, ' '), j.PrecedingJob)
	b = formatFloat(append(b, ' '), j.ThinkTime)
	return append(b, '\n')
}

// Flush writes any buffered data to the underlying writer.
func (w *Writer) Flush() error {
	if w.err != nil {
		return w.err
	}
	if err := w.bw.Flush(); err != nil {
		w.err = err
	}
	return w.err
}

// check refuses the jobs the reader would refuse.
func (w *Writer) check(j *workload.Job) error {
	for f := 1; f <= NumFields; f++ {
		var v float64
		if isIntField(f) {
			v = float64(*intField(j, f))
		} else {
			v = *floatField(j, f)
		}
		switch {
		case math.IsNaN(v) || math.IsInf(v, 0):
			return w.jobError(j, f, v, msgNotFinite)
		case !validValue(v):
			return w.jobError(j, f, v, msgNegative)
		}
	}
	if j.Submit != workload.Unknown && w.hasSubmit && j.Submit < w.lastSubmit {
		return w.jobError(j, 2, j.Submit, fmt.Sprintf("is earlier than the previous submit time %s (jobs must be written in submit order)",
			formatNumber(w.lastSubmit)))
	}
	return nil
}

func (w *Writer) jobError(j *workload.Job, f int, v float64, msg string) error {
	return fmt.Errorf("swf: job %d: field %d (%s): %s %s", j.ID, f, FieldName(f), formatNumber(v), msg)
}

// FileWriter is a Writer to a file made by Create.
type FileWriter struct {
	*Writer
	gz *gzip.Writer
	f  *os.File
}

// Create creates (or truncates) the file at path and writes the header to it
// (see NewWriter). The output is gzip-compressed when path ends in ".gz".
// Close flushes and closes it; the file is complete only after Close
// returns nil.
func Create(path string, h Header) (*FileWriter, error) {
	if _, err := headerLines(h); err != nil {
		return nil, err
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	fw := &FileWriter{f: f}
	var out io.Writer = f
	if strings.HasSuffix(path, ".gz") {
		fw.gz = gzip.NewWriter(f)
		out = fw.gz
	}
	fw.Writer, err = NewWriter(out, h)
	if err != nil {
		f.Close()
		return nil, err
	}
	return fw, nil
}

// Close flushes the buffered jobs, finishes the gzip stream if any and closes
// the file. It returns the first error met; later calls return nil.
func (fw *FileWriter) Close() error {
	if fw.f == nil {
		return nil
	}
	err := fw.Writer.Flush()
	if fw.gz != nil {
		if e := fw.gz.Close(); err == nil {
			err = e
		}
	}
	if e := fw.f.Close(); err == nil {
		err = e
	}
	fw.f, fw.gz = nil, nil
	if fw.Writer.err == nil {
		fw.Writer.err = errWriterClosed
	}
	return err
}

// headerLines renders the header as comment lines, checking that each would
// be read back as the same entry.
func headerLines(h Header) ([]string, error) {
	lines := make([]string, 0, len(h.Entries))
	afterKeyword := false
	for i, e := range h.Entries {
		var err error
		if e.Keyword == "" {
			lines, err = freeCommentLine(lines, e.Value, afterKeyword)
		} else {
			lines, err = keywordLines(lines, e)
		}
		if err != nil {
			return nil, fmt.Errorf("swf: header entry %d: %w", i+1, err)
		}
		afterKeyword = e.Keyword != ""
	}
	for _, l := range lines {
		if len(l) > MaxLineLength {
			return nil, fmt.Errorf("swf: header line %.40q... is longer than %d bytes", l, MaxLineLength)
		}
	}
	return lines, nil
}

func freeCommentLine(lines []string, text string, afterKeyword bool) ([]string, error) {
	text = trimRightBlanks(text)
	if strings.ContainsRune(text, '\n') {
		return nil, fmt.Errorf("comment %q contains a newline", text)
	}
	switch kind, _, _ := classify(text, afterKeyword); kind {
	case lineKeyword:
		return nil, fmt.Errorf("comment %q would be read back as a keyword line", text)
	case lineContinuation:
		return nil, fmt.Errorf("comment %q would be read back as a continuation of the keyword before it (indent it by at most one blank)", text)
	}
	return append(lines, ";"+text), nil
}

func keywordLines(lines []string, e Entry) ([]string, error) {
	if !isWord(e.Keyword) {
		return nil, fmt.Errorf("keyword %q is not a word (want a letter followed by letters, digits or '_')", e.Keyword)
	}
	value := trimBlanks(e.Value)
	if strings.ContainsRune(value, '\n') {
		return nil, fmt.Errorf("%s: value %q contains a newline", e.Keyword, value)
	}
	if k, ok := StandardKeyword(e.Keyword); ok && IsIntegerKeyword(k) {
		if _, err := headerInt(value); err != nil {
			return nil, fmt.Errorf("%s: value %q does not start with an integer", e.Keyword, value)
		}
	}
	line := "; " + e.Keyword + ":"
	if value != "" {
		line += " " + value
	}
	lines = append(lines, line)
	for _, m := range e.More {
		m = trimRightBlanks(m)
		if strings.ContainsRune(m, '\n') {
			return nil, fmt.Errorf("%s: continuation line %q contains a newline", e.Keyword, m)
		}
		if kind, _, _ := classify(m, true); kind != lineContinuation {
			return nil, fmt.Errorf("%s: continuation line %q must start with two blanks or a tab, and not with a keyword", e.Keyword, m)
		}
		lines = append(lines, ";"+m)
	}
	return lines, nil
}

// formatFloat appends v as the writer prints it: a whole number as an
// integer, any other value rounded to two decimals without trailing zeros.
func formatFloat(dst []byte, v float64) []byte {
	if v == math.Trunc(v) && v > -(1<<63) && v < 1<<63 {
		return appendInt(dst, int64(v))
	}
	if math.IsNaN(v) || math.IsInf(v, 0) || v == math.Trunc(v) {
		return strconv.AppendFloat(dst, v, 'f', -1, 64)
	}
	start := len(dst)
	dst = strconv.AppendFloat(dst, v, 'f', 2, 64)
	for dst[len(dst)-1] == '0' {
		dst = dst[:len(dst)-1]
	}
	if dst[len(dst)-1] == '.' {
		dst = dst[:len(dst)-1]
	}
	if string(dst[start:]) == "-0" {
		dst = append(dst[:start], '0')
	}
	return dst
}

// formatNumber prints v exactly, for error messages.
func formatNumber(v float64) string {
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// appendInt appends v in decimal, as strconv.AppendInt(b, v, 10) does, but
// writes the digits in place (strconv formats into a buffer of its own and
// copies): most of an SWF line is small integers.
func appendInt(b []byte, v int64) []byte {
	if v < 0 {
		if v == workload.Unknown {
			return append(b, '-', '1')
		}
		return strconv.AppendInt(b, v, 10)
	}
	u := uint64(v)
	if u < 10 {
		return append(b, byte('0'+u))
	}
	n := 1
	for t := u; t >= 10; t /= 10 {
		n++
	}
	l := len(b)
	b = append(b, zeros[:n]...)
	i := l + n
	for u >= 100 {
		q := u / 100
		d := 2 * (u - 100*q)
		i -= 2
		b[i], b[i+1] = digitPairs[d], digitPairs[d+1]
		u = q
	}
	if u >= 10 {
		b[i-2], b[i-1] = digitPairs[2*u], digitPairs[2*u+1]
	} else {
		b[i-1] = byte('0' + u)
	}
	return b
}

// zeros is room for the digits of any uint64.
var zeros [20]byte

const digitPairs = "00010203040506070809" +
	"10111213141516171819" +
	"20212223242526272829" +
	"30313233343536373839" +
	"40414243444546474849" +
	"50515253545556575859" +
	"60616263646566676869" +
	"70717273747576777879" +
	"80818283848586878889" +
	"90919293949596979899"
