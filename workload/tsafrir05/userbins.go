package tsafrir05

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// MaxUserBins is the largest number of user-supplied bins: they all become
// head values, and the head holds Top of them. With no bin at MaxEstimate the
// limit is Top−1, because Tmax always keeps head slot 0.
const MaxUserBins = Top

// UserBin is a user-supplied head bin (the reference driver's -b option):
// exactly Jobs jobs get the estimate Time. The model merges it into the head
// (spec §4.4) and gives it exactly its job count (spec §4.6).
type UserBin struct {
	// Time is the estimate in seconds, 0 < Time ≤ MaxEstimate.
	Time int
	// Jobs is the number of jobs that get Time, ≥ 1.
	Jobs int
}

// UserPercent is a user bin given as a share of the jobs, the form of the
// reference driver's "-b sec=percent".
type UserPercent struct {
	// Time is the estimate in seconds.
	Time int
	// Percent is the share of all jobs, 0 < Percent ≤ 100.
	Percent float64
}

// UserBinsFromPercents turns percents into job counts for n jobs the way the
// reference driver does: Jobs = int(n·Percent/100), truncated. A percent
// below 100/n gives 0 jobs, which Params.Validate rejects.
func UserBinsFromPercents(n int, ps []UserPercent) []UserBin {
	if len(ps) == 0 {
		return nil
	}
	out := make([]UserBin, len(ps))
	for i, p := range ps {
		out[i] = UserBin{Time: p.Time, Jobs: int(float64(n) * p.Percent / 100)}
	}
	return out
}

// ParseUserPercents parses "sec=percent,sec=percent,…" (spaces around items
// allowed; "" gives none). Every problem is reported at once: an item that is
// not sec=percent, a time that is not an integer > 0, a percent outside
// (0, 100], a repeated time, more than MaxUserBins items, percents summing to
// more than 100.
func ParseUserPercents(s string) ([]UserPercent, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, nil
	}
	var out []UserPercent
	var errs []error
	seen := map[int]int{}
	sum := 0.0
	for i, item := range strings.Split(s, ",") {
		item = strings.TrimSpace(item)
		bad := func(format string, args ...any) {
			errs = append(errs, fmt.Errorf("bin %d %q: %s", i+1, item, fmt.Sprintf(format, args...)))
		}
		sec, pct, ok := strings.Cut(item, "=")
		if !ok {
			bad("want sec=percent, e.g. 3600=30")
			continue
		}
		t, err := strconv.Atoi(strings.TrimSpace(sec))
		good := true
		if err != nil || t <= 0 {
			bad("time %q: want an integer number of seconds > 0", strings.TrimSpace(sec))
			good = false
		}
		p, err := strconv.ParseFloat(strings.TrimSpace(pct), 64)
		if err != nil || !(p > 0 && p <= 100) {
			bad("percent %q: want a number in (0, 100]", strings.TrimSpace(pct))
			good = false
		}
		if !good {
			continue
		}
		if j, dup := seen[t]; dup {
			bad("time %d s repeats bin %d; want distinct times", t, j+1)
			continue
		}
		seen[t] = i
		sum += p
		out = append(out, UserPercent{Time: t, Percent: p})
	}
	if n := len(strings.Split(s, ",")); n > MaxUserBins {
		errs = append(errs, fmt.Errorf("%d bins; want at most %d", n, MaxUserBins))
	}
	if sum > 100+1e-9 {
		errs = append(errs, fmt.Errorf("percents sum to %g; want at most 100", sum))
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return out, nil
}

// FormatUserPercents renders ps in the form ParseUserPercents reads.
func FormatUserPercents(ps []UserPercent) string {
	items := make([]string, len(ps))
	for i, p := range ps {
		items[i] = strconv.Itoa(p.Time) + "=" + strconv.FormatFloat(p.Percent, 'g', -1, 64)
	}
	return strings.Join(items, ",")
}

