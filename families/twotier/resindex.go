package twotier

// resIndex holds the waiting reservations ordered by (Start, seq) in a
// treap, so that booking and removing one is O(log R) for R reservations
// instead of the O(R) shift of a sorted slice. Every node also keeps the
// latest End of its subtree, so the reservations overlapping an instant
// are found without visiting those that ended before it.
//
// A node keeps its reservation's Start and End beside the links, read by
// every step of a search: a reservation's Start changes only while it is
// out of the index (DeleteReservation, then AddReservation), so the copy
// stays exact, and the stabbing query (over) reads the Reservation itself
// only for the nodes it reports. It also keeps the pools the reservation
// uses (its Demand, fixed for its life), so that the stabbing query passes
// over, without reading them, the reservations that use none of the pools
// short at a conflict: they cannot be candidates (Plan.candidates).
//
// The what-ifs of one job's attempts (Figure 4) meet the same conflict
// instants again and again on an index that has not changed (a failed
// attempt books nothing), so the stabbing query remembers its last
// stabKeep answers, for every pool, with the version of the index they
// were read from (ver, which every insertion and removal moves on); an
// instant asked again on the same version is answered from them.
type resIndex struct {
	nodes []resNode // nodes[0] is the empty tree
	free  []int32
	root  int32
	rng   uint64
	n     int
	list  []*Reservation // in order; valid while !dirty
	dirty bool
	ver   uint64
	stabs [stabKeep]stab
	next  int // the entry of stabs the next answer replaces
}

// stabKeep is how many stabbing answers resIndex remembers.
const stabKeep = 4

// stab is one remembered stabbing query: every reservation overlapping t
// (latest start first) and the pools each uses, as the index was at
// version ver.
type stab struct {
	made  bool
	t     float64
	ver   uint64
	res   []*Reservation
	pools []uint64
}

type resNode struct {
	start, end float64 // res.Start and res.End() when it was inserted
	maxEnd     float64 // latest end in the subtree
	res        *Reservation
	pools      uint64 // poolMask(res.Demand)
	l, r       int32
	pri        uint32
}

// poolMask returns the set of pools k with demand[k] > 0: bit k for the
// first 63 pools, bit 63 for any pool beyond them.
func poolMask(demand []int) uint64 {
	var m uint64
	for k, d := range demand {
		if d > 0 {
			m |= poolBit(k)
		}
	}
	return m
}

// poolBit is pool k's bit in a poolMask.
func poolBit(k int) uint64 { return 1 << min(k, 63) }

func newResIndex() *resIndex {
	return &resIndex{nodes: make([]resNode, 1), rng: 0x2545f4914f6cdd1d}
}

// resLess reports whether a sorts before b.
func resLess(a, b *Reservation) bool {
	return a.Start < b.Start || (a.Start == b.Start && a.seq < b.seq)
}

func (ix *resIndex) alloc(r *Reservation) int32 {
	var x int32
	if k := len(ix.free); k > 0 {
		x = ix.free[k-1]
		ix.free = ix.free[:k-1]
	} else {
		x = int32(len(ix.nodes))
		ix.nodes = append(ix.nodes, resNode{})
	}
	ix.rng ^= ix.rng >> 12
	ix.rng ^= ix.rng << 25
	ix.rng ^= ix.rng >> 27
	e := r.End()
	ix.nodes[x] = resNode{start: r.Start, end: e, maxEnd: e, res: r, pools: poolMask(r.Demand), pri: uint32((ix.rng * 2685821657736338717) >> 32)}
	return x
}

func (ix *resIndex) pull(x int32) {
	nd := &ix.nodes[x]
	m := nd.end
	if nd.l != 0 {
		m = max(m, ix.nodes[nd.l].maxEnd)
	}
	if nd.r != 0 {
		m = max(m, ix.nodes[nd.r].maxEnd)
	}
	nd.maxEnd = m
}

func (ix *resIndex) insert(r *Reservation) {
	ix.root = ix.ins(ix.root, r)
	ix.n++
	ix.dirty = true
	ix.ver++
}

