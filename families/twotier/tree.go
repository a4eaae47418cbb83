package twotier

import (
	"math"
	"slices"
)

// Node sizes of treeTimeline. Leaves are kept small so that, in a densely
// packed plan, a leaf spans less than a typical job: the scan of earliest
// then settles whole leaves from their summaries in the parent without
// reading them. Tuned with BenchmarkTimeline.
const (
	leafCap = 8
	fanout  = 16
)

// bnode is a node of treeTimeline's B+ tree. A leaf holds up to leafCap
// breakpoints in key order: key, reference count, and the change of
// availability there (n ints per key). An internal node holds up to fanout
// children and, for each, a summary of it: its first and last key and, per
// pool, the sum of the changes below it and the minimum and maximum of
// their running sums. A node's slices have room for one entry more than
// its capacity, for the moment before a split.
//
// An internal node also keeps, when pre is set, the prefix sums of its
// children's sums: cpre[i·n:(i+1)·n] is the sum of the changes of children
// 0 … i−1 (cpre[0:n] zero). The walks that pass over the children before a
// key (floor, and the scans from ff, after or lo) add that one vector
// instead of a sum per child passed (before). Any change of a child's
// summary or of the children clears pre (changed); the next walk that
// needs the prefixes rebuilds them, one sum per child. Bookings are rare
// next to walks (most what-ifs book nothing), so most walks find them
// ready. Integer sums: the prefix is the same whichever way it is added.
type bnode struct {
	leaf bool
	m    int // keys (leaf) or children (internal)

	keys  []float64
	cnt   []int32
	delta []int

	kids           []*bnode
	clo, chi       []float64
	csum, cmn, cmx []int
	cpre           []int
	pre            bool
}

// treeTimeline keeps, per breakpoint, the change of availability there (the
// origin's change is the whole availability at the origin), in a B+ tree
// keyed by time whose internal nodes summarise each child: the
// availability at a breakpoint is the sum of all changes up to it, and the
// extremes of the availability over a child are the prefix before it plus
// the child's extremes.
//
// Booking or releasing an interval changes two breakpoints, never a range:
// two root-to-leaf passes that recompute one summary per level, O(n·(L +
// F·log_F B)) for n pools, B breakpoints, leaves of L keys and fanout F,
// with no lazy propagation. Locating the first or last breakpoint of a
// range where some pool is short of a demand is one pass (the per-pool
// minima answer it exactly). Finding a window of a given length where
// every pool is sufficient is the hard query; see earliestWith.
type treeTimeline struct {
	n     int
	root  *bnode
	base  float64
	count int // breakpoints

	need  []int
	tmp   []int
	sum   []int // summary scratch
	slots [][]int
	hbuf  [][]int // scratch of the single-path descents

	// state of one earliestWith scan
	s0, dur, limit, ff float64
	open, pend         bool
	runStart, pendLo   float64 // see earliestWith
	pendX              *bnode
	pendP              []int

	// overlays of an earliestWith scan
	hasOv     bool
	ov        []overlay
	ovB       []float64 // overlay ends, sorted: they cut time into segments
	ovSeg     []int     // per segment, n ints: the overlays' change there
	ovC       int       // segment of the last key looked up
	vkeys     []float64 // overlay ends after ff, sorted (some are breakpoints)
	vi        int       // next of vkeys to visit
	lastAvail []int     // true availability at the last breakpoint visited
	ovP       []int
	ovA       []int
	ovV       []int
}

func newTreeTimeline(origin float64, caps []int) *treeTimeline {
	n := len(caps)
	t := &treeTimeline{n: n, base: origin}
	t.tmp = make([]int, n)
	t.sum = make([]int, 3*n)
	t.pendP = make([]int, n)
	t.lastAvail = make([]int, n)
	t.ovP = make([]int, n)
	t.ovA = make([]int, n)
	t.ovV = make([]int, n)
	t.root = t.newLeaf()
	t.point(origin, caps, 1, baseCount)
	return t
}

func (t *treeTimeline) newLeaf() *bnode {
	return &bnode{leaf: true, keys: make([]float64, leafCap+1), cnt: make([]int32, leafCap+1), delta: make([]int, (leafCap+1)*t.n)}
}

func (t *treeTimeline) newInner() *bnode {
	c := (fanout + 1) * t.n
	return &bnode{kids: make([]*bnode, fanout+1), clo: make([]float64, fanout+1), chi: make([]float64, fanout+1),
		csum: make([]int, c), cmn: make([]int, c), cmx: make([]int, c), cpre: make([]int, c+t.n)}
}

// changed records that x's children or their summaries changed: its
// prefix sums are rebuilt when next asked for.
func (x *bnode) changed() { x.pre = false }

