package twotier

import (
	"math"
)

// timeline is the availability of every pool over future time: a step
// function whose breakpoints are the starts and ends of running jobs and
// reservations. Two implementations exist: treeTimeline (a treap of
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
	// nextFit returns the first breakpoint in (after, before] at which q
	// fits at that instant.
	nextFit(after, before float64, q []int) (float64, bool)
	// fitsBetween appends to out, in increasing order, every breakpoint in
	// (after, before) at which q fits at that instant.
	fitsBetween(after, before float64, q []int, out []float64) []float64
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

// baseCount marks the origin breakpoint, which is never deleted.
const baseCount = math.MaxInt32

// tnode is one breakpoint of the treap; index 0 of treeTimeline.nodes is
// the empty tree. lo and hi are the first and last key of the subtree.
type tnode struct {
	key    float64
	lo, hi float64
	l, r   int32
	cnt    int32
	pri    uint32
}

// treeTimeline keeps, per breakpoint, the change of availability there (the
// origin's change is the whole availability at the origin), in a treap
// keyed by time. Every node also holds, per pool, the sum of the changes in
// its subtree and the minimum and maximum of their running sums in key
// order: the availability at a breakpoint is the sum of all changes up to
// it, and the extremes of the availability over a subtree are the prefix
// before it plus the subtree's extremes.
//
// Booking or releasing an interval changes two breakpoints, never a range,
// so it is two root-to-leaf passes: O(n log B) for n pools and B
// breakpoints, with no lazy propagation. Locating the first or last
// breakpoint of a range where some pool is short of a demand is one pass
// (the per-pool minima answer it exactly). Finding a window of a given
// length where every pool is sufficient is the hard query; see earliest.
type treeTimeline struct {
	n     int
	nodes []tnode
	vals  []int // per node, 4n ints: subtree min, max, sum, own change
	free  []int32
	root  int32
	base  float64
	rng   uint64
	acc   [][]int // per-depth prefix vectors for descents
	need  []int
	tmp   []int
	delta []int

	// state of one earliest query (see walk)
	s0, dur   float64
	limit     float64
	floorFrom float64
	open      bool    // a run of fitting breakpoints is under way
	runStart  float64 // its start, when open
	pend      bool    // a run may start inside pendX, after its last violation
	pendX     int32
	pendLo    float64 // pendX's first key: the run would start after it
	pendP     []int   // the prefix before pendX
	buf1      []int
	buf2      []int
}

func newTreeTimeline(origin float64, caps []int) *treeTimeline {
	n := len(caps)
	t := &treeTimeline{n: n, base: origin, rng: 0x9e3779b97f4a7c15}
	t.nodes = append(t.nodes, tnode{})
	t.vals = make([]int, 4*n) // the empty tree's block (never read)
	t.tmp = make([]int, n)
	t.delta = make([]int, n)
	t.pendP = make([]int, n)
	t.buf1 = make([]int, n)
	t.buf2 = make([]int, n)
	t.root = t.update(0, origin, caps, 1, baseCount)
	return t
}

func (t *treeTimeline) block(x int32) []int {
	s := int(x) * 4 * t.n
	return t.vals[s : s+4*t.n : s+4*t.n]
}

func (t *treeTimeline) alloc(key float64) int32 {
	var x int32
	if k := len(t.free); k > 0 {
		x = t.free[k-1]
		t.free = t.free[:k-1]
		clear(t.block(x))
	} else {
		x = int32(len(t.nodes))
		t.nodes = append(t.nodes, tnode{})
		t.vals = append(t.vals, make([]int, 4*t.n)...)
	}
	// xorshift64*: a fixed sequence, so runs are reproducible.
	t.rng ^= t.rng >> 12
	t.rng ^= t.rng << 25
	t.rng ^= t.rng >> 27
	t.nodes[x] = tnode{key: key, lo: key, hi: key, pri: uint32((t.rng * 2685821657736338717) >> 32)}
	return x
}

