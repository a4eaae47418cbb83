package swf

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/workload"
)

// job builds a Job from its 18 fields in SWF order.
func job(v ...float64) workload.Job {
	if len(v) != NumFields {
		panic("job needs 18 values")
	}
	var j workload.Job
	for f := 1; f <= NumFields; f++ {
		if isIntField(f) {
			*intField(&j, f) = int64(v[f-1])
		} else {
			*floatField(&j, f) = v[f-1]
		}
	}
	return j
}

// unknownJob returns a job with every field −1 but the job number and submit
// time.
func unknownJob(id int64, submit float64) workload.Job {
	j := workload.NewJob()
	j.ID, j.Submit = id, submit
	return j
}

// jobLine renders a job line with every field −1 but the job number and
// submit time.
func jobLine(id, submit string) string {
	return id + " " + submit + strings.Repeat(" -1", 16) + "\n"
}

func readString(t *testing.T, name, data string, opts Options) (*Reader, []workload.Job, error) {
	t.Helper()
	r, err := NewReader(strings.NewReader(data), name, opts)
	if err != nil {
		t.Fatalf("NewReader: %v", err)
	}
	jobs, err := workload.ReadAll(r)
	return r, jobs, err
}

var allKeywordsJobs = []workload.Job{
	job(1, 0, 10, 100, 8, 95.5, 1024, 8, 200, 2048, 1, 1, 1, 1, 1, 1, -1, -1),
	job(2, 5.5, -1, 3600, 16, -1, -1, 16, 7200, -1, 0, 2, 1, 2, 0, 1, 1, 2.25),
	job(3, 7, 0, 0, 1, -1, -1, 1, 60, -1, 5, 3, 2, -1, 1, 1, -1, -1),
	unknownJob(4, 7),
}

func TestReadAllKeywords(t *testing.T) {
	r, err := Open(filepath.Join("testdata", "allkeywords.swf"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	h := r.Header()
	for _, kw := range Keywords() {
		if _, ok := h.Get(kw); !ok {
			t.Errorf("header keyword %s missing", kw)
		}
	}
	ints := map[string]int64{
		"MaxJobs": h.MaxJobs(), "MaxRecords": h.MaxRecords(), "UnixStartTime": h.UnixStartTime(),
		"TimeZone": h.TimeZone(), "MaxNodes": h.MaxNodes(), "MaxProcs": h.MaxProcs(),
		"MaxRuntime": h.MaxRuntime(), "MaxMemory": h.MaxMemory(), "MaxQueues": h.MaxQueues(),
		"MaxPartitions": h.MaxPartitions(),
	}
	wantInts := map[string]int64{
		"MaxJobs": 4, "MaxRecords": 4, "UnixStartTime": 843480031, "TimeZone": -28800,
		"MaxNodes": 64, "MaxProcs": 128, "MaxRuntime": 64800, "MaxMemory": 262144,
		"MaxQueues": 2, "MaxPartitions": 1,
	}
	if !reflect.DeepEqual(ints, wantInts) {
		t.Errorf("numeric accessors = %v, want %v", ints, wantInts)
	}
	if h.Version() != "2.2" {
		t.Errorf("Version = %q", h.Version())
	}
	if got, _ := h.Get(KeyEndTime); got != "Fri Aug 29 10:55:01 CEST 1997" {
		t.Errorf("EndTime = %q", got)
	}
	checkStrings(t, "Acknowledge", h.All(KeyAcknowledge), []string{"Alice", "Bob"})
	checkStrings(t, "Queue", h.All("queue"), []string{"0  interactive", "1  batch"})
	checkStrings(t, "Partition", h.All(KeyPartition), []string{"1 main"})
	checkStrings(t, "Comments", h.Comments(), []string{"", " a free comment", "see http://example.org/ for more"})
	if got, _ := h.Get("Copyright"); got != "not a standard keyword" {
		t.Errorf("Copyright = %q", got)
	}
	info := h.Entries[5]
	if info.Keyword != KeyInformation || info.Text() != "http://example.org/\nhttp://example.org/mirror/" {
		t.Errorf("Information entry = %#v", info)
	}
	if n := len(h.All(KeyNote)); n != 1 {
		t.Errorf("before the jobs: %d notes, want 1", n)
	}

	jobs, err := workload.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(jobs, allKeywordsJobs) {
		t.Errorf("jobs =\n%+v\nwant\n%+v", jobs, allKeywordsJobs)
	}
	checkStrings(t, "Note", r.Header().All(KeyNote), []string{"first note", "a note after the jobs"})
	if r.Line() != 40 {
		t.Errorf("Line() = %d, want 40", r.Line())
	}
}

func checkStrings(t *testing.T, what string, got, want []string) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s = %q, want %q", what, got, want)
	}
}