// before returns the sum of the changes of internal node x's children 0 …
// i−1 (0 ≤ i ≤ x.m), rebuilding x's prefix sums if a change cleared them.
func (t *treeTimeline) before(x *bnode, i int) []int {
	n := t.n
	if !x.pre {
		clear(x.cpre[:n])
		for j := range x.m {
			o := j * n
			setVec(x.cpre[o+n:o+2*n], x.cpre[o:o+n])
			add(x.cpre[o+n:o+2*n], x.csum[o:o+n])
		}
		x.pre = true
	}
	return x.cpre[i*n : i*n+n]
}

// childFrom returns the first child of internal node x whose last key is
// at or after key (x.m if none): the children before it lie wholly
// before key.
func (x *bnode) childFrom(key float64) int {
	i := 0
	for i < x.m && x.chi[i] < key {
		i++
	}
	return i
}

// childAfter returns the first child of internal node x whose last key is
// after key (x.m if none).
func (x *bnode) childAfter(key float64) int {
	i := 0
	for i < x.m && x.chi[i] <= key {
		i++
	}
	return i
}

func (x *bnode) first() float64 {
	if x.leaf {
		return x.keys[0]
	}
	return x.clo[0]
}

func (x *bnode) last() float64 {
	if x.leaf {
		return x.keys[x.m-1]
	}
	return x.chi[x.m-1]
}

// summarize writes x's summary (sum, running minimum and maximum per pool)
// into sum, mn and mx.
func (t *treeTimeline) summarize(x *bnode, sum, mn, mx []int) {
	n := t.n
	sum, mn, mx = sum[:n:n], mn[:n:n], mx[:n:n]
	clear(sum)
	for k := range mn {
		mn[k], mx[k] = math.MaxInt, math.MinInt
	}
	if x.leaf {
		for j := range x.m {
			d := x.delta[j*n : j*n+n : j*n+n]
			for k := range sum {
				a := sum[k] + d[k]
				sum[k] = a
				mn[k] = min(mn[k], a)
				mx[k] = max(mx[k], a)
			}
		}
		return
	}
	for i := range x.m {
		o := i * n
		cs, cn, cx := x.csum[o:o+n:o+n], x.cmn[o:o+n:o+n], x.cmx[o:o+n:o+n]
		for k := range sum {
			p := sum[k]
			mn[k] = min(mn[k], p+cn[k])
			mx[k] = max(mx[k], p+cx[k])
			sum[k] = p + cs[k]
		}
	}
}

// setSlot refreshes x's summary of child i.
func (t *treeTimeline) setSlot(x *bnode, i int) {
	n := t.n
	c := x.kids[i]
	o := i * n
	t.summarize(c, x.csum[o:o+n], x.cmn[o:o+n], x.cmx[o:o+n])
	x.clo[i], x.chi[i] = c.first(), c.last()
	x.changed()
}

// child returns the index of the child of internal node x whose range
// holds key: the last one starting at or before it (the first if none).
func (x *bnode) child(key float64) int {
	i := 1
	for i < x.m && x.clo[i] <= key {
		i++
	}
	return i - 1
}

// update adds sign·d to the change at key and dc to its count in subtree
// x, creating the breakpoint if needed and deleting it when its count
// drops to zero; dc == baseCount makes it the origin. It returns x's new
// right sibling if x had to split.
func (t *treeTimeline) update(x *bnode, key float64, d []int, sign int, dc int32) *bnode {
	n := t.n
	if x.leaf {
		j := 0
		for j < x.m && x.keys[j] < key {
			j++
		}
		if j < x.m && x.keys[j] == key {
			v := x.delta[j*n : j*n+n]
			for k, a := range d {
				v[k] += sign * a
			}
			switch {
			case dc == baseCount:
				x.cnt[j] = baseCount
			case x.cnt[j] != baseCount:
				x.cnt[j] += dc
				if x.cnt[j] <= 0 {
					copy(x.keys[j:], x.keys[j+1:x.m])
					copy(x.cnt[j:], x.cnt[j+1:x.m])
					copy(x.delta[j*n:], x.delta[(j+1)*n:x.m*n])
					x.m--
					t.count--
				}
			}
			return nil
		}
		copy(x.keys[j+1:], x.keys[j:x.m])
		copy(x.cnt[j+1:], x.cnt[j:x.m])
		copy(x.delta[(j+1)*n:], x.delta[j*n:x.m*n])
		x.keys[j], x.cnt[j] = key, dc
		v := x.delta[j*n : j*n+n]
		for k, a := range d {
			v[k] = sign * a
		}
		x.m++
		t.count++
		if x.m > leafCap {
			return t.splitLeaf(x)
		}
		return nil
	}
	i := x.child(key)
	sib := t.update(x.kids[i], key, d, sign, dc)
	if x.kids[i].m == 0 {
		t.removeKid(x, i)
		return nil
	}
	t.setSlot(x, i)
	if sib == nil {
		return nil
	}
	t.insertKid(x, i+1, sib)
	if x.m > fanout {
		return t.splitInner(x)
	}
	return nil
}

