package swf

import (
	"crypto/sha256"
	"errors"
	"io"
	"os"
	"sync"
	"unsafe"

	"github.com/schedfarm/schedfarm/workload"
)

// Trace is an SWF file parsed in full and held in memory by a [Cache]. It is
// shared by every caller that loads the same file and never changes; callers
// copy the jobs they modify.
type Trace struct {
	header Header
	jobs   []workload.Job
	skips  []int // lenient mode: Reader.SkipCount after each job's Next; nil when nothing was skipped
	total  int   // Reader.SkipCount after io.EOF
	bytes  int64 // memory held, for the cache's limit
}

// Header returns a copy of the header as [Open] returns it: the comments
// before the first job.
func (t *Trace) Header() Header { return t.header.Clone() }

// Len returns the number of jobs.
func (t *Trace) Len() int { return len(t.jobs) }

// Read returns what a loop calling [Reader.Next] on the file gets when it
// stops after max jobs (0: at io.EOF): the jobs, which are the trace's own
// and must not be modified, and the reader's SkipCount at that point.
func (t *Trace) Read(max int) (jobs []workload.Job, skipped int) {
	if max <= 0 || max > len(t.jobs) {
		return t.jobs, t.total
	}
	if t.skips == nil {
		return t.jobs[:max], 0
	}
	return t.jobs[:max], t.skips[max-1]
}

// Cache keeps parsed SWF traces in memory, so that a process simulating
// many cells over one trace (a worker running a sweep) decompresses and
// parses it once instead of once per cell.
//
// A trace is found again by its path, options, size, modification time and
// the SHA-256 of its bytes: every Load reads the file once to hash it (far
// cheaper than decompressing and parsing it), so an edited file is parsed
// again, never served stale. Only files that parse without error and fit
// in the cache are kept; for any other (missing, unreadable, malformed in
// strict mode, larger than the whole limit) Load reports false and the
// caller reads the file with a [Reader] as usual, which reports any problem
// exactly as it would without a cache. The cache remembers such contents
// (by the same key, holding no jobs) so as not to parse them again.
//
// A Cache is safe for concurrent use. Concurrent loads of one file parse it
// once; the others wait for that parse. The jobs held are limited to a number
// of bytes; beyond it the least recently used traces are dropped.
type Cache struct {
	limit int64

	mu      sync.Mutex
	size    int64 // bytes held by ready entries
	clock   uint64
	entries map[cacheKey]*cacheEntry
}

type cacheKey struct {
	path  string
	opts  Options
	size  int64
	mtime int64 // UnixNano
	sum   [sha256.Size]byte
}

type cacheEntry struct {
	ready chan struct{} // closed once trace is set (or the parse failed)
	trace *Trace        // nil if the file could not be parsed
	used  uint64        // clock of the last use, for eviction
}

// NewCache returns a cache that keeps at most limit bytes of parsed jobs.
func NewCache(limit int64) *Cache {
	return &Cache{limit: limit, entries: map[cacheKey]*cacheEntry{}}
}

// hashBufs recycles the buffers Load hashes files through.
var hashBufs = sync.Pool{New: func() any { return new([64 << 10]byte) }}

// Load returns the parsed trace at path, read with opts, from the cache or by
// parsing it now. It reports false, and nothing is cached, when the file
// cannot be opened, read or parsed; the caller then reads it with a Reader,
// which reports why.
func (c *Cache) Load(path string, opts Options) (*Trace, bool) {
	opts.Limits = opts.Limits.resolve() // a key for the limits in force now
	f, err := os.Open(path)
	if err != nil {
		return nil, false
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return nil, false
	}
	h := sha256.New()
	buf := hashBufs.Get().(*[64 << 10]byte)
	_, err = io.CopyBuffer(h, onlyReader{f}, buf[:])
	hashBufs.Put(buf)
	if err != nil {
		return nil, false
	}
	key := cacheKey{path: path, opts: opts, size: st.Size(), mtime: st.ModTime().UnixNano()}
	h.Sum(key.sum[:0])

	c.mu.Lock()
	if e, ok := c.entries[key]; ok {
		c.clock++
		e.used = c.clock
		c.mu.Unlock()
		<-e.ready
		return e.trace, e.trace != nil
	}
	e := &cacheEntry{ready: make(chan struct{})}
	c.entries[key] = e
	c.mu.Unlock()

	t, sum, err := parseTrace(f, path, opts, c.limit)
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case err != nil:
		// Malformed, unreadable or bigger than the whole cache: the entry
		// stays, empty, so that later loads of these same bytes go straight
		// to the caller's reader instead of parsing again.
	case sum != key.sum:
		// Changed while being read: the parse serves this call and
		// whoever waited for it, under no key.
		delete(c.entries, key)
		e.trace = t
	default:
		e.trace = t
		c.size += t.bytes
		c.clock++
		e.used = c.clock
	}
	close(e.ready)
	c.evict()
	return e.trace, e.trace != nil
}

// errTooBig stops the parse of a trace larger than the cache.
var errTooBig = errors.New("swf: trace larger than the cache")

// jobBytes is the memory one parsed job takes.
const jobBytes = int64(unsafe.Sizeof(workload.Job{}))

// evict drops the least recently used traces until the cache is within its
// limit. c.mu is held.
func (c *Cache) evict() {
	for c.size > c.limit {
		var oldest cacheKey
		var victim *cacheEntry
		for k, e := range c.entries {
			if e.trace == nil {
				continue // still parsing, or not parsable: holds no jobs
			}
			if victim == nil || e.used < victim.used {
				oldest, victim = k, e
			}
		}
		if victim == nil {
			return
		}
		delete(c.entries, oldest)
		c.size -= victim.trace.bytes
	}
}

// parseTrace reads f from its start to its end as an SWF file and returns
// the trace and the SHA-256 of the bytes it read. It gives up with errTooBig
// as soon as the jobs take more than limit bytes.
func parseTrace(f *os.File, path string, opts Options, limit int64) (*Trace, [sha256.Size]byte, error) {
	var sum [sha256.Size]byte
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, sum, err
	}
	h := sha256.New()
	src := io.TeeReader(f, h)
	r, err := NewReader(src, path, opts)
	if err != nil {
		return nil, sum, err
	}
	t := &Trace{header: r.Header()}
	if n := t.header.MaxJobs(); n > 0 && n <= limit/jobBytes {
		t.jobs = make([]workload.Job, 0, n)
	}
	for {
		j, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			r.Close()
			return nil, sum, err
		}
		t.jobs = append(t.jobs, j)
		if int64(cap(t.jobs))*jobBytes > limit {
			r.Close()
			return nil, sum, errTooBig
		}
		if n := r.SkipCount(); n > 0 && t.skips == nil {
			t.skips = make([]int, len(t.jobs)-1, cap(t.jobs))
		}
		if t.skips != nil {
			t.skips = append(t.skips, r.SkipCount())
		}
	}
	t.total = r.SkipCount()
	r.Close()
	if err := drain(src); err != nil {
		return nil, sum, err
	}
	t.bytes = int64(cap(t.jobs))*jobBytes + int64(cap(t.skips))*int64(unsafe.Sizeof(0))
	h.Sum(sum[:0])
	return t, sum, nil
}

// drain reads what the parser left of src, the file through the hash (bytes
// after a gzip stream), so that the hash covers the whole file.
func drain(src io.Reader) error {
	_, err := io.Copy(io.Discard, src)
	return err
}

// onlyReader hides every method but Read, so that io.CopyBuffer uses the
// buffer it is given rather than a WriterTo that allocates its own.
type onlyReader struct{ io.Reader }
