package twotier

import (
	"math"
)

// timeline is the availability of every pool over future time: a step
// function whose breakpoints are the starts and ends of running jobs and
// reservations. Two implementations exist: treeTimeline (a treap with lazy
// range updates, used by the schedulers) and linearTimeline (a sorted slice,
// the naive reference kept for tests and benchmarks).
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
	// nextFit returns the first breakpoint in (after, before] at which q
	// fits at that instant.
	nextFit(after, before float64, q []int) (float64, bool)
	// fitsAt reports whether q fits at instant t.
	fitsAt(t float64, q []int) bool
	// firstConflict returns the first instant in [lo, hi) at which some
	// pool is over-committed (negative availability).
	firstConflict(lo, hi float64) (float64, bool)
	// availAt copies the availability at t into out.
	availAt(t float64, out []int)
	// breakpoints returns the number of breakpoints (for tests).
	breakpoints() int
}

// ignored marks a pool a query does not constrain (the job needs none of it).
const ignored = math.MinInt

// needOf converts a demand into per-pool lower bounds on availability:
// q[k] for pools the job uses, ignored for the others.
func needOf(q []int, out []int) []int {
	out = out[:0]
	for _, d := range q {
		if d > 0 {
			out = append(out, d)
		} else {
			out = append(out, ignored)
		}
	}
	return out
}

// node is one breakpoint of the treap. vals holds, in four blocks of n
// ints: the availability from this breakpoint to the next (val), the
// subtree minimum (mn) and maximum (mx) per pool, and the pending addition
// for the children (lz). A node's own val, mn and mx are always up to date
// relative to the pending additions of its ancestors.
type node struct {
	key  float64
	pri  uint64
	cnt  int32
	l, r *node
	vals []int
}

// baseCount marks the origin node, which is never deleted.
const baseCount = math.MaxInt32

// treeTimeline is a treap keyed by breakpoint time with lazy range addition
// and per-pool subtree minima and maxima. Adding or removing an interval is
// O(n log B) for n pools and B breakpoints; finding the first or last
// breakpoint in a range that violates a demand is O(n log B); the earliest
// start hops past the last violation inside the candidate window to the
// breakpoint after it, each hop O(n log B).
type treeTimeline struct {
	n    int
	root *node
	base float64
	rng  uint64
	free []*node
	acc  [][]int // per-depth scratch for read-only descents
	need []int
	tmp  []int
}

func newTreeTimeline(origin float64, caps []int) *treeTimeline {
	t := &treeTimeline{n: len(caps), base: origin, rng: 0x9e3779b97f4a7c15}
	b := t.alloc(origin)
	b.cnt = baseCount
	copy(b.vals[:t.n], caps)
	t.pull(b)
	t.root = b
	return t
}

func (t *treeTimeline) alloc(key float64) *node {
	var x *node
	if k := len(t.free); k > 0 {
		x = t.free[k-1]
		t.free = t.free[:k-1]
		clear(x.vals)
		x.l, x.r, x.cnt = nil, nil, 0
	} else {
		x = &node{vals: make([]int, 4*t.n)}
	}
	// xorshift64*: a fixed sequence, so runs are reproducible.
	t.rng ^= t.rng >> 12
	t.rng ^= t.rng << 25
	t.rng ^= t.rng >> 27
	x.pri = t.rng * 2685821657736338717
	x.key = key
	return x
}

func (t *treeTimeline) val(x *node) []int { return x.vals[:t.n] }
func (t *treeTimeline) mn(x *node) []int  { return x.vals[t.n : 2*t.n] }
func (t *treeTimeline) mx(x *node) []int  { return x.vals[2*t.n : 3*t.n] }
func (t *treeTimeline) lz(x *node) []int  { return x.vals[3*t.n:] }

