package consolidation

import (
	"fmt"
	"math"
	"math/bits"
	"slices"

	"github.com/schedfarm/schedfarm/sim"
)

// vmLists keeps, for each tier, the idle VMs that may take a process in
// eligible's order (ascending usage of the processor's other VM, then
// processor index): the list build sorts from scratch, kept up to date
// instead. A VM's membership and key depend only on the occupants of its
// processor's two VMs, so whenever a processor's occupants change (the
// cluster's occupancy log, sim.Cluster.OccupancyChanges) its entries are
// taken out and put back where they now belong. The order is a total one
// (processors differ), so the kept list is the sorted one, ties included.
//
// The work is done when asked for, in two steps. count brings each
// changed processor's entry (at) and the number of members up to date:
// enough to see that a job does not fit, the common answer in Step 3.
// ordered also mends the sorted list, asked only when VMs are taken from
// it: the entries that changed since (a bit set, so each comes once and in
// index order, and new entries of equal keys are already in order) are
// dropped, and their new entries sorted and merged in.
//
// The VMs whose key is that of usage 0 (the processor's other VM idle:
// about half of them in seed 000's runs) are kept apart, in a bit set
// (zero), where processor order is bit order: no sorting and no merging
// for them. The list then holds the other keys only, and the order asked
// for is the list's keys below zero's, then zero's processors, then the
// rest of the list (ordered's parts). When no member is keyed below zero's
// key (NaN and negative usages are; seed 000's never) and zero holds the
// VMs a pick asks for, the pick is answered from zero alone and the list
// is not mended until a pick reads it (takeFirst).
type vmLists struct {
	sorted, spare [2][]vm
	// zero[tier]: the members keyed as usage 0, bit p%64 of word p/64.
	zero [2][]uint64
	// at[tier][p] is processor p's entry as of the last count; members
	// how many are in. listed[tier][p] is its entry in sorted[tier].
	at, listed [2][]vmEntry
	members    [2]int
	// below[tier]: the members keyed below usage 0 (NaN or negative
	// usages), as of the last count: none, and the bit set alone may
	// answer takeFirst.
	below [2]int
	// changed[tier]: processors whose occupants changed since the last
	// count of tier; moved[tier] (nmoved its size): processors whose entry
	// changed since sorted[tier] was last ordered. Bit p%64 of word p/64.
	changed, moved [2][]uint64
	nmoved         [2]int
	// stale[tier] asks for a rebuild.
	stale [2]bool
	adds  []vm
	buf   sortBuf // sortVMs's scratch space
	// avoid: takeFirst's processors to pass over, a bit set (avoiding).
	avoid []uint64
	// cluster and mark: the run and the point of its occupancy log read so
	// far; a new cluster or a lost log rebuilds the lists.
	cluster *sim.Cluster
	mark    uint64
	// verify, when set (tests), has every count and ordered compare its
	// result with build's.
	verify *verifier
}

// vm is an entry of a kept list: a processor and its sort key (orderKey of
// the usage of its other VM).
type vm struct {
	key  uint64
	proc int
}

// before is eligible's order on kept entries: by key, then processor.
func (a vm) before(b vm) bool {
	return a.key < b.key || a.key == b.key && a.proc < b.proc
}

// insertionUpTo is the length up to which the sorts below sort by
// insertion: a short list, a run before merging, a bucket.
const insertionUpTo = 16

// sortBuf is sortVMs's scratch space.
type sortBuf struct {
	out   []vm  // the entries bucket by bucket
	count []int // entries per bucket; then where each starts, then where each ends
	merge []vm  // mergeSortVMs's
}