// pull recomputes x's subtree aggregates from its children.
func (t *treeTimeline) pull(x int32) {
	n := t.n
	w := 4 * n
	nd := &t.nodes[x]
	off := int(x) * w
	v := t.vals[off : off+w : off+w]
	mn, mx, s, d := v[:n:n], v[n:2*n:2*n], v[2*n:3*n:3*n], v[3*n:]
	l, r := nd.l, nd.r
	switch {
	case l == 0 && r == 0:
		copy(s, d)
		copy(mn, d)
		copy(mx, d)
		nd.lo, nd.hi = nd.key, nd.key
	case r == 0:
		lo := int(l) * w
		lv := t.vals[lo : lo+w : lo+w]
		lmn, lmx, ls := lv[:n:n], lv[n:2*n:2*n], lv[2*n:3*n:3*n]
		for k, dk := range d {
			a := ls[k] + dk
			s[k] = a
			mn[k] = min(lmn[k], a)
			mx[k] = max(lmx[k], a)
		}
		nd.lo, nd.hi = t.nodes[l].lo, nd.key
	case l == 0:
		ro := int(r) * w
		rv := t.vals[ro : ro+w : ro+w]
		rmn, rmx, rs := rv[:n:n], rv[n:2*n:2*n], rv[2*n:3*n:3*n]
		for k, a := range d {
			s[k] = a + rs[k]
			mn[k] = a + min(0, rmn[k])
			mx[k] = a + max(0, rmx[k])
		}
		nd.lo, nd.hi = nd.key, t.nodes[r].hi
	default:
		lo, ro := int(l)*w, int(r)*w
		lv, rv := t.vals[lo:lo+w:lo+w], t.vals[ro:ro+w:ro+w]
		lmn, lmx, ls := lv[:n:n], lv[n:2*n:2*n], lv[2*n:3*n:3*n]
		rmn, rmx, rs := rv[:n:n], rv[n:2*n:2*n], rv[2*n:3*n:3*n]
		for k, dk := range d {
			a := ls[k] + dk
			s[k] = a + rs[k]
			mn[k] = min(lmn[k], a+min(0, rmn[k]))
			mx[k] = max(lmx[k], a+max(0, rmx[k]))
		}
		nd.lo, nd.hi = t.nodes[l].lo, t.nodes[r].hi
	}
}

func (t *treeTimeline) rotRight(x int32) int32 {
	y := t.nodes[x].l
	t.nodes[x].l = t.nodes[y].r
	t.nodes[y].r = x
	t.pull(x)
	t.pull(y)
	return y
}

func (t *treeTimeline) rotLeft(x int32) int32 {
	y := t.nodes[x].r
	t.nodes[x].r = t.nodes[y].l
	t.nodes[y].l = x
	t.pull(x)
	t.pull(y)
	return y
}

// update adds sign·d to the change at key and dc to its count in the
// subtree x, creating the breakpoint if needed and deleting it when its
// count drops to zero; dc == baseCount makes it the origin. It returns the
// new subtree root.
func (t *treeTimeline) update(x int32, key float64, d []int, sign int, dc int32) int32 {
	if x == 0 {
		y := t.alloc(key)
		v := t.block(y)[3*t.n:]
		for k, a := range d {
			v[k] = sign * a
		}
		t.nodes[y].cnt = dc
		t.pull(y)
		return y
	}
	k := t.nodes[x].key
	switch {
	case key < k:
		c := t.update(t.nodes[x].l, key, d, sign, dc)
		t.nodes[x].l = c
		if c != 0 && t.nodes[c].pri > t.nodes[x].pri {
			return t.rotRight(x)
		}
	case key > k:
		c := t.update(t.nodes[x].r, key, d, sign, dc)
		t.nodes[x].r = c
		if c != 0 && t.nodes[c].pri > t.nodes[x].pri {
			return t.rotLeft(x)
		}
	default:
		v := t.block(x)[3*t.n:]
		for k, a := range d {
			v[k] += sign * a
		}
		nd := &t.nodes[x]
		switch {
		case dc == baseCount:
			nd.cnt = baseCount
		case nd.cnt != baseCount:
			nd.cnt += dc
			if nd.cnt <= 0 {
				l, r := nd.l, nd.r
				t.free = append(t.free, x)
				return t.merge(l, r)
			}
		}
	}
	t.pull(x)
	return x
}

func (t *treeTimeline) merge(a, b int32) int32 {
	if a == 0 {
		return b
	}
	if b == 0 {
		return a
	}
	if t.nodes[a].pri > t.nodes[b].pri {
		t.nodes[a].r = t.merge(t.nodes[a].r, b)
		t.pull(a)
		return a
	}
	t.nodes[b].l = t.merge(a, t.nodes[b].l)
	t.pull(b)
	return b
}

