package cloud

import (
	"github.com/schedfarm/schedfarm/param"
	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/strategies"
)

// FIFO is the first-come first-served baseline of §4.2.
const FIFO = "fifo"

func fifoEntry() strategies.Entry {
	return strategies.Entry{
		Name:     FIFO,
		Summary:  "seed 001 FIFO: jobs in arrival order, each task on the lowest-numbered idle VM that holds it (§4.2)",
		Platform: string(Output),
		Params:   []param.Spec{blockingSpec, deadlineAwareSpec},
		New: func(b strategies.Build) (sim.Scheduler, error) {
			return build(b, &queue{blocking: b.Params.Int("blocking") == 1}, b.Params.Int("deadline_aware") == 1)
		},
	}
}
