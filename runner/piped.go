package runner

import (
	"os"
	"runtime"
	"sync/atomic"

	"github.com/schedfarm/schedfarm/internal/prefault"
	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/strategies"
	"github.com/schedfarm/schedfarm/workload"
	"github.com/schedfarm/schedfarm/workload/swf"
)

// pipedMinBytes is the least trace file a one-shot run simulates while it
// is still being parsed (runPiped): one piece of plain text, below which
// there is nothing to overlap.
var pipedMinBytes int64 = 64 << 10

// prefaultSlab backs a new job slab's pages while the conversion begins to
// fill it: every job of a plain trace's slab is written (its room is the
// file's line count), and on the VMs this project is measured on
// MADV_POPULATE_WRITE backs a page for about two thirds of what a page
// fault costs (package prefault; docs/performance-log.md, "Forty-ninth
// session"). It runs on a goroutine of its own, beside the reader's. Tests
// replace it.
var prefaultSlab = func(jobs []sim.Job) { go prefault.Slice(jobs) }

// pipedPieceBytes is the SWF text of one piece handed from the reading
// goroutine to the simulation: about 800 lines of a real trace.
var pipedPieceBytes = 64 << 10

// pipes reports whether Run may simulate cfg's trace while another core
// still parses it (runPiped): a one-shot run (WithoutTraceCache) of a trace
// file (plain or gzip) of at least pipedMinBytes, read strictly, with a
// second core, and
// nothing that needs every record before the simulation starts — no
// MaxJobs, no load scaling, no modelled estimates, no scheduler whose entry
// prepares its runs (strategies.Entry.Prepare) or needs VM tiers. The
// machine size must come from the flag or the header (runPiped checks).
func (r *Runner) pipes(cfg Config, e strategies.Entry) bool {
	if !r.noCache || cfg.Trace == "" || cfg.MaxJobs != 0 || cfg.Lenient || cfg.Load != 0 || cfg.modelledEstimates() ||
		e.Prepare != nil || e.Tiers > 1 || runtime.GOMAXPROCS(0) < 2 {
		return false
	}
	st, err := os.Stat(cfg.Trace)
	return err == nil && st.Mode().IsRegular() && st.Size() >= pipedMinBytes
}

// runPiped is Run for a configuration pipes allows, with the reading of the
// trace overlapped with its simulation. One goroutine reads the file in
// pieces (swf.ReadPieces: a plain file mapped and parsed piece by piece, a
// gzip file by one Reader) and converts each piece's records as it comes;
// the calling goroutine simulates the jobs converted so far and waits for
// the next piece when it needs the next arrival (pieceStream). The jobs
// reach the engine in the order Run's usual path gives them, so the run is
// the same job by job (TestPipedRunIsTheRun):
//
//   - pyss's one-second records, which may move jobs submitted before 1 s
//     behind later ones (sortBySubmit), are sorted within the first piece
//     before it is handed over; a job out of submit order in a later piece
//     stops the pipe;
//   - the machine size is the flag's or the header's; a trace that needs
//     its largest job to size the machine stops the pipe.
//
// It reports ok false after any problem — the pipe stopped by the reader
// (anything swf.ReadPieces refuses: a malformed line, a limit, a comment
// line after the header in a plain file), a machine size from the largest job,
// an unsorted piece, the scheduler not built, the simulation failing — and
// the caller then runs cfg the usual way, which gives the exact result or
// error; what the stopped run did is dropped.
func (r *Runner) runPiped(cfg Config, keep bool) (res *Result, ok bool) {
	b := getBuffers()
	p := &pipe{cfg: cfg, b: b, keep: keep, start: make(chan pipeStart, 1)}
	if st, err := os.Stat(cfg.Trace); err == nil {
		// Room for every piece without blocking the reader (a gzip file
		// holds up to about ten times its size in SWF text).
		p.pieces = make(chan []*sim.Job, 10*st.Size()/int64(pipedPieceBytes)+2)
	} else {
		putBuffers(b)
		return nil, false
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		p.read()
	}()
	defer func() {
		if !ok {
			// Stop the reader, wait for it, and let the usual path have
			// the buffers.
			p.stop.Store(true)
			for range p.pieces {
			}
			<-done
			putBuffers(b)
		}
	}()
	start, started := <-p.start
	if !started {
		return nil, false
	}
	res = &Result{Config: cfg, LoadFactor: 1, ProcsSource: start.source}
	res.Platform = sim.Processors(start.procs)
	sched, reporter, closeSched, err := newScheduler(cfg, res.Platform)
	if err != nil {
		return nil, false
	}
	defer closeSched()
	stream := &pieceStream{pieces: p.pieces, room: start.room}
	res.Jobs, res.Stats, err = sim.RunWith(res.Platform, sched, stream, nil, sim.Options{PerEvent: cfg.Events == EventsPyss})
	if err != nil {
		return nil, false
	}
	<-done // the stream ended: the reader closed pieces and is returning
	if !p.ok {
		return nil, false
	}
	res.Header, res.Records, res.Adjust = p.header, p.kept, p.conv.adj
	if keep {
		b.records = p.kept
	}
	res.bufs = b
	res.OfferedLoad = offeredLoad(p.list, start.procs)
	res.summarize(reporter, r.noCache)
	return res, true
}

