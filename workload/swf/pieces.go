package swf

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"runtime/debug"

	"github.com/schedfarm/schedfarm/workload"
)

// ReadPieces reads the SWF file at path in strict mode and hands the jobs
// over while it reads, so that a caller can start on the first jobs (a
// simulation) while the rest are parsed. Each piece's jobs, about
// pieceBytes of text, go to fn in file order as soon as they are parsed,
// with the header (as Open returns it; the same at every call); fn may
// reorder the jobs it is handed, in place, and must not keep the slice.
// fn returns false to stop the read. At the end ReadPieces returns the
// header and every job, in the order fn left them: the pieces joined.
//
// A plain file is mapped and cut into consecutive pieces, each ending after
// a newline, parsed one after another on the calling goroutine by a Reader
// each, into one slab with room for a job on every line of the file: at
// the first call, cap(jobs) is at least the number of jobs the file holds.
// A gzip file is read by one Reader (Open: it decompresses ahead of the
// parse) and handed over every pieceBytes/lineBytes jobs; its jobs are
// gathered in a slice that grows as it fills, so cap(jobs) is then only a
// guess (the header's MaxJobs, or a default).
//
// It reports ok false whenever the answer could differ from Open and a
// loop of Next to io.EOF, and the caller must then drop whatever fn was
// handed and read the file with a Reader, which reports any problem
// exactly: a lenient reader, any error, a limit reached, an empty file,
// fn stopping the read and, for a plain file, in every case ReadParts
// refuses (a comment line after the first piece, a submit time earlier
// than the one before it across two pieces).
func ReadPieces(path string, opts Options, pieceBytes int, fn func(hdr Header, jobs []workload.Job) bool) (hdr Header, jobs []workload.Job, ok bool) {
	if opts.Lenient {
		return Header{}, nil, false
	}
	if isGzipFile(path) {
		return streamPieces(path, opts, pieceBytes, fn)
	}
	limits := opts.Limits.resolve()
	data, release, ok := mapRegular(path, 0, limits.MaxBytes)
	if !ok {
		return Header{}, nil, false
	}
	// Nothing returned refers to data: the pieces' Readers copy it.
	defer release()
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer refuseOnFault(&hdr, &jobs, &ok)
	if !plainMapped(data, path) {
		return Header{}, nil, false
	}
	slab := make([]workload.Job, bytes.Count(data, []byte{'\n'})+1)
	filled := 0
	buf := bufio.NewReaderSize(nil, bufferSize) // the pieces' Readers take turns
	last, known := 0.0, false                   // the latest known submit time so far
	for start := 0; start < len(data); {
		size := pieceBytes
		if start == 0 {
			// The header goes with the first piece: a later piece may
			// not have comment lines.
			size = max(size, leadingComments(data))
		}
		end := pieceEnd(data, start, size)
		partsStage("piece", path)
		p := readPart(data[start:end], path, opts, slab[filled:filled:len(slab)], buf)
		if p.err != nil || (start > 0 && len(p.comments.Entries) > 0) {
			return Header{}, nil, false
		}
		if p.known {
			if known && p.first < last {
				return Header{}, nil, false
			}
			last, known = p.last, true
		}
		if start == 0 {
			hdr = p.header
		}
		if limits.MaxJobs >= 0 && int64(filled+len(p.jobs)) > limits.MaxJobs {
			return Header{}, nil, false
		}
		if !fn(hdr, p.jobs) {
			return Header{}, nil, false
		}
		filled += len(p.jobs)
		start = end
	}
	return hdr, slab[:filled], true
}

// pieceEnd returns where the piece of data that starts at start ends: just
// after the first newline at or after start+size, or at the end of data.
func pieceEnd(data []byte, start, size int) int {
	at := start + max(size, 1)
	if at >= len(data) {
		return len(data)
	}
	nl := bytes.IndexByte(data[at-1:], '\n')
	if nl < 0 {
		return len(data)
	}
	return at + nl
}

// leadingComments returns the length of the comment lines (';' first) that
// open data.
func leadingComments(data []byte) int {
	n := 0
	for n < len(data) && data[n] == ';' {
		nl := bytes.IndexByte(data[n:], '\n')
		if nl < 0 {
			return len(data)
		}
		n += nl + 1
	}
	return n
}

// lineBytes is about the length of a job line of a real trace (KTH-SP2's
// average is 92 bytes): streamPieces hands over pieceBytes/lineBytes jobs
// at a time.
const lineBytes = 80

// isGzipFile reports whether the regular file at path starts with gzip's
// magic bytes.
func isGzipFile(path string) bool {
	if st, err := os.Stat(path); err != nil || !st.Mode().IsRegular() {
		return false
	}
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	var magic [2]byte
	n, _ := io.ReadFull(f, magic[:])
	return n == 2 && magic[0] == 0x1f && magic[1] == 0x8b
}

// streamPieces is ReadPieces for a gzip file: one Reader, whose jobs go to
// fn every pieceBytes/lineBytes jobs and at the end (at least once, for the
// header, even without jobs).
func streamPieces(path string, opts Options, pieceBytes int, fn func(hdr Header, jobs []workload.Job) bool) (Header, []workload.Job, bool) {
	r, err := Open(path, opts)
	if err != nil {
		return Header{}, nil, false
	}
	defer r.Close()
	hdr := r.Header()
	guess := int64(4096)
	if n := hdr.MaxJobs(); n > 0 && n < 1<<24 {
		guess = n
	}
	per := max(1, pieceBytes/lineBytes)
	jobs := make([]workload.Job, 0, guess)
	from, calls := 0, 0
	for {
		j, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return Header{}, nil, false
		}
		// A piece handed over may have been reordered by fn: append
		// copies it as fn left it when the slice grows.
		jobs = append(jobs, j)
		if len(jobs)-from == per {
			if calls++; !fn(hdr, jobs[from:]) {
				return Header{}, nil, false
			}
			from = len(jobs)
		}
	}
	if from < len(jobs) || calls == 0 {
		if !fn(hdr, jobs[from:]) {
			return Header{}, nil, false
		}
	}
	return hdr, jobs, true
}
