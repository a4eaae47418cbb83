package experiments

import (
	"container/list"
	"crypto/sha256"
	"encoding/binary"
	"math"
	"os"
	"sync"

	"github.com/schedfarm/schedfarm/runner"
)

// DefaultCheckCacheSize is the number of validated spec points a
// CellChecker remembers when NewCellChecker is given no size: about a
// kilobyte each.
const DefaultCheckCacheSize = 4096

// CellChecker is CheckCell with a cache: a worker admits many cells of one
// spec point (the replications of a grid point and its schedulers' siblings
// differ in replication, ID and seed only), and spec validation of the
// point's one-cell spec, the expensive part of the re-check, gives the same
// answer for all of them. A CellChecker validates each point once and
// remembers the outcome under a digest of everything it depends on
// (checkKey); for each cell it still checks the replication's range and the
// plugin fields' form, the files validation looks at, and derives and
// compares the cell's ID and seed for its replication. It admits exactly
// the cells CheckCell admits, with the same errors: only a cell CheckCell
// admitted fills the cache, a cell whose key is not in it gets the full
// CheckCell, and a cell whose key is in it differs from an admitted one in
// Replication, ID, Seed and Index at most, which the cached check derives
// again (Index is no input of CheckCell).
//
// The catalog is fixed for the checker's life (its scheduler, model and
// workload-field answers must not change); plugins are the exception and
// are asked for every cell (Catalog.Plugin: give it a catalog that
// remembers plugins, as the worker's does, or every plugin cell starts
// its plugin). Safe for concurrent use; at most size points are kept, the
// least recently used going first.
type CellChecker struct {
	cat  Catalog
	size int

	mu    sync.Mutex
	byKey map[[sha256.Size]byte]*list.Element // of *checkEntry
	lru   list.List                           // most recently used first
	stats CheckCacheStats
}

type checkEntry struct {
	key   [sha256.Size]byte
	valid *validCell
}

// CheckCacheStats counts what a CellChecker did.
type CheckCacheStats struct {
	// Hits counts the cells checked from the cache, Misses those that took
	// a full CheckCell (refused ones and those whose key cannot be
	// computed included), Evictions the points dropped to stay at the size.
	Hits, Misses, Evictions int
	// Len is the number of points kept now.
	Len int
}

// NewCellChecker returns a checker of cells against cat that remembers at
// most size spec points (DefaultCheckCacheSize when size ≤ 0).
func NewCellChecker(cat Catalog, size int) *CellChecker {
	if size <= 0 {
		size = DefaultCheckCacheSize
	}
	return &CellChecker{cat: cat, size: size, byKey: map[[sha256.Size]byte]*list.Element{}}
}

// Check re-validates a cell received from the network as CheckCell does
// (c.Dir absolute, as there), validating its spec point only when the
// cache does not have it.
func (k *CellChecker) Check(c runner.Cell) error {
	if err := checkWireFields(c); err != nil {
		return err
	}
	key, ok := k.checkKey(c)
	if ok {
		if v := k.lookup(key); v != nil {
			return v.admit(c)
		}
	}
	k.mu.Lock()
	k.stats.Misses++
	k.mu.Unlock()
	v, err := validateCell(c, k.cat)
	if err != nil {
		return err
	}
	if err := v.admit(c); err != nil {
		return err
	}
	if ok {
		k.store(key, v)
	}
	return nil
}

// Stats returns the checker's counts.
func (k *CellChecker) Stats() CheckCacheStats {
	k.mu.Lock()
	defer k.mu.Unlock()
	s := k.stats
	s.Len = len(k.byKey)
	return s
}

func (k *CellChecker) lookup(key [sha256.Size]byte) *validCell {
	k.mu.Lock()
	defer k.mu.Unlock()
	e, ok := k.byKey[key]
	if !ok {
		return nil
	}
	k.stats.Hits++
	k.lru.MoveToFront(e)
	return e.Value.(*checkEntry).valid
}

func (k *CellChecker) store(key [sha256.Size]byte, v *validCell) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if e, ok := k.byKey[key]; ok { // another goroutine validated it meanwhile
		k.lru.MoveToFront(e)
		return
	}
	k.byKey[key] = k.lru.PushFront(&checkEntry{key: key, valid: v})
	for len(k.byKey) > k.size {
		last := k.lru.Back()
		k.lru.Remove(last)
		delete(k.byKey, last.Value.(*checkEntry).key)
		k.stats.Evictions++
	}
}

// checkKey returns the SHA-256 of an unambiguous encoding of everything
// validateCell's outcome depends on besides the checker's catalog: every
// field of the cell except Replication, ID, Seed and Index (experiment,
// base seed, scheduler, each parameter's name, kind and exact value, the
// common-random-numbers names, Dir, KeepJobs, the plugin's path, SHA-256
// and pass timeout), and what validation reads from files now: that each
// trace is there and no directory, and the name and SHA-256 the catalog
// reports for the plugin. ok is false when the cell must take the full
// check: a value of another kind than int, float, string or bool, a
// trace that is missing or a directory, a plugin the catalog cannot
// describe or whose SHA-256 is not the cell's (CheckCell then reports the
// problem).
func (k *CellChecker) checkKey(c runner.Cell) (key [sha256.Size]byte, ok bool) {
	b := make([]byte, 0, 512)
	str := func(s string) {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	b = append(b, "schedfarm.check-key.v1"...)
	str(c.Experiment)
	b = binary.BigEndian.AppendUint64(b, c.BaseSeed)
	str(c.Scheduler)
	str(c.Dir)
	if c.KeepJobs {
		b = append(b, 1)
	} else {
		b = append(b, 0)
	}
	b = binary.AppendUvarint(b, uint64(len(c.CRN)))
	for _, n := range c.CRN {
		str(n)
	}
	b = binary.AppendUvarint(b, uint64(len(c.Params)))
	for _, p := range c.Params {
		str(p.Name)
		switch v := p.Value.(type) {
		case int64:
			b = binary.BigEndian.AppendUint64(append(b, 'i'), uint64(v))
		case float64:
			b = binary.BigEndian.AppendUint64(append(b, 'f'), math.Float64bits(v))
		case bool:
			b = append(b, 'b', 0)
			if v {
				b[len(b)-1] = 1
			}
		case string:
			b = append(b, 's')
			str(v)
			if p.Name == "workload.trace" {
				// Validation requires the trace to be there and no
				// directory (checkTrace); so does this key.
				st, err := os.Stat(runner.ResolvePath(c.Dir, v))
				if err != nil || st.IsDir() {
					return key, false
				}
			}
		default:
			return key, false
		}
	}
	if c.Plugin == nil {
		b = append(b, 0)
	} else {
		pc, ok := k.cat.(PluginCatalog)
		if !ok {
			return key, false
		}
		info, err := pc.Plugin(runner.ResolvePath(c.Dir, c.Plugin.Path))
		if err != nil || info.SHA256 != c.Plugin.SHA256 {
			return key, false
		}
		b = append(b, 1)
		str(c.Plugin.Path)
		str(c.Plugin.SHA256)
		b = binary.BigEndian.AppendUint64(b, math.Float64bits(c.Plugin.PassTimeout))
		str(info.Name)
	}
	return sha256.Sum256(b), true
}
