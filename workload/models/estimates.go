package models

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/schedfarm/schedfarm/param"
	"github.com/schedfarm/schedfarm/workload/tsafrir05"
)

// The Tsafrir estimate settings are shared by three users: the generators
// (parameters estimates, max_estimate, est_bins), the "schedfarm workload
// estimates" command and trace cells of an experiment spec
// (workload.user_estimates). They all go through AssignEstimates, so a Tmax
// left automatic is chosen by one rule (AutoMaxEstimate, grown until
// feasible) everywhere.

// EstimateModel is the name of the only user-estimate model: Tsafrir,
// Etsion & Feitelson 2005 (package tsafrir05).
const EstimateModel = "tsafrir05"

// EstimateOptions configure AssignEstimates.
type EstimateOptions struct {
	// MaxEstimate is Tmax in seconds; 0 chooses it automatically
	// (AutoMaxEstimate, then grown by 25% steps until every job can get an
	// estimate at least its runtime). An explicit Tmax is used as is and
	// must be feasible.
	MaxEstimate int
	// Bins are user-supplied bins as shares of the jobs (est_bins; the
	// reference driver's -b sec=percent), nil for none.
	Bins []tsafrir05.UserPercent
}

// Estimates are the modelled user runtime estimates of a set of jobs.
type Estimates struct {
	// Values holds one estimate per runtime, in the order of the runtimes.
	Values []float64
	// MaxEstimate is the Tmax used (the automatic choice when Tmax was 0).
	MaxEstimate int
	// Capped counts the runtimes cut to MaxEstimate.
	Capped int
	// UserBins are the user bins in job counts (int(N·percent/100)), nil
	// when none were given.
	UserBins []tsafrir05.UserBin
	// Bins is the histogram the estimates were drawn from, sorted by time.
	Bins []tsafrir05.Bin
}

// AutoMaxEstimate is the automatic Tmax a search starts from: the longest
// runtime rounded up to whole hours, at least 7200 s, and at least every
// user bin time rounded up to whole hours.
func AutoMaxEstimate(maxRuntime float64, bins []tsafrir05.UserPercent) int {
	tmax := max(7200, int(math.Ceil(maxRuntime/3600))*3600)
	for _, b := range bins {
		tmax = max(tmax, (b.Time+3599)/3600*3600)
	}
	return tmax
}

// AssignEstimates draws Tsafrir user runtime estimates for jobs with the
// given runtimes (spec §4.7): N = len(runtimes) must exceed
// tsafrir05.MinJobs. Runtimes above the chosen Tmax are capped in place (as
// the model does). The histogram draws from PCG(seed[0], seed[1]), a fresh
// one for every Tmax tried, and the assignment continues with the
// histogram's generator; so with an explicit MaxEstimate the histogram is
// exactly tsafrir05.Params.Histogram on a new PCG(seed[0], seed[1]).
//
// Besides the estimates it allocates O(K) for K bins; the runtimes are
// neither copied nor sorted.
func AssignEstimates(runtimes []float64, opt EstimateOptions, seed [2]uint64) (Estimates, error) {
	if n := len(runtimes); n <= tsafrir05.MinJobs {
		return Estimates{}, fmt.Errorf("%s estimates: %d jobs with a runtime; the model needs more than %d", EstimateModel, n, tsafrir05.MinJobs)
	}
	tmax, hist, erng, err := estimateHistogram(opt.MaxEstimate, runtimes, opt.Bins, seed)
	if err != nil {
		return Estimates{}, err
	}
	est, capped, err := tsafrir05.Assign(runtimes, hist, erng)
	if err != nil {
		return Estimates{}, err
	}
	return Estimates{Values: est, MaxEstimate: tmax, Capped: capped,
		UserBins: tsafrir05.UserBinsFromPercents(len(runtimes), opt.Bins), Bins: hist}, nil
}

