package swf

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/workload"
)

// handedLog records what a PieceFunc was handed: the pieces, joined, the
// headers, one per call, the first piece's capacity, and the room of the
// first call, which must be the same at every call (Jobs -2 if not).
type handedLog struct {
	handed   []workload.Job
	hdrs     []Header
	firstCap int
	room     Room
}

func (l *handedLog) fn(h Header, piece []workload.Job, r Room) bool {
	if len(l.hdrs) == 0 {
		l.firstCap, l.room = cap(piece), r
	} else if r != l.room {
		l.room.Jobs = -2
	}
	l.handed = append(l.handed, piece...)
	l.hdrs = append(l.hdrs, h)
	return true
}

// readPieces calls ReadPieces and also returns what fn was handed
// (handedLog).
func readPieces(path string, opts Options, pieceBytes int) (hdr Header, jobs, handed []workload.Job, hdrs []Header, firstCap int, room Room, ok bool) {
	l := handedLog{firstCap: -1}
	hdr, jobs, ok = ReadPieces(path, opts, pieceBytes, l.fn)
	return hdr, jobs, l.handed, l.hdrs, l.firstCap, l.room, ok
}

// readPiecesOnce calls ReadPiecesOnce and returns what fn was handed (the
// pieces, joined, and the headers, one per call) and the room, as
// handedLog records them; after a refusal, nothing and a room of Jobs -1.
func readPiecesOnce(path string, opts Options, pieceBytes int) (hdr Header, n int, handed []workload.Job, hdrs []Header, room Room, ok bool) {
	l := handedLog{room: Room{Jobs: -1}}
	hdr, n, ok = ReadPiecesOnce(path, opts, pieceBytes, l.fn)
	if !ok {
		return hdr, n, nil, nil, Room{Jobs: -1}, ok
	}
	return hdr, n, l.handed, l.hdrs, l.room, ok
}