func (ix *resIndex) ins(x int32, r *Reservation) int32 {
	if x == 0 {
		return ix.alloc(r)
	}
	if resLess(r, ix.nodes[x].res) {
		c := ix.ins(ix.nodes[x].l, r)
		ix.nodes[x].l = c
		if ix.nodes[c].pri > ix.nodes[x].pri {
			ix.nodes[x].l = ix.nodes[c].r
			ix.nodes[c].r = x
			ix.pull(x)
			ix.pull(c)
			return c
		}
		ix.pull(x)
		return x
	}
	c := ix.ins(ix.nodes[x].r, r)
	ix.nodes[x].r = c
	if ix.nodes[c].pri > ix.nodes[x].pri {
		ix.nodes[x].r = ix.nodes[c].l
		ix.nodes[c].l = x
		ix.pull(x)
		ix.pull(c)
		return c
	}
	ix.pull(x)
	return x
}

// remove deletes r; it reports whether r was there.
func (ix *resIndex) remove(r *Reservation) bool {
	var ok bool
	ix.root, ok = ix.del(ix.root, r)
	if ok {
		ix.n--
		ix.dirty = true
		ix.ver++
	}
	return ok
}

func (ix *resIndex) del(x int32, r *Reservation) (int32, bool) {
	if x == 0 {
		return 0, false
	}
	nd := &ix.nodes[x]
	if nd.res == r {
		ix.free = append(ix.free, x)
		nd.res = nil
		return ix.merge(nd.l, nd.r), true
	}
	var ok bool
	if resLess(r, nd.res) {
		c, found := ix.del(nd.l, r)
		ix.nodes[x].l, ok = c, found
	} else {
		c, found := ix.del(nd.r, r)
		ix.nodes[x].r, ok = c, found
	}
	if ok {
		ix.pull(x)
	}
	return x, ok
}

func (ix *resIndex) merge(a, b int32) int32 {
	if a == 0 {
		return b
	}
	if b == 0 {
		return a
	}
	if ix.nodes[a].pri > ix.nodes[b].pri {
		ix.nodes[a].r = ix.merge(ix.nodes[a].r, b)
		ix.pull(a)
		return a
	}
	ix.nodes[b].l = ix.merge(a, ix.nodes[b].l)
	ix.pull(b)
	return b
}

// first returns the reservation that sorts first, or nil.
func (ix *resIndex) first() *Reservation {
	x := ix.root
	if x == 0 {
		return nil
	}
	for ix.nodes[x].l != 0 {
		x = ix.nodes[x].l
	}
	return ix.nodes[x].res
}

// overlapping appends to out every reservation with Start ≤ t < End that
// uses a pool of the poolMask pools (all: ^0), latest start first.
func (ix *resIndex) overlapping(t float64, pools uint64, out []*Reservation) []*Reservation {
	var e *stab
	for i := range ix.stabs {
		if c := &ix.stabs[i]; c.made && c.ver == ix.ver && c.t == t {
			e = c
			break
		}
	}
	if e == nil {
		e = &ix.stabs[ix.next]
		ix.next = (ix.next + 1) % stabKeep
		*e = stab{made: true, t: t, ver: ix.ver, res: e.res[:0], pools: e.pools[:0]}
		ix.over(ix.root, t, e)
	}
	for i, r := range e.res {
		if e.pools[i]&pools != 0 {
			out = append(out, r)
		}
	}
	return out
}

// over appends to e the reservations of subtree x that overlap t, latest
// start first.
func (ix *resIndex) over(x int32, t float64, e *stab) {
	for x != 0 {
		nd := &ix.nodes[x]
		if nd.maxEnd <= t {
			return
		}
		if nd.start > t {
			x = nd.l
			continue
		}
		ix.over(nd.r, t, e)
		if nd.end > t {
			e.res = append(e.res, nd.res)
			e.pools = append(e.pools, nd.pools)
		}
		x = nd.l
	}
}

// all returns the reservations in order; the slice is the index's own.
func (ix *resIndex) all() []*Reservation {
	if ix.dirty {
		ix.list = ix.list[:0]
		ix.list = ix.collect(ix.root, ix.list)
		ix.dirty = false
	}
	return ix.list
}

func (ix *resIndex) collect(x int32, out []*Reservation) []*Reservation {
	for x != 0 {
		out = ix.collect(ix.nodes[x].l, out)
		out = append(out, ix.nodes[x].res)
		x = ix.nodes[x].r
	}
	return out
}
