package experiments

import (
	"fmt"
	"sort"
	"strings"
)

// PointReplications gives the cells Where selects Replications
// replications, more than the spec's (spec field more_replications):
//
//	replications: 3
//	more_replications:
//	  - where: {workload.load: 0.9, scheduler: measy}
//	    replications: 12
//
// Where names "scheduler" (an entry's name) and cell parameters by full
// name (workload.load, scheduler.k, workload.generator.class); a cell is
// selected when every one matches. A "scheduler.<param>" the cell's
// scheduler does not have does not restrict: such a parameter belongs to
// another scheduler's own axis (scheduler.<name>.<param>), and the
// schedulers compared with it ran once for all its values. The added
// replications are replication indices Replications, Replications+1, …
// with the seeds and IDs those indices always have, so the cells of the
// same grid point and replication still share their random draws, and a
// rerun of the spec publishes only the cells it has not run.
type PointReplications struct {
	Where        map[string]any
	Replications int
}

// selects reports whether the entry selects the cell of scheduler sched
// with parameter values vals.
func (m PointReplications) selects(sched string, vals map[string]any) bool {
	for k, want := range m.Where {
		if k == "scheduler" {
			if FormatValue(want) != sched {
				return false
			}
			continue
		}
		got, ok := vals[k]
		if !ok {
			if strings.HasPrefix(k, "scheduler.") {
				continue
			}
			return false
		}
		if canonValue(got) != canonValue(want) {
			return false
		}
	}
	return true
}

// replicationsOf returns the replications of the cell of scheduler sched
// with parameter values vals: the spec's, or the most any
// more_replications entry selecting it gives.
func (s *Spec) replicationsOf(sched string, vals map[string]any) int {
	n := s.Replications
	for _, m := range s.MoreReplications {
		if m.Replications > n && m.selects(sched, vals) {
			n = m.Replications
		}
	}
	return n
}

// maxReplications returns the most replications any cell has.
func (s *Spec) maxReplications() int {
	n := s.Replications
	for _, m := range s.MoreReplications {
		n = max(n, m.Replications)
	}
	return n
}

// moreReplications validates the more_replications entries: each selects
// by known names and values and asks for more than the spec's
// replications. Every problem is reported.
func (v *validator) moreReplications(raw []rawMore, s *Spec) []PointReplications {
	if len(raw) == 0 {
		return nil
	}
	known := map[string]bool{}
	for _, p := range s.base {
		known[p.Name] = true
	}
	for _, ax := range s.axisInfo {
		known[ax.name] = true
	}
	var scheds []string
	for _, e := range s.Schedulers {
		scheds = append(scheds, e.Name)
		for k := range e.Params {
			known["scheduler."+k] = true
		}
	}
	names := make([]string, 0, len(known))
	for k := range known {
		names = append(names, k)
	}
	sort.Strings(names)
	var out []PointReplications
	for i, m := range raw {
		path := fmt.Sprintf("more_replications[%d]", i)
		if m.Replications <= s.Replications {
			v.errorf(path+".replications", "%d; accepted: more than the spec's replications (%d)", m.Replications, s.Replications)
		}
		if len(m.Where) == 0 {
			v.errorf(path+".where", "empty; accepted: a map of scheduler and cell parameters (full names, e.g. workload.load) to values")
		}
		keys := make([]string, 0, len(m.Where))
		for k := range m.Where {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		ok := true
		for _, k := range keys {
			val := m.Where[k]
			switch {
			case k == "scheduler":
				if !contains(scheds, FormatValue(val)) {
					v.errorf(path+".where.scheduler", "%q is no scheduler of the spec; accepted: one of %s", FormatValue(val), strings.Join(scheds, ", "))
					ok = false
				}
			case !known[k]:
				v.errorf(path+".where."+k, "no cell has this parameter; accepted: scheduler or one of %s", strings.Join(names, ", "))
				ok = false
			default:
				switch val.(type) {
				case int, int64, float64, string, bool:
				default:
					v.errorf(path+".where."+k, "%v; accepted: a number, string or boolean", val)
					ok = false
				}
			}
		}
		if ok {
			where := make(map[string]any, len(m.Where))
			for k, val := range m.Where {
				if n, isInt := val.(int); isInt {
					val = int64(n)
				}
				where[k] = val
			}
			out = append(out, PointReplications{Where: where, Replications: m.Replications})
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// eachCell calls f with the scheduler and parameter values of every cell
// of one replication.
func (s *Spec) eachCell(f func(sched string, vals map[string]any)) {
	one := *s
	one.Replications, one.MoreReplications = 1, nil
	for _, c := range one.Cells() {
		vals := make(map[string]any, len(c.Params))
		for _, p := range c.Params {
			vals[p.Name] = p.Value
		}
		f(c.Scheduler, vals)
	}
}
