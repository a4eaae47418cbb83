package tsafrir05

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
)

// Constants of the reference code (spec §4.2).
const (
	Top = 20 // number of head bins
	// HeadShare is the percentage of jobs in the head bins.
	HeadShare = 89.0
	// MinMaxEstimate: Tmax must be larger than this (fewer than 20 head
	// values exist at or below it).
	MinMaxEstimate = 5700
	// MinJobs: N must be larger than this so that a tail bin exists.
	MinJobs = 226
)

var (
	estJoint = []int{300, 900, 600, 1200, 1800, 3600, 7200, 10800, 14400, 18000, 21600, 28800, 36000, 43200, 64800}
	estRound = []int{720000, 360000, 180000, 36000, 18000, 7200, 3600, 1200, 600, 300}
	// binnumLinear are the (N, K) points of the piecewise-linear K model.
	binnumLinear = [][2]int{{0, 0}, {20, 10}, {200, 20}, {1000, 35}, {10000, 90}, {70000, 340}, {250000, 565}}
	// timrnkToPoprnk is the paper's Table 6: popularity rank of the head
	// time of rank ttr in SDSC-106, CTC, KTH4H and BLUE.
	timrnkToPoprnk = [Top][4]int{
		{3, 1, 1, 1}, {1, 3, 4, 6}, {4, 4, 10, 5}, {17, 2, 14, 3}, {13, 12, 20, 7},
		{7, 9, 2, 2}, {8, 8, 3, 18}, {18, 18, 7, 19}, {2, 6, 12, 4}, {6, 7, 6, 11},
		{16, 11, 19, 20}, {10, 20, 5, 9}, {5, 16, 18, 10}, {15, 5, 16, 14}, {14, 14, 9, 13},
		{19, 13, 17, 16}, {11, 10, 15, 15}, {12, 15, 13, 17}, {9, 17, 8, 8}, {20, 19, 11, 12},
	}
	tailOffsets = []int{0, 30, -30, 20, -20, 10, -10}
)

// Params configure the estimate model. Start from Default.
type Params struct {
	// Jobs is N, the number of estimates (> 226).
	Jobs int
	// MaxEstimate is Tmax in seconds (> 5700): the largest estimate and the
	// runtime cap.
	MaxEstimate int
	// PowerBinModel selects K = round(a·N^b) instead of the default
	// piecewise-linear table.
	PowerBinModel bool
	// BinPowerParams are (a, b) of the power model.
	BinPowerParams [2]float64
	// Bins, when > 0, sets K explicitly (≥ 21).
	Bins int
	// HeadParams (a, b, c): head size(x) = a·e^(b·x) + c percent, ranks 2..20.
	HeadParams [3]float64
	// TailParams (a, b): tail size(x) = a·x^b for rank x ≥ 21, normalised to
	// 100 − 89 percent.
	TailParams [2]float64
	// BinTimeParam is "a" of the tail times (a−1)x/(a−x); ≤ 1 means
	// automatic, 1 + 12.1039·K^(−0.6026).
	BinTimeParam float64
	// UserBins are user-supplied head bins (the reference driver's -b), at
	// most MaxUserBins, with distinct times: each time becomes a head value
	// and gets exactly its job count. UserBinsFromPercents builds them from
	// percents. Empty: the published model.
	UserBins []UserBin
}

// Default returns the published model for n jobs and maximal estimate tmax.
func Default(n, tmax int) Params {
	return Params{
		Jobs: n, MaxEstimate: tmax,
		BinPowerParams: [2]float64{0.653566, 0.547761},
		HeadParams:     [3]float64{14.0491, -0.177531, 0.462513},
		TailParams:     [2]float64{795.6, -2.267},
		BinTimeParam:   -1,
	}
}

