package swf

import (
	"bytes"
	"compress/gzip"
	"io"
	"testing"

	"github.com/schedfarm/schedfarm/workload"
)

// BenchmarkReadKTH reads the whole KTH-SP2 trace (gzip) from memory.
func BenchmarkReadKTH(b *testing.B) {
	data := readTraceFile(b, kthFile)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	var jobs int
	for b.Loop() {
		jobs = countJobs(b, data)
	}
	if jobs != kthJobs {
		b.Fatalf("read %d jobs, want %d", jobs, kthJobs)
	}
	b.ReportMetric(float64(jobs)*float64(b.N)/b.Elapsed().Seconds(), "jobs/s")
}

// BenchmarkReadKTHPlain reads KTH-SP2 decompressed, to separate parsing
// from decompression.
func BenchmarkReadKTHPlain(b *testing.B) {
	data := decompress(b, readTraceFile(b, kthFile))
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	var jobs int
	for b.Loop() {
		jobs = countJobs(b, data)
	}
	b.ReportMetric(float64(jobs)*float64(b.N)/b.Elapsed().Seconds(), "jobs/s")
}

// BenchmarkWriteKTH writes the KTH-SP2 jobs to io.Discard.
func BenchmarkWriteKTH(b *testing.B) {
	jobs, h := kthJobsHeader(b)
	b.ReportAllocs()
	for b.Loop() {
		w, err := NewWriter(io.Discard, h)
		if err != nil {
			b.Fatal(err)
		}
		for i := range jobs {
			if err := w.Write(&jobs[i]); err != nil {
				b.Fatal(err)
			}
		}
		if err := w.Flush(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(jobs))*float64(b.N)/b.Elapsed().Seconds(), "jobs/s")
}

func countJobs(b *testing.B, data []byte) int {
	r, err := NewReader(bytes.NewReader(data), kthFile, Options{})
	if err != nil {
		b.Fatal(err)
	}
	n := 0
	for {
		_, err := r.Next()
		if err == io.EOF {
			return n
		}
		if err != nil {
			b.Fatal(err)
		}
		n++
	}
}

func decompress(tb testing.TB, data []byte) []byte {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		tb.Fatal(err)
	}
	plain, err := io.ReadAll(zr)
	if err != nil {
		tb.Fatal(err)
	}
	return plain
}

// BenchmarkWriteFuncKTH is BenchmarkWriteKTH through WriteFunc (lines
// formatted on GOMAXPROCS goroutines).
func BenchmarkWriteFuncKTH(b *testing.B) {
	jobs, h := kthJobsHeader(b)
	b.ReportAllocs()
	for b.Loop() {
		w, err := NewWriter(io.Discard, h)
		if err != nil {
			b.Fatal(err)
		}
		if err := w.WriteFunc(len(jobs), func(i int) workload.Job { return jobs[i] }); err != nil {
			b.Fatal(err)
		}
		if err := w.Flush(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(jobs))*float64(b.N)/b.Elapsed().Seconds(), "jobs/s")
}

// kthJobsHeader reads the KTH-SP2 jobs and header for the writing benchmarks.
func kthJobsHeader(b *testing.B) ([]workload.Job, Header) {
	r, err := NewReader(bytes.NewReader(readTraceFile(b, kthFile)), kthFile, Options{})
	if err != nil {
		b.Fatal(err)
	}
	jobs, err := workload.ReadAll(r)
	if err != nil {
		b.Fatal(err)
	}
	return jobs, r.Header()
}
