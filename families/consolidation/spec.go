package consolidation

import (
	"fmt"

	"github.com/schedfarm/schedfarm/param"
)

// The spec's workload fields of the VM tiers: the per-process CPU usage of
// seed 000 (§3.1) and what the scheduler is told of it. A run reads them
// through CPUModel.
const (
	FieldCPUUsage    = "workload.cpu_usage"
	FieldCPUEstimate = "workload.cpu_estimate"
	FieldCPUError    = "workload.cpu_error"
)

// SpecFields implements family.SpecChecker: the CPU-usage fields, each
// checked on its own here and together by CheckFields.
func (fam) SpecFields() []param.Spec {
	return []param.Spec{
		{Name: FieldCPUUsage, Kind: param.Float, Unit: "fraction 0–1",
			Doc:  "seed 000: mean per-process CPU usage (1 = every process at 100%, §3.5.2)",
			Form: "a number in (0, 1]: the mean CPU usage of a process of a multi-process job (default: seed 000's uniform [0.4, 1], mean 0.7)",
			Check: func(v any) error {
				if f := v.(float64); !(f > 0 && f <= 1) {
					return fmt.Errorf("cpu_usage %g out of range", f)
				}
				return nil
			}},
		{Name: FieldCPUEstimate, Kind: param.String, Unit: "—",
			Doc:  "seed 000: the CPU-usage information a VM-tier scheduler sees: exact, noisy or none",
			Form: "exact, noisy, none (the CPU usage the scheduler is told; none: no information)",
			Check: func(v any) error {
				switch s := v.(string); s {
				case "exact", "noisy", "none":
					return nil
				default:
					return fmt.Errorf("unknown cpu_estimate %q", s)
				}
			}},
		{Name: FieldCPUError, Kind: param.Float, Unit: "fraction 0–1",
			Doc:  "seed 000: relative error of noisy CPU-usage estimates",
			Form: "a number in [0, 1]: the relative error bound of cpu_estimate noisy",
			Check: func(v any) error {
				if f := v.(float64); !(f >= 0 && f <= 1) {
					return fmt.Errorf("cpu_error %g out of range", f)
				}
				return nil
			}},
	}
}
