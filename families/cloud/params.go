package cloud

import (
	"fmt"

	"github.com/schedfarm/schedfarm/param"
	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/strategies"
	"github.com/schedfarm/schedfarm/workload/models"
)

// Output is what the family's workload model (seed001) generates and its
// schedulers run on: VMs with memory, processing ability and bandwidth,
// and parallel jobs with per-task demands and deadlines (Workload).
const Output = models.Output("cloud")

// schedulers lists the family's schedulers in the paper's order (§4.1),
// one entry each, declared in the scheduler's own file: adding one is its
// file and its line here.
func schedulers() []strategies.Entry {
	return []strategies.Entry{
		cplmtEntry(),
		fifoEntry(),
		fairEntry(),
		asjsEntry(),
		cmmsEntry(),
	}
}

// registry holds the family's schedulers.
func registry() *strategies.Registry {
	r, err := strategies.NewRegistry(schedulers()...)
	if err != nil {
		panic(err) // the family's table is fixed; a duplicate is a programming error caught by tests
	}
	return r
}

// Names lists the family's schedulers in the paper's order.
func Names() []string {
	var out []string
	for _, e := range schedulers() {
		out = append(out, e.Name)
	}
	return out
}

// build is the factory every scheduler of the family shares: the
// family's scheduler around policy p, for the workload of b.World.
func build(b strategies.Build, p policy, aware bool) (sim.Scheduler, error) {
	w, ok := b.World.(*Workload)
	if !ok || w == nil {
		return nil, fmt.Errorf("cloud: the scheduler runs seed001 workloads only (a *cloud.Workload), got %T", b.World)
	}
	return newScheduler(w, p, aware), nil
}

// deadlineAwareSpec is the baselines' deadline reading (issue 21 item 9).
var deadlineAwareSpec = param.Spec{Name: "deadline_aware", Kind: param.Int, Default: int64(0), Min: 0, Max: 1,
	Doc: "0 = deadline-unaware, as §4.2 describes the baselines (FIFO \"does not take account of the details of the VMs and the job\"): any idle VM that holds a task, a started job runs to its end even past its deadline, a waiting job expires at its deadline; 1 = CPLMT's Check() (Fig. 3) lent to the baseline: only VMs that end the job in time, a job dropped at its latest start"}

// blockingSpec is FIFO's and ASJS's queue discipline.
var blockingSpec = param.Spec{Name: "blocking", Kind: param.Int, Default: int64(0), Min: 0, Max: 1,
	Doc: "1 = a strict queue: a job that cannot start holds back every later one until it starts or is dropped; 0 = it is passed over"}