// pipe is runPiped's reading side. read fills it; the other side reads
// header, kept, list and conv only after read has returned.
type pipe struct {
	cfg    Config
	b      *buffers
	keep   bool            // keep the records (else swf.ReadPiecesOnce: kept stays nil)
	start  chan pipeStart  // the machine size, once, before any piece
	pieces chan []*sim.Job // the converted jobs, piece by piece
	stop   atomic.Bool     // set by the simulating side: give up
	ok     bool            // the whole file was read and handed over
	header swf.Header      // as Open returns it
	kept   []workload.Job  // the records of the simulated jobs, in order
	list   []*sim.Job      // every simulated job, in order
	conv   converter       // its counts are the run's Adjustments
	sent   bool            // start was sent
}

// pipeStart is what the simulation needs before the first piece.
type pipeStart struct {
	procs  int
	source string // Result.ProcsSource
	room   int    // the jobs expected: all of a plain file's, a guess for gzip
}

// read reads and converts the trace, handing each piece's jobs over, and
// closes start and pieces when it is done.
func (p *pipe) read() {
	defer close(p.pieces)
	defer close(p.start)
	cfg, b := p.cfg, p.b
	var dropped []int // the indices of the records the conversion dropped
	records := 0      // records converted so far
	handle := func(h swf.Header, piece []workload.Job, room swf.Room) bool {
		if p.stop.Load() {
			return false
		}
		if !p.sent {
			procs, source := int64(cfg.Procs), "flag"
			if procs <= 0 {
				// Without a size in the header, Run sizes the machine
				// by its largest job, which needs every record first.
				if procs, source = swf.MachineSize(h, 0); procs <= 0 {
					return false
				}
			}
			// room: every job of a plain file (exact), a guess for gzip
			n := room.Jobs
			if cap(b.jobs) < n {
				b.jobs, b.demand = make([]sim.Job, n), make([]int, n)
				if room.Exact {
					prefaultSlab(b.jobs)
				}
			}
			if cap(b.list) < n {
				b.list = make([]*sim.Job, 0, n)
			}
			p.conv = converter{mode: cfg.Estimates, overrun: cfg.Overrun, procs: int(procs), store: b.jobs[:n], demand: b.demand[:n]}
			p.list = b.list[:0]
			p.start <- pipeStart{procs: int(procs), source: source, room: n}
			p.sent = true
		}
		from := len(p.list)
		for i := range piece {
			if j := p.conv.convert(&piece[i]); j != nil {
				// Past its capacity (gzip) list moves; the pieces sent
				// keep the array they were cut from, never written again.
				p.list = append(p.list, j)
			} else {
				dropped = append(dropped, records+i)
			}
		}
		first := records == 0
		records += len(piece)
		if cfg.Estimates == EstimatesPyss && !inSubmitOrder(p.list, max(from, 1)) {
			// Run sorts by submit time after pyss's one-second records
			// (sortBySubmit). Only a first piece can be sorted here: the
			// jobs after it must not go back in time.
			if !first || p.conv.adj.PyssOneSecond == 0 || len(dropped) > 0 {
				return false
			}
			sortBySubmit(p.list, piece)
		}
		p.pieces <- p.list[from:]
		return true
	}
	var hdr swf.Header
	var all []workload.Job
	var ok bool
	if p.keep {
		hdr, all, ok = swf.ReadPieces(cfg.Trace, swf.Options{}, pipedPieceBytes, handle)
	} else {
		hdr, _, ok = swf.ReadPiecesOnce(cfg.Trace, swf.Options{}, pipedPieceBytes, handle)
	}
	if !ok {
		return
	}
	p.header, p.kept = hdr, all
	if len(dropped) > 0 && p.keep {
		// Compact the kept records in place, as convertRecords does.
		p.kept = all[:0]
		next := 0
		for i := range all {
			if next < len(dropped) && dropped[next] == i {
				next++
				continue
			}
			p.kept = append(p.kept, all[i])
		}
	}
	p.ok = true
}

// inSubmitOrder reports whether every job of list from index from on is
// submitted no earlier than the one before it.
func inSubmitOrder(list []*sim.Job, from int) bool {
	for k := from; k < len(list); k++ {
		if list[k].Submit < list[k-1].Submit {
			return false
		}
	}
	return true
}

// pieceStream is a sim.Stream over the pieces the reader hands over: Next
// waits for the next piece when the current one is used up.
type pieceStream struct {
	pieces <-chan []*sim.Job
	cur    []*sim.Job
	room   int
}

// Next returns the next job, or nil once the reader has closed pieces.
func (s *pieceStream) Next() *sim.Job {
	for len(s.cur) == 0 {
		piece, ok := <-s.pieces
		if !ok {
			return nil
		}
		s.cur = piece
	}
	j := s.cur[0]
	s.cur = s.cur[1:]
	return j
}

// Len is the number of jobs expected (exact for a plain file, a guess for
// gzip); the engine sizes its job list with it.
func (s *pieceStream) Len() int { return s.room }