// split cuts x into keys < key and keys ≥ key.
func (t *treeTimeline) split(x int32, key float64) (int32, int32) {
	if x == 0 {
		return 0, 0
	}
	if t.nodes[x].key < key {
		a, b := t.split(t.nodes[x].r, key)
		t.nodes[x].r = a
		t.pull(x)
		return x, b
	}
	a, b := t.split(t.nodes[x].l, key)
	t.nodes[x].l = b
	t.pull(x)
	return a, x
}

func (t *treeTimeline) recycle(x int32) {
	if x == 0 {
		return
	}
	t.recycle(t.nodes[x].l)
	t.recycle(t.nodes[x].r)
	t.free = append(t.free, x)
}

func (t *treeTimeline) advance(now float64) {
	if now <= t.base {
		return
	}
	a, b := t.split(t.root, now)
	// The availability at now is everything before it plus the change at
	// now: fold the past into the (possibly new) breakpoint at now.
	copy(t.delta, t.block(a)[2*t.n:3*t.n])
	t.recycle(a)
	t.root = t.update(b, now, t.delta, 1, baseCount)
	t.base = now
}

// point books the change sign·q at key (clipped to the origin, where it
// does not count as an endpoint).
func (t *treeTimeline) point(key float64, q []int, sign int, dc int32) {
	if math.IsInf(key, 1) {
		return
	}
	if key <= t.base {
		key, dc = t.base, 0
	}
	t.root = t.update(t.root, key, q, sign, dc)
}

func (t *treeTimeline) reserve(s, e float64, q []int) {
	t.point(s, q, -1, 1)
	t.point(e, q, 1, 1)
}

func (t *treeTimeline) unreserve(s, e float64, q []int) {
	t.point(s, q, 1, -1)
	t.point(e, q, -1, -1)
}

// scratch returns the prefix vector for descent depth d.
func (t *treeTimeline) scratch(d int) []int {
	for len(t.acc) <= d {
		t.acc = append(t.acc, make([]int, t.n))
	}
	return t.acc[d]
}

// floor returns the largest key ≤ at (the origin if at is before it) and
// the availability there in out.
func (t *treeTimeline) floor(at float64, out []int) float64 {
	if at < t.base {
		at = t.base
	}
	n := t.n
	clear(out)
	best := t.base
	x := t.root
	for x != 0 {
		nd := &t.nodes[x]
		if nd.key <= at {
			v := t.block(x)[3*n:]
			if nd.l != 0 {
				ls := t.block(nd.l)[2*n : 3*n]
				for k := range out {
					out[k] += ls[k] + v[k]
				}
			} else {
				for k := range out {
					out[k] += v[k]
				}
			}
			best = nd.key
			x = nd.r
		} else {
			x = nd.l
		}
	}
	return best
}

func (t *treeTimeline) availAt(at float64, out []int) { t.floor(at, out) }

func (t *treeTimeline) fitsAt(at float64, q []int) bool {
	t.floor(at, t.tmp)
	return fits(t.tmp, q)
}

// floorKey returns the key of the breakpoint at or before at.
func (t *treeTimeline) floorKey(at float64) float64 {
	if at <= t.base {
		return t.base
	}
	x := t.root
	best := t.base
	for x != 0 {
		nd := &t.nodes[x]
		if nd.key <= at {
			best = nd.key
			x = nd.r
		} else {
			x = nd.l
		}
	}
	return best
}

// short reports whether p+lo falls below need on some constrained pool;
// with lo a subtree's minima, whether some breakpoint of it is short.
func short(p, lo, need []int) bool {
	p, lo = p[:len(need)], lo[:len(need)]
	for k, w := range need {
		if p[k]+lo[k] < w {
			return true
		}
	}
	return false
}

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

// classify tells, for a subtree with minima mn and maxima mx after prefix
// p, whether need is met at every breakpoint (good) and whether some pool
// is short at every breakpoint (none).
func classify(p, mn, mx, need []int) (good, none bool) {
	p, mn, mx = p[:len(need)], mn[:len(need)], mx[:len(need)]
	good = true
	for k, w := range need {
		if p[k]+mn[k] < w {
			good = false
			if p[k]+mx[k] < w {
				return false, true
			}
		}
	}
	return good, false
}

// addTo sets dst = p + the sum of x's left subtree + x's change: the
// availability at x when p is the prefix before x's subtree.
func (t *treeTimeline) addTo(dst, p []int, x int32) {
	n := t.n
	v := t.block(x)[3*n : 4*n]
	p, dst = p[:n], dst[:n]
	if l := t.nodes[x].l; l != 0 {
		ls := t.block(l)[2*n : 3*n]
		for k := range dst {
			dst[k] = p[k] + ls[k] + v[k]
		}
		return
	}
	for k := range dst {
		dst[k] = p[k] + v[k]
	}
}