// writeUniformTrace writes header and then jobs one-processor jobs, job i
// submitted at i seconds, as t.swf and t.swf.gz in a temporary directory,
// and returns the two paths.
func writeUniformTrace(t *testing.T, header string, jobs int) (plain, gz string) {
	t.Helper()
	var b strings.Builder
	b.WriteString(header)
	for i := 1; i <= jobs; i++ {
		fmt.Fprintf(&b, "%d %d -1 10 1 -1 -1 1 10 -1 1 1 1 1 1 -1 -1 -1\n", i, i)
	}
	dir := t.TempDir()
	plain, gz = filepath.Join(dir, "t.swf"), filepath.Join(dir, "t.swf.gz")
	if err := os.WriteFile(plain, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(gz, gzipped(t, []byte(b.String())), 0o644); err != nil {
		t.Fatal(err)
	}
	return plain, gz
}

// TestReadPiecesOnceReusesOnePiece reads 10,000 jobs, plain and gzip, in
// pieces of about 1 KB with ReadPiecesOnce: every job is handed over in
// order, yet no piece has room for more than a piece's jobs, where
// ReadPieces gives the first piece room for the whole file.
func TestReadPiecesOnceReusesOnePiece(t *testing.T) {
	const jobs = 10000
	plain, gz := writeUniformTrace(t, "", jobs)
	for _, path := range []string{plain, gz} {
		next, most, calls := int64(1), 0, 0
		_, n, ok := ReadPiecesOnce(path, Options{}, 1024, func(_ Header, piece []workload.Job, _ Room) bool {
			calls++
			most = max(most, cap(piece))
			for _, j := range piece {
				if j.ID != next {
					t.Fatalf("%s: job %d handed where %d was due", path, j.ID, next)
				}
				next++
			}
			return true
		})
		if !ok || n != jobs || next != jobs+1 {
			t.Fatalf("%s: ok %v, %d jobs read, %d handed; want %d", path, ok, n, next-1, jobs)
		}
		// A line here is 40–48 bytes, so a 1 KB piece holds about 25 jobs.
		if calls < 100 || most > 64 {
			t.Fatalf("%s: %d pieces, the largest with room for %d jobs; want the jobs in pieces of a few dozen", path, calls, most)
		}
	}
}

// TestReadPiecesPrefaultsOnlyAPlainFilesSlab: ReadPieces hands the slab
// it gathers a plain file's jobs in, room for a job on every line, to
// prefaultRecords, and that slab is the one the jobs come back in;
// ReadPiecesOnce, which keeps no slab, hands nothing, and neither does
// ReadPieces for a gzip file, whose room is a guess (here its header's
// MaxJobs of 400,000 for 300 jobs).
func TestReadPiecesPrefaultsOnlyAPlainFilesSlab(t *testing.T) {
	defer func(f func([]workload.Job)) { prefaultRecords = f }(prefaultRecords)
	var handed [][]workload.Job
	prefaultRecords = func(slab []workload.Job) { handed = append(handed, slab) }
	plain, gz := writeUniformTrace(t, "; Version: 2.2\n; MaxJobs: 400000\n", 300)
	_, jobs, ok := ReadPieces(plain, Options{}, 1024, func(Header, []workload.Job, Room) bool { return true })
	if !ok || len(jobs) != 300 {
		t.Fatalf("%s: ok %v, %d jobs; want 300", plain, ok, len(jobs))
	}
	if len(handed) != 1 || len(handed[0]) != 303 || &handed[0][0] != &jobs[0] {
		t.Fatalf("%s (300 jobs, 302 lines): %d slabs handed to prefaultRecords; want the one of 303 jobs the jobs came back in", plain, len(handed))
	}
	handed = nil
	if _, _, ok := ReadPiecesOnce(plain, Options{}, 1024, func(Header, []workload.Job, Room) bool { return true }); !ok || len(handed) != 0 {
		t.Errorf("ReadPiecesOnce of %s: ok %v, %d slabs handed to prefaultRecords; want none", plain, ok, len(handed))
	}
	if _, jobs, ok := ReadPieces(gz, Options{}, 1024, func(Header, []workload.Job, Room) bool { return true }); !ok || len(jobs) != 300 || len(handed) != 0 {
		t.Errorf("ReadPieces of %s: ok %v, %d jobs, %d slabs handed to prefaultRecords; want 300 and none", gz, ok, len(jobs), len(handed))
	}
}

// TestReadPiecesIsTheReader writes the random SWF files of
// TestReadPartsIsTheReader, a third of them gzip-compressed, and reads each
// in pieces of 1 to 300 bytes (for gzip, of one to three jobs). It
// requires from ReadPieces either the Reader's header and jobs exactly, fn
// handed exactly those jobs in order with that header at every call, and
// room for them all at the first call; or ok false. Never ok for a file
// the Reader refuses, and ok for most clean files (or the test would prove
// nothing).
func TestReadPiecesIsTheReader(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(23, 5))
	var clean, cleanOK, refused, several int
	for trial := range 1500 {
		messy := trial%2 == 1
		path := filepath.Join(dir, fmt.Sprintf("t%d.swf", trial))
		text := []byte(randomTrace(rng, messy))
		if trial%3 == 2 {
			text = gzipped(t, text) // read by one Reader, handed over in pieces
		}
		if err := os.WriteFile(path, text, 0o644); err != nil {
			t.Fatal(err)
		}
		pieceBytes := 1 + rng.IntN(300)
		h, jobs, err := readLoop(path, Options{})
		ph, pjobs, handed, hdrs, firstCap, room, ok := readPieces(path, Options{}, pieceBytes)
		if err != nil {
			refused++
			if ok {
				t.Fatalf("trial %d: the Reader refuses the file (%v), ReadPieces read %d jobs", trial, err, len(pjobs))
			}
			continue
		}
		if !messy {
			clean++
			if ok {
				cleanOK++
			}
		}
		if !ok {
			continue
		}
		oh, on, onced, ohdrs, oroom, ook := readPiecesOnce(path, Options{}, pieceBytes)
		if ook != ok || !reflect.DeepEqual(oh, ph) || on != len(pjobs) || !reflect.DeepEqual(onced, handed) || !reflect.DeepEqual(ohdrs, hdrs) || oroom != room {
			t.Fatalf("trial %d (pieces of %d bytes): ReadPiecesOnce: ok %v, %d jobs, %d handed in %d calls, room %+v; ReadPieces: ok %v, %d jobs, %d handed in %d calls, room %+v",
				trial, pieceBytes, ook, on, len(onced), len(ohdrs), oroom, ok, len(pjobs), len(handed), len(hdrs), room)
		}
		// The room, the same at every call: for a plain file exact and the
		// first piece's capacity (checked below to hold every job); for
		// gzip a guess, which the first piece's capacity may outgrow when
		// the header's MaxJobs is below a piece's jobs.
		gz := trial%3 == 2
		if room.Exact == gz || (!gz && room.Jobs != firstCap) || (gz && (room.Jobs <= 0 || room.Jobs > firstCap)) {
			t.Fatalf("trial %d (gzip %v): room %+v at every call, the first piece's capacity %d; want exact only for a plain file, equal to that capacity there and at most it for gzip", trial, gz, room, firstCap)
		}
		if !reflect.DeepEqual(h, ph) || !reflect.DeepEqual(jobs, pjobs) {
			t.Fatalf("trial %d (pieces of %d bytes): ReadPieces differs from the Reader: header %v vs %v, %d vs %d jobs", trial, pieceBytes, ph, h, len(pjobs), len(jobs))
		}
		if !reflect.DeepEqual(handed, jobs) {
			t.Fatalf("trial %d (pieces of %d bytes): fn was handed %d jobs that differ from the Reader's %d", trial, pieceBytes, len(handed), len(jobs))
		}
		for i, hh := range hdrs {
			if !reflect.DeepEqual(hh, h) {
				t.Fatalf("trial %d: call %d of fn had header %v, want %v", trial, i, hh, h)
			}
		}
		if firstCap < len(jobs) {
			t.Fatalf("trial %d: the first piece has room for %d jobs; the file holds %d", trial, firstCap, len(jobs))
		}
		if len(hdrs) > 1 {
			several++
		}
	}
	if cleanOK < clean*9/10 || refused == 0 || several < cleanOK/2 {
		t.Fatalf("ReadPieces read %d of %d clean files (%d in several pieces), %d files refused: the test would not catch a broken ReadPieces", cleanOK, clean, several, refused)
	}
}