// apply adds d (times sign) to every value of x's subtree.
func (t *treeTimeline) apply(x *node, d []int, sign int) {
	if x == nil {
		return
	}
	n := t.n
	v := x.vals
	for k := 0; k < n; k++ {
		a := sign * d[k]
		v[k] += a
		v[n+k] += a
		v[2*n+k] += a
		v[3*n+k] += a
	}
}

func (t *treeTimeline) push(x *node) {
	lz := t.lz(x)
	for _, a := range lz {
		if a != 0 {
			t.apply(x.l, lz, 1)
			t.apply(x.r, lz, 1)
			clear(lz)
			return
		}
	}
}

func (t *treeTimeline) pull(x *node) {
	n := t.n
	v := x.vals
	for k := 0; k < n; k++ {
		lo, hi := v[k], v[k]
		if x.l != nil {
			lo = min(lo, x.l.vals[n+k])
			hi = max(hi, x.l.vals[2*n+k])
		}
		if x.r != nil {
			lo = min(lo, x.r.vals[n+k])
			hi = max(hi, x.r.vals[2*n+k])
		}
		v[n+k], v[2*n+k] = lo, hi
	}
}

// split cuts x into keys < key and keys ≥ key.
func (t *treeTimeline) split(x *node, key float64) (*node, *node) {
	if x == nil {
		return nil, nil
	}
	t.push(x)
	if x.key < key {
		a, b := t.split(x.r, key)
		x.r = a
		t.pull(x)
		return x, b
	}
	a, b := t.split(x.l, key)
	x.l = b
	t.pull(x)
	return a, x
}

func (t *treeTimeline) merge(a, b *node) *node {
	if a == nil {
		return b
	}
	if b == nil {
		return a
	}
	if a.pri > b.pri {
		t.push(a)
		a.r = t.merge(a.r, b)
		t.pull(a)
		return a
	}
	t.push(b)
	b.l = t.merge(a, b.l)
	t.pull(b)
	return b
}

func (t *treeTimeline) recycle(x *node) {
	if x == nil {
		return
	}
	t.recycle(x.l)
	t.recycle(x.r)
	t.free = append(t.free, x)
}

// rightmost returns the last node of x, pushing pending additions on the way.
func (t *treeTimeline) rightmost(x *node) *node {
	for {
		t.push(x)
		if x.r == nil {
			return x
		}
		x = x.r
	}
}

func (t *treeTimeline) leftmost(x *node) *node {
	for {
		t.push(x)
		if x.l == nil {
			return x
		}
		x = x.l
	}
}

func (t *treeTimeline) advance(now float64) {
	if now <= t.base {
		return
	}
	a, b := t.split(t.root, now)
	if b != nil && t.leftmost(b).key == now {
		lm := t.leftmost(b)
		lm.cnt = baseCount
	} else {
		last := t.rightmost(a)
		x := t.alloc(now)
		x.cnt = baseCount
		copy(t.val(x), t.val(last))
		t.pull(x)
		b = t.merge(x, b)
	}
	t.recycle(a)
	t.root = b
	t.base = now
}

// addPoint counts one more interval endpoint at key (creating the
// breakpoint with the availability just before it).
func (t *treeTimeline) addPoint(key float64) {
	if key <= t.base || math.IsInf(key, 1) {
		return
	}
	a, b := t.split(t.root, key)
	if b != nil {
		if lm := t.leftmost(b); lm.key == key {
			lm.cnt++
			t.root = t.merge(a, b)
			return
		}
	}
	last := t.rightmost(a)
	x := t.alloc(key)
	x.cnt = 1
	copy(t.val(x), t.val(last))
	t.pull(x)
	t.root = t.merge(t.merge(a, x), b)
}

// dropPoint removes one interval endpoint at key, deleting the breakpoint
// when it was the last.
func (t *treeTimeline) dropPoint(key float64) {
	if key <= t.base || math.IsInf(key, 1) {
		return
	}
	a, b := t.split(t.root, key)
	m, c := t.split(b, math.Nextafter(key, math.Inf(1)))
	if m != nil {
		m.cnt--
		if m.cnt <= 0 {
			t.recycle(m)
			m = nil
		}
	}
	t.root = t.merge(t.merge(a, m), c)
}