// estimateHistogram builds the Tsafrir histogram, with the user bins given
// as percents of the jobs (est_bins). With tmax 0 (automatic) it starts from
// AutoMaxEstimate and grows Tmax by 25% steps (rounded up to whole hours)
// until every job can get an estimate at least its runtime; an explicit tmax
// is used as is and must be feasible.
func estimateHistogram(tmax int, runtimes []float64, user []tsafrir05.UserPercent, seed [2]uint64) (int, []tsafrir05.Bin, *rand.Rand, error) {
	auto := tmax == 0
	if auto {
		longest := 0.0
		for _, r := range runtimes {
			longest = math.Max(longest, r)
		}
		tmax = AutoMaxEstimate(longest, user)
	}
	for attempt := 0; ; attempt++ {
		erng := rand.New(rand.NewPCG(seed[0], seed[1]))
		p := tsafrir05.Default(len(runtimes), tmax)
		p.UserBins = tsafrir05.UserBinsFromPercents(len(runtimes), user)
		hist, err := p.Histogram(erng)
		if err != nil {
			if len(user) > 0 {
				err = fmt.Errorf("est_bins %s: %w", tsafrir05.FormatUserPercents(user), err)
			}
			return 0, nil, nil, err
		}
		if tsafrir05.Fits(runtimes, hist) {
			return tmax, hist, erng, nil
		}
		if !auto || attempt >= 40 {
			return 0, nil, nil, fmt.Errorf("tsafrir05 estimates: with max_estimate %d s some runtimes cannot get an estimate at least as long (the histogram has too few long estimates); want a larger max_estimate", tmax)
		}
		tmax = int(math.Ceil(float64(tmax)*1.25/3600)) * 3600
	}
}

// EstimateNote is the "; Note:" header text recording modelled estimates in
// field 9: the model, Tmax, the number of capped runtimes and the user bins
// (as job counts), if any.
func EstimateNote(model string, maxEstimate, capped int, bins []tsafrir05.UserBin) string {
	note := fmt.Sprintf("Requested time (field 9) = %s user runtime estimates, Tmax %d s; %d runtimes capped to Tmax", model, maxEstimate, capped)
	if len(bins) > 0 {
		items := make([]string, len(bins))
		for k, b := range bins {
			items[k] = fmt.Sprintf("%d s × %d jobs", b.Time, b.Jobs)
		}
		note += "; user bins (est_bins): " + strings.Join(items, ", ")
	}
	return note
}

// EstimateParams returns the documented parameters max_estimate and est_bins
// that every SWF model accepts, for other layers (experiment specs, flags)
// that offer the same settings for traces.
func EstimateParams() []param.Spec {
	var out []param.Spec
	for _, s := range commonParams(0, 0) {
		if s.Name == "max_estimate" || s.Name == "est_bins" {
			out = append(out, s)
		}
	}
	return out
}

// CheckEstimateBins checks est_bins s (the sec=percent list) against an
// explicit maxEstimate (0: automatic, not checked) and, when jobs > 0, the
// number of jobs: the syntax (tsafrir05.ParseUserPercents, every problem on
// one line), times not above maxEstimate, twenty bins only with one at
// maxEstimate, and at least one job per bin. It returns one message per
// problem, nil when s is acceptable; the messages follow "est_bins " in an
// error.
func CheckEstimateBins(s string, maxEstimate, jobs int) []string {
	bins, err := tsafrir05.ParseUserPercents(s)
	if err != nil {
		return []string{fmt.Sprintf("= %q: %s", s, strings.ReplaceAll(err.Error(), "\n", "; "))}
	}
	return binProblems(bins, maxEstimate, jobs)
}

// binProblems are the problems of well-formed user bins with Tmax (0:
// automatic) and jobs (0: unknown), each as text following "est_bins ".
func binProblems(bins []tsafrir05.UserPercent, tmax, jobs int) []string {
	var out []string
	atMax := false
	for _, b := range bins {
		if tmax > 0 && b.Time > tmax {
			out = append(out, fmt.Sprintf("bin %d=%g: time %d s exceeds max_estimate = %d s; want times ≤ max_estimate", b.Time, b.Percent, b.Time, tmax))
		}
		atMax = atMax || b.Time == tmax
		if jobs > 0 {
			if n := int(float64(jobs) * b.Percent / 100); n < 1 {
				out = append(out, fmt.Sprintf("bin %d=%g gives int(jobs·percent/100) = %d jobs of jobs = %d; want percent ≥ %g", b.Time, b.Percent, n, jobs, 100/float64(jobs)))
			}
		}
	}
	if tmax > 0 && len(bins) == tsafrir05.MaxUserBins && !atMax {
		out = append(out, fmt.Sprintf("has %d bins and none at max_estimate = %d s; want at most %d, or one bin at max_estimate (Tmax always keeps a head value)", len(bins), tmax, tsafrir05.MaxUserBins-1))
	}
	return out
}

// CheckEstimateModel returns nil when name is EstimateModel, else an error
// naming the accepted model.
func CheckEstimateModel(name string) error {
	if name == EstimateModel {
		return nil
	}
	return fmt.Errorf("user estimate model %q unknown; accepted: %s", name, EstimateModel)
}