// firstBadIn returns the first breakpoint of subtree x (prefix p) that is
// short of need; the subtree must hold one. The per-pool minima locate it
// exactly, so it is one root-to-node pass.
func (t *treeTimeline) firstBadIn(x int32, p, cur []int, need []int) float64 {
	n := t.n
	copy(cur, p)
	for x != 0 {
		nd := &t.nodes[x]
		if nd.l != 0 && short(cur, t.block(nd.l)[:n], need) {
			x = nd.l
			continue
		}
		t.addTo(cur, cur, x)
		if shortAt(cur, need) {
			return nd.key
		}
		x = nd.r
	}
	panic("twotier: firstBadIn on a subtree without a violation")
}

// lastBadIn returns the last breakpoint of subtree x (prefix p) that is
// short of need, and the breakpoint after it inside the subtree if any.
func (t *treeTimeline) lastBadIn(x int32, p, cur, here []int, need []int) (bad, next float64, hasNext bool) {
	n := t.n
	copy(cur, p)
	for x != 0 {
		nd := &t.nodes[x]
		t.addTo(here, cur, x)
		if nd.r != 0 && short(here, t.block(nd.r)[:n], need) {
			copy(cur, here)
			x = nd.r
			continue
		}
		if shortAt(here, need) {
			if nd.r != 0 {
				return nd.key, t.nodes[nd.r].lo, true
			}
			return nd.key, next, hasNext
		}
		next, hasNext = nd.key, true
		x = nd.l
	}
	panic("twotier: lastBadIn on a subtree without a violation")
}

// earliest scans the breakpoints from floor(from) in key order, keeping the
// start of the current run of breakpoints where q fits; the first run that
// lasts dur is the answer. It works on whole subtrees where it can: a
// subtree where q fits everywhere (per-pool minima) extends the run, one
// where some pool is short everywhere (per-pool maxima) ends it, and a
// mixed subtree whose keys span less than dur cannot hold a whole window,
// so only its first violation (which ends the run) and its last one (after
// which a run may start) matter; each is one pass down the subtree, and
// both are computed only when the answer depends on them. Only mixed
// subtrees spanning dur or more are opened. The cost is therefore
// O(n log B) per stretch of length dur scanned, not per breakpoint.
func (t *treeTimeline) earliest(from, dur float64, q []int, limit float64) float64 {
	t.need = needOf(q, t.need)
	t.s0 = math.Max(from, t.base)
	if t.s0 > limit {
		return math.Inf(1)
	}
	t.dur, t.limit = dur, limit
	t.open, t.pend = false, false
	t.floorFrom = t.floorKey(t.s0)
	p := t.scratch(0)
	clear(p)
	st := t.walkFrom(t.root, p, 0)
	if st == more && t.pend {
		st = t.resolve()
	}
	switch {
	case st == found:
		return t.runStart
	case st == more && t.open:
		return t.runStart
	}
	return math.Inf(1)
}

type walkState int

const (
	more walkState = iota
	found
	stop
)

// The walk feeds the breakpoints, in order, to four steps: before (at the
// first key of every piece), good (a piece where q fits throughout), bad
// (a piece where it fits nowhere) and mixed (a mixed subtree spanning less
// than dur).

// resolve settles a pending run start: the breakpoint after pendX's last
// violation, or none when its last breakpoint is short (then the run, if
// any, starts at the next fitting piece).
func (t *treeTimeline) resolve() walkState {
	t.pend = false
	_, next, ok := t.lastBadIn(t.pendX, t.pendP, t.buf1, t.buf2, t.need)
	if !ok {
		return more
	}
	return t.startRun(next)
}

func (t *treeTimeline) startRun(at float64) walkState {
	t.runStart = math.Max(at, t.s0)
	if t.runStart > t.limit {
		return stop
	}
	t.open = true
	return more
}

// before is called with the first key of the next piece: the run under way
// is an answer if it already lasts dur.
func (t *treeTimeline) before(lo float64) walkState {
	if t.pend && lo >= t.pendLo+t.dur {
		if st := t.resolve(); st != more {
			return st
		}
	}
	if t.open && lo >= t.runStart+t.dur {
		return found
	}
	return more
}