func (t *treeTimeline) splitLeaf(x *bnode) *bnode {
	n := t.n
	y := t.newLeaf()
	h := x.m / 2
	y.m = x.m - h
	copy(y.keys, x.keys[h:x.m])
	copy(y.cnt, x.cnt[h:x.m])
	copy(y.delta, x.delta[h*n:x.m*n])
	x.m = h
	return y
}

func (t *treeTimeline) splitInner(x *bnode) *bnode {
	n := t.n
	y := t.newInner()
	h := x.m / 2
	y.m = x.m - h
	copy(y.kids, x.kids[h:x.m])
	copy(y.clo, x.clo[h:x.m])
	copy(y.chi, x.chi[h:x.m])
	copy(y.csum, x.csum[h*n:x.m*n])
	copy(y.cmn, x.cmn[h*n:x.m*n])
	copy(y.cmx, x.cmx[h*n:x.m*n])
	clear(x.kids[h:x.m])
	x.m = h
	x.changed()
	return y
}

func (t *treeTimeline) insertKid(x *bnode, i int, c *bnode) {
	n := t.n
	copy(x.kids[i+1:], x.kids[i:x.m])
	copy(x.clo[i+1:], x.clo[i:x.m])
	copy(x.chi[i+1:], x.chi[i:x.m])
	copy(x.csum[(i+1)*n:], x.csum[i*n:x.m*n])
	copy(x.cmn[(i+1)*n:], x.cmn[i*n:x.m*n])
	copy(x.cmx[(i+1)*n:], x.cmx[i*n:x.m*n])
	x.kids[i] = c
	x.m++
	t.setSlot(x, i)
}

func (t *treeTimeline) removeKid(x *bnode, i int) {
	n := t.n
	copy(x.kids[i:], x.kids[i+1:x.m])
	copy(x.clo[i:], x.clo[i+1:x.m])
	copy(x.chi[i:], x.chi[i+1:x.m])
	copy(x.csum[i*n:], x.csum[(i+1)*n:x.m*n])
	copy(x.cmn[i*n:], x.cmn[(i+1)*n:x.m*n])
	copy(x.cmx[i*n:], x.cmx[(i+1)*n:x.m*n])
	x.m--
	x.kids[x.m] = nil
	x.changed()
}

// point books the change sign·q at key (clipped to the origin, where it
// does not count as an endpoint).
func (t *treeTimeline) point(key float64, q []int, sign int, dc int32) {
	if math.IsInf(key, 1) {
		return
	}
	if key <= t.base {
		key = t.base
		if dc != baseCount {
			dc = 0
		}
	}
	if sib := t.update(t.root, key, q, sign, dc); sib != nil {
		r := t.newInner()
		r.kids[0], r.kids[1], r.m = t.root, sib, 2
		t.setSlot(r, 0)
		t.setSlot(r, 1)
		t.root = r
	}
	for !t.root.leaf && t.root.m == 1 {
		t.root = t.root.kids[0]
	}
}

func (t *treeTimeline) reserve(s, e float64, q []int) {
	t.point(s, q, -1, 1)
	t.point(e, q, 1, 1)
}

func (t *treeTimeline) unreserve(s, e float64, q []int) {
	t.point(s, q, 1, -1)
	t.point(e, q, -1, -1)
}

func (t *treeTimeline) advance(now float64) {
	if now <= t.base {
		return
	}
	// The availability at now becomes the origin's change; every
	// breakpoint up to now goes.
	a := make([]int, t.n)
	t.floor(now, a)
	if t.cut(t.root, now) {
		t.root = t.newLeaf()
	}
	t.base = now
	t.point(now, a, 1, baseCount)
}

// cut removes the keys ≤ at from subtree x; it reports whether x is empty.
func (t *treeTimeline) cut(x *bnode, at float64) bool {
	n := t.n
	if x.leaf {
		j := 0
		for j < x.m && x.keys[j] <= at {
			j++
		}
		copy(x.keys, x.keys[j:x.m])
		copy(x.cnt, x.cnt[j:x.m])
		copy(x.delta, x.delta[j*n:x.m*n])
		x.m -= j
		t.count -= j
		return x.m == 0
	}
	drop := 0
	for drop < x.m && x.chi[drop] <= at {
		t.count -= t.size(x.kids[drop])
		drop++
	}
	for range drop {
		t.removeKid(x, 0)
	}
	if x.m > 0 && x.clo[0] <= at {
		if t.cut(x.kids[0], at) {
			t.removeKid(x, 0)
		} else {
			t.setSlot(x, 0)
		}
	}
	return x.m == 0
}

func (t *treeTimeline) size(x *bnode) int {
	if x.leaf {
		return x.m
	}
	s := 0
	for _, c := range x.kids[:x.m] {
		s += t.size(c)
	}
	return s
}

