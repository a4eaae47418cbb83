package swf

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"sync"

	"github.com/schedfarm/schedfarm/workload"
)

// partMinBytes is the least text a part of ReadParts is given: below it a
// goroutine costs more than it saves.
var partMinBytes = 512 << 10

// ReadParts reads the SWF file at path in strict mode (opts.Lenient unset)
// by parsing parts of it at once, a Reader each, on up to GOMAXPROCS
// goroutines, and returns what Open and a loop of Next to io.EOF would: the
// header as Open returns it and every job. It reports ok false, having
// returned nothing, whenever that answer could differ from the loop's or the
// shortcut does not apply — gzip input, a file smaller than two parts, a
// lenient reader, a comment line after the first part, any error, a limit
// reached, a submit time earlier than the one before it across two parts —
// and the caller then reads the file with a Reader as usual, which reports
// any problem exactly.
//
// The file is mapped, not read into a buffer of its size (where the system
// maps files; mapfile_*.go): its pages are the page cache's, so a trace
// costs no fresh pages and no copy before the parse. A file cut short while
// it is mapped makes the read fault on the pages it lost; that fault is
// recovered and answers ok false (TestReadPartsFileCutShort).
//
// Each part starts after a newline. The parts are independent except for
// what a Reader carries from line to line: the header (only the first part
// may have comment lines), the submit order (checked here across the
// parts), the limits (checked on the whole) and the line numbers (which
// only errors show, and an error sends the caller to the Reader).
func ReadParts(path string, opts Options) (hdr Header, jobs []workload.Job, ok bool) {
	if opts.Lenient {
		return Header{}, nil, false
	}
	limits := opts.Limits.resolve()
	if runtime.GOMAXPROCS(0) < 2 {
		return Header{}, nil, false
	}
	data, release, ok := mapRegular(path, 2*int64(partMinBytes), limits.MaxBytes)
	if !ok {
		return Header{}, nil, false
	}
	n := min(runtime.GOMAXPROCS(0), len(data)/partMinBytes)
	// Nothing returned refers to data: the parts' Readers copy it.
	defer release()
	// A mapped file cut short under us faults on its missing pages: the
	// read is then refused, and the Reader reports what the file holds.
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer refuseOnFault(&hdr, &jobs, &ok)
	if !plainMapped(data, path) {
		return Header{}, nil, false
	}
	bounds := partBounds(data, n)
	parts := make([]part, len(bounds)-1)
	// One slab for every part's jobs, a part's room being its line count:
	// the parts are moved together at the end instead of copied anew.
	room := make([]int, len(parts)+1)
	for i := range parts {
		room[i+1] = room[i] + bytes.Count(data[bounds[i]:bounds[i+1]], []byte{'\n'}) + 1
	}
	slab := make([]workload.Job, room[len(parts)])
	partsStage("parsing", path)
	var wg sync.WaitGroup
	for i := 1; i < len(parts); i++ {
		wg.Go(func() {
			parts[i] = readPart(data[bounds[i]:bounds[i+1]], path, opts, slab[room[i]:room[i]:room[i+1]], nil)
		})
	}
	parts[0] = readPart(data[bounds[0]:bounds[1]], path, opts, slab[:0:room[1]], nil)
	wg.Wait()

	total := 0
	last, known := 0.0, false // the latest known submit time so far
	for i, p := range parts {
		if p.err != nil || (i > 0 && len(p.comments.Entries) > 0) {
			return Header{}, nil, false
		}
		if p.known {
			if known && p.first < last {
				return Header{}, nil, false
			}
			last, known = p.last, true
		}
		total += len(p.jobs)
	}
	if limits.MaxJobs >= 0 && int64(total) > limits.MaxJobs {
		return Header{}, nil, false
	}
	jobs = slab[:0]
	for _, p := range parts {
		jobs = append(jobs, p.jobs...) // moves down within the slab, never up
	}
	return parts[0].header, jobs, true
}

