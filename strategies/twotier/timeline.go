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
	// pool's availability is below q (nil: below zero, i.e. over-committed).
	firstConflict(lo, hi float64, q []int) (float64, bool)
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

	// scratch of earliestWith
	stk   []int32
	slots []int
	pendP []int // the prefix before the pending piece
	buf1  []int
	buf2  []int

	// overlays of an earliestWith query
	ov        []overlay
	vkeys     []float64 // overlay ends that are not breakpoints, sorted
	vi        int       // next of vkeys to visit
	lastAvail []int     // true availability at the last breakpoint visited
	ovP       []int
	ovA       []int
	ovV       []int
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
	t.lastAvail = make([]int, n)
	t.ovP = make([]int, n)
	t.ovA = make([]int, n)
	t.ovV = make([]int, n)
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
	return t.earliestWith(from, dur, q, limit, nil)
}

// earliestWith runs the same scan with the overlays added to the prefix of
// every piece. A subtree is taken as a piece only if no overlay end falls
// inside its key range, so that one offset holds for all of it; the ends
// that are not breakpoints are visited as breakpoints of their own, with
// the availability of the breakpoint before them. That opens O(log B)
// more nodes per overlay.
//
// The scan is an in-order traversal with an explicit stack of opened nodes
// whose key and right subtree are still to come; the prefix before the
// current piece (the availability just before its first key) lives in
// slot len(stk) of t.slots, and slot i holds the prefix of stk[i]'s subtree
// until it is popped.
func (t *treeTimeline) earliestWith(from, dur float64, q []int, limit float64, ov []overlay) float64 {
	n := t.n
	t.need = needOf(q, t.need)
	need := t.need[:n:n]
	s0 := math.Max(from, t.base)
	if s0 > limit {
		return math.Inf(1)
	}
	ff := t.floorKey(s0)
	hasOv := t.setOverlays(ov, ff)
	nodes, vals, w := t.nodes, t.vals, 4*n
	stk := t.stk[:0]
	cur := t.slot(0)
	clear(cur)

	// open: a run of breakpoints where q fits started at runStart. pend: a
	// run may start after the last violation of piece pendX (whose first
	// key is pendLo and prefix t.pendP); it is found only when needed.
	var (
		open, pend       bool
		runStart, pendLo float64
		pendX            int32
	)

	// Go down to the first key ≥ ff, pushing the nodes whose key comes
	// after it.
	x := t.root
	for x != 0 {
		nd := &nodes[x]
		if nd.lo >= ff {
			break
		}
		if nd.key < ff {
			t.addOwn(cur, x)
			x = nd.r
			continue
		}
		stk = t.push(stk, x)
		next := t.slot(len(stk))
		copy(next, cur)
		cur = next
		x = nd.l
	}

	for {
		// The next event: a virtual key, the piece x, or the key of the
		// last opened node.
		var key float64
		var a []int
		switch {
		case hasOv && t.vi < len(t.vkeys) && t.vkeys[t.vi] < t.nextLo(x, stk):
			key = t.vkeys[t.vi]
			t.vi++
			a = t.ovV
			copy(a, t.lastAvail)
			t.ovOffset(key, a)
		case x != 0:
			nd := &nodes[x]
			lo, hi := nd.lo, nd.hi
			pp := cur
			whole := true
			if hasOv {
				if whole = t.ovUniform(lo, hi); whole {
					pp = t.ovP
					copy(pp, cur)
					t.ovOffset(lo, pp)
				}
			}
			if whole {
				if pend && lo >= pendLo+dur {
					pend = false
					_, next, ok := t.lastBadIn(pendX, t.pendP, t.buf1, t.buf2, need)
					if ok {
						runStart, open = math.Max(next, s0), true
						if runStart > limit {
							return math.Inf(1)
						}
					}
				}
				if open && lo >= runStart+dur {
					return runStart
				}
				if !open && !pend && lo > limit {
					return math.Inf(1) // a run would start at lo or later
				}
				off := int(x) * w
				mn, mx := vals[off:off+n:off+n], vals[off+n:off+2*n:off+2*n]
				// Branch-free: the outcome of each comparison is hard to
				// predict, and mispredictions dominated the scan.
				g, b := math.MaxInt, math.MaxInt
				for k, wk := range need {
					g = min(g, pp[k]+mn[k]-wk)
					b = min(b, pp[k]+mx[k]-wk)
				}
				good, none := g >= 0, b < 0
				handled := true
				switch {
				case good: // q fits throughout x
					if pend {
						pend = false
						_, next, ok := t.lastBadIn(pendX, t.pendP, t.buf1, t.buf2, need)
						if ok {
							runStart, open = math.Max(next, s0), true
						}
					}
					if !open {
						runStart, open = math.Max(lo, s0), true
					}
					if runStart > limit {
						return math.Inf(1)
					}
				case none: // some pool is short throughout x
					open, pend = false, false
					if hi >= limit {
						return math.Inf(1) // any later run starts after hi
					}
				case hi-lo < dur: // no window fits inside x
					if pend {
						if hi < pendLo+dur {
							pend = false // that run ends in x, too soon
						} else {
							pend = false
							_, next, ok := t.lastBadIn(pendX, t.pendP, t.buf1, t.buf2, need)
							if ok {
								runStart, open = math.Max(next, s0), true
								if runStart > limit {
									return math.Inf(1)
								}
							}
						}
					}
					if open && hi >= runStart+dur && t.firstBadIn(x, pp, t.buf1, need) >= runStart+dur {
						return runStart
					}
					open = false
					if lo >= limit {
						return math.Inf(1)
					}
					// A run may start after x's last violation: find it
					// only if the answer comes to depend on it.
					pend, pendX, pendLo = true, x, lo
					copy(t.pendP, pp)
				default:
					handled = false
				}
				if handled {
					if hasOv && t.vi < len(t.vkeys) {
						s := vals[off+2*n : off+3*n : off+3*n]
						for k := range t.lastAvail {
							t.lastAvail[k] = cur[k] + s[k]
						}
					}
					x = 0
					continue
				}
			}
			// Open x: its left subtree first, then its key and right
			// subtree.
			stk = t.push(stk, x)
			next := t.slot(len(stk))
			copy(next, t.slot(len(stk)-1))
			cur = next
			x = nd.l
			continue
		case len(stk) > 0:
			y := stk[len(stk)-1]
			stk = stk[:len(stk)-1]
			cur = t.slot(len(stk))
			t.addOwn(cur, y)
			key, a = nodes[y].key, cur
			if hasOv {
				copy(t.lastAvail, cur)
				a = t.ovA
				copy(a, cur)
				t.ovOffset(key, a)
			}
			x = nodes[y].r
		default:
			if pend {
				pend = false
				_, next, ok := t.lastBadIn(pendX, t.pendP, t.buf1, t.buf2, need)
				if ok {
					runStart, open = math.Max(next, s0), true
				}
			}
			if open && runStart <= limit {
				return runStart
			}
			return math.Inf(1)
		}

		// One breakpoint at key with availability a.
		if pend && key >= pendLo+dur {
			pend = false
			_, next, ok := t.lastBadIn(pendX, t.pendP, t.buf1, t.buf2, need)
			if ok {
				runStart, open = math.Max(next, s0), true
				if runStart > limit {
					return math.Inf(1)
				}
			}
		}
		if open && key >= runStart+dur {
			return runStart
		}
		if shortAt(a, need) {
			open, pend = false, false
			if key >= limit {
				return math.Inf(1)
			}
			continue
		}
		if pend {
			pend = false
			_, next, ok := t.lastBadIn(pendX, t.pendP, t.buf1, t.buf2, need)
			if ok {
				runStart, open = math.Max(next, s0), true
			}
		}
		if !open {
			runStart, open = math.Max(key, s0), true
		}
		if runStart > limit {
			return math.Inf(1)
		}
	}
}