// floor returns the largest key ≤ at (the origin if at is before it) and
// the availability there in out.
func (t *treeTimeline) floor(at float64, out []int) float64 {
	n := t.n
	at = max(at, t.base)
	clear(out)
	x := t.root
	for !x.leaf {
		i := x.child(at)
		if i > 0 {
			add(out, t.before(x, i))
		}
		x = x.kids[i]
	}
	best := t.base
	for j := 0; j < x.m && x.keys[j] <= at; j++ {
		add(out, x.delta[j*n:j*n+n])
		best = x.keys[j]
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
	for !x.leaf {
		x = x.kids[x.child(at)]
	}
	best := t.base
	for j := 0; j < x.m && x.keys[j] <= at; j++ {
		best = x.keys[j]
	}
	return best
}

// successor returns the first breakpoint after key.
func (t *treeTimeline) successor(key float64) (float64, bool) {
	cand, ok := 0.0, false
	x := t.root
	for !x.leaf {
		if key < x.clo[0] {
			return x.clo[0], true
		}
		i := x.child(key)
		if i+1 < x.m {
			cand, ok = x.clo[i+1], true
		}
		x = x.kids[i]
	}
	for j := range x.m {
		if x.keys[j] > key {
			return x.keys[j], true
		}
	}
	return cand, ok
}

func (t *treeTimeline) breakpoints() int { return t.count }

// slot returns the prefix vector of scan depth d.
func (t *treeTimeline) slot(d int) []int {
	for len(t.slots) <= d {
		t.slots = append(t.slots, make([]int, t.n))
	}
	return t.slots[d]
}

// hslot returns the scratch vector of descent depth d.
func (t *treeTimeline) hslot(d int) []int {
	for len(t.hbuf) <= d {
		t.hbuf = append(t.hbuf, make([]int, t.n))
	}
	return t.hbuf[d]
}

// short reports whether p+lo falls below need on some constrained pool;
// with lo a child's minima, whether some breakpoint of it is short.
func short(p, lo, need []int) bool {
	p, lo = p[:len(need)], lo[:len(need)]
	for k, w := range need {
		if p[k]+lo[k] < w {
			return true
		}
	}
	return false
}

// firstBadIn returns the first breakpoint of subtree x (prefix p) short of
// need; the subtree must hold one. The per-pool minima locate it exactly:
// one pass down.
func (t *treeTimeline) firstBadIn(x *bnode, p []int, need []int) float64 {
	n := t.n
	for d := 0; ; d++ {
		cur := t.hslot(d)
		setVec(cur, p)
		if x.leaf {
			for j := range x.m {
				add(cur, x.delta[j*n:j*n+n])
				if shortAt(cur, need) {
					return x.keys[j]
				}
			}
			panic("twotier: firstBadIn on a subtree without a violation")
		}
		i := 0
		for ; i < x.m; i++ {
			if short(cur, x.cmn[i*n:i*n+n], need) {
				break
			}
			add(cur, x.csum[i*n:i*n+n])
		}
		if i == x.m {
			panic("twotier: firstBadIn on a subtree without a violation")
		}
		x, p = x.kids[i], cur
	}
}

// lastBadIn finds the last breakpoint of subtree x (prefix p) short of
// need (the subtree must hold one) and returns the breakpoint after it
// inside the subtree, if any.
func (t *treeTimeline) lastBadIn(x *bnode, p []int, need []int) (next float64, ok bool) {
	n := t.n
	for d := 0; ; d += 2 {
		cur, at := t.hslot(d), t.hslot(d+1)
		setVec(cur, p)
		if x.leaf {
			bad := -1
			for j := range x.m {
				add(cur, x.delta[j*n:j*n+n])
				if shortAt(cur, need) {
					bad = j
				}
			}
			if bad < 0 {
				panic("twotier: lastBadIn on a subtree without a violation")
			}
			if bad+1 < x.m {
				return x.keys[bad+1], true
			}
			return next, ok
		}
		bad := -1
		for i := range x.m {
			if short(cur, x.cmn[i*n:i*n+n], need) {
				bad = i
				setVec(at, cur)
			}
			add(cur, x.csum[i*n:i*n+n])
		}
		if bad < 0 {
			panic("twotier: lastBadIn on a subtree without a violation")
		}
		if bad+1 < x.m {
			next, ok = x.clo[bad+1], true
		}
		x, p = x.kids[bad], at
	}
}

// earliest: see earliestWith.
func (t *treeTimeline) earliest(from, dur float64, q []int, limit float64) float64 {
	return t.earliestWith(from, dur, q, limit, nil)
}

// earliestWith scans the breakpoints from floor(from) in key order, keeping
// the start of the current run of breakpoints where q fits; the first run
// that lasts dur is the answer. It settles whole children from their
// summaries where it can: a child where q fits everywhere (per-pool minima)
// extends the run, one where some pool is short everywhere (per-pool
// maxima) ends it, and a mixed child whose keys span less than dur cannot
// hold a whole window, so only its first violation (which ends the run)
// and its last one (after which a run may start) matter; each is one pass
// down the child, and each is made only when the answer depends on it.
// Only mixed children spanning dur or more are opened. The cost is
// therefore about O(n·F) per stretch of length dur scanned, not per
// breakpoint.
//
// The overlays ov are added to the availability the scan sees. A child is
// settled from its summary only if no overlay end falls inside its key
// range, so that one offset holds for all of it; the ends that are not
// breakpoints are visited as breakpoints of their own, with the
// availability of the breakpoint before them. That opens O(log B) more
// nodes per overlay.
func (t *treeTimeline) earliestWith(from, dur float64, q []int, limit float64, ov []overlay) float64 {
	t.need = needOf(q, t.need)
	t.s0 = max(from, t.base)
	if t.s0 > limit {
		return math.Inf(1)
	}
	t.dur, t.limit = dur, limit
	t.open, t.pend = false, false
	t.ff = t.floorKey(t.s0)
	// Only the overlays that overlap a window the scan can consider,
	// [s0, limit+dur), change its answer.
	t.setOverlays(ov, t.s0, limit+dur)
	p := t.slot(0)
	clear(p)
	st := t.scan(t.root, p, 0)
	if st == more && t.hasOv {
		st = t.emitVirtual(math.Inf(1))
	}
	t.hasOv = false
	if st == more && t.pend {
		st = t.resolve()
	}
	if st == found || st == more && t.open {
		return t.runStart
	}
	return math.Inf(1)
}

type walkState int

const (
	more   walkState = iota
	found            // the run under way is the answer
	stop             // no answer up to the limit
	opened           // (piece) the child must be scanned key by key
)

// scan feeds the keys ≥ ff of subtree x (p: the prefix before it, owned by
// the call) to the run logic, settling children as pieces where it can.
func (t *treeTimeline) scan(x *bnode, p []int, depth int) walkState {
	n := t.n
	if x.leaf {
		for j := range x.m {
			add(p, x.delta[j*n:j*n+n])
			if x.keys[j] < t.ff {
				continue
			}
			if st := t.visit(x.keys[j], p); st != more {
				return st
			}
		}
		return more
	}
	// The children wholly before ff add their changes to p and nothing
	// else.
	i0 := x.childFrom(t.ff)
	if i0 == x.m {
		return more
	}
	if i0 > 0 {
		add(p, t.before(x, i0))
	}
	for i := i0; i < x.m; i++ {
		o := i * n
		st := opened
		if x.clo[i] >= t.ff {
			st = t.piece(x, i, p)
		}
		if st == opened {
			c := t.slot(depth + 1)
			setVec(c, p)
			st = t.scan(x.kids[i], c, depth+1)
		}
		if st != more {
			return st
		}
		add(p, x.csum[o:o+n])
		if t.hasOv {
			setVec(t.lastAvail, p)
		}
	}
	return more
}

// piece settles child i of x (prefix p) from its summary if it can; it
// returns opened if the child must be scanned.
func (t *treeTimeline) piece(x *bnode, i int, p []int) walkState {
	n := t.n
	lo, hi := x.clo[i], x.chi[i]
	pp := p
	if t.hasOv {
		if st := t.emitVirtual(lo); st != more {
			return st
		}
		c, uniform := t.ovUniform(lo, hi)
		if !uniform {
			return opened
		}
		pp = t.ovP
		setVec(pp, p)
		add(pp, t.ovSeg[c*n:c*n+n])
	}
	if t.pend && lo >= t.pendLo+t.dur {
		if st := t.resolve(); st != more {
			return st
		}
	}
	if t.open && lo >= t.runStart+t.dur {
		return found
	}
	if !t.open && !t.pend && lo > t.limit {
		return stop // a run would start at lo or later
	}
	o := i * n
	mn, mx := x.cmn[o:o+n:o+n], x.cmx[o:o+n:o+n]
	pp = pp[:n:n]
	// good: q fits throughout the child (pp+mn ≥ need on every pool);
	// none: some pool is short throughout it (pp+mx < need on one; mx ≥
	// mn, so none implies !good). Written out for Table 6's five pools,
	// as in vec.go: the test is made for every child settled.
	good, none := true, false
	if need := t.need; len(need) == table6Pools {
		need, pp := need[:table6Pools:table6Pools], pp[:table6Pools:table6Pools]
		mn, mx := mn[:table6Pools:table6Pools], mx[:table6Pools:table6Pools]
		none = pp[0]+mx[0] < need[0] || pp[1]+mx[1] < need[1] || pp[2]+mx[2] < need[2] || pp[3]+mx[3] < need[3] || pp[4]+mx[4] < need[4]
		good = !none && pp[0]+mn[0] >= need[0] && pp[1]+mn[1] >= need[1] && pp[2]+mn[2] >= need[2] && pp[3]+mn[3] >= need[3] && pp[4]+mn[4] >= need[4]
	} else {
		for k, w := range need {
			if pp[k]+mn[k] < w {
				good = false
				if pp[k]+mx[k] < w {
					none = true
					break
				}
			}
		}
	}
	switch {
	case good: // q fits throughout the child
		if t.pend {
			if st := t.resolve(); st != more {
				return st
			}
		}
		if !t.open {
			return t.startRun(lo)
		}
		return more
	case none: // some pool is short throughout the child
		t.open, t.pend = false, false
		if hi >= t.limit {
			return stop // any later run starts after hi
		}
		return more
	case hi-lo < t.dur: // no window fits inside the child
		if t.pend {
			if hi < t.pendLo+t.dur {
				t.pend = false // that run ends here, too soon
			} else if st := t.resolve(); st != more {
				return st
			}
		}
		if t.open && hi >= t.runStart+t.dur && t.firstBadIn(x.kids[i], pp, t.need) >= t.runStart+t.dur {
			return found
		}
		t.open = false
		if lo >= t.limit {
			return stop
		}
		// A run may start after the child's last violation: found only
		// if the answer comes to depend on it.
		t.pend, t.pendX, t.pendLo = true, x.kids[i], lo
		setVec(t.pendP, pp)
		return more
	}
	return opened
}

// resolve settles a pending run start: the breakpoint after pendX's last
// violation, or none when its last breakpoint is short (then the run, if
// any, starts at the next fitting piece).
func (t *treeTimeline) resolve() walkState {
	t.pend = false
	next, ok := t.lastBadIn(t.pendX, t.pendP, t.need)
	if !ok {
		return more
	}
	return t.startRun(next)
}

func (t *treeTimeline) startRun(at float64) walkState {
	t.runStart = max(at, t.s0)
	if t.runStart > t.limit {
		return stop
	}
	t.open = true
	return more
}

// visit processes the breakpoint at key, whose true availability is a.
func (t *treeTimeline) visit(key float64, a []int) walkState {
	if t.hasOv {
		if st := t.emitVirtual(key); st != more {
			return st
		}
		setVec(t.lastAvail, a)
		setVec(t.ovA, a)
		t.ovOffset(key, t.ovA)
		a = t.ovA
	}
	return t.visitAvail(key, a)
}

// visitAvail processes one breakpoint at key with availability a.
func (t *treeTimeline) visitAvail(key float64, a []int) walkState {
	if t.pend && key >= t.pendLo+t.dur {
		if st := t.resolve(); st != more {
			return st
		}
	}
	if t.open && key >= t.runStart+t.dur {
		return found
	}
	if shortAt(a, t.need) {
		t.open, t.pend = false, false
		if key >= t.limit {
			return stop
		}
		return more
	}
	if t.pend {
		if st := t.resolve(); st != more {
			return st
		}
	}
	if !t.open {
		return t.startRun(key)
	}
	return more
}

// setOverlays clips ov to the origin, keeps those that overlap [lo, hi),
// cuts time into segments at their ends with the overlays' total change in
// each, and lists the ends after ff.
//
// A what-if's scans see a handful of overlays (2.7 on average in the
// heavy seed-004 cell), so the ends are sorted by insertion and each
// overlay's segments found by a linear search: no generic sort or binary
// search, for the same table.
func (t *treeTimeline) setOverlays(ov []overlay, lo, hi float64) {
	n := t.n
	t.ov, t.ovB = t.ov[:0], t.ovB[:0]
	t.vi, t.ovC = 0, 0
	for _, o := range ov {
		if o.s <= t.base {
			o.s = t.base // max(o.s, t.base) for the starts there are (never NaN), without its NaN and −0 steps
		}
		if !(o.e > o.s) || o.e <= lo || o.s >= hi {
			continue
		}
		t.ov = append(t.ov, o)
		t.ovB = insertEnd(t.ovB, o.s)
		if !math.IsInf(o.e, 1) {
			t.ovB = insertEnd(t.ovB, o.e)
		}
	}
	t.hasOv = len(t.ov) > 0
	if !t.hasOv {
		t.vkeys = t.vkeys[:0]
		return
	}
	b := t.ovB
	// Segment j is [b[j-1], b[j]); add each overlay's change where it
	// starts and take it back where it ends, then sum up.
	segs := (len(b) + 1) * n
	if cap(t.ovSeg) < segs {
		t.ovSeg = make([]int, segs)
	}
	seg := t.ovSeg[:segs]
	clear(seg)
	for _, o := range t.ov {
		i := 0
		for b[i] != o.s {
			i++
		}
		j := len(b)
		if !math.IsInf(o.e, 1) {
			j = i + 1
			for b[j] != o.e {
				j++
			}
		}
		// The change where the overlay starts, taken back where it ends
		// (none for an overlay to +Inf): addSigned's two calls.
		addSigned(seg[(i+1)*n:(i+2)*n], o.q, o.sign)
		if j < len(b) {
			addSigned(seg[(j+1)*n:(j+2)*n], o.q, -o.sign)
		}
	}
	for j := 1; j <= len(b); j++ {
		add(seg[j*n:j*n+n], seg[(j-1)*n:j*n])
	}
	t.ovSeg = seg
	// The ends after ff, a suffix of b.
	v := len(b)
	for v > 0 && b[v-1] > t.ff {
		v--
	}
	t.vkeys = b[v:]
	// The first key visited is ff; it sets lastAvail before any overlay
	// end after it comes up.
	clear(t.lastAvail)
}

// insertEnd inserts x into the sorted b unless it is there already.
func insertEnd(b []float64, x float64) []float64 {
	i := len(b)
	for i > 0 && b[i-1] > x {
		i--
	}
	if i > 0 && b[i-1] == x {
		return b
	}
	// slices.Insert, written out: b is a handful of ends, most often
	// appended at its end, where copy's call to memmove would cost more
	// than the loop.
	b = append(b, x)
	for k := len(b) - 1; k > i; k-- {
		b[k] = b[k-1]
	}
	b[i] = x
	return b
}

// seg returns the segment holding key. Scans look up keys in increasing
// order, so it moves a cursor, falling back to a binary search.
func (t *treeTimeline) seg(key float64) int {
	c := t.ovC
	if c > 0 && key < t.ovB[c-1] {
		c, _ = slices.BinarySearch(t.ovB, key)
		if c < len(t.ovB) && t.ovB[c] == key {
			c++
		}
	}
	for c < len(t.ovB) && t.ovB[c] <= key {
		c++
	}
	t.ovC = c
	return c
}

// ovOffset adds to out the overlays' change at key.
func (t *treeTimeline) ovOffset(key float64, out []int) {
	n := t.n
	c := t.seg(key)
	add(out, t.ovSeg[c*n:c*n+n])
}

// ovUniform reports whether no overlay end lies in (lo, hi], so that the
// overlays change every key of [lo, hi] alike, and returns the segment
// holding lo: where they are uniform, its change (ovSeg's c-th) is
// theirs at every key of [lo, hi], added without a second seg.
func (t *treeTimeline) ovUniform(lo, hi float64) (c int, uniform bool) {
	c = t.seg(lo)
	return c, c == len(t.ovB) || t.ovB[c] > hi
}

// emitVirtual visits the overlay ends before lo that are not breakpoints.
//
// It is called with the first key of every piece and every breakpoint
// visited, in order, so an end equal to lo is a breakpoint and is skipped.
func (t *treeTimeline) emitVirtual(lo float64) walkState {
	for t.vi < len(t.vkeys) && t.vkeys[t.vi] < lo {
		b := t.vkeys[t.vi]
		t.vi++
		copy(t.ovV, t.lastAvail)
		t.ovOffset(b, t.ovV)
		if st := t.visitAvail(b, t.ovV); st != more {
			return st
		}
	}
	if t.vi < len(t.vkeys) && t.vkeys[t.vi] == lo {
		t.vi++
	}
	return more
}

// goods appends the breakpoints of subtree x (prefix p, owned by the call)
// in (after, before) where need is met, stopping after max results (max <
// 0: no limit). A child inside the range where need is met throughout is
// copied out without tests, and one where some pool falls short throughout
// is skipped.
func (t *treeTimeline) goods(x *bnode, p []int, depth int, after, before float64, need []int, out []float64, max int) []float64 {
	n := t.n
	if x.leaf {
		for j := 0; j < x.m && max != 0; j++ {
			add(p, x.delta[j*n:j*n+n])
			k := x.keys[j]
			if k >= before {
				break
			}
			if k > after && !shortAt(p, need) {
				out = append(out, k)
				max--
			}
		}
		return out
	}
	i0 := x.childAfter(after) // the children before it end by after
	if i0 > 0 && i0 < x.m {
		add(p, t.before(x, i0))
	}
	for i := i0; i < x.m && max != 0; i++ {
		o := i * n
		lo, hi := x.clo[i], x.chi[i]
		if lo >= before {
			break
		}
		if hi > after && !allShortOn(p, x.cmx[o:o+n], need) {
			if lo > after && hi < before && !short(p, x.cmn[o:o+n], need) {
				l0 := len(out)
				out = t.keysOf(x.kids[i], out, max)
				max -= len(out) - l0
			} else {
				c := t.slot(depth + 1)
				setVec(c, p)
				l0 := len(out)
				out = t.goods(x.kids[i], c, depth+1, after, before, need, out, max)
				max -= len(out) - l0
			}
		}
		add(p, x.csum[o:o+n])
	}
	return out
}

// allShortOn reports whether, on some pool, even p plus the maxima hi is
// below need: every breakpoint of the child is short.
func allShortOn(p, hi, need []int) bool {
	p, hi = p[:len(need)], hi[:len(need)]
	for k, w := range need {
		if p[k]+hi[k] < w {
			return true
		}
	}
	return false
}

// keysOf appends the first max keys of subtree x (max < 0: all).
func (t *treeTimeline) keysOf(x *bnode, out []float64, max int) []float64 {
	if x.leaf {
		m := x.m
		if max >= 0 {
			m = min(m, max)
		}
		return append(out, x.keys[:m]...)
	}
	for i := 0; i < x.m && max != 0; i++ {
		l0 := len(out)
		out = t.keysOf(x.kids[i], out, max)
		max -= len(out) - l0
	}
	return out
}

func (t *treeTimeline) nextFit(after, before float64, q []int) (float64, bool) {
	t.need = needOf(q, t.need)
	p := t.slot(0)
	clear(p)
	// (after, before]: before itself counts, so search up to its successor.
	end, ok := t.successor(before)
	if !ok {
		end = math.Inf(1)
	}
	var one [1]float64
	r := t.goods(t.root, p, 0, after, end, t.need, one[:0], 1)
	if len(r) == 0 {
		return 0, false
	}
	return r[0], true
}

func (t *treeTimeline) fitsBetween(after, before float64, q []int, out []float64) []float64 {
	t.need = needOf(q, t.need)
	p := t.slot(0)
	clear(p)
	return t.goods(t.root, p, 0, after, before, t.need, out, -1)
}

// firstConflict finds the first breakpoint from floor(lo) before hi where
// some pool is below q (or below zero): one pass guided by the per-pool
// minima, plus the two range ends. With overlays, children an overlay end
// falls into are opened, and the overlay ends that are not breakpoints are
// tested on their own.
func (t *treeTimeline) firstConflict(lo, hi float64, q []int, ov []overlay) (float64, bool) {
	t.need = t.need[:0]
	for k := range t.n {
		w := 0
		if q != nil {
			w = max(q[k], 0)
		}
		t.need = append(t.need, w)
	}
	f := t.floorKey(lo)
	t.ff = f
	// Only the overlays that overlap [lo, hi) change the availability
	// there (as in earliestWith).
	t.setOverlays(ov, lo, hi)
	defer func() { t.hasOv = false }()
	// An overlay end that is not a breakpoint, in (f, lo], starts the
	// stretch holding lo: f's stretch then ends before lo.
	from, vi := f, 0
	for vi < len(t.vkeys) && t.vkeys[vi] <= lo {
		from = math.Nextafter(f, math.Inf(1))
		vi++
	}
	p := t.slot(0)
	clear(p)
	key, ok := t.firstShort(t.root, p, 0, from, hi, t.need)
	if vi > 0 {
		vi-- // the overlay end holding lo is tested too
	}
	for ; vi < len(t.vkeys) && t.vkeys[vi] < hi && (!ok || t.vkeys[vi] < key); vi++ {
		b := t.vkeys[vi]
		a := t.ovV
		t.floor(b, a)
		t.ovOffset(b, a)
		if shortAt(a, t.need) {
			key, ok = b, true
			break
		}
	}
	if !ok {
		return 0, false
	}
	return max(key, lo), true
}

// firstShort returns the first key in [lo, hi) of subtree x (prefix p,
// owned by the call) short of need, counting the overlays if any.
func (t *treeTimeline) firstShort(x *bnode, p []int, depth int, lo, hi float64, need []int) (float64, bool) {
	n := t.n
	if x.leaf {
		for j := range x.m {
			add(p, x.delta[j*n:j*n+n])
			k := x.keys[j]
			if k >= hi {
				break
			}
			if k < lo {
				continue
			}
			a := p
			if t.hasOv {
				a = t.ovA
				copy(a, p)
				t.ovOffset(k, a)
			}
			if shortAt(a, need) {
				return k, true
			}
		}
		return 0, false
	}
	i0 := x.childFrom(lo) // the children before it end before lo
	if i0 > 0 && i0 < x.m {
		add(p, t.before(x, i0))
	}
	for i := i0; i < x.m; i++ {
		o := i * n
		clo, chi := x.clo[i], x.chi[i]
		if clo >= hi {
			break
		}
		if chi >= lo {
			whole, pp := true, p
			if t.hasOv {
				var c int
				if c, whole = t.ovUniform(clo, chi); whole {
					pp = t.ovP
					setVec(pp, p)
					add(pp, t.ovSeg[c*n:c*n+n])
				}
			}
			switch {
			case whole && !short(pp, x.cmn[o:o+n], need):
			case whole && clo >= lo && chi < hi:
				return t.firstBadIn(x.kids[i], pp, need), true
			default:
				c := t.slot(depth + 1)
				setVec(c, p)
				if k, ok := t.firstShort(x.kids[i], c, depth+1, lo, hi, need); ok {
					return k, true
				}
			}
		}
		add(p, x.csum[o:o+n])
	}
	return 0, false
}
