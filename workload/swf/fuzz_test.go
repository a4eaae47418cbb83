package swf

import (
	"bytes"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/workload"
)

// fuzzSeeds adds the hand-written test file to a fuzz target; the committed
// corpus in testdata/fuzz holds the rest (CRLF, gzip, malformed lines, the
// start of KTH-SP2).
func fuzzSeeds(f *testing.F) {
	data, err := os.ReadFile(filepath.Join("testdata", "allkeywords.swf"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Add([]byte(jobLine("1", "0.5")))
}

// FuzzReader: any input either parses or fails with an error naming a line;
// the reader never panics, always makes progress, and returns only jobs that
// obey the documented rules.
func FuzzReader(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		strict := fuzzRead(t, data, Options{})
		lenient := fuzzRead(t, data, Options{Lenient: true})
		if strict.err == nil && !reflect.DeepEqual(strict, lenient) {
			t.Errorf("strict read succeeded but lenient differs:\n%+v\n%+v", strict, lenient)
		}
		if lenient.err == nil && lenient.skips == 0 && strict.err != nil {
			t.Errorf("lenient skipped nothing but strict failed: %v", strict.err)
		}
	})
}

type fuzzResult struct {
	jobs   []workload.Job
	header Header
	skips  int
	err    error
}

func fuzzRead(t *testing.T, data []byte, opts Options) fuzzResult {
	r, err := NewReader(bytes.NewReader(data), "fuzz.swf", opts)
	if err != nil {
		if !strings.HasPrefix(err.Error(), "fuzz.swf: ") {
			t.Fatalf("NewReader error does not name the file: %v", err)
		}
		return fuzzResult{err: err}
	}
	var res fuzzResult
	lastLine, lastSubmit := 0, -1.0
	for {
		j, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			checkFuzzError(t, r, err, opts)
			res.err = err
			break
		}
		if r.Line() <= lastLine {
			t.Fatalf("job returned without progress: line %d after %d", r.Line(), lastLine)
		}
		lastLine = r.Line()
		checkFuzzJob(t, &j, lastSubmit)
		if j.Submit != -1 {
			lastSubmit = j.Submit
		}
		res.jobs = append(res.jobs, j)
	}
	res.header, res.skips = r.Header(), r.SkipCount()
	for _, e := range r.Skipped() {
		if e.Line < 1 || e.File != "fuzz.swf" || !strings.HasPrefix(e.Error(), "fuzz.swf:"+strconv.Itoa(e.Line)+": ") {
			t.Fatalf("skipped line error does not name its line: %#v", e)
		}
	}
	return res
}

func checkFuzzError(t *testing.T, r *Reader, err error, opts Options) {
	var le *LineError
	if !errors.As(err, &le) || le.Line < 1 || le.File != "fuzz.swf" {
		t.Fatalf("error is not a *LineError naming a line: %#v", err)
	}
	if !strings.HasPrefix(err.Error(), "fuzz.swf:"+strconv.Itoa(le.Line)+": ") {
		t.Fatalf("error text does not start with file:line: %q", err)
	}
	if opts.Lenient && le.Err == nil {
		t.Fatalf("lenient reader stopped on a malformed line: %v", err)
	}
	if _, again := r.Next(); again != err {
		t.Fatalf("Next after an error returned %v, want %v", again, err)
	}
}

func checkFuzzJob(t *testing.T, j *workload.Job, lastSubmit float64) {
	for f := 1; f <= NumFields; f++ {
		var v float64
		if isIntField(f) {
			v = float64(*intField(j, f))
		} else {
			v = *floatField(j, f)
		}
		if math.IsNaN(v) || math.IsInf(v, 0) || !validValue(v) {
			t.Fatalf("job %+v: field %d = %v accepted", j, f, v)
		}
	}
	if j.Submit != -1 && j.Submit < lastSubmit {
		t.Fatalf("job %+v: submit time decreases from %v", j, lastSubmit)
	}
}

// FuzzRoundTrip: whatever the strict reader accepts, the writer accepts, and
// reading the output gives the same header and the same jobs (floats within
// the writer's two-decimal rounding, whole numbers exactly).
func FuzzRoundTrip(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := NewReader(bytes.NewReader(data), "in.swf", Options{})
		if err != nil {
			return
		}
		jobs, err := workload.ReadAll(r)
		if err != nil {
			return
		}
		h := r.Header()
		out := fuzzWrite(t, h, jobs)
		r2, err := NewReader(bytes.NewReader(out), "out.swf", Options{})
		if err != nil {
			t.Fatal(err)
		}
		again, err := workload.ReadAll(r2)
		if err != nil {
			t.Fatalf("reading the writer's output: %v\n%s", err, out)
		}
		if h2 := r2.Header(); !reflect.DeepEqual(h2, h) {
			t.Fatalf("header changed:\n%#v\n%#v\noutput:\n%q", h, h2, out)
		}
		if len(again) != len(jobs) {
			t.Fatalf("%d jobs read back, want %d", len(again), len(jobs))
		}
		for i := range jobs {
			checkSameJob(t, &jobs[i], &again[i])
		}
	})
}

func fuzzWrite(t *testing.T, h Header, jobs []workload.Job) []byte {
	var buf bytes.Buffer
	w, err := NewWriter(&buf, h)
	if err != nil {
		t.Fatalf("NewWriter refused a header the reader produced: %v\n%#v", err, h)
	}
	for i := range jobs {
		if err := w.Write(&jobs[i]); err != nil {
			t.Fatalf("Write refused a job the reader produced: %v", err)
		}
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func checkSameJob(t *testing.T, a, b *workload.Job) {
	for f := 1; f <= NumFields; f++ {
		if isIntField(f) {
			if *intField(a, f) != *intField(b, f) {
				t.Fatalf("field %d: %d became %d", f, *intField(a, f), *intField(b, f))
			}
			continue
		}
		x, y := *floatField(a, f), *floatField(b, f)
		tol := 0.005 + math.Abs(x)*0x1p-50
		if x == math.Trunc(x) {
			tol = 0
		}
		if math.Abs(x-y) > tol {
			t.Fatalf("field %d: %v became %v", f, x, y)
		}
	}
}