func (t *treeTimeline) rangeAdd(s, e float64, q []int, sign int) {
	s = math.Max(s, t.base)
	if !(e > s) {
		return
	}
	a, b := t.split(t.root, s)
	m, c := t.split(b, e)
	t.apply(m, q, sign)
	t.root = t.merge(t.merge(a, m), c)
}

func (t *treeTimeline) reserve(s, e float64, q []int) {
	t.addPoint(s)
	t.addPoint(e)
	t.rangeAdd(s, e, q, -1)
}

func (t *treeTimeline) unreserve(s, e float64, q []int) {
	t.rangeAdd(s, e, q, +1)
	t.dropPoint(s)
	t.dropPoint(e)
}

// scratch returns the accumulator for recursion depth d, zeroed.
func (t *treeTimeline) scratch(d int) []int {
	for len(t.acc) <= d {
		t.acc = append(t.acc, make([]int, t.n))
	}
	return t.acc[d]
}

// floor returns the node with the largest key ≤ key (the origin if key is
// before it) and its true availability in out.
func (t *treeTimeline) floor(key float64, out []int) *node {
	var best *node
	acc := t.scratch(0)
	clear(acc)
	x := t.root
	for x != nil {
		if x.key <= key {
			best = x
			for k := range out {
				out[k] = x.vals[k] + acc[k]
			}
		}
		lz := t.lz(x)
		for k := range acc {
			acc[k] += lz[k]
		}
		if x.key <= key {
			x = x.r
		} else {
			x = x.l
		}
	}
	if best == nil { // before the origin: availability at the origin
		x = t.leftmost(t.root)
		copy(out, t.val(x))
		return x
	}
	return best
}

func (t *treeTimeline) availAt(at float64, out []int) { t.floor(at, out) }

func (t *treeTimeline) fitsAt(at float64, q []int) bool {
	if len(t.tmp) < t.n {
		t.tmp = make([]int, t.n)
	}
	v := t.tmp
	t.floor(at, v)
	for k, d := range q {
		if d > 0 && v[k] < d {
			return false
		}
	}
	return true
}

// floorKey returns the key of the breakpoint at or before at.
func (t *treeTimeline) floorKey(at float64) float64 {
	if at <= t.base {
		return t.base
	}
	x := t.root
	best := t.base
	for x != nil {
		if x.key <= at {
			best = x.key
			x = x.r
		} else {
			x = x.l
		}
	}
	return best
}

// firstBad returns the first node with lo ≤ key < hi whose availability is
// below need on some pool. acc is the sum of the pending additions of x's
// ancestors.
func (t *treeTimeline) firstBad(x *node, acc []int, depth int, lo, hi float64, need []int) *node {
	if x == nil {
		return nil
	}
	n := t.n
	may := false
	for k, w := range need {
		if w != ignored && x.vals[n+k]+acc[k] < w {
			may = true
			break
		}
	}
	if !may {
		return nil
	}
	child := t.scratch(depth + 1)
	lz := t.lz(x)
	for k := range child {
		child[k] = acc[k] + lz[k]
	}
	if x.key >= lo {
		if r := t.firstBad(x.l, child, depth+1, lo, hi, need); r != nil {
			return r
		}
		if x.key >= hi {
			return nil
		}
		for k, w := range need {
			if w != ignored && x.vals[k]+acc[k] < w {
				return x
			}
		}
		// child was overwritten by the recursion: rebuild it.
		for k := range child {
			child[k] = acc[k] + lz[k]
		}
	}
	return t.firstBad(x.r, child, depth+1, lo, hi, need)
}

