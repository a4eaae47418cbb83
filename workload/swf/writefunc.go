package swf

import (
	"math"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/schedfarm/schedfarm/workload"
)

// writeChunk is the number of jobs a goroutine of WriteFunc formats at a time.
var writeChunk = 2048

// WriteFunc writes n jobs, the i-th being job(i), exactly as n calls of
// Write would until the first job Write refuses: it writes the jobs before
// that one and returns Write's error for it. The lines are formatted on up to
// GOMAXPROCS goroutines, a chunk of jobs each, and written in order; job is
// called from those goroutines and must be safe for concurrent use.
func (w *Writer) WriteFunc(n int, job func(i int) workload.Job) error {
	if w.err != nil {
		return w.err
	}
	chunks := (n + writeChunk - 1) / writeChunk
	workers := min(runtime.GOMAXPROCS(0), chunks)
	if workers <= 1 {
		return w.writeFrom(0, n, job)
	}
	out := make([]formatted, chunks)
	ready := make([]chan struct{}, chunks)
	for c := range ready {
		ready[c] = make(chan struct{})
	}
	// At most 2 × workers chunks are formatted ahead of the writing, and
	// their buffers go round: the memory is a few chunks, not the file.
	bufs := make(chan []byte, 2*workers)
	for range 2 * workers {
		bufs <- make([]byte, 0, writeChunk*96)
	}
	done := make(chan struct{})
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				var buf []byte
				select {
				case buf = <-bufs:
				case <-done:
					return
				}
				c := int(next.Add(1) - 1)
				if c >= chunks {
					return
				}
				out[c] = formatChunk(buf, c*writeChunk, min((c+1)*writeChunk, n), job)
				close(ready[c])
			}
		})
	}
	defer wg.Wait()
	defer close(done)
	for c := range chunks {
		<-ready[c]
		f := &out[c]
		if !f.plain || (f.known && w.hasSubmit && f.first < w.lastSubmit) {
			// A job Write refuses is in this chunk: Write its jobs one by
			// one, for its exact error after exactly the lines before it.
			return w.writeFrom(c*writeChunk, n, job)
		}
		if _, err := w.bw.Write(f.buf); err != nil {
			w.err = err
			return err
		}
		if f.known {
			w.lastSubmit, w.hasSubmit = f.last, true
		}
		bufs <- f.buf[:0]
		f.buf = nil
	}
	return nil
}

// writeFrom writes jobs from to n one Write at a time.
func (w *Writer) writeFrom(from, n int, job func(i int) workload.Job) error {
	for i := from; i < n; i++ {
		j := job(i)
		if err := w.Write(&j); err != nil {
			return err
		}
	}
	return nil
}

// formatted is one chunk of lines and what the writer must check across
// chunks: the first and last known submit times.
type formatted struct {
	buf         []byte
	plain       bool // every job valid and in submit order within the chunk
	known       bool // some job has a known submit time
	first, last float64
}

// formatChunk formats jobs from to to into buf; it stops at the first job Write
// might refuse, reporting plain false.
func formatChunk(buf []byte, from, to int, job func(i int) workload.Job) formatted {
	f := formatted{buf: buf, plain: true, first: math.NaN(), last: math.NaN()}
	for i := from; i < to; i++ {
		j := job(i)
		if !plainJob(&j) || (j.Submit != workload.Unknown && f.known && j.Submit < f.last) {
			f.plain = false
			return f
		}
		if j.Submit != workload.Unknown {
			if !f.known {
				f.first, f.known = j.Submit, true
			}
			f.last = j.Submit
		}
		f.buf = appendJob(f.buf, &j)
	}
	return f
}
