package worker

import "time"

// A slot asks the work queue for one cell at a time while its cells take
// long, and for several at once while they are instant: a pull request costs
// the broker about as much as the delivery it brings
// (BenchmarkFarmPrimitives, cell-take: 31–33 µs of CPU a cell fetched one at
// a time against 16–17 µs fetched eight at a time on the VM of that
// measurement; docs/performance-log.md, "Farm"), which is most of what the
// farm adds to a cell that runs in microseconds. Cells taken together wait
// in the slot while the ones before them run, so the number is chosen from
// the slot's own measurements such that that wait stays under holdBudget,
// and the cells waiting are kept in progress by the running cell's
// heartbeats (worker.run): their ack timer does not run out even when a cell
// turns out long. The price is the tail: cells waiting behind a cell that
// turns out long wait for it, while another worker may be idle; handing them
// back with a nak would count a delivery against MaxDeliver. Between two
// cells of a take, while the slot waits for the last result's publication,
// the waiting cells get no heartbeat; only a publication that takes longer
// than AckWait (the broker unreachable) lets one run out, and then the cell
// runs again and its second result is dropped as a duplicate, as after any
// lost ack.
const (
	// holdBudget is the longest a cell taken with others is expected to wait
	// in its slot, judged by the slowest cell of the slot's last take.
	holdBudget = 10 * time.Millisecond
	// maxTake is the most cells one request asks for. 16 rather than 8:
	// BenchmarkFarmOverheadPerCellTrusted 3–8% less CPU a cell, and 32 no
	// less than 16 (docs/performance-log.md, "Twenty-third session"); the
	// cells held stay within holdBudget either way.
	maxTake = 16
)

// nextTake returns how many cells a slot asks for next, after a take of
// took cells whose slowest ran for slowest: as many as would run within
// holdBudget at that speed, at most twice took (one fast take is not much
// evidence) and at most maxTake; one when the cells take holdBudget or
// longer. A slot starts at one, and goes back to one when the queue is
// empty (slot).
func nextTake(took int, slowest time.Duration) int {
	if took < 1 {
		took = 1
	}
	if slowest <= 0 {
		slowest = 1 // a cell refused by the gate runs nothing
	}
	n := int(min(holdBudget/slowest, maxTake))
	return max(1, min(n, 2*took))
}
