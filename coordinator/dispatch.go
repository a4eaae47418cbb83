package coordinator

import (
	"container/heap"
	"fmt"
	"strconv"

	"github.com/schedfarm/schedfarm/runner"
)

// Dispatch is the order in which a run publishes its cells to the work
// queue, which workers take first-in first-out.
//
// The order decides the run's tail: the sweep ends when its last cell does,
// and a long cell taken last keeps the run going while the other workers
// are idle. A grid's cost is uneven and grows along its axes (a backfilling
// scheduler at load 0.95 runs 35–60 times as long as FCFS at 0.5 in
// scripts/farm-scaling's grid), so in grid order the costliest cells come
// last. Longest-processing-time-first list scheduling (Graham 1969) bounds
// the makespan by 4/3 − 1/(3m) of the optimum on m workers, and in practice
// leaves only the cheapest cells for the end; it needs the cells' costs,
// which the coordinator learns from the replications of the same point
// that have already run (docs/performance-log.md, "The farm's tail").
type Dispatch int

const (
	// DispatchLongestFirst publishes a window of cells ahead of their
	// results (Config.Ahead), a bundle at a time (the cells of one seed,
	// below), and picks each next bundle from the points (the bundles
	// that differ only in their replication) in this order: first a
	// point none of whose bundles has been published (grid order), so
	// every point is probed once early; then points whose published
	// cells have no result yet (the one with the fewest bundles out
	// first, then grid order), which are the slow ones while the cheap
	// ones come back; then the points with results, the largest expected
	// wall time first (then grid order). The default.
	//
	// Cells held back are not in the broker: a coordinator that stops
	// leaves at most the window to the workers, and the next run
	// publishes the rest.
	DispatchLongestFirst Dispatch = iota
	// DispatchGrid publishes every cell at once in grid order: the
	// workers drain the whole queue even while no coordinator runs.
	DispatchGrid
)

// String returns the name ParseDispatch accepts.
func (d Dispatch) String() string {
	switch d {
	case DispatchLongestFirst:
		return "longest-first"
	case DispatchGrid:
		return "grid"
	}
	return "Dispatch(" + strconv.Itoa(int(d)) + ")"
}

// ParseDispatch reads a Dispatch by name.
func ParseDispatch(s string) (Dispatch, error) {
	switch s {
	case "longest-first":
		return DispatchLongestFirst, nil
	case "grid":
		return DispatchGrid, nil
	}
	return 0, fmt.Errorf("dispatch %q: want longest-first or grid", s)
}

// DefaultAhead is the default Config.Ahead: cells published and not yet
// resulted under DispatchLongestFirst, enough for 32 busy worker slots
// with one queued cell each. The window grows when workers wait for cells
// while cells are held back (collect's tick reads the workers consumer's
// waiting pull requests), so a larger farm is not starved.
const DefaultAhead = 64

// pointKey names a cell's point: the cell without its replication (its
// scheduler, plugin and parameters), as results.Summarise groups cells.
func pointKey(c runner.Cell) string {
	return c.Scheduler + "\x00" + c.PluginSHA256() + "\x00" + runner.ParamsKey(c.Params)
}

// The queue hands out bundles: the cells of one seed (Cell.Seed), which
// differ only in their scheduler, its parameters or a common random
// numbers axis. They share their random inputs, and the process keeps
// those it made (a generated workload, a draw of CPU usages:
// internal/memo) in caches bounded by their bytes, so the cells of a
// bundle are published one after the other, as grid order has them;
// spread over the sweep, they would make the process draw the same inputs
// again once the cache had dropped them (seed 000's specs took up to twice
// as long: docs/performance-log.md, "The farm's tail"). A bundle's point is
// its first cell's, and the replications of a point are its bundles.

// dispatchPoint is one point's bundles not yet handed out, in grid order,
// and what is known of its cost.
type dispatchPoint struct {
	bundles   [][]runner.Cell // not yet handed out, in grid order
	size      int             // cells in the point's first bundle
	first     int             // grid index of the point's first cell (ties)
	published int             // bundles handed out
	results   int             // cells' wall times observed
	wallSum   float64
	pos       int // in the heap; -1 once every bundle is handed out
}