// sortVMs sorts l by before, a total order when the procs differ (any
// sort gives the one result). A list longer than insertionUpTo is sorted
// by buckets: each entry goes to the bucket of the high bits of key − the
// least key, as many buckets as the next power of two above the list's
// length, so that the buckets are in key order; each bucket is then sorted
// by before (by insertion; a larger one by mergeSortVMs). The keys the
// lists sort (orderKey of usages spread over [0.4, 1], §3.1; the many
// equal ones of single-process jobs, at 1, share one bucket) fall about
// one to a bucket otherwise, so a sort costs a few passes over the list
// instead of a comparison sort's n·log n steps. buf is scratch space,
// grown as needed. Measured against the comparison sort alone:
// "Thirty-eighth session" in docs/performance-log.md.
func sortVMs(l []vm, buf *sortBuf) {
	n := len(l)
	if n <= insertionUpTo {
		insertionSortVMs(l)
		return
	}
	lo, hi := l[0].key, l[0].key
	for _, e := range l[1:] {
		lo, hi = min(lo, e.key), max(hi, e.key)
	}
	if lo == hi {
		mergeSortVMs(l, &buf.merge) // one key: the processors decide
		return
	}
	// 2^b buckets, at least n; bucket of key k: (k − lo) >> shift < 2^b.
	b := bits.Len(uint(n))
	shift := max(bits.Len64(hi-lo)-b, 0)
	buckets := 1 << b
	count := slices.Grow(buf.count[:0], buckets+1)[:buckets+1]
	clear(count)
	for _, e := range l {
		count[(e.key-lo)>>shift+1]++
	}
	for i := 1; i <= buckets; i++ {
		count[i] += count[i-1]
	}
	out := slices.Grow(buf.out[:0], n)[:n]
	for _, e := range l {
		k := (e.key - lo) >> shift
		out[count[k]] = e
		count[k]++
	}
	copy(l, out)
	buf.out, buf.count = out, count
	// count[k] is now where bucket k ends.
	start := 0
	for _, end := range count[:buckets] {
		switch m := end - start; {
		case m > insertionUpTo:
			mergeSortVMs(l[start:end], &buf.merge)
		case m > 1:
			insertionSortVMs(l[start:end])
		}
		start = end
	}
}

// mergeSortVMs sorts l by before: runs of 16 by insertion, then merged
// bottom-up through *buf (scratch space, grown as needed), comparing
// inline.
func mergeSortVMs(l []vm, buf *[]vm) {
	const run = insertionUpTo
	n := len(l)
	for lo := 0; lo < n; lo += run {
		insertionSortVMs(l[lo:min(lo+run, n)])
	}
	if n <= run {
		return
	}
	*buf = slices.Grow((*buf)[:0], n)[:n]
	src, dst := l, *buf
	for width := run; width < n; width *= 2 {
		for lo := 0; lo < n; lo += 2 * width {
			mid, hi := min(lo+width, n), min(lo+2*width, n)
			i, j, k := lo, mid, lo
			for i < mid && j < hi {
				if src[j].before(src[i]) {
					dst[k] = src[j]
					j++
				} else {
					dst[k] = src[i]
					i++
				}
				k++
			}
			k += copy(dst[k:], src[i:mid])
			copy(dst[k:], src[j:hi])
		}
		src, dst = dst, src
	}
	if &src[0] != &l[0] {
		copy(l, src)
	}
}

// insertionSortVMs sorts a short l by before.
func insertionSortVMs(l []vm) {
	for i := 1; i < len(l); i++ {
		e := l[i]
		k := i
		for ; k > 0 && e.before(l[k-1]); k-- {
			l[k] = l[k-1]
		}
		l[k] = e
	}
}

// vmEntry is one VM's place in its tier's list.
type vmEntry struct {
	in  bool
	key uint64
}

// orderKey maps a usage to an unsigned key in cmp.Compare's order: NaN
// first, −0 equal to +0, then by value.
func orderKey(u float64) uint64 {
	if u != u {
		return 0
	}
	if u == 0 {
		u = 0 // −0 sorts as +0
	}
	b := math.Float64bits(u)
	if b>>63 != 0 {
		return ^b // negative: the larger the magnitude, the smaller; above NaN's 0
	}
	return b | 1<<63
}

// verifier records the cross-checks of the kept structures against the
// plain computation (tests): how many were made and the first mismatch.
type verifier struct {
	checks int
	err    error
	// belowKeyed counts the takeFirst calls made while some member was
	// keyed below usage 0 (the bit set alone may not answer them).
	belowKeyed int
	// stops counts the scans of Steps 2 and 3 that stopped before the end
	// of their list, no job left fitting (sizes.go; checkNoneFits).
	stops int
}

