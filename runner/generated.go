package runner

import (
	"slices"
	"strconv"
	"strings"
	"sync"
	"unsafe"

	"github.com/schedfarm/schedfarm/param"
	"github.com/schedfarm/schedfarm/workload"
	"github.com/schedfarm/schedfarm/workload/models"
)

// GeneratedCacheBytes bounds the memory the generated workloads kept
// between cells occupy (144 bytes per job: a 200,000-job FWload workload
// takes 29 MB).
const GeneratedCacheBytes = 256 << 20

// generatedCache holds the workloads this process's cells have generated,
// so that the cells that share one — every scheduler of a grid point and
// replication draws the same jobs (common random numbers), and seed 000's
// Figure 13 has 14 cells per workload — generate it once per process
// rather than once per cell (a model makes two passes over the jobs: one
// to measure the load, one to hand them out; about 8% of a 200,000-job
// FWload cell). A workload is found again by its model registry, the
// model's name, the cell's generator parameters (each name and exact
// value) and the cell seed, which are everything ConfigOf hands the model:
// the same key gives the same jobs. The jobs held are shared and never
// modified; a run copies them into its own records (readRecords).
var generatedCache = newGenCache(GeneratedCacheBytes)

type genKey struct {
	reg *models.Registry
	s   string // model, generator parameters and seed (genKeyOf)
}

type genEntry struct {
	ready chan struct{} // closed once jobs (or err) is set
	jobs  []workload.Job
	procs int
	err   error
	bytes int64
	used  uint64
}

// genCache is a least-recently-used cache of generated workloads, limited
// in bytes. It is safe for concurrent use; concurrent cells that need the
// same workload generate it once, the others wait.
type genCache struct {
	limit int64

	mu      sync.Mutex
	size    int64
	clock   uint64
	entries map[genKey]*genEntry
	hits    int // loads answered from memory, for tests
}

func newGenCache(limit int64) *genCache {
	return &genCache{limit: limit, entries: map[genKey]*genEntry{}}
}

// genKeyOf is the model's name, the generator parameters sorted by name
// with their exact values (param.Format, with the value's kind), and the
// seed.
func genKeyOf(model string, gen map[string]any, seed uint64) string {
	names := make([]string, 0, len(gen))
	for n := range gen {
		names = append(names, n)
	}
	slices.Sort(names)
	var b strings.Builder
	b.WriteString(model)
	for _, n := range names {
		k, _ := param.KindOf(gen[n])
		b.WriteString("\x00" + n + "\x00" + k.String() + "\x00" + param.Format(gen[n]))
	}
	b.WriteString("\x00seed\x00" + strconv.FormatUint(seed, 10))
	return b.String()
}

// load returns the jobs and machine size of the workload under key, from
// memory or by calling generate now. An error is returned to every caller
// waiting for it and not kept.
func (c *genCache) load(key genKey, generate func() ([]workload.Job, int, error)) ([]workload.Job, int, error) {
	c.mu.Lock()
	if e, ok := c.entries[key]; ok {
		c.clock++
		e.used = c.clock
		c.hits++
		c.mu.Unlock()
		<-e.ready
		return e.jobs, e.procs, e.err
	}
	e := &genEntry{ready: make(chan struct{})}
	c.entries[key] = e
	c.mu.Unlock()

	jobs, procs, err := generate()
	c.mu.Lock()
	defer c.mu.Unlock()
	e.jobs, e.procs, e.err = jobs, procs, err
	e.bytes = int64(cap(jobs)) * int64(unsafe.Sizeof(workload.Job{}))
	close(e.ready)
	if err != nil || e.bytes > c.limit {
		delete(c.entries, key) // waiters already hold e
		return jobs, procs, err
	}
	c.clock++
	e.used = c.clock
	c.size += e.bytes
	for c.size > c.limit {
		c.evictOldest(e)
	}
	return jobs, procs, err
}

// evictOldest drops the least recently used ready entry other than keep.
func (c *genCache) evictOldest(keep *genEntry) {
	var oldest genKey
	var found *genEntry
	for k, e := range c.entries {
		select {
		case <-e.ready:
		default:
			continue // still being generated: not counted in size
		}
		if e != keep && (found == nil || e.used < found.used) {
			oldest, found = k, e
		}
	}
	if found == nil {
		c.size = 0 // unreachable: keep alone fits the limit
		return
	}
	delete(c.entries, oldest)
	c.size -= found.bytes
}
