package twotier

import (
	"math"
)

// timeline is the availability of every pool over future time: a step
// function whose breakpoints are the starts and ends of running jobs and
// reservations. Two implementations exist: treeTimeline (a B+ tree of
// availability changes, used by the schedulers) and linearTimeline (a sorted
// slice, the naive reference kept for tests and benchmarks).
//
// Every breakpoint carries a reference count of the intervals that end or
// start there, so a breakpoint disappears when its last interval is removed.
// Times before the origin (the last Advance) are gone: intervals are clipped
// to it.
type timeline interface {
	// advance drops the past before now; now becomes the origin.
	advance(now float64)
	// reserve takes q over [s, e).
	reserve(s, e float64, q []int)
	// unreserve gives back q over [s, e), undoing reserve(s, e, q).
	unreserve(s, e float64, q []int)
	// earliest returns the earliest t in [from, limit] at which q fits over
	// [t, t+dur), or +Inf if none does.
	earliest(from, dur float64, q []int, limit float64) float64
	// earliestWith is earliest on the timeline as it would be after
	// applying ov (in order), without changing it.
	earliestWith(from, dur float64, q []int, limit float64, ov []overlay) float64
	// nextFit returns the first breakpoint in (after, before] at which q
	// fits at that instant.
	nextFit(after, before float64, q []int) (float64, bool)
	// fitsBetween appends to out, in increasing order, every breakpoint in
	// (after, before) at which q fits at that instant.
	fitsBetween(after, before float64, q []int, out []float64) []float64
	// fitsAt reports whether q fits at instant t.
	fitsAt(t float64, q []int) bool
	// firstConflict returns the first instant in [lo, hi) at which some
	// pool's availability is below q (nil: below zero, i.e. over-committed),
	// on the timeline as it would be after applying ov.
	firstConflict(lo, hi float64, q []int, ov []overlay) (float64, bool)
	// availAt copies the availability at t into out.
	availAt(t float64, out []int)
	// breakpoints returns the number of breakpoints (for tests).
	breakpoints() int
}

// overlay is a change a query assumes without making it: sign·q over
// [s, e) (+1: an interval left out, −1: one booked in addition).
type overlay struct {
	s, e float64
	q    []int
	sign int
}

// ignored marks a pool a query does not constrain (the job needs none of
// it): a bound far below any availability, yet far enough from MinInt that
// differences with it do not overflow.
const ignored = -(1 << 60)

// needOf converts a demand into per-pool lower bounds on availability:
// q[k] for pools the job uses, ignored for the others.
func needOf(q []int, out []int) []int {
	if cap(out) < len(q) {
		out = make([]int, len(q))
	}
	out = out[:len(q)]
	for k, d := range q {
		if d > 0 {
			out[k] = d
		} else {
			out[k] = ignored
		}
	}
	return out
}

// baseCount marks the origin breakpoint, which is never deleted.
const baseCount = math.MaxInt32

// shortAt reports whether the availability a is below need on some pool.
func shortAt(a, need []int) bool {
	a = a[:len(need)]
	for k, w := range need {
		if a[k] < w {
			return true
		}
	}
	return false
}