func (t *treeTimeline) good(lo float64) walkState {
	if t.pend {
		if st := t.resolve(); st != more {
			return st
		}
	}
	if !t.open {
		return t.startRun(lo)
	}
	return more
}

func (t *treeTimeline) bad(hi float64) walkState {
	t.open, t.pend = false, false
	if hi >= t.limit {
		return stop // any later run starts after hi
	}
	return more
}

// mixed handles subtree x (prefix p), which holds fitting and short
// breakpoints and spans less than dur.
func (t *treeTimeline) mixed(x int32, p, buf []int) walkState {
	nd := &t.nodes[x]
	if t.pend {
		// A run started in pendX ends in x, less than dur later, unless
		// x reaches dur past pendX's start.
		if nd.hi < t.pendLo+t.dur {
			t.pend = false
		} else if st := t.resolve(); st != more {
			return st
		}
	}
	if t.open && nd.hi >= t.runStart+t.dur && t.firstBadIn(x, p, buf, t.need) >= t.runStart+t.dur {
		return found
	}
	t.open = false
	if nd.lo >= t.limit {
		return stop
	}
	t.pend, t.pendX, t.pendLo = true, x, nd.lo
	copy(t.pendP, p)
	return more
}

// visit processes one breakpoint at key with availability a.
func (t *treeTimeline) visit(key float64, a []int) walkState {
	if st := t.before(key); st != more {
		return st
	}
	if shortAt(a, t.need) {
		return t.bad(key)
	}
	return t.good(key)
}

// walkFrom walks the keys ≥ floorFrom of subtree x (prefix p).
func (t *treeTimeline) walkFrom(x int32, p []int, depth int) walkState {
	for x != 0 {
		nd := &t.nodes[x]
		if nd.lo >= t.floorFrom {
			return t.walk(x, p, depth)
		}
		cur := t.scratch(depth + 1)
		if nd.key < t.floorFrom {
			t.addTo(cur, p, x)
			x, p, depth = nd.r, cur, depth+1
			continue
		}
		if st := t.walkFrom(nd.l, p, depth+1); st != more {
			return st
		}
		t.addTo(cur, p, x)
		if st := t.visit(nd.key, cur); st != more {
			return st
		}
		return t.walk(nd.r, cur, depth+1)
	}
	return more
}

// walk processes the whole subtree x (prefix p).
func (t *treeTimeline) walk(x int32, p []int, depth int) walkState {
	n := t.n
	need := t.need
	for x != 0 {
		nd := &t.nodes[x]
		lo := nd.lo
		if (t.pend && lo >= t.pendLo+t.dur) || (t.open && lo >= t.runStart+t.dur) {
			if st := t.before(lo); st != more {
				return st
			}
		}
		off := int(x) * 4 * n
		v := t.vals[off : off+4*n : off+4*n]
		mn, mx := v[:n:n], v[n:2*n:2*n]
		p = p[:n:n]
		good, none := true, false
		for k, w := range need {
			if p[k]+mn[k] < w {
				good = false
				if p[k]+mx[k] < w {
					none = true
					break
				}
			}
		}
		if good {
			if t.pend || !t.open {
				return t.good(lo)
			}
			return more
		}
		if none {
			t.open, t.pend = false, false
			if nd.hi >= t.limit {
				return stop // any later run starts after hi
			}
			return more
		}
		if nd.hi-lo < t.dur {
			return t.mixed(x, p, t.scratch(depth+1))
		}
		if st := t.walk(nd.l, p, depth+1); st != more {
			return st
		}
		cur := t.scratch(depth + 1)[:n:n]
		d := v[3*n : 4*n : 4*n]
		if l := nd.l; l != 0 {
			loff := int(l)*4*n + 2*n
			ls := t.vals[loff : loff+n : loff+n]
			for k := range cur {
				cur[k] = p[k] + ls[k] + d[k]
			}
		} else {
			for k := range cur {
				cur[k] = p[k] + d[k]
			}
		}
		if st := t.visit(nd.key, cur); st != more {
			return st
		}
		x, p, depth = nd.r, cur, depth+1
	}
	return more
}

// successor returns the first breakpoint after key.
func (t *treeTimeline) successor(key float64) (float64, bool) {
	x := t.root
	best, ok := 0.0, false
	for x != 0 {
		nd := &t.nodes[x]
		if nd.key > key {
			best, ok = nd.key, true
			x = nd.l
		} else {
			x = nd.r
		}
	}
	return best, ok
}

