package claims

import (
	"fmt"
	"sort"
	"strings"

	"github.com/schedfarm/schedfarm/experiments"
	"github.com/schedfarm/schedfarm/runner"
)

// Schedule is the sequential design of one experiment: the replications
// of its first look and the cap. The looks are at Min, 2·Min, 4·Min, …
// replications, the last at Max; a point that is still undecided jumps to
// the first look at or past its estimated need (capped at Max), so it is
// judged at most Looks() times.
type Schedule struct {
	Min, Max int
}

// Stages lists the replications of the looks.
func (s Schedule) Stages() []int {
	if s.Min < 1 {
		return nil
	}
	out := []int{s.Min}
	for n := s.Min; n < s.Max; {
		n = min(2*n, s.Max)
		out = append(out, n)
	}
	return out
}

// Looks returns the number of looks: how many times a point may be judged.
func (s Schedule) Looks() int { return max(1, len(s.Stages())) }

// Next returns the replications an undecided point with n of them should
// reach at its next look, given the estimated need (0: unknown): the first
// stage past n at or beyond need, the cap where need exceeds it, or the
// next stage when need is unknown. It returns 0 when n is at the cap.
func (s Schedule) Next(n, need int) int {
	var later []int
	for _, st := range s.Stages() {
		if st > n {
			later = append(later, st)
		}
	}
	if len(later) == 0 {
		return 0
	}
	if need <= 0 {
		return later[0]
	}
	for _, st := range later {
		if st >= need {
			return st
		}
	}
	return later[len(later)-1]
}

// Want asks for more replications of the records one side of an
// undecided point reads.
type Want struct {
	// Experiment is the spec's name.
	Experiment string
	// Where selects the cells: "scheduler" and cell parameters by full
	// name, as experiments.PointReplications takes them. A "scheduler.*"
	// parameter the cell's scheduler lacks does not restrict (the axis is
	// another scheduler's own, as in the judge).
	Where map[string]any
	// Replications is the number of replications those cells should have.
	Replications int
}

// Key identifies the cells a Want selects, for merging.
func (w Want) Key() string {
	keys := make([]string, 0, len(w.Where))
	for k := range w.Where {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteString(w.Experiment)
	for _, k := range keys {
		fmt.Fprintf(&b, "\x00%s=%s", k, experiments.FormatValue(w.Where[k]))
	}
	return b.String()
}

// Wants lists what the undecided claims need next: for every inconclusive
// point of a claim whose verdict is still inconclusive, both sides of each
// grid point it reads (every value along a folded axis) at the
// replications its experiment's schedule gives next for the point's
// estimated need. Points at their schedule's cap want nothing. The list is
// merged (the largest target per selection) and sorted.
func Wants(rs []Result, schedules map[string]Schedule) []Want {
	merged := map[string]Want{}
	for _, r := range rs {
		if r.Verdict != Inconclusive {
			continue
		}
		for _, cr := range r.Checks {
			k := cr.Check
			sched, ok := schedules[k.Experiment]
			if !ok {
				continue
			}
			for _, p := range cr.Points {
				if p.Verdict != Inconclusive {
					continue
				}
				target := sched.Next(len(p.Samples), p.Need)
				if target == 0 {
					continue
				}
				sides := []map[string]any{k.A}
				if k.Kind != "value" {
					sides = append(sides, k.B)
				}
				for _, g := range p.grid {
					for _, side := range sides {
						w := Want{Experiment: k.Experiment, Where: map[string]any{}, Replications: target}
						for name, v := range side {
							w.Where[name] = v
						}
						for _, ps := range [][]runner.Param{g, r.Split} {
							for _, p := range ps {
								w.Where[p.Name] = p.Value
							}
						}
						key := w.Key()
						if old, ok := merged[key]; !ok || old.Replications < w.Replications {
							merged[key] = w
						}
					}
				}
			}
		}
	}
	keys := make([]string, 0, len(merged))
	for k := range merged {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]Want, len(keys))
	for i, k := range keys {
		out[i] = merged[k]
	}
	return out
}
