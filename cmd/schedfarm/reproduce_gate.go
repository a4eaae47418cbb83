package main

import (
	"io"
	"slices"
	"sync"
)

// specGate lets a reproduce run's specs run at most n at a time, across
// papers, granting a free place to the waiting spec of the smallest
// priority (runPlans: the paper's position, then the spec's). The papers
// run side by side: while one paper waits for its last spec of a look
// before judging it, the next paper's specs take the places it leaves, so
// the cores are not idle at each paper's barrier; with the places all
// taken, the earliest paper's specs go first, as when papers ran in turn.
// A spec's results do not depend on when it runs (each has its own seeds,
// output and store), so neither do the verdicts.
type specGate struct {
	mu      sync.Mutex
	free    int
	waiting []gateWaiter // by priority, then arrival
}

type gateWaiter struct {
	prio int
	ch   chan struct{}
}

func newSpecGate(n int) *specGate { return &specGate{free: max(1, n)} }

// acquire waits for a place.
func (g *specGate) acquire(prio int) {
	g.mu.Lock()
	if g.free > 0 {
		g.free--
		g.mu.Unlock()
		return
	}
	w := gateWaiter{prio: prio, ch: make(chan struct{})}
	i, _ := slices.BinarySearchFunc(g.waiting, prio, func(x gateWaiter, p int) int {
		if x.prio <= p {
			return -1
		}
		return 1
	})
	g.waiting = slices.Insert(g.waiting, i, w)
	g.mu.Unlock()
	<-w.ch
}

// release gives a place back: to the first waiter, if any.
func (g *specGate) release() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.waiting) == 0 {
		g.free++
		return
	}
	w := g.waiting[0]
	g.waiting = slices.Delete(g.waiting, 0, 1)
	close(w.ch)
}

// lineWriter serialises writes to w, so that the lines papers run side by
// side print (each one Write) do not interleave.
type lineWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lineWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
