package stats

import "sort"

// Holm returns which of the hypotheses with p-values ps Holm's step-down
// procedure rejects at family-wise level alpha: sorted ascending, p_(i) is
// rejected while p_(j) ≤ alpha/(m − j + 1) for every j ≤ i. Ties keep
// their input order; the result is indexed like ps.
func Holm(ps []float64, alpha float64) []bool {
	m := len(ps)
	order := make([]int, m)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return ps[order[a]] < ps[order[b]] })
	reject := make([]bool, m)
	for rank, i := range order {
		if ps[i] > alpha/float64(m-rank) {
			break
		}
		reject[i] = true
	}
	return reject
}