// Validate reports every invalid field at once.
func (p Params) Validate() error {
	var errs []error
	if p.Jobs <= MinJobs {
		errs = append(errs, fmt.Errorf("tsafrir05: Jobs = %d, want > %d (a tail bin must exist)", p.Jobs, MinJobs))
	}
	if p.MaxEstimate <= MinMaxEstimate {
		errs = append(errs, fmt.Errorf("tsafrir05: MaxEstimate = %d s, want an integer > %d s (20 head values must exist)", p.MaxEstimate, MinMaxEstimate))
	}
	if p.Bins != 0 && p.Bins <= Top {
		errs = append(errs, fmt.Errorf("tsafrir05: Bins = %d, want 0 (automatic) or > %d", p.Bins, Top))
	}
	if p.PowerBinModel && !(p.BinPowerParams[0] > 0 && p.BinPowerParams[1] > 0) {
		errs = append(errs, fmt.Errorf("tsafrir05: BinPowerParams = %v, want both > 0", p.BinPowerParams))
	} else if p.PowerBinModel && p.Bins == 0 && p.Jobs > MinJobs && p.NumBins() <= Top {
		errs = append(errs, fmt.Errorf("tsafrir05: the power bin model %v gives K = %d bins for Jobs = %d, want K > %d (a tail bin must exist); use more jobs, the linear model or an explicit Bins", p.BinPowerParams, p.NumBins(), p.Jobs, Top))
	}
	if !(p.TailParams[0] > 0) {
		errs = append(errs, fmt.Errorf("tsafrir05: TailParams[0] = %g, want > 0", p.TailParams[0]))
	}
	errs = append(errs, p.validateUserBins()...)
	return errors.Join(errs...)
}

// NumBins returns K for the parameters (spec §4.3): Bins when set, else the
// power model (at least the number of user bins) or the linear table.
func (p Params) NumBins() int {
	if p.Bins > 0 {
		return p.Bins
	}
	if p.PowerBinModel {
		return max(len(p.UserBins), int(math.Round(p.BinPowerParams[0]*math.Pow(float64(p.Jobs), p.BinPowerParams[1]))))
	}
	return LinearBins(p.Jobs)
}

// LinearBins is the default piecewise-linear K(N): 35 at 1000, 90 at 10000,
// 378 at 100000, 565 above 250000.
func LinearBins(n int) int {
	last := binnumLinear[len(binnumLinear)-1]
	if n > last[0] {
		return last[1]
	}
	for k := 1; k < len(binnumLinear); k++ {
		if n <= binnumLinear[k][0] {
			n0, k0 := binnumLinear[k-1][0], binnumLinear[k-1][1]
			n1, k1 := binnumLinear[k][0], binnumLinear[k][1]
			return k0 + int(math.Round(float64(n-n0)*float64(k1-k0)/float64(n1-n0)))
		}
	}
	return last[1]
}

// HeadTimes returns the 20 head estimate times: index 0 (time rank 0) is
// Tmax, the rest ascending (spec §4.4).
func HeadTimes(tmax int) []int {
	v := []int{tmax}
	for _, e := range estJoint {
		if e < tmax {
			v = append(v, e)
		}
	}
	missing := Top - len(v)
	for _, m := range estRound {
		if missing <= 0 {
			break
		}
		start := tmax / m * m
		if start == 0 {
			continue
		}
		for est := start; est > 0 && missing > 0; est -= m {
			if !slices.Contains(v, est) {
				v = append(v, est)
				missing--
			}
		}
	}
	slices.Sort(v[1:])
	return v
}

// HeadSizes returns the head bin sizes in percent, descending: index i is the
// size of popularity rank i+1 (spec §4.4, gen_head_binsiz). Rank 1 gets the
// rest of HeadShare; when a user bin is at MaxEstimate, rank 1 is instead
// that bin's percent and ranks 2..20 are scaled so the head still sums to
// HeadShare. The user bins are merged in later (Histogram).
func (p Params) HeadSizes() []float64 {
	s := make([]float64, Top)
	sum := 0.0
	for x := 2; x <= Top; x++ {
		s[x-1] = p.HeadParams[0]*math.Exp(p.HeadParams[1]*float64(x)) + p.HeadParams[2]
		sum += s[x-1]
	}
	if nj, ok := p.userJobs(p.MaxEstimate); ok {
		s[0] = 100 * float64(nj) / float64(p.Jobs)
		f := (HeadShare - s[0]) / sum
		for x := 1; x < Top; x++ {
			s[x] *= f
		}
	} else {
		s[0] = HeadShare - sum
	}
	slices.SortFunc(s, func(a, b float64) int { return -cmp.Compare(a, b) })
	return s
}

// popRanks maps head time rank ttr → popularity rank with the pool algorithm
// (spec §4.4). Rank 1 always goes to Tmax.
func popRanks(rng *rand.Rand) [Top]int {
	return popRanksUser(rng, [Top]int{})
}