// mapRegular maps the whole of the regular file at path (mapFile; where
// files are not mapped, reads it into a buffer) and reports ok, or reports
// false when path is not a regular file, cannot be read, or is shorter than
// minBytes or longer than maxBytes (no bound when negative). The caller
// calls release once nothing refers to data, and reads data under
// debug.SetPanicOnFault: a file cut short while mapped faults on the pages
// it lost.
func mapRegular(path string, minBytes, maxBytes int64) (data []byte, release func(), ok bool) {
	// Stat before opening: opening a named pipe would wait for a writer,
	// and closing it again would cut that writer off before the Reader
	// takes over.
	if st, err := os.Stat(path); err != nil || !st.Mode().IsRegular() {
		return nil, nil, false
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, false
	}
	// The mapping outlives the descriptor.
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() || st.Size() < max(minBytes, 1) || (maxBytes >= 0 && st.Size() > maxBytes) {
		return nil, nil, false
	}
	data, release, err = mapFile(f, st.Size())
	if err != nil {
		data, release = make([]byte, st.Size()), func() {}
		if _, err := io.ReadFull(f, data); err != nil {
			return nil, nil, false
		}
	}
	return data, release, true
}

// refuseOnFault, deferred by a reader of a mapped file under
// debug.SetPanicOnFault, turns a memory fault (the file cut short while
// mapped) into a refusal: nothing returned, ok false. Any other panic goes
// on.
func refuseOnFault(hdr *Header, jobs *[]workload.Job, ok *bool) {
	if p := recover(); p != nil {
		if !isFault(p) {
			panic(p)
		}
		*hdr, *jobs, *ok = Header{}, nil, false
	}
}

// plainMapped tells a test that the file at path is mapped (partsStage)
// and reports whether data may be text: two bytes or more, not gzip.
func plainMapped(data []byte, path string) bool {
	partsStage("mapped", path)
	return len(data) >= 2 && (data[0] != 0x1f || data[1] != 0x8b)
}

// partsStage lets a test act at a stage of ReadParts (the file mapped; the
// parts about to be parsed) by replacing it; it does nothing otherwise.
var partsStage = func(stage, path string) {}

// isFault reports whether a recovered panic is a memory fault turned into a
// panic by debug.SetPanicOnFault (it carries the faulting address).
func isFault(p any) bool {
	_, ok := p.(interface{ Addr() uintptr })
	return ok
}

// part is what a Reader made of one part.
type part struct {
	header      Header // as NewReader returned it
	comments    Header // every comment line of the part (Header at io.EOF)
	jobs        []workload.Job
	known       bool    // some job has a known submit time
	first, last float64 // the first and last known submit times
	err         error
}

// readPart reads one part's jobs into jobs, which has room for as many as
// the part has lines; through buf when it is not nil (newReader).
func readPart(text []byte, name string, opts Options, jobs []workload.Job, buf *bufio.Reader) (p part) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if f := recover(); f != nil {
			if !isFault(f) {
				panic(f)
			}
			p = part{err: fmt.Errorf("%s: %v (the file changed while it was read)", name, f)}
		}
	}()
	r, err := newReader(bytes.NewReader(text), name, opts, buf)
	if err != nil {
		return part{err: err}
	}
	defer r.Close()
	p = part{header: r.Header(), jobs: jobs}
	for {
		j, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return part{err: err}
		}
		if j.Submit != workload.Unknown {
			if !p.known {
				p.first, p.known = j.Submit, true
			}
			p.last = j.Submit
		}
		p.jobs = append(p.jobs, j)
	}
	p.comments = r.Header()
	return p
}

// partBounds cuts data into at most n parts of about equal size, each but
// the first starting just after a newline: the start of every part and the
// end of the last.
func partBounds(data []byte, n int) []int {
	bounds := []int{0}
	for k := 1; k < n; k++ {
		at := max(k*len(data)/n, bounds[len(bounds)-1])
		nl := bytes.IndexByte(data[at:], '\n')
		if nl < 0 {
			break
		}
		if cut := at + nl + 1; cut < len(data) && cut > bounds[len(bounds)-1] {
			bounds = append(bounds, cut)
		}
	}
	return append(bounds, len(data))
}
