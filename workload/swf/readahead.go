package swf

import (
	"io"
	"sync"
)

// readAhead reads its source on a goroutine of its own, a few chunks ahead
// of the consumer, so that gzip decompression and parsing run on two cores
// at once. Close stops the goroutine and waits for it, after which the
// source may be closed safely.
type readAhead struct {
	chunks  chan chunk
	free    chan []byte
	done    chan struct{}
	stopped chan struct{}
	once    sync.Once

	cur []byte // unread part of the current chunk
	buf []byte // the current chunk's buffer, to recycle
	err error  // sticky error after the last chunk
}

type chunk struct {
	b   []byte
	err error
}

const (
	readAheadChunks = 4
	readAheadSize   = 64 << 10
)

func newReadAhead(src io.Reader) *readAhead {
	ra := &readAhead{
		chunks:  make(chan chunk, readAheadChunks),
		free:    make(chan []byte, readAheadChunks),
		done:    make(chan struct{}),
		stopped: make(chan struct{}),
	}
	for range readAheadChunks {
		ra.free <- make([]byte, readAheadSize)
	}
	go ra.fill(src)
	return ra
}

func (ra *readAhead) fill(src io.Reader) {
	defer close(ra.stopped)
	for {
		var b []byte
		select {
		case b = <-ra.free:
		case <-ra.done:
			return
		}
		n, err := fillChunk(src, b)
		select {
		case ra.chunks <- chunk{b[:n], err}:
		case <-ra.done:
			return
		}
		if err != nil {
			return
		}
	}
}

// fillChunk reads until b is full or src fails; unlike io.ReadFull it
// passes src's error through unchanged (a truncated gzip stream reports
// io.ErrUnexpectedEOF, the end of a good one io.EOF).
func fillChunk(src io.Reader, b []byte) (int, error) {
	n := 0
	for n < len(b) {
		m, err := src.Read(b[n:])
		n += m
		if err != nil {
			return n, err
		}
	}
	return n, nil
}

// Read implements io.Reader.
func (ra *readAhead) Read(p []byte) (int, error) {
	for len(ra.cur) == 0 {
		if ra.err != nil {
			return 0, ra.err
		}
		if ra.buf != nil {
			ra.free <- ra.buf[:cap(ra.buf)] // never blocks: there are only readAheadChunks buffers
			ra.buf = nil
		}
		c, ok := <-ra.chunks
		if !ok {
			return 0, errClosed
		}
		ra.cur, ra.buf, ra.err = c.b, c.b, c.err
	}
	n := copy(p, ra.cur)
	ra.cur = ra.cur[n:]
	return n, nil
}

// Close stops the read-ahead goroutine and waits until it no longer touches
// the source.
func (ra *readAhead) Close() {
	ra.once.Do(func() { close(ra.done) })
	<-ra.stopped
}