// popRanksUser is popRanks under a user constraint: a time rank with
// user[ttr] > 0 takes that popularity rank, and those ranks are reserved
// (never pooled, never due, never drawn for another time rank). When nothing
// is left to draw, the smallest free rank is taken (the reference code fails
// an assertion there, or computes lrand48() % 0).
func popRanksUser(rng *rand.Rand, user [Top]int) [Top]int {
	var bound [Top + 1]int
	for ttr, row := range timrnkToPoprnk {
		for _, r := range row {
			bound[r] = max(bound[r], ttr)
		}
	}
	var chosen, reserved [Top + 1]bool
	for _, r := range user {
		if r > 0 {
			reserved[r] = true
		}
	}
	free := func(r int) bool { return !chosen[r] && !reserved[r] }
	var mapping [Top]int
	var pool []int
	for ttr := 0; ttr < Top; ttr++ {
		for _, r := range timrnkToPoprnk[ttr] {
			if free(r) {
				pool = append(pool, r)
			}
		}
		rank := 0
		switch {
		case user[ttr] > 0:
			rank = user[ttr]
		case ttr == 0 && free(1):
			rank = 1
		default:
			for r := 1; r <= Top; r++ {
				if bound[r] <= ttr && free(r) {
					rank = r
					break
				}
			}
			if rank == 0 && len(pool) > 0 {
				j1, j2 := rng.IntN(len(pool)), rng.IntN(len(pool))
				rank = min(pool[j1], pool[j2])
			}
			if rank == 0 { // only when user ranks emptied the pool
				for r := 1; r <= Top; r++ {
					if free(r) {
						rank = r
						break
					}
				}
			}
		}
		mapping[ttr] = rank
		chosen[rank] = true
		pool = slices.DeleteFunc(pool, func(r int) bool { return r == rank })
	}
	return mapping
}

// TailTimes returns the tail bin times, ascending (spec §4.5), for k bins in
// total and the given head times.
func (p Params) TailTimes(k int, head []int) []int {
	tmax := p.MaxEstimate
	n := k - len(head)
	a := p.BinTimeParam
	if a <= 1 {
		a = 1 + 12.1039*math.Pow(float64(k), -0.6026)
	}
	used := make(map[int]bool, k)
	for _, h := range head {
		used[h] = true
	}
	var tail []int
	for i := 1; i <= n; i++ {
		x := float64(i) / float64(n)
		y := (a - 1) * x / (a - x)
		sec := int(math.Round(y*float64(tmax)/60)) * 60
		for _, off := range tailOffsets {
			s := sec + off
			if !used[s] && s > 0 && s < tmax {
				used[s] = true
				tail = append(tail, s)
				break
			}
		}
	}
	slices.Sort(tail)
	return tail
}

// TailSizes returns n tail sizes in percent, descending, summing to 11.
func (p Params) TailSizes(n int) []float64 {
	s := make([]float64, n)
	sum := 0.0
	for i := range s {
		s[i] = p.TailParams[0] * math.Pow(float64(Top+1+i), p.TailParams[1])
		sum += s[i]
	}
	for i := range s {
		s[i] *= (100 - HeadShare) / sum
	}
	return s
}

// Bin is one estimate value and the number of jobs that get it.
type Bin struct {
	Time int // estimate, seconds
	Jobs int
}

// Histogram builds the K-bin estimate histogram, sorted by time. K, the
// times and the multiset of counts do not depend on rng; only which time
// gets which count does. Every user bin appears with exactly its job count;
// the other bins absorb the rounding (spec §4.6).
func (p Params) Histogram(rng *rand.Rand) ([]Bin, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	k := p.NumBins()
	head := HeadTimes(p.MaxEstimate)
	if len(head) != Top {
		return nil, fmt.Errorf("tsafrir05: only %d head times below MaxEstimate = %d", len(head), p.MaxEstimate)
	}
	hs := p.HeadSizes()
	var constraint [Top]int
	if len(p.UserBins) > 0 {
		head = mergeHeadTimes(head, p.UserBins)
		if len(head) != Top { // Validate rules this out
			return nil, fmt.Errorf("tsafrir05: %d head times after merging the user bins, want %d", len(head), Top)
		}
		var slot []int
		hs, slot = p.mergeHeadSizes(hs)
		constraint = p.userConstraint(head, slot)
	}
	ranks := popRanksUser(rng, constraint)
	type tp struct {
		t int
		p float64
	}
	var bins []tp
	for ttr, t := range head {
		bins = append(bins, tp{t, hs[ranks[ttr]-1]})
	}
	tt := p.TailTimes(k, head)
	ts := p.TailSizes(len(tt))
	// Uniformly random pairing of tail times and sizes.
	perm := rng.Perm(len(ts))
	for i, t := range tt {
		bins = append(bins, tp{t, ts[perm[i]]})
	}
	out := make([]Bin, len(bins))
	user := make([]bool, len(bins))
	sum := 0
	for i, b := range bins {
		if nj, ok := p.userJobs(b.t); ok {
			out[i], user[i] = Bin{Time: b.t, Jobs: nj}, true
		} else {
			out[i] = Bin{Time: b.t, Jobs: max(1, int(math.Round(b.p*float64(p.Jobs)/100)))}
		}
		sum += out[i].Jobs
	}
	if got := adjust(out, user, p.Jobs, sum); got != p.Jobs {
		return nil, fmt.Errorf("tsafrir05: the bins outside UserBins cannot absorb the difference: %d jobs for Jobs = %d", got, p.Jobs)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Time < out[j].Time })
	return out, nil
}