// push appends x to the scan's stack, keeping the grown array for later
// scans.
func (t *treeTimeline) push(stk []int32, x int32) []int32 {
	stk = append(stk, x)
	if cap(stk) > cap(t.stk) {
		t.stk = stk[:0]
	}
	return stk
}

// nextLo is the first key of the scan's next piece or opened key.
func (t *treeTimeline) nextLo(x int32, stk []int32) float64 {
	if x != 0 {
		return t.nodes[x].lo
	}
	if len(stk) > 0 {
		return t.nodes[stk[len(stk)-1]].key
	}
	return math.Inf(1)
}

// slot returns prefix slot i of the scan, growing the slots as needed.
func (t *treeTimeline) slot(i int) []int {
	n := t.n
	if need := (i + 1) * n; len(t.slots) < need {
		t.slots = append(t.slots, make([]int, need+16*n-len(t.slots))...)
	}
	return t.slots[i*n : (i+1)*n : (i+1)*n]
}

// addOwn adds to p the sum of x's left subtree and x's change: with p the
// prefix before x's subtree, it becomes the availability at x.
func (t *treeTimeline) addOwn(p []int, x int32) {
	n := t.n
	w := 4 * n
	off := int(x) * w
	d := t.vals[off+3*n : off+w : off+w]
	p = p[:n:n]
	if l := t.nodes[x].l; l != 0 {
		loff := int(l)*w + 2*n
		ls := t.vals[loff : loff+n : loff+n]
		for k := range p {
			p[k] += ls[k] + d[k]
		}
		return
	}
	for k := range p {
		p[k] += d[k]
	}
}