// fail records a mismatch (the first one is kept).
func (v *verifier) fail(format string, args ...any) {
	if v.err == nil {
		v.err = fmt.Errorf(format, args...)
	}
}

// count returns the number of VMs of tier that may take a process now.
func (v *vmLists) count(s *Scheduler, c *sim.Cluster, tier int) int {
	v.sync(s, c, tier)
	if v.verify != nil {
		v.verify.checks++
		if want := len(s.build(c, tier, nil)); v.members[tier] != want {
			v.verify.fail("tier %d at t=%g: %d members kept, %d counted from scratch", tier, c.Now(), v.members[tier], want)
		}
	}
	return v.members[tier]
}

// sync reads the occupancy log and brings tier's entries up to date.
func (v *vmLists) sync(s *Scheduler, c *sim.Cluster, tier int) {
	procs, next, ok := c.OccupancyChanges(v.mark)
	v.mark = next
	if !ok || v.cluster != c {
		v.cluster = c
		v.stale = [2]bool{true, true}
		words := (s.procs + 63) / 64
		for t := range v.changed {
			v.changed[t] = slices.Grow(v.changed[t][:0], words)[:words]
			v.moved[t] = slices.Grow(v.moved[t][:0], words)[:words]
			v.at[t] = slices.Grow(v.at[t][:0], s.procs)[:s.procs]
			v.listed[t] = slices.Grow(v.listed[t][:0], s.procs)[:s.procs]
			v.zero[t] = slices.Grow(v.zero[t][:0], words)[:words]
		}
	} else {
		c0, c1 := v.changed[0], v.changed[1]
		for _, p := range procs {
			w, bit := p>>6, uint64(1)<<(p&63)
			c0[w] |= bit
			c1[w] |= bit
		}
	}
	if v.stale[tier] {
		v.rebuild(s, c, tier)
	} else {
		v.refresh(s, c, tier)
	}
}

// refresh recomputes the entries of tier's changed processors.
func (v *vmLists) refresh(s *Scheduler, c *sim.Cluster, tier int) {
	changed, moved, at, zero := v.changed[tier], v.moved[tier], v.at[tier], v.zero[tier]
	for w, word := range changed {
		if word == 0 {
			continue
		}
		changed[w] = 0
		for ; word != 0; word &= word - 1 {
			p := w<<6 | bits.TrailingZeros64(word)
			now, old := v.entry(s, c, tier, p), at[p]
			if now == old {
				continue
			}
			if now.in != old.in {
				if now.in {
					v.members[tier]++
				} else {
					v.members[tier]--
				}
			}
			if old.in && old.key < zeroKey {
				v.below[tier]--
			}
			if now.in && now.key < zeroKey {
				v.below[tier]++
			}
			at[p] = now
			bit := uint64(1) << (p & 63)
			if old.in && old.key == zeroKey {
				zero[w] &^= bit
			}
			if now.in && now.key == zeroKey {
				zero[w] |= bit
			}
			if !listable(old) && !listable(now) {
				continue // the list is not concerned
			}
			if moved[w]&bit == 0 {
				moved[w] |= bit
				v.nmoved[tier]++
			}
		}
	}
}

// ordered returns tier's members in eligible's order, in three parts, up
// to date: the list's entries keyed below usage 0 (below), the processors
// keyed as usage 0 (zero, a bit set in processor order), then the rest of
// the list (above). The slices are the lists' own, valid until the next
// call.
func (v *vmLists) ordered(s *Scheduler, c *sim.Cluster, tier int) (below []vm, zero []uint64, above []vm) {
	v.sync(s, c, tier)
	switch n := v.nmoved[tier]; {
	case n > mendUpTo:
		v.merge(tier)
	case n > 0:
		v.mend(tier)
	}
	l := v.sorted[tier]
	i := search(l, vm{key: zeroKey})
	below, zero, above = l[:i], v.zero[tier], l[i:]
	if v.verify != nil {
		v.check(s, c, tier, below, zero, above)
	}
	return below, zero, above
}