// adjust equalises the bin counts to n (spec §4.6, adjust_njobs), changing
// only the bins not marked user, and returns the resulting total.
func adjust(bins []Bin, user []bool, n, sum int) int {
	diff := n - sum
	sign := 1
	if diff < 0 {
		sign, diff = -1, -diff
	}
	if diff == 0 {
		return sum
	}
	total := 0 // J: jobs in the non-user bins, computed once
	var idx []int
	for i, b := range bins {
		if !user[i] {
			total += b.Jobs
			idx = append(idx, i)
		}
	}
	for attempt := 0; attempt < 4 && diff > 0; attempt++ {
		idx = idx[:0]
		for i := range bins {
			if !user[i] {
				idx = append(idx, i)
			}
		}
		sort.SliceStable(idx, func(a, b int) bool { return bins[idx[a]].Jobs > bins[idx[b]].Jobs })
		f := float64(diff) / float64(total)
		cur := diff
		for _, i := range idx {
			if cur == 0 {
				break
			}
			nj := bins[i].Jobs
			if nj == 0 {
				continue
			}
			var a int
			switch attempt {
			case 0:
				a = int(math.Ceil(f * float64(nj)))
			case 1:
				a = 1
			case 2:
				a = nj - 1
			default:
				a = nj
			}
			if sign < 0 {
				a = min(a, nj)
			}
			if a == nj && attempt != 3 {
				a--
			}
			a = min(a, cur)
			bins[i].Jobs += sign * a
			cur -= a
		}
		diff = cur
	}
	return n - sign*diff
}

// Assign gives every job an estimate from hist (whose counts must sum to
// len(runtimes)) so that estimate ≥ runtime (spec §4.7). Runtimes above the
// largest estimate are capped in place; their number is returned. A job's
// estimate is drawn uniformly among the remaining histogram values that are
// at least its runtime, processing jobs from the longest runtime down (ties
// in random order). Besides the estimates it allocates two int32 and one
// float64 per job and sorts in linear time (a radix sort on the runtimes'
// bits; the draws are those of rng.Perm and a stable sort, as in the
// reference code).
func Assign(runtimes []float64, hist []Bin, rng *rand.Rand) (estimates []float64, capped int, err error) {
	n := len(runtimes)
	// The estimates, descending: the bins by decreasing time, flattened.
	bins := slices.Clone(hist)
	slices.SortFunc(bins, func(a, b Bin) int { return b.Time - a.Time })
	est := make([]float64, 0, n)
	for _, b := range bins {
		for i := 0; i < b.Jobs; i++ {
			est = append(est, float64(b.Time))
		}
	}
	if len(est) != n {
		return nil, 0, fmt.Errorf("tsafrir05: histogram holds %d estimates for %d jobs", len(est), n)
	}
	if n == 0 {
		return nil, 0, nil
	}
	tmax := est[0]
	for i, r := range runtimes {
		if r > tmax {
			runtimes[i] = tmax
			capped++
		}
	}
	// The jobs in random order (rng.Perm(n), drawn as Perm draws it: a
	// Shuffle of the identity), then stably sorted by runtime, longest
	// first: ties stay in random order.
	order := make([]int32, n)
	for i := range order {
		order[i] = int32(i)
	}
	rng.Shuffle(n, func(i, j int) { order[i], order[j] = order[j], order[i] })
	sortLongestFirst(order, runtimes)
	for k, j := range order {
		if r := runtimes[j]; r > est[k] {
			return nil, capped, fmt.Errorf("tsafrir05: the %d-th longest runtime %g s exceeds the %d-th largest estimate %g s; raise MaxEstimate", k+1, r, k+1, est[k])
		}
	}
	estimates = make([]float64, n)
	hi := 0
	for j := 0; j < n; j++ {
		r := runtimes[order[j]]
		if hi < j {
			hi = j
		}
		for hi < n-1 && r <= est[hi+1] {
			hi++
		}
		k := j + rng.IntN(hi-j+1)
		estimates[order[j]] = est[k]
		est[k], est[j] = est[j], est[k]
	}
	return estimates, capped, nil
}

