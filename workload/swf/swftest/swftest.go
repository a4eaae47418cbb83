// Package swftest locates the real SWF traces that tests and benchmarks use.
// They live outside the repository (../shared/traces next to the checkout,
// or the directory named by $SCHEDFARM_TRACES); a test that needs one skips
// with a message when it is absent, so a fresh clone still passes.
package swftest

import (
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/workload"
	"github.com/schedfarm/schedfarm/workload/swf"
)

// Well-known trace file names.
const (
	KTH   = "KTH-SP2-1996-2.swf.gz"
	SDSC  = "SDSC-SP2-1998-first5K.swf.gz"
	LLNL  = "LLNL-Atlas-2006-2.1-cln.swf.gz"
	NASA  = "NASA-iPSC-1993-3.1-cln.swf.gz"
	Lubin = "lublin_256.swf.gz"
)

// All lists every well-known trace.
func All() []string { return []string{KTH, SDSC, LLNL, NASA, Lubin} }

// Dir returns the trace directory, or "" if none is found.
func Dir() string {
	if d := os.Getenv("SCHEDFARM_TRACES"); d != "" {
		return d
	}
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	for d := wd; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			cand := filepath.Join(filepath.Dir(d), "shared", "traces")
			if st, err := os.Stat(cand); err == nil && st.IsDir() {
				return cand
			}
			return ""
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}

// Path returns the path of trace name, skipping tb when it is not available.
func Path(tb testing.TB, name string) string {
	tb.Helper()
	d := Dir()
	if d == "" {
		tb.Skipf("trace %s not available: set SCHEDFARM_TRACES or put the traces in ../shared/traces", name)
	}
	p := filepath.Join(d, name)
	if _, err := os.Stat(p); err != nil {
		tb.Skipf("trace %s not available: %v", name, err)
	}
	return p
}

// Records reads trace name whole (Path's skip when it is absent), for
// benchmarks that parse it once outside their timed loop.
func Records(tb testing.TB, name string) []workload.Job {
	tb.Helper()
	r, err := swf.Open(Path(tb, name), swf.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	defer r.Close()
	records, err := workload.ReadAll(r)
	if err != nil {
		tb.Fatal(err)
	}
	return records
}

// PlainPath returns the path of a decompressed copy of trace name in a
// temporary directory of tb (Path's skip when it is absent): the form
// `schedfarm sim` maps and reads in pieces while it simulates.
func PlainPath(tb testing.TB, name string) string {
	tb.Helper()
	f, err := os.Open(Path(tb, name))
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		tb.Fatal(err)
	}
	out := filepath.Join(tb.TempDir(), strings.TrimSuffix(name, ".gz"))
	w, err := os.Create(out)
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := io.Copy(w, z); err != nil {
		tb.Fatal(err)
	}
	if err := w.Close(); err != nil {
		tb.Fatal(err)
	}
	return out
}