// goods appends the breakpoints of subtree x (prefix p) in (after, before)
// where need is met, stopping after max results (max < 0: no limit). A
// subtree inside the range where need is met throughout is copied out
// without tests, and one where some pool falls short throughout is
// skipped, so the cost is O(n log B) per maximal run of results or of
// skipped breakpoints, at worst O(n) per breakpoint of the range.
func (t *treeTimeline) goods(x int32, p []int, depth int, after, before float64, need []int, out []float64, max int) []float64 {
	n := t.n
	for x != 0 && max != 0 {
		nd := &t.nodes[x]
		if nd.hi <= after || nd.lo >= before {
			return out
		}
		v := t.block(x)
		good, none := classify(p, v[:n], v[n:2*n], need)
		if none {
			return out
		}
		if good && nd.lo > after && nd.hi < before {
			return t.keys(x, out, max)
		}
		cur := t.scratch(depth + 1)
		if nd.key > after {
			before0 := len(out)
			out = t.goods(nd.l, p, depth+1, after, before, need, out, max)
			if max > 0 {
				max -= len(out) - before0
				if max == 0 {
					return out
				}
			}
			if nd.key >= before {
				return out
			}
			t.addTo(cur, p, x)
			if !shortAt(cur, need) {
				out = append(out, nd.key)
				if max > 0 {
					max--
				}
			}
		} else {
			t.addTo(cur, p, x)
		}
		x, p, depth = nd.r, cur, depth+1
	}
	return out
}

// keys appends the first max keys of subtree x in order (max < 0: all).
func (t *treeTimeline) keys(x int32, out []float64, max int) []float64 {
	if max == 1 && x != 0 {
		return append(out, t.nodes[x].lo)
	}
	for x != 0 && max != 0 {
		nd := &t.nodes[x]
		before0 := len(out)
		out = t.keys(nd.l, out, max)
		if max > 0 {
			max -= len(out) - before0
			if max == 0 {
				return out
			}
			max--
		}
		out = append(out, nd.key)
		x = nd.r
	}
	return out
}

func (t *treeTimeline) nextFit(after, before float64, q []int) (float64, bool) {
	t.need = needOf(q, t.need)
	p := t.scratch(0)
	clear(p)
	var one [1]float64
	// (after, before]: before itself counts, so search up to its successor.
	end, ok := t.successor(before)
	if !ok {
		end = math.Inf(1)
	}
	r := t.goods(t.root, p, 0, after, end, t.need, one[:0], 1)
	if len(r) == 0 {
		return 0, false
	}
	return r[0], true
}

func (t *treeTimeline) fitsBetween(after, before float64, q []int, out []float64) []float64 {
	t.need = needOf(q, t.need)
	p := t.scratch(0)
	clear(p)
	return t.goods(t.root, p, 0, after, before, t.need, out, -1)
}

// firstConflict finds the first breakpoint from floor(lo) before hi with a
// negative availability: one pass guided by the per-pool minima.
func (t *treeTimeline) firstConflict(lo, hi float64) (float64, bool) {
	n := t.n
	f := t.floorKey(lo)
	t.need = t.need[:0]
	for range n {
		t.need = append(t.need, 0)
	}
	p := t.scratch(0)
	clear(p)
	key, ok := t.firstShort(t.root, p, 0, f, hi, t.need)
	if !ok {
		return 0, false
	}
	return math.Max(key, lo), true
}

// firstShort returns the first key in [lo, hi) of subtree x (prefix p)
// short of need.
func (t *treeTimeline) firstShort(x int32, p []int, depth int, lo, hi float64, need []int) (float64, bool) {
	n := t.n
	for x != 0 {
		nd := &t.nodes[x]
		if nd.hi < lo || nd.lo >= hi || !short(p, t.block(x)[:n], need) {
			return 0, false
		}
		if nd.lo >= lo && nd.hi < hi {
			return t.firstBadIn(x, p, t.scratch(depth+1), need), true
		}
		cur := t.scratch(depth + 1)
		if nd.key >= lo {
			if k, ok := t.firstShort(nd.l, p, depth+1, lo, hi, need); ok {
				return k, true
			}
			if nd.key >= hi {
				return 0, false
			}
			t.addTo(cur, p, x)
			if shortAt(cur, need) {
				return nd.key, true
			}
		} else {
			t.addTo(cur, p, x)
		}
		x, p, depth = nd.r, cur, depth+1
	}
	return 0, false
}

func (t *treeTimeline) breakpoints() int { return len(t.nodes) - 1 - len(t.free) }
