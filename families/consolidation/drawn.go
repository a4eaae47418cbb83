package consolidation

import (
	"slices"
	"sync"

	"github.com/schedfarm/schedfarm/workload/cpuusage"
)

// DrawnUsagesBytes bounds the memory of the CPU-usage draws a process keeps
// between runs (8 bytes per process and per estimate: a 200,000-job FWload
// workload of 4.7 million processes takes 75 MB).
const DrawnUsagesBytes = 256 << 20

// drawnUsages holds the CPU usages this process's runs have drawn. A draw
// is found again by its seed, model and the jobs' process counts in order,
// compared in full — everything it depends on — and its arrays, which the
// jobs of every run that uses them share, are never written after the
// draw (the sharing model and the schedulers only read them).
var drawnUsages = &usageCache{limit: DrawnUsagesBytes}

type usageCache struct {
	limit int64

	mu      sync.Mutex
	entries []*usageDraw // most recently used last
	size    int64
	hits    int // draws answered from memory, for tests
}

type usageDraw struct {
	seed        uint64
	p           cpuusage.Params
	procs       []int32
	actual, est []float64
}

func (d *usageDraw) bytes() int64 {
	return int64(len(d.actual)+len(d.est))*8 + int64(len(d.procs))*4
}

// find returns the draw for seed, p and procs, if kept.
func (c *usageCache) find(seed uint64, p cpuusage.Params, procs []int32) (actual, est []float64, ok bool) {
	if c == nil {
		return nil, nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, d := range c.entries {
		if d.seed == seed && d.p == p && slices.Equal(d.procs, procs) {
			c.entries = append(slices.Delete(c.entries, i, i+1), d)
			c.hits++
			return d.actual, d.est, true
		}
	}
	return nil, nil, false
}

// add keeps a draw, dropping the least recently used ones beyond the
// limit; a draw larger than the whole limit is not kept.
func (c *usageCache) add(seed uint64, p cpuusage.Params, procs []int32, actual, est []float64) {
	if c == nil {
		return
	}
	d := &usageDraw{seed: seed, p: p, procs: procs, actual: actual, est: est}
	if d.bytes() > c.limit {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, e := range c.entries {
		if e.seed == seed && e.p == p && slices.Equal(e.procs, procs) {
			return // drawn meanwhile by another run
		}
	}
	c.entries = append(c.entries, d)
	c.size += d.bytes()
	for c.size > c.limit {
		c.size -= c.entries[0].bytes()
		c.entries = slices.Delete(c.entries, 0, 1)
	}
}
