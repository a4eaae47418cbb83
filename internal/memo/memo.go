package memo

import (
	"fmt"
	"sync"
)

// Cache maps keys to values computed on first use. Its values hold at most
// limit bytes (as size reports them); beyond it the least recently used are
// dropped. A nil *Cache keeps nothing: Get computes every time.
type Cache[K comparable, V any] struct {
	limit int64
	size  func(V) int64

	mu      sync.Mutex
	held    int64 // bytes of the values computed and kept
	clock   uint64
	entries map[K]*entry[V]
	hits    int
}

type entry[V any] struct {
	ready chan struct{} // closed once v (or err) is set
	v     V
	err   error
	bytes int64
	used  uint64
}

// New returns a cache of at most limit bytes, each value's from size.
func New[K comparable, V any](limit int64, size func(V) int64) *Cache[K, V] {
	return &Cache[K, V]{limit: limit, size: size, entries: map[K]*entry[V]{}}
}

// Get returns key's value: from memory, by waiting for a computation
// already under way, or by calling compute now. An error is returned to
// the callers that waited for it and not kept; nor is a value larger than
// the whole limit.
func (c *Cache[K, V]) Get(key K, compute func() (V, error)) (V, error) {
	if c == nil {
		return compute()
	}
	c.mu.Lock()
	if e, ok := c.entries[key]; ok {
		c.clock++
		e.used = c.clock
		c.hits++
		c.mu.Unlock()
		<-e.ready
		return e.v, e.err
	}
	e := &entry[V]{ready: make(chan struct{})}
	c.entries[key] = e
	c.mu.Unlock()

	v, err := c.compute(key, e, compute)
	c.mu.Lock()
	defer c.mu.Unlock()
	e.v, e.err = v, err
	close(e.ready)
	if err == nil {
		e.bytes = c.size(v)
	}
	if err != nil || e.bytes > c.limit {
		delete(c.entries, key) // whoever waits holds e
		return v, err
	}
	c.clock++
	e.used = c.clock
	c.held += e.bytes
	for c.held > c.limit {
		c.dropOldest(e)
	}
	return v, err
}

// compute runs the computation of key's entry e. If it panics, e is
// forgotten and its waiters are released with an error naming the panic
// before the panic goes on: the runner turns a cell's panic into a failed
// cell and carries on, and a value still marked under way would hold
// every later cell that asks for key, and those waiting now, for ever.
func (c *Cache[K, V]) compute(key K, e *entry[V], compute func() (V, error)) (V, error) {
	finished := false
	defer func() {
		if finished {
			return
		}
		p := recover()
		c.mu.Lock()
		e.err = fmt.Errorf("memo: the computation of this value panicked in another caller: %v", p)
		close(e.ready)
		if c.entries[key] == e {
			delete(c.entries, key)
		}
		c.mu.Unlock()
		panic(p)
	}()
	v, err := compute()
	finished = true
	return v, err
}

// dropOldest drops the least recently used computed value other than keep
// (which fits the limit alone, so another is there while held exceeds it).
func (c *Cache[K, V]) dropOldest(keep *entry[V]) {
	var oldest K
	var found *entry[V]
	for k, e := range c.entries {
		select {
		case <-e.ready:
		default:
			continue // still being computed: not counted in held
		}
		if e != keep && (found == nil || e.used < found.used) {
			oldest, found = k, e
		}
	}
	delete(c.entries, oldest)
	c.held -= found.bytes
}

// Hits returns how many Gets were answered from memory or by waiting for
// another's computation.
func (c *Cache[K, V]) Hits() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.hits
}

// Held returns the number of values kept and the bytes they hold.
func (c *Cache[K, V]) Held() (n int, bytes int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.entries), c.held
}
