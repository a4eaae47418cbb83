// Command easy is an example schedfarm scheduler plugin: EASY (aggressive)
// backfilling written against the plugin SDK. It gives the same schedule as
// the built-in easy scheduler (with backfill=shortest, as sjbf), job by
// job; the tests check that on the KTH-SP2 trace.
//
//	go build -o easy-plugin ./examples/plugins/easy
//	schedfarm sim --trace KTH-SP2-1996-2.swf.gz --plugin ./easy-plugin --estimates pyss
package main

import (
	"cmp"
	"math"
	"slices"

	"github.com/schedfarm/schedfarm/strategies/plugin/sdk"
)

func main() {
	sdk.Serve(sdk.Plugin{
		Name:    "easy-plugin",
		Summary: "EASY backfilling (example plugin): the queue head gets a reservation, later jobs backfill around it",
		Params: []sdk.Param{{
			Name: "backfill", Kind: sdk.String, Default: "submit", Choices: []string{"submit", "shortest"},
			Doc: "order in which backfill candidates are tried: submit order (EASY) or shortest estimate first (SJBF)",
		}},
		// EASY decides from the current state only, so passes at which
		// nothing fits need not be sent.
		PassMode: sdk.WhenStartable,
		New: func(r sdk.Run) (sdk.Scheduler, error) {
			return &easy{shortest: r.String("backfill") == "shortest"}, nil
		},
	})
}

type easy struct {
	shortest bool
	running  []*sdk.Job // scratch: running jobs by expected end
	cands    []*sdk.Job // scratch: backfill candidates
}

// minDur is how long a job with a zero estimate holds its processors in
// the scheduler's plan (as the built-in schedulers do).
const minDur = 1e-6

func dur(j *sdk.Job) float64 { return math.Max(j.Estimate, minDur) }

func (e *easy) Pass(c *sdk.Cluster) error {
	q := c.Queue()
	i := 0
	for ; i < len(q) && c.Fits(q[i]); i++ {
		if err := c.Start(q[i]); err != nil {
			return err
		}
	}
	if i == len(q) {
		return nil
	}
	head := q[i]
	shadow, extra := e.shadow(c, head)
	if !math.IsInf(shadow, 1) {
		c.Reserve(head, shadow)
		c.WakeAt(shadow)
	}
	e.cands = append(e.cands[:0], q[i+1:]...)
	if e.shortest {
		slices.SortStableFunc(e.cands, func(a, b *sdk.Job) int { return cmp.Compare(a.Estimate, b.Estimate) })
	}
	for _, j := range e.cands {
		if !c.Fits(j) {
			continue
		}
		endsBefore := c.Now()+dur(j) <= shadow
		if !endsBefore && !fitsIn(j.Demand, extra) {
			continue
		}
		if err := c.Start(j); err != nil {
			return err
		}
		if !endsBefore {
			for k, d := range j.Demand {
				extra[k] -= d
			}
		}
	}
	return nil
}

// shadow returns when the head job can start if the running jobs end at
// their estimates, and the units to spare then beside it.
func (e *easy) shadow(c *sdk.Cluster, head *sdk.Job) (float64, []int64) {
	avail := slices.Clone(c.Free())
	end := func(j *sdk.Job) float64 { return math.Max(j.Start()+dur(j), c.Now()) }
	e.running = append(e.running[:0], c.Running()...)
	slices.SortStableFunc(e.running, func(a, b *sdk.Job) int { return cmp.Compare(end(a), end(b)) })
	for k := 0; k < len(e.running); {
		t := end(e.running[k])
		for ; k < len(e.running) && end(e.running[k]) == t; k++ {
			for p, d := range e.running[k].Demand {
				avail[p] += d
			}
		}
		if fitsIn(head.Demand, avail) {
			for p, d := range head.Demand {
				avail[p] -= d
			}
			return t, avail
		}
	}
	return math.Inf(1), avail // cannot happen: the head fits an empty machine
}

func fitsIn(demand, avail []int64) bool {
	for i, d := range demand {
		if d > avail[i] {
			return false
		}
	}
	return true
}