// first appends to out the first n processors of tier's members in
// eligible's order, passing over those in avoid (fewer if fewer qualify).
func (v *vmLists) first(s *Scheduler, c *sim.Cluster, tier, n int, avoid []int, out []int) []int {
	start := len(out)
	out = v.takeFirst(s, c, tier, n, avoid, out)
	if v.verify != nil {
		v.verify.checks++
		var want []int
		for _, e := range s.build(c, tier, nil) {
			if len(want) < n && !slices.Contains(avoid, e.proc) {
				want = append(want, e.proc)
			}
		}
		if len(avoid) == 0 && len(want) < n {
			want = want[:0]
		}
		if !slices.Equal(out[start:], want) {
			v.verify.fail("tier %d at t=%g: the first %d VMs avoiding %v are %v, from scratch %v", tier, c.Now(), n, avoid, out[start:], want)
		}
	}
	return out
}

// takeFirst is first without the cross-check. The processors to avoid
// are looked up in a bit set made from avoid once per call (REASY's head
// holds up to all the processors, so a linear search per VM passed over
// made the pick quadratic).
//
// When no member is keyed below usage 0 and the bit set of those keyed
// as usage 0 holds n processors not to avoid, the answer is the first n
// of them in processor order, and the sorted list is not read: its
// pending changes (moved) stay pending until a call reads it. A quarter
// of the calls on a seed-000 grid are answered so ("Twenty-sixth
// session" in docs/performance-log.md).
func (v *vmLists) takeFirst(s *Scheduler, c *sim.Cluster, tier, n int, avoid []int, out []int) []int {
	v.sync(s, c, tier)
	if len(avoid) == 0 && v.members[tier] < n {
		return out // not enough, whatever the order
	}
	zero := v.zero[tier]
	skip := v.avoiding(avoid, len(zero))
	if v.verify != nil && v.below[tier] > 0 {
		v.verify.belowKeyed++
	}
	if v.below[tier] == 0 {
		free := 0
		for w, word := range zero {
			free += bits.OnesCount64(word &^ skip[w])
		}
		if free >= n {
			return takeBits(zero, skip, n, out)
		}
	}
	below, zero, above := v.ordered(s, c, tier)
	for _, e := range below {
		if len(out) == n {
			return out
		}
		if skip[e.proc>>6]&(1<<(e.proc&63)) == 0 {
			out = append(out, e.proc)
		}
	}
	out = takeBits(zero, skip, n, out)
	for _, e := range above {
		if len(out) == n {
			return out
		}
		if skip[e.proc>>6]&(1<<(e.proc&63)) == 0 {
			out = append(out, e.proc)
		}
	}
	return out
}

// takeBits appends to out the processors of the bit set set not in skip,
// in processor order, until out holds n.
func takeBits(set, skip []uint64, n int, out []int) []int {
	for w, word := range set {
		word &^= skip[w]
		for ; word != 0; word &= word - 1 {
			if len(out) == n {
				return out
			}
			out = append(out, w<<6|bits.TrailingZeros64(word))
		}
	}
	return out
}

// avoiding returns the processors of avoid as a bit set of words words
// (bit p%64 of word p/64), in scratch space valid until the next call.
func (v *vmLists) avoiding(avoid []int, words int) []uint64 {
	v.avoid = slices.Grow(v.avoid[:0], words)[:words]
	clear(v.avoid)
	for _, p := range avoid {
		v.avoid[p>>6] |= 1 << (p & 63)
	}
	return v.avoid
}

// zeroKey is orderKey(0), the key of a VM whose processor's other VM is
// idle.
var zeroKey = orderKey(0)

// listable reports whether an entry belongs in the sorted list: a member
// whose key is not zeroKey (those are in the bit set).
func listable(e vmEntry) bool { return e.in && e.key != zeroKey }

// rebuild sorts tier's list from scratch.
func (v *vmLists) rebuild(s *Scheduler, c *sim.Cluster, tier int) {
	v.stale[tier] = false
	clear(v.changed[tier])
	clear(v.moved[tier])
	v.nmoved[tier] = 0
	clear(v.zero[tier])
	l := v.sorted[tier][:0]
	members, below := 0, 0
	for p := range s.procs {
		v.at[tier][p] = v.entry(s, c, tier, p)
		e := v.at[tier][p]
		switch {
		case listable(e):
			l = append(l, vm{key: e.key, proc: p})
		case e.in:
			v.zero[tier][p>>6] |= 1 << (p & 63)
		}
		if e.in {
			members++
			if e.key < zeroKey {
				below++
			}
		}
	}
	sortVMs(l, &v.buf)
	v.sorted[tier], v.members[tier], v.below[tier] = l, members, below
	copy(v.listed[tier], v.at[tier])
}

