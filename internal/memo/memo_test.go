package memo

import (
	"errors"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

func bytesOf(b []byte) int64 { return int64(len(b)) }

// TestDropsLeastRecentlyUsed keeps the cache within its bytes: the least
// recently used value goes first, and one larger than the whole limit is
// served but not kept.
func TestDropsLeastRecentlyUsed(t *testing.T) {
	c := New[string](3000, bytesOf)
	calls := 0
	get := func(k string, n int) {
		c.Get(k, func() ([]byte, error) { calls++; return make([]byte, n), nil })
	}
	for _, k := range []string{"a", "b", "c"} {
		get(k, 1000)
	}
	get("a", 1000) // a used again: b is now the oldest
	get("d", 1000)
	if n, b := c.Held(); n != 3 || b != 3000 {
		t.Fatalf("after d: %d values, %d bytes; want 3 and 3000", n, b)
	}
	before := calls
	get("a", 1000)
	get("c", 1000)
	get("d", 1000)
	if calls != before {
		t.Fatalf("a, c or d was dropped (computed again)")
	}
	get("b", 1000)
	if calls != before+1 {
		t.Fatalf("b was kept; want it dropped as the least recently used")
	}
	get("e", 4000) // over the limit: served, not kept
	get("e", 4000)
	if calls != before+3 {
		t.Fatalf("a value over the limit was kept")
	}
	if n, b := c.Held(); n != 3 || b != 3000 {
		t.Fatalf("at the end: %d values, %d bytes; want 3 and 3000", n, b)
	}
}

// TestComputesOnce: callers that ask for a key while its value is being
// computed wait for it instead of computing it again.
func TestComputesOnce(t *testing.T) {
	c := New[string](1<<20, bytesOf)
	started, release := make(chan struct{}), make(chan struct{})
	var calls atomic.Int32
	compute := func() ([]byte, error) {
		if calls.Add(1) == 1 {
			close(started)
			<-release
		}
		return make([]byte, 10), nil
	}
	got := make([][]byte, 4)
	var wg sync.WaitGroup
	wg.Go(func() { got[0], _ = c.Get("w", compute) })
	<-started // the first is computing; the others find its entry
	for i := 1; i < len(got); i++ {
		wg.Go(func() { got[i], _ = c.Get("w", compute) })
	}
	close(release)
	wg.Wait()
	if n := calls.Load(); n != 1 {
		t.Fatalf("computed %d times; want once", n)
	}
	for i, g := range got {
		if len(g) != 10 || &g[0] != &got[0][0] {
			t.Fatalf("caller %d got a different value", i)
		}
	}
	if c.Hits() != 3 {
		t.Fatalf("%d hits; want 3", c.Hits())
	}
}

// TestErrorsNotKept: a failed computation is reported and tried again next
// time; a nil cache computes every time.
func TestErrorsNotKept(t *testing.T) {
	c := New[string](1<<20, bytesOf)
	fail := errors.New("bad")
	if _, err := c.Get("k", func() ([]byte, error) { return nil, fail }); err != fail {
		t.Fatalf("error %v; want %v", err, fail)
	}
	if v, err := c.Get("k", func() ([]byte, error) { return []byte("ok"), nil }); err != nil || string(v) != "ok" {
		t.Fatalf("after a failure: %q, %v; want the new computation", v, err)
	}
	var none *Cache[string, []byte]
	n := 0
	for range 2 {
		none.Get("k", func() ([]byte, error) { n++; return nil, nil })
	}
	if n != 2 {
		t.Fatalf("a nil cache computed %d times in 2 calls", n)
	}
}

// TestPanicReleasesWaiters: a computation that panics passes its panic on
// to its caller (the runner recovers it as a failed cell), releases the
// callers waiting for it with an error that says so, and is forgotten, so
// the next caller computes the value afresh rather than waiting for ever.
func TestPanicReleasesWaiters(t *testing.T) {
	c := New[string](1<<20, bytesOf)
	started, release := make(chan struct{}), make(chan struct{})
	panicked := make(chan any, 1)
	go func() {
		defer func() { panicked <- recover() }()
		c.Get("k", func() ([]byte, error) {
			close(started)
			<-release
			panic("boom")
		})
	}()
	<-started
	waited := make(chan error, 1)
	go func() {
		_, err := c.Get("k", func() ([]byte, error) { return nil, errors.New("the waiter computed") })
		waited <- err
	}()
	// The waiter is counted as a hit when it finds the entry under way;
	// release the computation only then (progress, not a timer).
	for c.Hits() == 0 {
		runtime.Gosched()
	}
	close(release)
	if p := <-panicked; p != "boom" {
		t.Fatalf("the computing caller recovered %v; want the panic passed on", p)
	}
	if err := <-waited; err == nil || !strings.Contains(err.Error(), "panicked") || !strings.Contains(err.Error(), "boom") {
		t.Fatalf("the waiter got %v; want an error naming the panic", err)
	}
	if n, _ := c.Held(); n != 0 {
		t.Fatalf("%d entries kept after the panic; want none", n)
	}
	if v, err := c.Get("k", func() ([]byte, error) { return []byte("ok"), nil }); err != nil || string(v) != "ok" {
		t.Fatalf("after the panic: %q, %v; want a new computation", v, err)
	}
}
