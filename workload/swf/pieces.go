package swf

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"runtime/debug"

	"github.com/schedfarm/schedfarm/internal/prefault"
	"github.com/schedfarm/schedfarm/workload"
)

// Room is what a piece reader knows, at its first piece, of how many jobs
// the file holds: room to make for them all at once.
type Room struct {
	// Jobs is how many jobs the file may hold: at least as many as it
	// holds when Exact, else a guess.
	Jobs int
	// Exact: the file is plain text, with no more jobs than lines, so Jobs
	// bounds them. A gzip file's Jobs is its header's MaxJobs, which
	// nothing checks, up to 16M jobs, or 4,096 without one.
	Exact bool
}

// PieceFunc is handed each piece of a file's jobs in file order, with the
// header (as Open returns it) and the room the file's jobs may need, both
// the same at every call. It may reorder the jobs it is handed, in place,
// and must not keep the slice. It returns false to stop the read.
type PieceFunc func(hdr Header, jobs []workload.Job, room Room) bool

// ReadPieces reads the SWF file at path in strict mode and hands the jobs
// over while it reads, so that a caller can start on the first jobs (a
// simulation) while the rest are parsed. Each piece's jobs, about
// pieceBytes of text, go to fn as soon as they are parsed. At the end
// ReadPieces returns the header and every job, in the order fn left them:
// the pieces joined.
//
// A plain file is mapped and cut into consecutive pieces, each ending after
// a newline, parsed one after another on the calling goroutine by a Reader
// each, into one slab with room for a job on every line of the file: at
// the first call, cap(jobs) is at least the number of jobs the file holds
// (room.Jobs, exact). A gzip file is read by one Reader (Open: it
// decompresses ahead of the parse) and handed over every
// pieceBytes/lineBytes jobs; its jobs are gathered in a slice that grows as
// it fills, so cap(jobs) at the first call is then only a guess (room.Jobs,
// not exact).
//
// It reports ok false whenever the answer could differ from Open and a
// loop of Next to io.EOF, and the caller must then drop whatever fn was
// handed and read the file with a Reader, which reports any problem
// exactly: a lenient reader, any error, a limit reached, an empty file,
// fn stopping the read and, for a plain file, in every case ReadParts
// refuses (a comment line after the first piece, a submit time earlier
// than the one before it across two pieces).
func ReadPieces(path string, opts Options, pieceBytes int, fn PieceFunc) (hdr Header, jobs []workload.Job, ok bool) {
	hdr, jobs, _, ok = piecesOf(path, opts, pieceBytes, true, fn)
	return hdr, jobs, ok
}

// ReadPiecesOnce is ReadPieces for a caller that needs each job only
// while fn has it (a one-shot simulation that keeps what it converts): the
// pieces are parsed into one buffer the size of a piece, reused for the
// next, so the records never take memory for the whole file (4 MB for
// KTH-SP2's 28,489 jobs, a thousand page faults of fresh memory). fn must
// not keep the slice or its jobs past the call; room is as ReadPieces
// hands it, though no piece has that much. It returns the header and the
// number of jobs read, with ok as ReadPieces has it.
func ReadPiecesOnce(path string, opts Options, pieceBytes int, fn PieceFunc) (hdr Header, n int, ok bool) {
	hdr, _, n, ok = piecesOf(path, opts, pieceBytes, false, fn)
	return hdr, n, ok
}

// prefaultRecords backs the pages of ReadPieces' slab for a plain file
// while the pieces fill it from end to end (a job on every line but the
// comments), in one call on a goroutine of its own, for less than a page
// fault each (package prefault). A gzip file's jobs are gathered in a slice
// that grows as it fills, whose room is a guess: it is left alone. Tests
// replace it.
var prefaultRecords = func(slab []workload.Job) { go prefault.Slice(slab) }

// piecesOf is ReadPieces (keep: every job gathered and returned) and
// ReadPiecesOnce (each piece parsed into the same buffer; none returned).
func piecesOf(path string, opts Options, pieceBytes int, keep bool, fn PieceFunc) (hdr Header, jobs []workload.Job, n int, ok bool) {
	if opts.Lenient {
		return Header{}, nil, 0, false
	}
	if isGzipFile(path) {
		return streamPieces(path, opts, pieceBytes, keep, fn)
	}
	limits := opts.Limits.resolve()
	data, release, ok := mapRegular(path, 0, limits.MaxBytes)
	if !ok {
		return Header{}, nil, 0, false
	}
	// Nothing returned refers to data: the pieces' Readers copy it.
	defer release()
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if !ok {
			n = 0 // after refuseOnFault, below, has run
		}
	}()
	defer refuseOnFault(&hdr, &jobs, &ok)
	if !plainMapped(data, path) {
		return Header{}, nil, 0, false
	}
	room := Room{Jobs: bytes.Count(data, []byte{'\n'}) + 1, Exact: true}
	var slab []workload.Job // keep: room for a job on every line; else the last piece's
	if keep {
		slab = make([]workload.Job, room.Jobs)
		prefaultRecords(slab)
	}
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
		into := slab[:0] // the buffer again, grown by the pieces so far
		if keep {
			into = slab[filled:filled:len(slab)]
		}
		p := readPart(data[start:end], path, opts, into, buf)
		if !keep {
			slab = p.jobs
		}
		if p.err != nil || (start > 0 && len(p.comments.Entries) > 0) {
			return Header{}, nil, 0, false
		}
		if p.known {
			if known && p.first < last {
				return Header{}, nil, 0, false
			}
			last, known = p.last, true
		}
		if start == 0 {
			hdr = p.header
		}
		if limits.MaxJobs >= 0 && int64(filled+len(p.jobs)) > limits.MaxJobs {
			return Header{}, nil, 0, false
		}
		if !fn(hdr, p.jobs, room) {
			return Header{}, nil, 0, false
		}
		filled += len(p.jobs)
		start = end
	}
	if !keep {
		return hdr, nil, filled, true
	}
	return hdr, slab[:filled], filled, true
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
// magic bytes: whether ReadPieces and ReadPiecesOnce read it as gzip, with
// only a guess of its job count (streamPieces).
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
func streamPieces(path string, opts Options, pieceBytes int, keep bool, fn PieceFunc) (Header, []workload.Job, int, bool) {
	r, err := Open(path, opts)
	if err != nil {
		return Header{}, nil, 0, false
	}
	defer r.Close()
	hdr := r.Header()
	guess := int64(4096)
	if n := hdr.MaxJobs(); n > 0 && n < 1<<24 {
		guess = n
	}
	per := max(1, pieceBytes/lineBytes)
	size := int(guess) // the slice's first capacity: the guess, or a piece's
	if !keep {
		size = per
	}
	jobs := make([]workload.Job, 0, size)
	from, calls, n := 0, 0, 0
	hand := func() bool {
		calls++
		if !fn(hdr, jobs[from:], Room{Jobs: int(guess)}) {
			return false
		}
		if keep {
			from = len(jobs)
		} else {
			jobs = jobs[:0] // the next piece reuses the buffer
		}
		return true
	}
	for {
		j, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return Header{}, nil, 0, false
		}
		// A piece handed over may have been reordered by fn: append
		// copies it as fn left it when the slice grows.
		jobs = append(jobs, j)
		n++
		if len(jobs)-from == per && !hand() {
			return Header{}, nil, 0, false
		}
	}
	if (from < len(jobs) || calls == 0) && !hand() {
		return Header{}, nil, 0, false
	}
	if !keep {
		return hdr, nil, n, true
	}
	return hdr, jobs, n, true
}
