package families

import (
	"slices"

	"github.com/schedfarm/schedfarm/families/classic"
	"github.com/schedfarm/schedfarm/families/cloud"
	"github.com/schedfarm/schedfarm/families/consolidation"
	"github.com/schedfarm/schedfarm/families/ktier"
	"github.com/schedfarm/schedfarm/families/stms"
	"github.com/schedfarm/schedfarm/families/twotier"
	"github.com/schedfarm/schedfarm/family"
	"github.com/schedfarm/schedfarm/strategies"
	"github.com/schedfarm/schedfarm/workload/models"
)

// Builtin lists every family shipped with schedfarm, one line each: adding
// a family is adding its folder and its line here.
func Builtin() []family.Family {
	return []family.Family{
		classic.Family(),
		twotier.Family(),
		consolidation.Family(),
		cloud.Family(),
		stms.Family(),
		ktier.Family(),
	}
}

// Schedulers returns the registry of every engine scheduler of the
// built-in families (family.Family.Schedulers), in family order.
func Schedulers() *strategies.Registry {
	var entries []strategies.Entry
	for _, f := range Builtin() {
		for _, e := range f.Schedulers() {
			if e.Platform == "" {
				entries = append(entries, e)
			}
		}
	}
	r, err := strategies.NewRegistry(slices.Clip(entries)...)
	if err != nil {
		panic(err) // the built-in table is fixed; a duplicate is a programming error caught by tests
	}
	return r
}

// Models returns the registry of workload generator models: the shared SWF
// models of workload/models and every family's own (family.ModelOwner).
func Models() *models.Registry {
	var extra []models.Model
	for _, f := range Builtin() {
		if mo, ok := f.(family.ModelOwner); ok {
			extra = append(extra, mo.Models()...)
		}
	}
	r, err := models.NewRegistry(extra...)
	if err != nil {
		panic(err) // the built-in table is fixed; a duplicate is a programming error caught by tests
	}
	return r
}

// PlatformRunner returns the family whose own platform runs cells of
// the model output o (family.PlatformRunner), if any.
func PlatformRunner(o string) (family.PlatformRunner, bool) {
	for _, f := range Builtin() {
		if pr, ok := f.(family.PlatformRunner); ok && pr.Output().String() == o {
			return pr, true
		}
	}
	return nil, false
}

// PlatformRunners lists the families with a platform of their own, in
// family order.
func PlatformRunners() []family.PlatformRunner {
	var out []family.PlatformRunner
	for _, f := range Builtin() {
		if pr, ok := f.(family.PlatformRunner); ok {
			out = append(out, pr)
		}
	}
	return out
}

// ExtraMetricNames lists the metrics the built-in families' schedulers
// report beyond the runner's own (family.MetricNamer), in family order.
func ExtraMetricNames() []string {
	var names []string
	for _, f := range Builtin() {
		if mn, ok := f.(family.MetricNamer); ok {
			names = append(names, mn.ExtraMetricNames()...)
		}
	}
	return names
}
