package twotier

import (
	"math"
	"sort"
)

// linearTimeline is the naive timeline: breakpoints in a sorted slice, every
// query and update a linear walk. It is the thesis's linked list in slice
// form, kept as the reference the tree is tested and benchmarked against.
type linearTimeline struct {
	n     int
	keys  []float64
	cnt   []int32
	avail [][]int
}

func newLinearTimeline(origin float64, caps []int) *linearTimeline {
	return &linearTimeline{n: len(caps), keys: []float64{origin}, cnt: []int32{baseCount}, avail: [][]int{append([]int(nil), caps...)}}
}

// find returns the index of the last breakpoint ≤ t (0 before the origin).
func (l *linearTimeline) find(t float64) int {
	i := sort.Search(len(l.keys), func(i int) bool { return l.keys[i] > t }) - 1
	return max(i, 0)
}

func (l *linearTimeline) advance(now float64) {
	if now <= l.keys[0] {
		return
	}
	i := l.find(now)
	if l.keys[i] != now {
		l.keys[i] = now
	}
	l.cnt[i] = baseCount
	l.keys, l.cnt, l.avail = l.keys[i:], l.cnt[i:], l.avail[i:]
}

func (l *linearTimeline) addPoint(t float64) {
	if t <= l.keys[0] || math.IsInf(t, 1) {
		return
	}
	i := l.find(t)
	if l.keys[i] == t {
		l.cnt[i]++
		return
	}
	i++
	l.keys = append(l.keys, 0)
	copy(l.keys[i+1:], l.keys[i:])
	l.keys[i] = t
	l.cnt = append(l.cnt, 0)
	copy(l.cnt[i+1:], l.cnt[i:])
	l.cnt[i] = 1
	l.avail = append(l.avail, nil)
	copy(l.avail[i+1:], l.avail[i:])
	l.avail[i] = append([]int(nil), l.avail[i-1]...)
}

func (l *linearTimeline) dropPoint(t float64) {
	if t <= l.keys[0] || math.IsInf(t, 1) {
		return
	}
	i := l.find(t)
	if l.keys[i] != t {
		return
	}
	l.cnt[i]--
	if l.cnt[i] > 0 {
		return
	}
	l.keys = append(l.keys[:i], l.keys[i+1:]...)
	l.cnt = append(l.cnt[:i], l.cnt[i+1:]...)
	l.avail = append(l.avail[:i], l.avail[i+1:]...)
}

func (l *linearTimeline) rangeAdd(s, e float64, q []int, sign int) {
	s = math.Max(s, l.keys[0])
	for i := l.find(s); i < len(l.keys) && l.keys[i] < e; i++ {
		if l.keys[i] < s {
			continue
		}
		for k, d := range q {
			l.avail[i][k] += sign * d
		}
	}
}

func (l *linearTimeline) reserve(s, e float64, q []int) {
	l.addPoint(s)
	l.addPoint(e)
	l.rangeAdd(s, e, q, -1)
}

func (l *linearTimeline) unreserve(s, e float64, q []int) {
	l.rangeAdd(s, e, q, +1)
	l.dropPoint(s)
	l.dropPoint(e)
}

func fits(avail, q []int) bool {
	for k, d := range q {
		if d > 0 && avail[k] < d {
			return false
		}
	}
	return true
}

func (l *linearTimeline) earliest(from, dur float64, q []int, limit float64) float64 {
	s := math.Max(from, l.keys[0])
	i := l.find(s)
	for i < len(l.keys) && s <= limit {
		j := i
		for j < len(l.keys) && l.keys[j] < s+dur && fits(l.avail[j], q) {
			j++
		}
		if j == len(l.keys) || l.keys[j] >= s+dur {
			return s
		}
		// breakpoint j violates: restart at the next one that fits.
		i = j + 1
		for i < len(l.keys) && !fits(l.avail[i], q) {
			i++
		}
		if i == len(l.keys) {
			break
		}
		s = l.keys[i]
	}
	return math.Inf(1)
}

func (l *linearTimeline) nextFit(after, before float64, q []int) (float64, bool) {
	for i := l.find(after); i < len(l.keys) && l.keys[i] <= before; i++ {
		if l.keys[i] > after && fits(l.avail[i], q) {
			return l.keys[i], true
		}
	}
	return 0, false
}

func (l *linearTimeline) fitsAt(t float64, q []int) bool { return fits(l.avail[l.find(t)], q) }

func (l *linearTimeline) firstConflict(lo, hi float64, q []int, ov []overlay) (float64, bool) {
	l.apply(ov, 1)
	defer l.apply(ov, -1)
	for i := l.find(lo); i < len(l.keys) && l.keys[i] < hi; i++ {
		for k, a := range l.avail[i] {
			w := 0
			if q != nil {
				w = max(q[k], 0)
			}
			if a < w {
				return math.Max(l.keys[i], lo), true
			}
		}
	}
	return 0, false
}

// apply books the overlays (dir 1) or takes them back (dir −1, in reverse
// order).
func (l *linearTimeline) apply(ov []overlay, dir int) {
	for i := range ov {
		o := ov[i]
		if dir < 0 {
			o = ov[len(ov)-1-i]
		}
		if o.sign*dir < 0 {
			l.reserve(o.s, o.e, o.q)
		} else {
			l.unreserve(o.s, o.e, o.q)
		}
	}
}

// earliestWith applies ov, queries and undoes it.
func (l *linearTimeline) earliestWith(from, dur float64, q []int, limit float64, ov []overlay) float64 {
	l.apply(ov, 1)
	t := l.earliest(from, dur, q, limit)
	l.apply(ov, -1)
	return t
}

func (l *linearTimeline) availAt(t float64, out []int) { copy(out, l.avail[l.find(t)]) }

func (l *linearTimeline) breakpoints() int { return len(l.keys) }

func (l *linearTimeline) fitsBetween(after, before float64, q []int, out []float64) []float64 {
	for i := l.find(after); i < len(l.keys) && l.keys[i] < before; i++ {
		if l.keys[i] > after && fits(l.avail[i], q) {
			out = append(out, l.keys[i])
		}
	}
	return out
}
