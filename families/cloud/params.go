package cloud

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/schedfarm/schedfarm/internal/numeric"
)

// Scheduler names, in the paper's order (§4.1).
const (
	CPLMT = "cplmt"
	FIFO  = "fifo"
	Fair  = "fair"
	ASJS  = "asjs"
	CMMS  = "cmms"
)

// Names lists the family's schedulers in the paper's order.
func Names() []string { return []string{CPLMT, FIFO, Fair, ASJS, CMMS} }

// ParamSpec documents one scheduler parameter; every one is a number.
type ParamSpec struct {
	// Name is the parameter's key.
	Name string
	// Default is the value used when the parameter is not given.
	Default float64
	// Min and Max bound the accepted values (inclusive).
	Min, Max float64
	// Integer requires a whole number.
	Integer bool
	// Doc says what it does.
	Doc string
}

func (s ParamSpec) accepted() string {
	kind := "a number"
	if s.Integer {
		kind = "an integer"
	}
	return fmt.Sprintf("%s in [%s, %s]", kind, fmtNum(s.Min), fmtNum(s.Max))
}

func fmtNum(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// Params lists the parameters of the named scheduler (nil for none or an
// unknown name).
func Params(name string) []ParamSpec {
	switch name {
	case CPLMT:
		return []ParamSpec{
			{Name: "alpha", Default: 1, Min: 1e-9, Max: 1e9, Doc: "α (§4.1: 1): a VM satisfies a task's processing need when instructions/speed ≤ α · time left to the deadline (Algorithm 1)"},
			{Name: "beta", Default: 1, Min: 1e-9, Max: 1e9, Doc: "β (§4.1: 1): a VM satisfies a task's memory when demand ≤ β · its memory"},
			{Name: "gamma", Default: 1, Min: 1e-9, Max: 1e9, Doc: "γ (§4.1: 1): a VM satisfies a task's bandwidth when demand ≤ γ · its bandwidth"},
			{Name: "epsilon", Default: 0.8, Min: 0, Max: 1, Doc: "ε (§4.1: 0.8): a job is processing-urgent (ulCPU, in place of the paper's unused ulHD) when more than ε·VMs cannot satisfy one of its tasks"},
			{Name: "omega", Default: 0.8, Min: 0, Max: 1, Doc: "ω (§4.1: 0.8): memory-urgent (ulMEM, formula 14) when more than ω·VMs cannot satisfy one of its tasks"},
			{Name: "eta", Default: 0.8, Min: 0, Max: 1, Doc: "η (§4.1: 0.8): bandwidth-urgent (ulBW, formula 16) when more than η·VMs cannot satisfy one of its tasks"},
			{Name: "kappa", Default: 15, Min: 0, Max: 1e9, Doc: "κ (§4.2: 15): a job is a ujob (scheduled first) when (VMs satisfying every aspect of its hardest task) / parallelism ≤ κ (formula 7)"},
		}
	case Fair:
		return []ParamSpec{
			{Name: "max_share", Default: 3, Min: 1, Max: 1000, Integer: true, Doc: "most VMs one task may share when idle VMs are plentiful (§4.2: a 4-task job 'can share 8 VMs even 12 VMs'); 1 = no sharing"},
			deadlineAwareSpec,
		}
	case FIFO:
		return []ParamSpec{blockingSpec, deadlineAwareSpec}
	case ASJS:
		return []ParamSpec{
			{Name: "bw_weight", Default: 0.5, Min: 0, Max: 1, Doc: "weight of bandwidth in the VM score bw_weight·bandwidth/max + (1−bw_weight)·speed/max"},
			{Name: "wait_best", Default: 1, Min: 0, Max: 1, Integer: true, Doc: "1 = a job waits for its best resources (§4.2: ASJS \"always tries to find the best resource, so it always longs the waiting time\"): busy VMs are scored too, by bandwidth only (the processing part counts only while idle, [21]'s adaptive score), and a task whose best VM is busy waits for it; 0 = each task takes the best idle VM, never waiting (before issue 21; not the paper's)"},
			blockingSpec,
			deadlineAwareSpec,
		}
	case CMMS:
		return []ParamSpec{deadlineAwareSpec}
	}
	return nil
}

// deadlineAwareSpec is the baselines' deadline reading (issue 21 item 9).
var deadlineAwareSpec = ParamSpec{Name: "deadline_aware", Default: 0, Min: 0, Max: 1, Integer: true,
	Doc: "0 = deadline-unaware, as §4.2 describes the baselines (FIFO \"does not take account of the details of the VMs and the job\"): any idle VM that holds a task, a started job runs to its end even past its deadline, a waiting job expires at its deadline; 1 = CPLMT's Check() (Fig. 3) lent to the baseline: only VMs that end the job in time, a job dropped at its latest start"}

// blockingSpec is FIFO's and ASJS's queue discipline.
var blockingSpec = ParamSpec{Name: "blocking", Default: 0, Min: 0, Max: 1, Integer: true,
	Doc: "1 = a strict queue: a job that cannot start holds back every later one until it starts or is dropped; 0 = it is passed over"}

// Check reports whether name is a scheduler of the family and params are
// acceptable, naming every bad parameter with what would be accepted.
func Check(name string, params map[string]any) error {
	_, err := resolve(name, params)
	return err
}

// resolve returns every parameter of the named scheduler, defaults filled.
func resolve(name string, params map[string]any) (map[string]float64, error) {
	if !slices.Contains(Names(), name) {
		return nil, fmt.Errorf("cloud: unknown scheduler %q; accepted: %s", name, strings.Join(Names(), ", "))
	}
	specs := Params(name)
	out := make(map[string]float64, len(specs))
	for _, s := range specs {
		out[s.Name] = s.Default
	}
	keys := make([]string, 0, len(params))
	for k := range params {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var errs []error
	for _, k := range keys {
		i := slices.IndexFunc(specs, func(s ParamSpec) bool { return s.Name == k })
		if i < 0 {
			acc := "none"
			if len(specs) > 0 {
				names := make([]string, len(specs))
				for n, s := range specs {
					names[n] = s.Name
				}
				acc = strings.Join(names, ", ")
			}
			errs = append(errs, fmt.Errorf("cloud: scheduler %s: unknown parameter %q; accepted: %s", name, k, acc))
			continue
		}
		s := specs[i]
		v, ok := numeric.Float(params[k])
		if str, isStr := params[k].(string); isStr {
			f, err := strconv.ParseFloat(str, 64)
			v, ok = f, err == nil
		}
		if !ok || math.IsNaN(v) || v < s.Min || v > s.Max || (s.Integer && v != math.Trunc(v)) {
			errs = append(errs, fmt.Errorf("cloud: scheduler %s: parameter %s = %v; accepted: %s", name, k, params[k], s.accepted()))
			continue
		}
		out[k] = v
	}
	return out, errors.Join(errs...)
}
