package swf

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/schedfarm/schedfarm/workload"
)

const (
	kthFile = "KTH-SP2-1996-2.swf.gz"
	kthJobs = 28489
)

// tracesDir locates the shared traces: $SCHEDFARM_TRACES, or shared/traces
// next to the repository (../../../shared/traces from this package).
func tracesDir(tb testing.TB) string {
	tb.Helper()
	dir := os.Getenv("SCHEDFARM_TRACES")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "shared", "traces")
	}
	if _, err := os.Stat(dir); err != nil {
		tb.Skipf("SWF traces not found (%v); set SCHEDFARM_TRACES to the directory holding %s", err, kthFile)
	}
	return dir
}

func tracePath(tb testing.TB, name string) string {
	tb.Helper()
	p := filepath.Join(tracesDir(tb), name)
	if _, err := os.Stat(p); err != nil {
		tb.Skipf("trace %s not found (%v); set SCHEDFARM_TRACES to the directory holding it", name, err)
	}
	return p
}

func readTraceFile(tb testing.TB, name string) []byte {
	tb.Helper()
	data, err := os.ReadFile(tracePath(tb, name))
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

// The real traces: job counts (counted with zcat | grep -vc '^;') and the
// header values they carry.
var traces = []struct {
	file     string
	jobs     int
	maxProcs int64
	maxNodes int64
	maxJobs  int64
}{
	{kthFile, kthJobs, 100, 100, 28490},
	{"SDSC-SP2-1998-first5K.swf.gz", 4961, 128, 128, 73496},
	{"LLNL-Atlas-2006-2.1-cln.swf.gz", 43778, 9216, 1152, 60332},
	{"NASA-iPSC-1993-3.1-cln.swf.gz", 18239, 128, 128, 18239},
	{"lublin_256.swf.gz", 10000, 0, 256, 10000},
}

func TestTraces(t *testing.T) {
	for _, tr := range traces {
		t.Run(tr.file, func(t *testing.T) {
			r, err := Open(tracePath(t, tr.file), Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			jobs, err := workload.ReadAll(r)
			if err != nil {
				t.Fatal(err)
			}
			h := r.Header()
			if len(jobs) != tr.jobs {
				t.Errorf("%d jobs, want %d", len(jobs), tr.jobs)
			}
			if got := h.MaxProcs(); got != tr.maxProcs {
				t.Errorf("MaxProcs = %d, want %d", got, tr.maxProcs)
			}
			if got := h.MaxNodes(); got != tr.maxNodes {
				t.Errorf("MaxNodes = %d, want %d", got, tr.maxNodes)
			}
			if got := h.MaxJobs(); got != tr.maxJobs {
				t.Errorf("MaxJobs = %d, want %d", got, tr.maxJobs)
			}
			if r.SkipCount() != 0 {
				t.Errorf("strict reader skipped %d lines", r.SkipCount())
			}
			checkRoundTrip(t, h, jobs)
		})
	}
}

// checkRoundTrip writes the jobs and header, reads them back, and wants
// exactly the same (the traces hold whole numbers only).
func checkRoundTrip(t *testing.T, h Header, jobs []workload.Job) {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewWriter(&buf, h)
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
	r, err := NewReader(&buf, "roundtrip.swf", Options{})
	if err != nil {
		t.Fatal(err)
	}
	again, err := workload.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	if len(again) != len(jobs) {
		t.Fatalf("round trip: %d jobs, want %d", len(again), len(jobs))
	}
	for i := range jobs {
		if again[i] != jobs[i] {
			t.Fatalf("round trip: job %d = %+v, want %+v", i, again[i], jobs[i])
		}
	}
	if got := r.Header(); !reflect.DeepEqual(got, h) {
		t.Errorf("round trip: header\n%#v\nwant\n%#v", got, h)
	}
}

func TestKTHHeader(t *testing.T) {
	r, err := Open(tracePath(t, kthFile), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	h := r.Header()
	if size, src := MachineSize(h, 0); size != 100 || src != "MaxProcs" {
		t.Errorf("MachineSize = %d, %q; want 100, MaxProcs", size, src)
	}
	if got := h.UnixStartTime(); got != 843480031 {
		t.Errorf("UnixStartTime = %d", got)
	}
	if got, _ := h.Get(KeyEndTime); got != "Fri Aug 29 10:55:01 CEST 1997" {
		t.Errorf("EndTime = %q", got)
	}
	info := h.Entries[4]
	if info.Keyword != KeyInformation || len(info.More) != 1 {
		t.Fatalf("Information entry = %#v, want one continuation line", info)
	}
	if want := "http://www.pdc.kth.se/\nhttp://www.cs.huji.ac.il/labs/parallel/workload/"; info.Text() != want {
		t.Errorf("Information text = %q, want %q", info.Text(), want)
	}
	j, err := r.Next()
	if err != nil {
		t.Fatal(err)
	}
	want := workload.Job{ID: 1, Submit: 0, Wait: 964980, RunTime: 97225, AllocProcs: 56, AvgCPUTime: -1,
		UsedMemory: -1, ReqProcs: 56, ReqTime: 210000, ReqMemory: -1, Status: 1, UserID: 1, GroupID: 1,
		Executable: -1, Queue: -1, Partition: -1, PrecedingJob: -1, ThinkTime: -1}
	if j != want {
		t.Errorf("first job = %+v, want %+v", j, want)
	}
}