// lastBad returns the last node with lo ≤ key < hi whose availability is
// below need on some pool (firstBad mirrored).
func (t *treeTimeline) lastBad(x *node, acc []int, depth int, lo, hi float64, need []int) *node {
	if x == nil {
		return nil
	}
	n := t.n
	may := false
	for k, w := range need {
		if w != ignored && x.vals[n+k]+acc[k] < w {
			may = true
			break
		}
	}
	if !may {
		return nil
	}
	child := t.scratch(depth + 1)
	lz := t.lz(x)
	for k := range child {
		child[k] = acc[k] + lz[k]
	}
	if x.key < hi {
		if r := t.lastBad(x.r, child, depth+1, lo, hi, need); r != nil {
			return r
		}
		if x.key < lo {
			return nil
		}
		for k, w := range need {
			if w != ignored && x.vals[k]+acc[k] < w {
				return x
			}
		}
	}
	return t.lastBad(x.l, child, depth+1, lo, hi, need)
}

// firstGood returns the first node with lo < key ≤ hi at which need is met
// on every constrained pool.
func (t *treeTimeline) firstGood(x *node, acc []int, depth int, lo, hi float64, need []int) *node {
	if x == nil {
		return nil
	}
	n := t.n
	for k, w := range need {
		if w != ignored && x.vals[2*n+k]+acc[k] < w {
			return nil // no node of this subtree meets pool k
		}
	}
	child := t.scratch(depth + 1)
	lz := t.lz(x)
	for k := range child {
		child[k] = acc[k] + lz[k]
	}
	if x.key > lo {
		if r := t.firstGood(x.l, child, depth+1, lo, hi, need); r != nil {
			return r
		}
		if x.key > hi {
			return nil
		}
		ok := true
		for k, w := range need {
			if w != ignored && x.vals[k]+acc[k] < w {
				ok = false
				break
			}
		}
		if ok {
			return x
		}
		for k := range child {
			child[k] = acc[k] + lz[k]
		}
	}
	return t.firstGood(x.r, child, depth+1, lo, hi, need)
}

func (t *treeTimeline) earliest(from, dur float64, q []int, limit float64) float64 {
	t.need = needOf(q, t.need)
	need := t.need
	s := math.Max(from, t.base)
	for s <= limit {
		acc := t.scratch(0)
		clear(acc)
		// The last violation in the window: no start up to it can work.
		bad := t.lastBad(t.root, acc, 0, t.floorKey(s), s+dur, need)
		if bad == nil {
			return s
		}
		next, ok := t.successor(bad.key)
		if !ok {
			return math.Inf(1)
		}
		s = next
	}
	return math.Inf(1)
}

// successor returns the first breakpoint after key.
func (t *treeTimeline) successor(key float64) (float64, bool) {
	x := t.root
	best, ok := 0.0, false
	for x != nil {
		if x.key > key {
			best, ok = x.key, true
			x = x.l
		} else {
			x = x.r
		}
	}
	return best, ok
}

func (t *treeTimeline) nextFit(after, before float64, q []int) (float64, bool) {
	t.need = needOf(q, t.need)
	acc := t.scratch(0)
	clear(acc)
	x := t.firstGood(t.root, acc, 0, after, before, t.need)
	if x == nil {
		return 0, false
	}
	return x.key, true
}

func (t *treeTimeline) firstConflict(lo, hi float64) (float64, bool) {
	t.need = t.need[:0]
	for range t.n {
		t.need = append(t.need, 0)
	}
	acc := t.scratch(0)
	clear(acc)
	x := t.firstBad(t.root, acc, 0, t.floorKey(lo), hi, t.need)
	if x == nil {
		return 0, false
	}
	return math.Max(x.key, lo), true
}

func (t *treeTimeline) breakpoints() int { return size(t.root) }

func size(x *node) int {
	if x == nil {
		return 0
	}
	return 1 + size(x.l) + size(x.r)
}