// entry returns processor p's entry for tier as its occupants now make it.
func (v *vmLists) entry(s *Scheduler, c *sim.Cluster, tier, p int) vmEntry {
	u, in := s.vmKey(c, tier, p)
	if !in {
		return vmEntry{}
	}
	return vmEntry{in: true, key: orderKey(u)}
}

// mendUpTo is the number of moved entries up to which a list is mended
// entry by entry (binary search, move) rather than merged.
const mendUpTo = 6

// mend takes the moved processors' entries out of tier's list and puts
// their new ones in, one by one.
func (v *vmLists) mend(tier int) {
	l, at, listed, moved := v.sorted[tier], v.at[tier], v.listed[tier], v.moved[tier]
	for w, word := range moved {
		for ; word != 0; word &= word - 1 {
			p := w<<6 | bits.TrailingZeros64(word)
			if old := listed[p]; listable(old) {
				i := search(l, vm{key: old.key, proc: p})
				if i == len(l) || l[i].proc != p {
					panic(fmt.Sprintf("consolidation: VM (%d, %d) missing from its list", tier, p))
				}
				l = slices.Delete(l, i, i+1)
			}
			if now := at[p]; listable(now) {
				e := vm{key: now.key, proc: p}
				l = slices.Insert(l, search(l, e), e)
			}
			listed[p] = at[p]
		}
	}
	v.sorted[tier] = l
	clear(moved)
	v.nmoved[tier] = 0
}

// search returns the index of e in l, or where it would go.
func search(l []vm, e vm) int {
	lo, hi := 0, len(l)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if l[m].before(e) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// merge drops the moved processors' entries from tier's list, sorts their
// new ones and merges the two.
func (v *vmLists) merge(tier int) {
	at, moved := v.at[tier], v.moved[tier]
	adds := v.adds[:0]
	for w, word := range moved {
		for ; word != 0; word &= word - 1 {
			p := w<<6 | bits.TrailingZeros64(word)
			if listable(at[p]) {
				adds = append(adds, vm{key: at[p].key, proc: p})
			}
			v.listed[tier][p] = at[p]
		}
	}
	sortVMs(adds, &v.buf)
	v.adds = adds
	old := v.sorted[tier]
	out := slices.Grow(v.spare[tier][:0], len(old)+len(adds))
	k := 0
	for _, e := range old {
		if moved[e.proc>>6]&(1<<(e.proc&63)) != 0 {
			continue // moved: its new entry, if any, is in adds
		}
		for k < len(adds) && adds[k].before(e) {
			out = append(out, adds[k])
			k++
		}
		out = append(out, e)
	}
	out = append(out, adds[k:]...)
	v.sorted[tier], v.spare[tier] = out, old
	clear(moved)
	v.nmoved[tier] = 0
}

// check compares tier's list, in ordered's three parts, with build's,
// entry for entry.
func (v *vmLists) check(s *Scheduler, c *sim.Cluster, tier int, below []vm, zero []uint64, above []vm) {
	v.verify.checks++
	want := s.build(c, tier, nil)
	// The three parts as one list; the bit set's entries are not in
	// listed (only the sorted list's are).
	got := slices.Clone(below)
	for w, word := range zero {
		for ; word != 0; word &= word - 1 {
			got = append(got, vm{key: zeroKey, proc: w<<6 | bits.TrailingZeros64(word)})
		}
	}
	got = append(got, above...)
	same := len(got) == len(want)
	for i := 0; same && i < len(got); i++ {
		e := vmEntry{in: true, key: got[i].key}
		same = got[i].proc == want[i].proc && got[i].key == orderKey(want[i].util) && v.at[tier][got[i].proc] == e &&
			(got[i].key == zeroKey || v.listed[tier][got[i].proc] == e)
	}
	if !same {
		v.verify.fail("tier %d list at t=%g is %v, sorted from scratch %v", tier, c.Now(), got, want)
	}
}
