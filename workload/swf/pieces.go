package swf

import (
	"bufio"
	"bytes"
	"runtime/debug"

	"github.com/schedfarm/schedfarm/workload"
)

// ReadPieces reads the SWF file at path in strict mode, as ReadParts does,
// but hands the jobs over while it reads, so that a caller can start on the
// first jobs (a simulation) while the rest are parsed. The text is cut into
// consecutive pieces of about pieceBytes, each ending after a newline; they
// are parsed one after another on the calling goroutine, and each piece's
// jobs go to fn in file order as soon as the piece is parsed, with the
// header (as Open returns it; the same at every call). fn returns false to
// stop the read. At the end ReadPieces returns the header and every job,
// the pieces handed to fn being consecutive stretches of jobs.
//
// All the pieces are stretches of one slab with room for a job on every
// line of the file: at the first call, cap(jobs) is at least the number of
// jobs the file holds.
//
// It reports ok false whenever the answer could differ from Open and a
// loop of Next to io.EOF, and the caller must then drop whatever fn was
// handed and read the file with a Reader, which reports any problem
// exactly: in every case ReadParts refuses (gzip input, a lenient reader,
// any error, a limit reached, a comment line after the first piece, a
// submit time earlier than the one before it across two pieces), for an
// empty file, and when fn stops the read.
func ReadPieces(path string, opts Options, pieceBytes int, fn func(hdr Header, jobs []workload.Job) bool) (hdr Header, jobs []workload.Job, ok bool) {
	if opts.Lenient {
		return Header{}, nil, false
	}
	limits := opts.Limits.resolve()
	data, release, ok := mapRegular(path, 0, limits.MaxBytes)
	if !ok {
		return Header{}, nil, false
	}
	// Nothing returned refers to data: the pieces' Readers copy it.
	defer release()
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if p := recover(); p != nil {
			if !isFault(p) {
				panic(p)
			}
			hdr, jobs, ok = Header{}, nil, false
		}
	}()
	partsStage("mapped", path)
	if len(data) < 2 || (data[0] == 0x1f && data[1] == 0x8b) {
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