// validateUserBins reports every problem with p.UserBins (spec §4.1 bins and
// binnum rows).
func (p Params) validateUserBins() []error {
	ub := p.UserBins
	if len(ub) == 0 {
		return nil
	}
	var errs []error
	atMax := slices.ContainsFunc(ub, func(b UserBin) bool { return b.Time == p.MaxEstimate })
	switch {
	case len(ub) > MaxUserBins:
		errs = append(errs, fmt.Errorf("tsafrir05: UserBins has %d bins, want at most %d (they all become head values)", len(ub), MaxUserBins))
	case len(ub) == MaxUserBins && !atMax:
		errs = append(errs, fmt.Errorf("tsafrir05: UserBins has %d bins and none at MaxEstimate = %d s, want at most %d unless one bin is at MaxEstimate (Tmax always keeps head slot 0)", len(ub), p.MaxEstimate, MaxUserBins-1))
	}
	first := map[int]int{}
	total := 0
	for i, b := range ub {
		if b.Time <= 0 || b.Time > p.MaxEstimate {
			errs = append(errs, fmt.Errorf("tsafrir05: UserBins[%d].Time = %d s, want 0 < Time ≤ MaxEstimate = %d s", i, b.Time, p.MaxEstimate))
		}
		if j, dup := first[b.Time]; dup {
			errs = append(errs, fmt.Errorf("tsafrir05: UserBins[%d].Time = %d s repeats UserBins[%d].Time, want distinct times", i, b.Time, j))
		} else {
			first[b.Time] = i
		}
		if b.Jobs < 1 {
			errs = append(errs, fmt.Errorf("tsafrir05: UserBins[%d].Jobs = %d (time %d s), want ≥ 1 (a percent below 100/Jobs rounds down to 0 jobs)", i, b.Jobs, b.Time))
		}
		total += b.Jobs
	}
	if total > p.Jobs {
		errs = append(errs, fmt.Errorf("tsafrir05: UserBins hold %d jobs in total, want at most Jobs = %d", total, p.Jobs))
	}
	if p.Bins > 0 {
		if p.Bins < len(ub) {
			errs = append(errs, fmt.Errorf("tsafrir05: Bins = %d, want 0 (automatic) or ≥ %d, the number of UserBins", p.Bins, len(ub)))
		}
		if p.Bins < total {
			errs = append(errs, fmt.Errorf("tsafrir05: Bins = %d, want 0 (automatic) or ≥ %d, the total jobs of UserBins (the reference code compares the bin count K with the user job count)", p.Bins, total))
		}
	}
	return errs
}

// userJobs returns the user job count of a time, and whether it is a user
// time.
func (p Params) userJobs(t int) (int, bool) {
	for _, b := range p.UserBins {
		if b.Time == t {
			return b.Jobs, true
		}
	}
	return 0, false
}