// TestReadPiecesStops: fn's false stops the read after that piece and
// makes it report false, plain or gzip; lenient mode, a job limit reached
// and broken gzip input are refused.
func TestReadPiecesStops(t *testing.T) {
	dir := t.TempDir()
	line := "1 0 0 10 4 -1 -1 4 20 -1 1 1 1 -1 1 -1 -1 -1\n"
	path := filepath.Join(dir, "t.swf")
	if err := os.WriteFile(path, []byte(strings.Repeat(line, 100)), 0o644); err != nil {
		t.Fatal(err)
	}
	calls := 0
	_, jobs, ok := ReadPieces(path, Options{}, 10*len(line), func(Header, []workload.Job, Room) bool {
		calls++
		return calls < 3
	})
	if ok || jobs != nil || calls != 3 {
		t.Errorf("fn stopped the read at its third call: ok %v, %d jobs, %d calls; want false, none, 3", ok, len(jobs), calls)
	}
	_, jobs, ok = ReadPieces(path, Options{}, 10*len(line), func(Header, []workload.Job, Room) bool { return true })
	if !ok || len(jobs) != 100 {
		t.Fatalf("the whole file: ok %v, %d jobs; want true, 100", ok, len(jobs))
	}
	if _, _, ok := ReadPieces(path, Options{Lenient: true}, 100, func(Header, []workload.Job, Room) bool { return true }); ok {
		t.Error("a lenient read went to pieces")
	}
	gz := filepath.Join(dir, "t.swf.gz")
	if err := os.WriteFile(gz, []byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3}, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, ok := ReadPieces(gz, Options{}, 100, func(Header, []workload.Job, Room) bool { return true }); ok {
		t.Error("gzip input cut short was read")
	}
	if err := os.WriteFile(gz, gzipped(t, []byte(strings.Repeat(line, 100))), 0o644); err != nil {
		t.Fatal(err)
	}
	calls = 0
	_, jobs, ok = ReadPieces(gz, Options{}, 10*lineBytes, func(Header, []workload.Job, Room) bool {
		calls++
		return calls < 3
	})
	if ok || jobs != nil || calls != 3 {
		t.Errorf("gzip: fn stopped the read at its third call: ok %v, %d jobs, %d calls; want false, none, 3", ok, len(jobs), calls)
	}
	calls = 0
	_, jobs, ok = ReadPieces(gz, Options{}, 10*lineBytes, func(Header, []workload.Job, Room) bool { calls++; return true })
	if !ok || len(jobs) != 100 || calls != 10 {
		t.Errorf("gzip, the whole file: ok %v, %d jobs in %d pieces; want true, 100 in 10", ok, len(jobs), calls)
	}
	limited := Options{Limits: Limits{MaxJobs: 50}}
	if _, _, ok := ReadPieces(path, limited, 10*len(line), func(Header, []workload.Job, Room) bool { return true }); ok {
		t.Error("a file over the job limit was read in pieces")
	}
}