// sortLongestFirst stably sorts the job indexes order by decreasing
// runtime: slices.SortStableFunc, faster. When every runtime is ≥ 0 it is a
// stable LSD radix sort on the bits of the runtimes (non-negative floats
// order like their bit patterns), a byte at a time, skipping the bytes all
// runtimes share, with one scratch []int32; otherwise the stable comparison
// sort.
func sortLongestFirst(order []int32, runtimes []float64) {
	for _, r := range runtimes {
		if !(r >= 0) {
			slices.SortStableFunc(order, func(a, b int32) int { return -cmp.Compare(runtimes[a], runtimes[b]) })
			return
		}
	}
	if len(order) < 2 {
		return
	}
	// Ascending by the complemented bits is descending by runtime; −0 has
	// the sign bit set and counts as 0.
	digit := func(j int32, shift uint) byte {
		r := runtimes[j]
		if r == 0 {
			return 0xff
		}
		return ^byte(math.Float64bits(r) >> shift)
	}
	src, dst := order, make([]int32, len(order))
	for shift := uint(0); shift < 64; shift += 8 {
		var at [256]int
		for _, j := range src {
			at[digit(j, shift)]++
		}
		if at[digit(src[0], shift)] == len(src) {
			continue // every runtime has this byte
		}
		sum := 0
		for d, c := range at {
			at[d] = sum
			sum += c
		}
		for _, j := range src {
			d := digit(j, shift)
			dst[at[d]] = j
			at[d]++
		}
		src, dst = dst, src
	}
	if &src[0] != &order[0] {
		copy(order, src)
	}
}

// Fits reports what Feasible reports, for runtimes in any order: whether
// hist can give every job an estimate at least its runtime (after capping
// runtimes at the largest estimate). It neither sorts nor copies runtimes:
// time O(n log K), memory O(K) for K bins.
//
// Sorted descending, runtimes r and estimates e fit (r_k ≤ e_k for every k)
// exactly when, for every bin time t, no more runtimes exceed t than
// estimates do; between bin times the estimate count does not change, so
// checking at the K bin times suffices.
func Fits(runtimes []float64, hist []Bin) bool {
	bins := slices.Clone(hist)
	sort.Slice(bins, func(i, j int) bool { return bins[i].Time > bins[j].Time })
	total := 0
	for _, b := range bins {
		total += b.Jobs
	}
	if len(runtimes) > total {
		return false
	}
	if len(bins) == 0 {
		return true
	}
	// above[i]: runtimes whose first bin time below them (descending order)
	// is bins[i]; runtimes above every bin time are capped to bins[0].
	above := make([]int, len(bins))
	for _, r := range runtimes {
		// First i with bins[i].Time < r.
		i := sort.Search(len(bins), func(i int) bool { return float64(bins[i].Time) < r })
		if i < len(bins) {
			above[i]++
		}
	}
	exceed, est := 0, 0 // runtimes > bins[i].Time; estimates > bins[i].Time
	for i := range bins {
		exceed += above[i]
		if i > 0 {
			est += bins[i-1].Jobs
		}
		if i > 0 && exceed > est {
			return false
		}
	}
	return true
}

// Feasible reports whether hist can give every job an estimate at least its
// runtime (after capping runtimes at the largest estimate). sortedDesc must
// hold the runtimes sorted in descending order; it is not modified.
func Feasible(sortedDesc []float64, hist []Bin) bool {
	bins := slices.Clone(hist)
	sort.Slice(bins, func(i, j int) bool { return bins[i].Time > bins[j].Time })
	if len(bins) == 0 {
		return len(sortedDesc) == 0
	}
	tmax := float64(bins[0].Time)
	b, left := 0, bins[0].Jobs
	for _, r := range sortedDesc {
		for left == 0 {
			b++
			if b >= len(bins) {
				return false
			}
			left = bins[b].Jobs
		}
		if math.Min(r, tmax) > float64(bins[b].Time) {
			return false
		}
		left--
	}
	return true
}
