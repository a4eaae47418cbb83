package swf

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/schedfarm/schedfarm/workload"
)

// writeFile writes data to dir/name, gzip-compressed when zip is set, and
// returns the path.
func writeFile(t *testing.T, dir, name, data string, zip bool) string {
	t.Helper()
	b := []byte(data)
	if zip {
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		zw.Write(b)
		zw.Close()
		b = buf.Bytes()
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// streamRead is what runner.readRecords does without a cache: open, take the
// header, call Next until max jobs or io.EOF, and note the skip count.
func streamRead(t *testing.T, path string, opts Options, max int) (Header, []workload.Job, int) {
	t.Helper()
	r, err := Open(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	h := r.Header()
	var jobs []workload.Job
	for max == 0 || len(jobs) < max {
		j, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		jobs = append(jobs, j)
	}
	return h, jobs, r.SkipCount()
}

func TestCacheReadsLikeAReader(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("; Version: 2.2\n; MaxProcs: 64\n")
	b.WriteString("bad line before the first job\n")
	for i := 1; i <= 40; i++ {
		b.WriteString(jobLine(strconv.Itoa(i), strconv.Itoa(10*i)) + "\n")
		if i%7 == 0 {
			b.WriteString("1 2 3\n") // skipped in lenient mode
		}
		if i == 20 {
			b.WriteString("; Note: a comment among the jobs\n")
		}
	}
	b.WriteString("a bad trailing line\n")
	lenientData := b.String()
	strictData := strings.NewReplacer("bad line before the first job\n", "", "1 2 3\n", "", "a bad trailing line\n", "").Replace(lenientData)

	cases := []struct {
		name string
		data string
		opts Options
	}{
		{"strict.swf", strictData, Options{}},
		{"strict.swf.gz", strictData, Options{}},
		{"lenient.swf", lenientData, Options{Lenient: true}},
		{"lenient.swf.gz", lenientData, Options{Lenient: true}},
		{"empty.swf", "; MaxProcs: 4\n", Options{}},
		{"empty-lenient.swf", "; MaxProcs: 4\nnot a job\n", Options{Lenient: true}},
	}
	for _, c := range cases {
		path := writeFile(t, dir, c.name, c.data, strings.HasSuffix(c.name, ".gz"))
		cache := NewCache(1 << 20)
		tr, ok := cache.Load(path, c.opts)
		if !ok {
			t.Fatalf("%s: not cached", c.name)
		}
		for max := 0; max <= tr.Len()+2; max++ {
			wh, wjobs, wskips := streamRead(t, path, c.opts, max)
			jobs, skips := tr.Read(max)
			if !reflect.DeepEqual(tr.Header(), wh) {
				t.Errorf("%s: header %v, want %v", c.name, tr.Header(), wh)
			}
			if len(jobs) != len(wjobs) || (len(jobs) > 0 && !reflect.DeepEqual(jobs, wjobs)) {
				t.Errorf("%s, max %d: %d jobs, want %d", c.name, max, len(jobs), len(wjobs))
			}
			if skips != wskips {
				t.Errorf("%s, max %d: %d skipped, want %d", c.name, max, skips, wskips)
			}
		}
		if c.opts.Lenient && tr.Len() > 0 {
			// 1 line before job 1, 1 after every 7th job, 1 at the end.
			_, all := tr.Read(0)
			_, upTo8 := tr.Read(8)
			_, upTo40 := tr.Read(40)
			if all != 7 || upTo8 != 2 || upTo40 != 6 {
				t.Errorf("%s: skipped %d, %d up to job 8, %d up to job 40; want 7, 2, 6", c.name, all, upTo8, upTo40)
			}
		}
		if again, ok := cache.Load(path, c.opts); !ok || again != tr {
			t.Errorf("%s: second load parsed again", c.name)
		}
	}
}

func TestCacheNotServedStale(t *testing.T) {
	dir := t.TempDir()
	one := "; MaxProcs: 4\n" + jobLine("1", "10") + "\n"
	two := "; MaxProcs: 4\n" + jobLine("1", "20") + "\n" // same size
	path := writeFile(t, dir, "t.swf", one, false)
	stamp := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	os.Chtimes(path, stamp, stamp)
	cache := NewCache(1 << 20)
	a, ok := cache.Load(path, Options{})
	if !ok {
		t.Fatal("not cached")
	}
	// Same path, size and modification time; different bytes.
	writeFile(t, dir, "t.swf", two, false)
	os.Chtimes(path, stamp, stamp)
	b, ok := cache.Load(path, Options{})
	if !ok {
		t.Fatal("not cached")
	}
	if a == b {
		t.Fatal("edited file served from the cache")
	}
	if ja, _ := a.Read(0); ja[0].Submit != 10 {
		t.Errorf("first trace changed: submit %g", ja[0].Submit)
	}
	if jb, _ := b.Read(0); jb[0].Submit != 20 {
		t.Errorf("second trace: submit %g, want 20", jb[0].Submit)
	}
	// Options are part of the key.
	if c, ok := cache.Load(path, Options{Lenient: true}); !ok || c == b {
		t.Error("lenient load served the strict trace")
	}
}

func TestCacheRefusesWhatAReaderRefuses(t *testing.T) {
	dir := t.TempDir()
	cache := NewCache(1 << 20)
	bad := writeFile(t, dir, "bad.swf", jobLine("1", "10")+"\n1 2 3\n", false)
	if _, ok := cache.Load(bad, Options{}); ok {
		t.Error("malformed file cached in strict mode")
	}
	if _, ok := cache.Load(filepath.Join(dir, "missing.swf"), Options{}); ok {
		t.Error("missing file cached")
	}
	if _, ok := cache.Load(dir, Options{}); ok {
		t.Error("directory cached")
	}
	corrupt := writeFile(t, dir, "corrupt.swf.gz", strings.Repeat(jobLine("1", "10")+"\n", 100), true)
	b, _ := os.ReadFile(corrupt)
	os.WriteFile(corrupt, b[:len(b)/2], 0o644)
	if _, ok := cache.Load(corrupt, Options{Lenient: true}); ok {
		t.Error("truncated gzip cached")
	}
	// Missing and directory: no entry; malformed and truncated: an empty
	// one, so that the same bytes are not parsed again.
	if len(cache.entries) != 2 || cache.size != 0 {
		t.Errorf("%d entries, %d bytes after failures; want 2 (empty), 0", len(cache.entries), cache.size)
	}
	for k, e := range cache.entries {
		if e.trace != nil {
			t.Errorf("%s: failed parse kept a trace", k.path)
		}
	}
	if _, ok := cache.Load(bad, Options{}); ok {
		t.Error("malformed file cached on the second load")
	}
}

func TestCacheLimit(t *testing.T) {
	dir := t.TempDir()
	var paths []string
	for _, name := range []string{"a.swf", "b.swf", "c.swf"} {
		paths = append(paths, writeFile(t, dir, name, "; MaxProcs: 4\n"+jobLine("1", "10")+"\n"+jobLine("2", "11")+"\n", false))
	}
	probe := NewCache(1 << 20)
	tr, _ := probe.Load(paths[0], Options{})
	per := tr.bytes

	// Room for two traces: loading a third drops the least recently used.
	cache := NewCache(2 * per)
	a, _ := cache.Load(paths[0], Options{})
	cache.Load(paths[1], Options{})
	if again, _ := cache.Load(paths[0], Options{}); again != a { // a is now the most recent
		t.Fatal("a not kept")
	}
	cache.Load(paths[2], Options{})
	if len(cache.entries) != 2 || cache.size != 2*per {
		t.Fatalf("%d entries, %d bytes; want 2, %d", len(cache.entries), cache.size, 2*per)
	}
	if again, _ := cache.Load(paths[0], Options{}); again != a {
		t.Error("the most recently used trace was dropped")
	}

	// A trace larger than the limit is left to the caller's reader, and
	// not parsed again.
	small := NewCache(per - 1)
	for range 2 {
		if _, ok := small.Load(paths[0], Options{}); ok {
			t.Fatal("trace over the limit cached")
		}
	}
	if len(small.entries) != 1 || small.size != 0 {
		t.Errorf("%d entries, %d bytes; want 1 (empty), 0", len(small.entries), small.size)
	}
}

func TestCacheConcurrentLoadsParseOnce(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	for i := 1; i <= 5000; i++ {
		b.WriteString(jobLine(strconv.Itoa(i), strconv.Itoa(i)) + "\n")
	}
	path := writeFile(t, dir, "big.swf.gz", b.String(), true)
	cache := NewCache(64 << 20)
	const n = 8
	got := make([]*Trace, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			tr, ok := cache.Load(path, Options{})
			if !ok {
				t.Error("not cached")
			}
			got[i] = tr
		})
	}
	wg.Wait()
	for i := range got {
		if got[i] != got[0] {
			t.Fatalf("load %d got a different trace", i)
		}
	}
	if got[0].Len() != 5000 {
		t.Errorf("%d jobs, want 5000", got[0].Len())
	}
}
