package consolidation

import (
	"fmt"

	"github.com/schedfarm/schedfarm/family"
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
func (fam) SpecFields() []family.Field {
	return []family.Field{
		{Name: FieldCPUUsage, Kind: "float",
			Accepted: "a number in (0, 1]: the mean CPU usage of a process of a multi-process job (default: seed 000's uniform [0.4, 1], mean 0.7)",
			Check: func(v any) string {
				if f := v.(float64); !(f > 0 && f <= 1) {
					return fmt.Sprintf("cpu_usage %g out of range", f)
				}
				return ""
			}},
		{Name: FieldCPUEstimate, Kind: "string",
			Accepted: "exact, noisy, none (the CPU usage the scheduler is told; none: no information)",
			Check: func(v any) string {
				switch s := v.(string); s {
				case "exact", "noisy", "none":
					return ""
				default:
					return fmt.Sprintf("unknown cpu_estimate %q", s)
				}
			}},
		{Name: FieldCPUError, Kind: "float",
			Accepted: "a number in [0, 1]: the relative error bound of cpu_estimate noisy",
			Check: func(v any) string {
				if f := v.(float64); !(f >= 0 && f <= 1) {
					return fmt.Sprintf("cpu_error %g out of range", f)
				}
				return ""
			}},
	}
}
