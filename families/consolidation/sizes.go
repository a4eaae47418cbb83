package consolidation

// sizeCounts is a multiset of processor counts, those of the jobs of one
// of the scheduler's lists (s.cands, s.queued), that tells how many need at
// most n processors in O(log n): a Fenwick tree over the sizes, grown as
// larger sizes come.
//
// It lets the scans of Algorithm 1's Steps 2 and 3 stop at the last job
// that could fit. Each step walks its list in order and passes over the
// jobs that need more VMs than the tier has idle; at load 0.9 the lists
// are long and most of them is passed over (one replication of
// seed000-fig13: 969 M iterations of Step 2 and 874 M of Step 3, about half
// of each in passes where no job of the list could fit at all). The scans
// stop once no job left in the list needs few enough VMs; which jobs are
// placed, and in which order, is unchanged (docs/performance-log.md,
// "Twenty-seventh session").
type sizeCounts struct {
	// tree[p], p ≥ 1, is the Fenwick sum of the counts at positions
	// (p − lowbit(p), p]; size n is position n+1 (sizes below 0 count as
	// 0). len(tree) is a power of two, or 0 before the first add.
	tree []int32
}

// add adds d jobs of size n.
func (s *sizeCounts) add(n int, d int32) {
	p := max(n, 0) + 1
	if p >= len(s.tree) {
		s.grow(p)
	}
	for ; p < len(s.tree); p += p & -p {
		s.tree[p] += d
	}
}

// atMost returns how many jobs need at most n processors.
func (s *sizeCounts) atMost(n int) int {
	if n < 0 || len(s.tree) == 0 {
		return 0
	}
	return prefix(s.tree, min(n+1, len(s.tree)-1))
}

// grow makes room for position p, keeping the counts.
func (s *sizeCounts) grow(p int) {
	old := s.tree
	m := 64
	for m <= p {
		m *= 2
	}
	s.tree = make([]int32, m)
	prev := int32(0)
	for q := 1; q < len(old); q++ {
		c := int32(prefix(old, q))
		if d := c - prev; d != 0 {
			s.add(q-1, d)
		}
		prev = c
	}
}

// prefix is the sum of a Fenwick tree's counts at positions 1 … p.
func prefix(tree []int32, p int) int {
	c := int32(0)
	for ; p > 0; p -= p & -p {
		c += tree[p]
	}
	return int(c)
}

// longList is the length from which a scan counts the jobs left that could
// fit (fitting); a shorter list is scanned to its end, since at low load,
// where lists are short, the count cost more than it saved (KEASY and
// MEASY at load 0.6: 3% of the samples in sizeCounts.atMost). A variable
// so that tests can set it to 0.
var longList = 32

// fitting returns, for a scan of a list of n jobs counted by sizes, a
// bound on the jobs not yet visited that need at most b VMs, passed
// holding the sizes of those visited that did: exact for a long list (the
// jobs counted minus those passed), n for a short one. The scan stops when
// it reaches 0.
func fitting(sizes *sizeCounts, n, b int, passed []int) int {
	if n < longList {
		return n
	}
	return sizes.atMost(b) - passedAtMost(passed, b)
}

// passedAtMost returns how many of sizes are at most n.
func passedAtMost(sizes []int, n int) int {
	c := 0
	for _, m := range sizes {
		if m <= n {
			c++
		}
	}
	return c
}
