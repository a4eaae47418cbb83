package swf

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/workload"
)

func TestFormatFloat(t *testing.T) {
	cases := []struct {
		v    float64
		want string
	}{
		{0, "0"}, {-1, "-1"}, {3600, "3600"}, {1e15, "1000000000000000"},
		{1e20, "100000000000000000000"}, {0.5, "0.5"}, {12.25, "12.25"},
		{2.125, "2.12"}, {1.999, "2"}, {0.001, "0"}, {95.5, "95.5"},
		{1.10, "1.1"}, {-0.001, "0"}, {math.Copysign(0, -1), "0"},
	}
	for _, c := range cases {
		if got := string(formatFloat(nil, c.v)); got != c.want {
			t.Errorf("formatFloat(%v) = %q, want %q", c.v, got, c.want)
		}
	}
}

func TestWriteAllKeywords(t *testing.T) {
	r, err := Open(filepath.Join("testdata", "allkeywords.swf"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	jobs, err := workload.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	w, err := NewWriter(&buf, r.Header())
	if err != nil {
		t.Fatal(err)
	}
	for i := range jobs {
		if err := w.Write(&jobs[i]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	want := `; Version: 2.2
; Computer: IBM SP2
; Installation: Test site (TST)
; Acknowledge: Alice
; Acknowledge: Bob
; Information: http://example.org/
;              http://example.org/mirror/
; Conversion: Carol <carol@example.org> 1 Jan 2020
; MaxJobs: 4
; MaxRecords: 4
; Preemption: No
; UnixStartTime: 843480031
; TimeZone: -28800
; TimeZoneString: US/Pacific
; StartTime: Mon Sep 23 14:00:31 CEST 1996
; EndTime: Fri Aug 29 10:55:01 CEST 1997
; MaxNodes: 64
; MaxProcs: 128
; MaxRuntime: 64800
; MaxMemory: 262144
; AllowOveruse: Yes
; MaxQueues: 2
; Queues: interactive and batch
; Queue: 0  interactive
; Queue: 1  batch
; MaxPartitions: 1
; Partitions: one
; Partition: 1 main
; Note: first note
;       continued here
; Copyright: not a standard keyword
;
; a free comment
;see http://example.org/ for more
; Note: a note after the jobs
1 0 10 100 8 95.5 1024 8 200 2048 1 1 1 1 1 1 -1 -1
2 5.5 -1 3600 16 -1 -1 16 7200 -1 0 2 1 2 0 1 1 2.25
3 7 0 0 1 -1 -1 1 60 -1 5 3 2 -1 1 1 -1 -1
4 7 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1
`
	if got := buf.String(); got != want {
		t.Errorf("output:\n%s\nwant:\n%s", got, want)
	}
	checkRoundTrip(t, r.Header(), jobs)
}

func TestWriterRefusesBadJobs(t *testing.T) {
	var buf bytes.Buffer
	w, err := NewWriter(&buf, Header{})
	if err != nil {
		t.Fatal(err)
	}
	good := unknownJob(1, 10)
	if err := w.Write(&good); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		edit func(*workload.Job)
		want string
	}{
		{func(j *workload.Job) { j.RunTime = math.NaN() }, "swf: job 2: field 4 (run time): NaN is not a finite number"},
		{func(j *workload.Job) { j.Wait = math.Inf(1) }, "swf: job 2: field 3 (wait time): +Inf is not a finite number"},
		{func(j *workload.Job) { j.AllocProcs = -3 }, "swf: job 2: field 5 (allocated processors): -3 is negative (want -1 for unknown, or a number >= 0)"},
		{func(j *workload.Job) { j.ThinkTime = -0.5 }, "swf: job 2: field 18 (think time): -0.5 is negative (want -1 for unknown, or a number >= 0)"},
		{func(j *workload.Job) { j.Submit = 9.5 }, "swf: job 2: field 2 (submit time): 9.5 is earlier than the previous submit time 10 (jobs must be written in submit order)"},
	}
	for _, c := range cases {
		j := unknownJob(2, 20)
		c.edit(&j)
		if err := w.Write(&j); err == nil || err.Error() != c.want {
			t.Errorf("error %v, want %s", err, c.want)
		}
	}
	unknownSubmit := unknownJob(3, -1)
	later := unknownJob(4, 10)
	for _, j := range []*workload.Job{&unknownSubmit, &later} {
		if err := w.Write(j); err != nil {
			t.Errorf("job %d: %v", j.ID, err)
		}
	}
	w.Flush()
	if got, want := strings.Count(buf.String(), "\n"), 3; got != want {
		t.Errorf("%d lines written, want %d:\n%s", got, want, buf.String())
	}
}

func TestWriterRefusesBadHeaders(t *testing.T) {
	cases := []struct {
		entry Entry
		want  string
	}{
		{Entry{Keyword: "Max Procs", Value: "1"}, `swf: header entry 2: keyword "Max Procs" is not a word (want a letter followed by letters, digits or '_')`},
		{Entry{Keyword: KeyNote, Value: "a\nb"}, `swf: header entry 2: Note: value "a\nb" contains a newline`},
		{Entry{Keyword: KeyMaxProcs, Value: "lots"}, `swf: header entry 2: MaxProcs: value "lots" does not start with an integer`},
		{Entry{Value: " MaxProcs: 5"}, `swf: header entry 2: comment " MaxProcs: 5" would be read back as a keyword line`},
		{Entry{Value: "   indented"}, `swf: header entry 2: comment "   indented" would be read back as a continuation of the keyword before it (indent it by at most one blank)`},
		{Entry{Value: "x\ny"}, `swf: header entry 2: comment "x\ny" contains a newline`},
		{Entry{Keyword: KeyNote, Value: "n", More: []string{"not indented"}}, `swf: header entry 2: Note: continuation line "not indented" must start with two blanks or a tab, and not with a keyword`},
		{Entry{Keyword: KeyNote, Value: "n", More: []string{"  MaxProcs: 4"}}, `swf: header entry 2: Note: continuation line "  MaxProcs: 4" must start with two blanks or a tab, and not with a keyword`},
	}
	for _, c := range cases {
		h := Header{Entries: []Entry{{Keyword: KeyVersion, Value: "2.2"}, c.entry}}
		if _, err := NewWriter(&bytes.Buffer{}, h); err == nil || err.Error() != c.want {
			t.Errorf("error %v\nwant %s", err, c.want)
		}
		path := filepath.Join(t.TempDir(), "x.swf")
		if _, err := Create(path, h); err == nil {
			t.Errorf("Create accepted %#v", c.entry)
		}
		if _, err := os.Stat(path); err == nil {
			t.Errorf("Create made a file for a refused header")
		}
	}
}

func TestHeaderBuilding(t *testing.T) {
	var h Header
	h.Add("version", "2.2")
	h.Add(KeyNote, "one")
	h.Add(KeyNote, "two")
	h.AddComment(" plain comment")
	h.Set(KeyMaxProcs, "64")
	h.Set(KeyMaxProcs, "128")
	h.Add(KeyAcknowledge, "  padded  ")
	if v := h.Version(); v != "2.2" || h.Entries[0].Keyword != KeyVersion {
		t.Errorf("Version = %q, entry %#v", v, h.Entries[0])
	}
	if h.MaxProcs() != 128 || len(h.All(KeyMaxProcs)) != 1 {
		t.Errorf("Set did not replace: %#v", h.Entries)
	}
	c := h.Clone()
	c.Entries[1].Value = "changed"
	if h.Entries[1].Value != "one" {
		t.Errorf("Clone shares entries")
	}
	var buf bytes.Buffer
	w, err := NewWriter(&buf, h)
	if err != nil {
		t.Fatal(err)
	}
	w.Flush()
	want := "; Version: 2.2\n; Note: one\n; Note: two\n; plain comment\n; MaxProcs: 128\n; Acknowledge: padded\n"
	if buf.String() != want {
		t.Errorf("header written as\n%q\nwant\n%q", buf.String(), want)
	}
}

func TestMachineSize(t *testing.T) {
	withProcs := Header{Entries: []Entry{{Keyword: KeyMaxNodes, Value: "16"}, {Keyword: KeyMaxProcs, Value: "128"}}}
	withNodes := Header{Entries: []Entry{{Keyword: KeyMaxProcs, Value: ""}, {Keyword: KeyMaxNodes, Value: "16 (SMP)"}}}
	zeroProcs := Header{Entries: []Entry{{Keyword: KeyMaxProcs, Value: "0"}, {Keyword: KeyMaxNodes, Value: "-1"}}}
	cases := []struct {
		h       Header
		largest int64
		size    int64
		source  string
	}{
		{withProcs, 500, 128, "MaxProcs"},
		{withNodes, 500, 16, "MaxNodes"},
		{zeroProcs, 500, 500, "largest job"},
		{Header{}, 64, 64, "largest job"},
		{Header{}, 0, 0, "unknown"},
	}
	for _, c := range cases {
		size, source := MachineSize(c.h, c.largest)
		if size != c.size || source != c.source {
			t.Errorf("MachineSize(%v, %d) = %d, %q; want %d, %q", c.h.Entries, c.largest, size, source, c.size, c.source)
		}
	}
}

func TestCreate(t *testing.T) {
	dir := t.TempDir()
	h := Header{}
	h.Add(KeyVersion, "2.2")
	h.Add(KeyMaxProcs, "8")
	jobs := []workload.Job{unknownJob(1, 0), unknownJob(2, 0.75)}
	for _, name := range []string{"out.swf", "out.swf.gz"} {
		path := filepath.Join(dir, name)
		w, err := Create(path, h)
		if err != nil {
			t.Fatal(err)
		}
		for i := range jobs {
			if err := w.Write(&jobs[i]); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatalf("%s: Close: %v", name, err)
		}
		if err := w.Close(); err != nil {
			t.Errorf("%s: second Close: %v", name, err)
		}
		if err := w.Write(&jobs[0]); err == nil {
			t.Errorf("%s: Write after Close succeeded", name)
		}
		raw, _ := os.ReadFile(path)
		isGzip := bytes.HasPrefix(raw, []byte{0x1f, 0x8b})
		if isGzip != strings.HasSuffix(name, ".gz") {
			t.Errorf("%s: gzip = %v", name, isGzip)
		}
		r, err := Open(path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		got, err := workload.ReadAll(r)
		r.Close()
		if err != nil || !reflect.DeepEqual(got, jobs) || !reflect.DeepEqual(r.Header(), h) {
			t.Errorf("%s: read back %v, %+v, %#v", name, err, got, r.Header())
		}
	}
	if _, err := Create(filepath.Join(dir, "no", "such", "dir.swf"), h); err == nil {
		t.Errorf("Create in a missing directory succeeded")
	}
}

// shortWriter fails after limit bytes.
type shortWriter struct{ limit int }

var errFull = errors.New("disk full")

func (s *shortWriter) Write(p []byte) (int, error) {
	if len(p) > s.limit {
		n := s.limit
		s.limit = 0
		return n, errFull
	}
	s.limit -= len(p)
	return len(p), nil
}

func TestWriteErrorsPropagate(t *testing.T) {
	w, err := NewWriter(&shortWriter{limit: 100}, Header{})
	if err != nil {
		t.Fatal(err)
	}
	var werr error
	for i := 1; i <= 5000 && werr == nil; i++ {
		j := unknownJob(int64(i), float64(i))
		werr = w.Write(&j)
	}
	if !errors.Is(werr, errFull) {
		t.Fatalf("Write error = %v, want %v", werr, errFull)
	}
	j := unknownJob(9999, 9999)
	if err := w.Write(&j); !errors.Is(err, errFull) {
		t.Errorf("Write after failure = %v", err)
	}
	if err := w.Flush(); !errors.Is(err, errFull) {
		t.Errorf("Flush after failure = %v", err)
	}
	w2, _ := NewWriter(&shortWriter{limit: 10}, Header{})
	w2.Write(&j)
	if err := w2.Flush(); !errors.Is(err, errFull) {
		t.Errorf("Flush = %v, want %v", err, errFull)
	}
}
