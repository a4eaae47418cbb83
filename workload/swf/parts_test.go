package swf

import (
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/workload"
)

// readLoop is what ReadParts must equal: Open, the header, Next to io.EOF.
func readLoop(path string, opts Options) (Header, []workload.Job, error) {
	r, err := Open(path, opts)
	if err != nil {
		return Header{}, nil, err
	}
	defer r.Close()
	h := r.Header()
	var jobs []workload.Job
	for {
		j, err := r.Next()
		if err == io.EOF {
			return h, jobs, nil
		}
		if err != nil {
			return h, jobs, err
		}
		jobs = append(jobs, j)
	}
}

// TestReadPartsIsTheReader writes random SWF files — headers, job lines
// with whole and fractional numbers and unknown fields, and at random places
// comment lines, blank lines, malformed lines and submit times out of order,
// some at the cut between two parts — and requires from ReadParts either
// the Reader's header and jobs exactly, or ok false; never ok for a file
// the Reader refuses; and ok for most clean files (or the test would prove
// nothing).
func TestReadPartsIsTheReader(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	defer func(b int) { partMinBytes = b }(partMinBytes)
	partMinBytes = 64
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(17, 3))
	var clean, cleanOK, refused int
	for trial := range 1500 {
		messy := trial%2 == 1
		text := randomTrace(rng, messy)
		path := filepath.Join(dir, fmt.Sprintf("t%d.swf", trial))
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		h, jobs, err := readLoop(path, Options{})
		ph, pjobs, ok := ReadParts(path, Options{})
		if err != nil {
			refused++
			if ok {
				t.Fatalf("trial %d: the Reader refuses the file (%v), ReadParts read %d jobs", trial, err, len(pjobs))
			}
			continue
		}
		if !messy {
			clean++
			if ok {
				cleanOK++
			}
		}
		if ok && (!reflect.DeepEqual(h, ph) || !reflect.DeepEqual(jobs, pjobs)) {
			t.Fatalf("trial %d: ReadParts differs from the Reader: header %v vs %v, %d vs %d jobs", trial, ph, h, len(pjobs), len(jobs))
		}
	}
	if cleanOK < clean*9/10 || refused == 0 {
		t.Fatalf("ReadParts read %d of %d clean files in parts, %d files refused: the test would not catch a broken ReadParts", cleanOK, clean, refused)
	}
}

// randomTrace returns an SWF text of 5 to 64 jobs with whole and fractional
// numbers and unknown submit times; messy adds, at random places, comment
// lines, blank lines, malformed lines and submit times out of order.
func randomTrace(rng *rand.Rand, messy bool) string {
	var b strings.Builder
	b.WriteString("; Version: 2.2\n; MaxProcs: 64\n;  a free comment\n")
	submit := 0
	n := 5 + rng.IntN(60)
	for i := range n {
		submit += rng.IntN(4)
		s := fmt.Sprint(submit)
		switch {
		case rng.IntN(10) == 0:
			s = "-1"
		case rng.IntN(15) == 0:
			s = fmt.Sprintf("%d.5", submit)
		}
		fmt.Fprintf(&b, "%d %s 0 %d %d -1 -1 %d %d -1 1 1 1 -1 1 -1 -1 -1\n", i+1, s, 1+rng.IntN(100), 1+rng.IntN(64), 1+rng.IntN(64), 1+rng.IntN(200))
		if messy && rng.IntN(25) == 0 {
			switch rng.IntN(5) {
			case 0:
				b.WriteString("; a comment among the jobs\n")
			case 1:
				b.WriteString("\n")
			case 2:
				b.WriteString("1 2 3\n") // too few fields
			case 3:
				submit -= 3 // the next job goes back in time
			default:
				b.WriteString("  \t\n")
			}
		}
	}
	return b.String()
}

// TestReadPartsLeavesTheHardCases: gzip input, lenient mode and a file
// under two parts go to the Reader.
func TestReadPartsLeavesTheHardCases(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	dir := t.TempDir()
	line := "1 0 0 10 4 -1 -1 4 20 -1 1 1 1 -1 1 -1 -1 -1\n"
	small := filepath.Join(dir, "small.swf")
	os.WriteFile(small, []byte(line), 0o644)
	if _, _, ok := ReadParts(small, Options{}); ok {
		t.Error("a one-line file was read in parts")
	}
	big := filepath.Join(dir, "big.swf")
	os.WriteFile(big, []byte(strings.Repeat(line, 2*partMinBytes/len(line)+10)), 0o644)
	if _, _, ok := ReadParts(big, Options{Lenient: true}); ok {
		t.Error("a lenient read went to parts")
	}
	if _, _, ok := ReadParts(big, Options{}); !ok {
		t.Error("a clean file of two parts was not read in parts")
	}
}

// TestReadPartsFileCutShort cuts the file to nothing while ReadParts holds
// it mapped — once before the parts are found (the calling goroutine
// touches the missing pages) and once before they are parsed (every part's
// goroutine does) — and requires a refusal, not a crash, after which the
// Reader reports what the file now holds. Where the file is read into a
// buffer instead of mapped, the cut comes too late to matter and the read
// must then equal the Reader's of the whole file.
func TestReadPartsFileCutShort(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	defer func(b int) { partMinBytes = b }(partMinBytes)
	partMinBytes = 4096
	line := "1 0 0 10 4 -1 -1 4 20 -1 1 1 1 -1 1 -1 -1 -1\n"
	text := "; MaxProcs: 64\n" + strings.Repeat(line, 8*partMinBytes/len(line))
	defer func(f func(string, string)) { partsStage = f }(partsStage)
	for _, at := range []string{"mapped", "parsing"} {
		path := filepath.Join(t.TempDir(), "cut.swf")
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		h, whole, err := readLoop(path, Options{})
		if err != nil || len(whole) < 100 {
			t.Fatalf("the Reader reads %d jobs (%v)", len(whole), err)
		}
		cut := false
		partsStage = func(stage, p string) {
			if stage == at && p == path {
				if err := os.Truncate(p, 0); err != nil {
					t.Error(err)
				}
				cut = true
			}
		}
		ph, jobs, ok := ReadParts(path, Options{})
		partsStage = func(string, string) {}
		if !cut {
			t.Fatalf("%s: ReadParts never reached the stage", at)
		}
		switch {
		case mapsFiles && ok:
			t.Fatalf("%s: the file was cut to nothing while mapped, and ReadParts still returned %d jobs", at, len(jobs))
		case !mapsFiles && (!ok || !reflect.DeepEqual(ph, h) || !reflect.DeepEqual(jobs, whole)):
			t.Fatalf("%s: read into a buffer before the cut, ReadParts differs from the Reader (ok %v, %d jobs)", at, ok, len(jobs))
		}
		if _, now, err := readLoop(path, Options{}); err != nil || len(now) != 0 {
			t.Fatalf("%s: after the cut the Reader reads %d jobs (%v), want 0", at, len(now), err)
		}
	}
}