// TestReadPiecesFileCutShort cuts the file to nothing while ReadPieces holds
// it mapped — before it counts the lines (its own goroutine touches the
// missing pages), before its first piece and before a later one (a
// piece's Reader does) — and requires a refusal, not a crash (where files
// are mapped).
func TestReadPiecesFileCutShort(t *testing.T) {
	line := "1 0 0 10 4 -1 -1 4 20 -1 1 1 1 -1 1 -1 -1 -1\n"
	text := "; MaxProcs: 64\n" + strings.Repeat(line, 3000)
	defer func(f func(string, string)) { partsStage = f }(partsStage)
	for _, cutAt := range []int{0, 1, 3} { // 0: at "mapped"; k: before piece k
		path := filepath.Join(t.TempDir(), "cut.swf")
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		pieces, cut := 0, false
		partsStage = func(stage, p string) {
			if p != path {
				return
			}
			if stage == "mapped" && cutAt == 0 {
				if err := os.Truncate(p, 0); err != nil {
					t.Error(err)
				}
				cut = true
			}
			if stage == "piece" {
				if pieces++; pieces == cutAt {
					if err := os.Truncate(p, 0); err != nil {
						t.Error(err)
					}
					cut = true
				}
			}
		}
		_, jobs, ok := ReadPieces(path, Options{}, 8192, func(Header, []workload.Job, Room) bool { return true })
		partsStage = func(string, string) {}
		if !cut {
			t.Fatalf("cut %s: never reached", where(cutAt))
		}
		if mapsFiles && ok {
			t.Fatalf("cut %s: the file was cut to nothing while mapped, and ReadPieces still returned %d jobs", where(cutAt), len(jobs))
		}
	}
}

// FuzzReadPieces: for any input and piece size, ReadPieces either gives
// the Reader's header and jobs exactly, having handed fn exactly those jobs
// in order, or reports false; never true for input the Reader refuses.
func FuzzReadPieces(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		path := filepath.Join(t.TempDir(), "fuzz.swf")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		// The piece size from the input, so that the fuzzer moves the cuts.
		pieceBytes := 1 + int(data[0])%97
		h, jobs, err := readLoop(path, Options{})
		ph, pjobs, handed, _, _, _, ok := readPieces(path, Options{}, pieceBytes)
		if !ok {
			return
		}
		if err != nil {
			t.Fatalf("the Reader refuses the input (%v); ReadPieces read %d jobs", err, len(pjobs))
		}
		if !reflect.DeepEqual(h, ph) || !sameJobs(jobs, pjobs) || !sameJobs(handed, jobs) {
			t.Fatalf("pieces of %d bytes: ReadPieces differs from the Reader: header %v vs %v, %d jobs, %d handed, %d jobs", pieceBytes, ph, h, len(pjobs), len(handed), len(jobs))
		}
	})
}

// sameJobs compares two lists of jobs, an empty one equal to nil.
func sameJobs(a, b []workload.Job) bool {
	return len(a) == len(b) && (len(a) == 0 || reflect.DeepEqual(a, b))
}

// where names TestReadPiecesFileCutShort's cut.
func where(cutAt int) string {
	if cutAt == 0 {
		return "once mapped"
	}
	return fmt.Sprintf("before piece %d", cutAt)
}

// gzipped returns text compressed with gzip.
func gzipped(t *testing.T, text []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	if _, err := w.Write(text); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