// mergeHeadTimes merges the user times into the default head times
// (spec §4.4, gen_head_bintim_merge). defaults[0] is Tmax; so is the
// result's, the rest ascending. Round defaults are replaced before joint
// ones; within each, (user, default) pairs go by increasing distance, ties to
// the smaller user time, then the smaller default. Tmax and defaults that are
// themselves user times are never replaced. Params must be valid.
func mergeHeadTimes(defaults []int, user []UserBin) []int {
	tmax := defaults[0]
	isUser := map[int]bool{}
	for _, b := range user {
		isUser[b.Time] = true
	}
	var newTimes []int
	for _, b := range user {
		if !slices.Contains(defaults, b.Time) {
			newTimes = append(newTimes, b.Time)
		}
	}
	slices.Sort(newTimes)
	need := max(0, len(newTimes)-(Top-len(defaults)))
	var round, joint []int
	for _, d := range defaults {
		if slices.Contains(estJoint, d) {
			joint = append(joint, d)
		} else {
			round = append(round, d)
		}
	}
	replacedBy := map[int]int{} // default → user time
	assigned := map[int]bool{}  // user time → has replaced a default
	type pair struct{ u, d int }
	for _, part := range [][]int{round, joint} {
		if len(replacedBy) == need {
			break
		}
		var pairs []pair
		for _, u := range newTimes {
			for _, d := range part {
				pairs = append(pairs, pair{u, d})
			}
		}
		slices.SortFunc(pairs, func(a, b pair) int {
			da, db := abs(a.u-a.d), abs(b.u-b.d)
			return cmp.Or(cmp.Compare(da, db), cmp.Compare(a.u, b.u), cmp.Compare(a.d, b.d))
		})
		for _, pr := range pairs {
			if len(replacedBy) == need {
				break
			}
			if assigned[pr.u] || pr.d == tmax || isUser[pr.d] {
				continue
			}
			if _, done := replacedBy[pr.d]; done {
				continue
			}
			replacedBy[pr.d] = pr.u
			assigned[pr.u] = true
		}
	}
	out := slices.Clone(defaults)
	for i, d := range out {
		if u, ok := replacedBy[d]; ok {
			out[i] = u
		}
	}
	for _, u := range newTimes {
		if !assigned[u] {
			out = append(out, u)
		}
	}
	slices.Sort(out[1:])
	return out
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// mergeHeadSizes writes the user percents into the default head sizes
// (spec §4.4, gen_head_binsiz_merge). sizes are HeadSizes (descending; slot
// i is popularity rank i+1). It returns the merged sizes and, per user bin,
// its slot. Bins are processed by decreasing Jobs (ties: smaller time first);
// each takes the unclaimed slot whose size is nearest its percent (ties: the
// lower slot), slot 0 only for a bin at Tmax (and, with Top bins, the bin
// at Tmax only slot 0). The other slots are scaled so
// the head holds HeadShare percent (or zeroed when the user bins alone reach
// it), then slots 1.. are selection-sorted descending, carrying the bins.
func (p Params) mergeHeadSizes(sizes []float64) ([]float64, []int) {
	ub := p.UserBins
	n := float64(p.Jobs)
	order := make([]int, len(ub))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		return cmp.Or(-cmp.Compare(ub[a].Jobs, ub[b].Jobs), cmp.Compare(ub[a].Time, ub[b].Time))
	})
	res := slices.Clone(sizes)
	owner := make([]int, len(res)) // slot → user bin, −1 for none
	for i := range owner {
		owner[i] = -1
	}
	for _, u := range order {
		pct := 100 * float64(ub[u].Jobs) / n
		best, bestDist := -1, 0.0
		atMax := ub[u].Time == p.MaxEstimate
		for k, s := range res {
			// Slot 0 is for a bin at Tmax only; with Top bins the bin at
			// Tmax must take it, or a later bin would find no slot (the
			// reference code fails an assertion there).
			if owner[k] >= 0 || (k == 0 && !atMax) || (k != 0 && atMax && len(ub) == Top) {
				continue
			}
			if d := math.Abs(pct - s); best < 0 || d < bestDist {
				best, bestDist = k, d
			}
		}
		owner[best] = u
	}
	sumUser, sumOther := 0.0, 0.0
	for k := range res {
		if u := owner[k]; u >= 0 {
			res[k] = 100 * float64(ub[u].Jobs) / n
			sumUser += res[k]
		} else {
			sumOther += res[k]
		}
	}
	for k := range res {
		if owner[k] >= 0 {
			continue
		}
		if sumUser < HeadShare {
			if sumOther > 0 {
				res[k] *= (HeadShare - sumUser) / sumOther
			}
		} else {
			res[k] = 0
		}
	}
	for i := 1; i < len(res); i++ {
		m := i
		for j := i; j < len(res); j++ {
			if res[m] < res[j] {
				m = j
			}
		}
		res[i], res[m] = res[m], res[i]
		owner[i], owner[m] = owner[m], owner[i]
	}
	slot := make([]int, len(ub))
	for k, u := range owner {
		if u >= 0 {
			slot[u] = k
		}
	}
	return res, slot
}

// userConstraint pins the time rank of every user time in head to its bin's
// popularity rank, slot+1 (spec §4.4, gen_head_user_constraint). 0 means no
// constraint.
func (p Params) userConstraint(head []int, slot []int) [Top]int {
	var c [Top]int
	for ttr, t := range head {
		for u, b := range p.UserBins {
			if b.Time == t {
				c[ttr] = slot[u] + 1
			}
		}
	}
	return c
}