func TestCommentClassification(t *testing.T) {
	data := "" +
		";MaxProcs:7\n" + // standard keyword without blanks
		";   maxnodes: 3\n" + // indented, lower case: still a standard keyword
		";   indented after keyword\n" + // continuation of MaxNodes
		"; Unknown:value\n" + // not standard, no blank after ':': free
		"; http://example.org/\n" + // URL: free
		";   indented after free\n" + // free (previous entry is free)
		"; Site: x\n" + // unknown keyword
		";\tnext\n" + // tab: continuation
		"   ; spaced: comment   \n" + // comment line with leading blanks, trailing blanks cut
		"; Two words: no\n" // not a word: free
	r, _, err := readString(t, "c.swf", data, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := Header{Entries: []Entry{
		{Keyword: KeyMaxProcs, Value: "7"},
		{Keyword: KeyMaxNodes, Value: "3", More: []string{"   indented after keyword"}},
		{Value: " Unknown:value"},
		{Value: " http://example.org/"},
		{Value: "   indented after free"},
		{Keyword: "Site", Value: "x", More: []string{"\tnext"}},
		{Keyword: "spaced", Value: "comment"},
		{Value: " Two words: no"},
	}}
	if got := r.Header(); !reflect.DeepEqual(got, want) {
		t.Errorf("header =\n%#v\nwant\n%#v", got, want)
	}
}

func TestLineEndingsAndBlanks(t *testing.T) {
	unix := "; MaxProcs: 4\n\n" + jobLine("1", "0") + "   \n\t\n" + jobLine("2", "1.5")
	crlf := strings.ReplaceAll(unix, "\n", "\r\n")
	noFinal := strings.TrimSuffix(unix, "\n")
	want := []workload.Job{unknownJob(1, 0), unknownJob(2, 1.5)}
	for name, data := range map[string]string{"unix": unix, "crlf": crlf, "no final newline": noFinal} {
		r, jobs, err := readString(t, name, data, Options{})
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if !reflect.DeepEqual(jobs, want) {
			t.Errorf("%s: jobs = %+v", name, jobs)
		}
		if r.Header().MaxProcs() != 4 {
			t.Errorf("%s: MaxProcs = %d", name, r.Header().MaxProcs())
		}
	}
}

func TestNumberForms(t *testing.T) {
	data := "1.0 1e1 0.25 +3 5.000 .5 -1.0 2. 1E2 -1 -1 -1 -1 -1 -1 -1 -1 -0\n"
	_, jobs, err := readString(t, "n.swf", data, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := job(1, 10, 0.25, 3, 5, 0.5, -1, 2, 100, -1, -1, -1, -1, -1, -1, -1, -1, 0)
	if len(jobs) != 1 || jobs[0] != want {
		t.Errorf("jobs = %+v, want %+v", jobs, want)
	}
	big := "9223372036854775807 0 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1\n"
	_, jobs, err = readString(t, "big.swf", big, Options{})
	if err != nil || jobs[0].ID != 1<<63-1 {
		t.Errorf("max int64 job number: %v, %+v", err, jobs)
	}
}

func TestGzip(t *testing.T) {
	plain, err := os.ReadFile(filepath.Join("testdata", "allkeywords.swf"))
	if err != nil {
		t.Fatal(err)
	}
	var zbuf bytes.Buffer
	zw := gzip.NewWriter(&zbuf)
	zw.Write(plain)
	zw.Close()
	dir := t.TempDir()
	files := map[string][]byte{
		"plain.swf": plain, "plain-named.swf.gz": plain, // suffix does not matter
		"gz.swf.gz": zbuf.Bytes(), "gz-no-suffix.swf": zbuf.Bytes(),
	}
	for name, data := range files {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		r, err := Open(path, Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		jobs, err := workload.ReadAll(r)
		if err != nil || !reflect.DeepEqual(jobs, allKeywordsJobs) {
			t.Errorf("%s: %v, jobs %+v", name, err, jobs)
		}
		if err := r.Close(); err != nil {
			t.Errorf("%s: Close: %v", name, err)
		}
		if _, err := r.Next(); err == nil || err == io.EOF {
			t.Errorf("%s: Next after Close = %v, want an error", name, err)
		}
	}
}

func TestCorruptGzip(t *testing.T) {
	var zbuf bytes.Buffer
	zw := gzip.NewWriter(&zbuf)
	for i := 1; i <= 2000; i++ {
		zw.Write([]byte(jobLine("1", "0")))
	}
	zw.Close()
	truncated := zbuf.Bytes()[:zbuf.Len()/2]
	_, _, err := readString(t, "cut.swf.gz", string(truncated), Options{Lenient: true})
	var le *LineError
	if !errors.As(err, &le) || !errors.Is(err, io.ErrUnexpectedEOF) || le.File != "cut.swf.gz" || le.Line == 0 {
		t.Errorf("truncated gzip: error %v, want a *LineError wrapping io.ErrUnexpectedEOF", err)
	}
	if _, err := NewReader(strings.NewReader("\x1f\x8bnot gzip"), "bad.gz", Options{}); err == nil ||
		!strings.HasPrefix(err.Error(), "bad.gz: ") {
		t.Errorf("bad gzip header: error %v, want one naming bad.gz", err)
	}
}

// Malformed lines, each as line 3 of a file, with the exact error.
var malformed = []struct {
	name, line, want string
}{
	{"too few fields", "3 10 -1 -1 -1", `t.swf:3: 5 fields, want 18 whitespace-separated numbers`},
	{"too many fields", strings.TrimSpace(jobLine("3", "10")) + " 7", `t.swf:3: 19 fields, want 18 whitespace-separated numbers`},
	{"not a number", "3 10 -1 -1 abc -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1",
		`t.swf:3: field 5 (allocated processors): "abc" is not a number`},
	{"trailing garbage", "3 10 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 7x",
		`t.swf:3: field 18 (think time): "7x" is not a number`},
	{"hex", "3 0x10 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1",
		`t.swf:3: field 2 (submit time): "0x10" is not a number`},
	{"NaN", "3 NaN -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1",
		`t.swf:3: field 2 (submit time): "NaN" is not a finite number`},
	{"Inf", "3 10 -1 +Inf -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1",
		`t.swf:3: field 4 (run time): "+Inf" is not a finite number`},
	{"float overflow", "3 10 -1 1e400 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1",
		`t.swf:3: field 4 (run time): "1e400" is out of the range of 64-bit floats`},
	{"fraction in integer field", "3 10 -1 -1 2.5 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1",
		`t.swf:3: field 5 (allocated processors): "2.5" is not an integer (this field holds whole numbers)`},
	{"integer overflow", "3 10 -1 -1 -1 -1 -1 -1 -1 -1 -1 99999999999999999999 -1 -1 -1 -1 -1 -1",
		`t.swf:3: field 12 (user ID): "99999999999999999999" is out of range (want an integer below 2^63)`},
	{"integer overflow as float", "3 10 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 1e19 -1 -1 -1 -1 -1",
		`t.swf:3: field 13 (group ID): "1e19" is out of range (want an integer below 2^63)`},
	{"below -1", "3 10 -1 -5 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1",
		`t.swf:3: field 4 (run time): "-5" is negative (want -1 for unknown, or a number >= 0)`},
	{"negative fraction", "3 10 -0.5 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1",
		`t.swf:3: field 3 (wait time): "-0.5" is negative (want -1 for unknown, or a number >= 0)`},
	{"negative integer field", "3 10 -1 -1 -1 -1 -1 -1 -1 -1 -2 -1 -1 -1 -1 -1 -1 -1",
		`t.swf:3: field 11 (status): "-2" is negative (want -1 for unknown, or a number >= 0)`},
	{"decreasing submit", strings.TrimSpace(jobLine("3", "4.5")),
		`t.swf:3: field 2 (submit time): 4.5 is earlier than 10, the submit time on line 2 (jobs must be sorted by submit time)`},
	{"bad header number", "; MaxProcs: many",
		`t.swf:3: header MaxProcs: "many" does not start with an integer`},
	{"long token", "3 10 " + strings.Repeat("x", 100) + " -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1",
		`t.swf:3: field 3 (wait time): "` + strings.Repeat("x", 40) + `"... is not a number`},
}

func TestMalformedStrict(t *testing.T) {
	for _, tc := range malformed {
		t.Run(tc.name, func(t *testing.T) {
			data := "; Version: 2.2\n" + jobLine("1", "10") + tc.line + "\n" + jobLine("4", "20")
			r, jobs, err := readString(t, "t.swf", data, Options{})
			if err == nil || err.Error() != tc.want {
				t.Fatalf("error\n%v\nwant\n%s", err, tc.want)
			}
			var le *LineError
			if !errors.As(err, &le) || le.Line != 3 {
				t.Errorf("error %#v is not a *LineError for line 3", err)
			}
			if len(jobs) != 1 {
				t.Errorf("%d jobs before the error, want 1", len(jobs))
			}
			if _, again := r.Next(); again != err {
				t.Errorf("Next after error = %v, want the same error", again)
			}
		})
	}
}

func TestMalformedLenient(t *testing.T) {
	var b strings.Builder
	b.WriteString("; Version: 2.2\n")
	b.WriteString(jobLine("1", "10"))
	for _, tc := range malformed {
		b.WriteString(tc.line + "\n")
	}
	b.WriteString(jobLine("2", "20"))
	r, jobs, err := readString(t, "t.swf", b.String(), Options{Lenient: true})
	if err != nil {
		t.Fatal(err)
	}
	want := []workload.Job{unknownJob(1, 10), unknownJob(2, 20)}
	if !reflect.DeepEqual(jobs, want) {
		t.Errorf("jobs = %+v, want %+v", jobs, want)
	}
	if r.SkipCount() != len(malformed) {
		t.Errorf("SkipCount = %d, want %d", r.SkipCount(), len(malformed))
	}
	skipped := r.Skipped()
	for i, tc := range malformed {
		if i >= len(skipped) {
			break
		}
		want := strings.Replace(tc.want, "t.swf:3:", "t.swf:"+strconv.Itoa(i+3)+":", 1)
		if got := skipped[i].Error(); got != want {
			t.Errorf("skipped[%d] = %s\nwant %s", i, got, want)
		}
	}
	// A skipped header line is still kept verbatim.
	if v, _ := r.Header().Get(KeyMaxProcs); v != "many" {
		t.Errorf("MaxProcs entry = %q, want the raw value", v)
	}
	if r.Header().MaxProcs() != 0 {
		t.Errorf("MaxProcs() = %d, want 0 for a malformed value", r.Header().MaxProcs())
	}
}

func TestLenientKeepsFirstErrors(t *testing.T) {
	var b strings.Builder
	for i := 0; i < MaxSkipped+10; i++ {
		b.WriteString("garbage\n")
	}
	r, jobs, err := readString(t, "g.swf", b.String(), Options{Lenient: true})
	if err != nil || len(jobs) != 0 {
		t.Fatalf("err %v, %d jobs", err, len(jobs))
	}
	if r.SkipCount() != MaxSkipped+10 || len(r.Skipped()) != MaxSkipped {
		t.Errorf("SkipCount %d, kept %d", r.SkipCount(), len(r.Skipped()))
	}
}

func TestLongLines(t *testing.T) {
	longComment := "; Note: " + strings.Repeat("n", 200<<10) + "\n"
	tooLong := strings.Repeat("9", MaxLineLength+5) + "\n"
	data := longComment + jobLine("1", "0") + tooLong + jobLine("2", "1")
	_, _, err := readString(t, "long.swf", data, Options{})
	if err == nil || err.Error() != "long.swf:3: line is longer than 1048576 bytes" {
		t.Errorf("strict: %v", err)
	}
	r, jobs, err := readString(t, "long.swf", data, Options{Lenient: true})
	if err != nil || len(jobs) != 2 || r.SkipCount() != 1 {
		t.Errorf("lenient: %v, %d jobs, %d skipped", err, len(jobs), r.SkipCount())
	}
	if n := len(r.Header().All(KeyNote)[0]); n != 200<<10 {
		t.Errorf("long note kept with %d bytes", n)
	}
	if r.Line() != 4 {
		t.Errorf("Line() = %d, want 4", r.Line())
	}
	// The limit holds for a last line without its newline too.
	if _, _, err := readString(t, "last.swf", strings.TrimSuffix(tooLong, "\n")[:MaxLineLength+1], Options{}); err == nil ||
		err.Error() != "last.swf:1: line is longer than 1048576 bytes" {
		t.Errorf("unterminated long line: %v", err)
	}
	if _, _, err := readString(t, "last.swf", strings.TrimSuffix(tooLong, "\n")[:MaxLineLength], Options{}); err == nil ||
		err.Error() != "last.swf:1: 1 fields, want 18 whitespace-separated numbers" {
		t.Errorf("unterminated line of the maximal length: %v", err)
	}
	// A job line longer than the buffer but within the limit is read.
	padded := "1" + strings.Repeat(" ", 100<<10) + jobLine("", "0")[1:]
	if _, jobs, err := readString(t, "pad.swf", padded, Options{}); err != nil || len(jobs) != 1 {
		t.Errorf("padded line: %v, %d jobs", err, len(jobs))
	}
}

func TestUnknownSubmitSkipsOrderCheck(t *testing.T) {
	data := jobLine("1", "10") + jobLine("2", "-1") + jobLine("3", "10") + jobLine("4", "3")
	_, jobs, err := readString(t, "u.swf", data, Options{})
	want := "u.swf:4: field 2 (submit time): 3 is earlier than 10, the submit time on line 3 (jobs must be sorted by submit time)"
	if err == nil || err.Error() != want || len(jobs) != 3 {
		t.Errorf("got %v with %d jobs, want %s", err, len(jobs), want)
	}
}

func TestEmptyInput(t *testing.T) {
	for _, data := range []string{"", "\n", "; Note: only a header\n", "\x1f"} {
		r, jobs, err := readString(t, "e.swf", data, Options{})
		if data == "\x1f" {
			if err == nil {
				t.Errorf("%q: want an error", data)
			}
			continue
		}
		if err != nil || len(jobs) != 0 {
			t.Errorf("%q: %v, %d jobs", data, err, len(jobs))
		}
		if _, err := r.Next(); err != io.EOF {
			t.Errorf("%q: Next after EOF = %v", data, err)
		}
	}
}

type failingReader struct{ n int }

func (f *failingReader) Read(p []byte) (int, error) {
	if f.n == 0 {
		return 0, errors.New("disk on fire")
	}
	line := jobLine("1", "0")
	f.n--
	return copy(p, line), nil
}

func TestReadErrorStops(t *testing.T) {
	r, err := NewReader(&failingReader{n: 1}, "f.swf", Options{Lenient: true})
	if err != nil {
		t.Fatal(err)
	}
	jobs, err := workload.ReadAll(r)
	if len(jobs) != 1 || err == nil || err.Error() != "f.swf:2: cannot read line: disk on fire" {
		t.Errorf("%d jobs, error %v", len(jobs), err)
	}
}

// The reader and writer plug into the workload interfaces.
var (
	_ workload.Source = (*Reader)(nil)
	_ workload.Sink   = (*Writer)(nil)
	_ workload.Sink   = (*FileWriter)(nil)
)