// setOverlays clips ov to the origin and lists its ends that are not
// breakpoints and lie after ff; it reports whether any overlay is left.
func (t *treeTimeline) setOverlays(ov []overlay, ff float64) bool {
	t.ov = t.ov[:0]
	t.vkeys = t.vkeys[:0]
	t.vi = 0
	for _, o := range ov {
		o.s = math.Max(o.s, t.base)
		if !(o.e > o.s) {
			continue
		}
		t.ov = append(t.ov, o)
		for _, b := range [2]float64{o.s, o.e} {
			if b <= ff || math.IsInf(b, 1) || t.floorKey(b) == b {
				continue
			}
			i := len(t.vkeys)
			for i > 0 && t.vkeys[i-1] > b {
				i--
			}
			if i > 0 && t.vkeys[i-1] == b {
				continue
			}
			t.vkeys = append(t.vkeys, 0)
			copy(t.vkeys[i+1:], t.vkeys[i:])
			t.vkeys[i] = b
		}
	}
	return len(t.ov) > 0
}

// ovOffset adds to out the overlays' change at key.
func (t *treeTimeline) ovOffset(key float64, out []int) {
	for _, o := range t.ov {
		if o.s <= key && key < o.e {
			for k, a := range o.q {
				out[k] += o.sign * a
			}
		}
	}
}

// ovUniform reports whether no overlay end lies in (lo, hi], so that the
// overlays change every key of [lo, hi] alike.
func (t *treeTimeline) ovUniform(lo, hi float64) bool {
	for _, o := range t.ov {
		if (lo < o.s && o.s <= hi) || (lo < o.e && o.e <= hi) {
			return false
		}
	}
	return true
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

// firstConflict finds the first breakpoint from floor(lo) before hi where
// some pool is below q (or below zero): one pass guided by the per-pool
// minima.
func (t *treeTimeline) firstConflict(lo, hi float64, q []int) (float64, bool) {
	f := t.floorKey(lo)
	t.need = t.need[:0]
	for k := range t.n {
		w := 0
		if q != nil {
			w = max(q[k], 0)
		}
		t.need = append(t.need, w)
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