// rank is the point's class: 0 nothing handed out, 1 handed out without a
// result, 2 with results.
func (p *dispatchPoint) rank() int {
	switch {
	case p.published == 0:
		return 0
	case p.results == 0:
		return 1
	}
	return 2
}

// dispatchQueue orders the cells of a run for DispatchLongestFirst. It is
// deterministic: the same cells and the same observations in the same
// order give the same sequence. It is not safe for concurrent use.
type dispatchQueue struct {
	points  pointHeap
	ofCell  map[string]*dispatchPoint
	pending int
}

// newDispatchQueue queues cells, which must be in grid order.
func newDispatchQueue(cells []runner.Cell) *dispatchQueue {
	q := &dispatchQueue{ofCell: make(map[string]*dispatchPoint, len(cells)), pending: len(cells)}
	bundleOf := map[uint64]int{}
	var bundles [][]runner.Cell
	for _, c := range cells {
		i, ok := bundleOf[c.Seed]
		if !ok {
			i = len(bundles)
			bundleOf[c.Seed] = i
			bundles = append(bundles, nil)
		}
		bundles[i] = append(bundles[i], c)
	}
	byKey := map[string]*dispatchPoint{}
	for _, b := range bundles {
		k := pointKey(b[0])
		p := byKey[k]
		if p == nil {
			p = &dispatchPoint{first: b[0].Index, size: len(b), pos: len(q.points)}
			byKey[k] = p
			q.points = append(q.points, p)
		}
		p.bundles = append(p.bundles, b)
		for _, c := range b {
			q.ofCell[c.ID] = p
		}
	}
	heap.Init(&q.points)
	return q
}

// len is the number of cells not yet handed out.
func (q *dispatchQueue) len() int { return q.pending }

// next hands out the next bundle, nil when none is left.
func (q *dispatchQueue) next() []runner.Cell {
	if len(q.points) == 0 {
		return nil
	}
	p := q.points[0]
	b := p.bundles[0]
	p.bundles[0] = nil
	p.bundles = p.bundles[1:]
	p.published++
	q.pending -= len(b)
	if len(p.bundles) == 0 {
		heap.Pop(&q.points)
	} else {
		heap.Fix(&q.points, 0)
	}
	return b
}

// observe records the wall time of a cell of the queue's cells that has
// its result; the cell's point's remaining bundles move accordingly.
func (q *dispatchQueue) observe(cellID string, wallSeconds float64) {
	p := q.ofCell[cellID]
	if p == nil {
		return
	}
	p.results++
	p.wallSum += wallSeconds
	if p.pos >= 0 {
		heap.Fix(&q.points, p.pos)
	}
}

// instant reports whether the cell's point has results and its cells took
// on average at most ParcelBudget / parcel each: parcel of them together
// are expected within ParcelBudget (Config.Parcel).
func (q *dispatchQueue) instant(cellID string, parcel int) bool {
	p := q.ofCell[cellID]
	return p != nil && p.results > 0 && p.wallSum*float64(parcel) <= ParcelBudget.Seconds()*float64(p.results)
}

// pointHeap is a heap of points, the one to hand out from next on top.
type pointHeap []*dispatchPoint

func (h pointHeap) Len() int { return len(h) }

func (h pointHeap) Less(i, j int) bool {
	a, b := h[i], h[j]
	if ra, rb := a.rank(), b.rank(); ra != rb {
		return ra < rb
	}
	switch a.rank() {
	case 1:
		// Round robin: the point with the fewest bundles out first.
		if a.published != b.published {
			return a.published < b.published
		}
	case 2:
		// A bundle's expected wall time, the mean of the point's cells
		// times its size, compared without division.
		ea := a.wallSum * float64(a.size) * float64(b.results)
		eb := b.wallSum * float64(b.size) * float64(a.results)
		if ea != eb {
			return ea > eb
		}
	}
	return a.first < b.first
}

func (h pointHeap) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].pos, h[j].pos = i, j
}

func (h *pointHeap) Push(x any) {
	p := x.(*dispatchPoint)
	p.pos = len(*h)
	*h = append(*h, p)
}

func (h *pointHeap) Pop() any {
	old := *h
	p := old[len(old)-1]
	old[len(old)-1] = nil
	*h = old[:len(old)-1]
	p.pos = -1
	return p
}
