package cloud

import "slices"

// timedVM is a VM and a task's time on it.
type timedVM struct {
	et float64
	v  int32
}

// timeOrders returns ji.byTime, making it at the first call for the job:
// for each distinct task of ji (those not equal to the task before them),
// the VMs that can hold it by the task's time on them, ascending, equal
// times by VM number. In that order the first free VM is the one a scan
// of the task's candidates by smallest time, ties to the lowest VM, picks
// (CMMS's fastestInto), and its time the smallest (CPLMT's maxMinTime).
//
// Without a transfer time the time is instructions / speed, and the VMs by
// speed, fastest first, ties by number (scheduler.bySpeed), are in
// ascending order of it already (division rounds monotonically): those
// that can hold the task are kept (scheduler.within). Two different speeds
// can still give one time (the quotients round to the same number), and
// then the faster VM comes first whatever its number: such runs of equal
// times are put in VM order (byNumberWithinTimes). With a transfer time
// the capable VMs are sorted by (time, number), each time computed once.
func (s *scheduler) timeOrders(ji *jobInfo) [][]int32 {
	if ji.byTime != nil {
		return ji.byTime
	}
	j := ji.j
	var out [][]int32
	noTransfer := s.w.TransferScale == 0 || j.InputSize == 0
	for t := range j.Tasks {
		if sameAsPrevious(ji, t) {
			continue
		}
		c := ji.capable[t]
		tk := &j.Tasks[t]
		if noTransfer {
			out = append(out, s.byNumberWithinTimes(s.within(s.bySpeed, c), j, tk))
			continue
		}
		timed := s.timed[:0]
		for _, v := range c {
			timed = append(timed, timedVM{s.w.ExecTime(j, tk, &s.w.VMs[v]), v})
		}
		slices.SortFunc(timed, byTimeThenNumber)
		order := make([]int32, 0, len(c))
		for _, x := range timed {
			order = append(order, x.v)
		}
		s.timed = timed
		out = append(out, order)
	}
	ji.byTime = out
	return out
}

// byNumberWithinTimes returns order (the VMs that can hold tk in
// scheduler.bySpeed's order, without a transfer time: ascending times)
// with every run of equal times in VM order: order itself when each is
// already, else a sorted copy (order may be bySpeed, which is not
// written). VMs of one speed give one time and are in VM order already
// (bySpeed is a stable sort of the VM numbers), so only two neighbours of
// different speeds, the higher number first, can be out of order, and are
// when their times are equal: only there are times computed, unless one
// such pair is found, and then every run is checked.
func (s *scheduler) byNumberWithinTimes(order []int32, j *Job, tk *Task) []int32 {
	vms := s.w.VMs
	tied := false
	for i := 1; i < len(order) && !tied; i++ {
		a, b := &vms[order[i-1]], &vms[order[i]]
		tied = order[i-1] > order[i] && a.Speed != b.Speed && s.w.ExecTime(j, tk, a) == s.w.ExecTime(j, tk, b)
	}
	if !tied {
		return order
	}
	order = slices.Clone(order)
	for i := 0; i < len(order); {
		et := s.w.ExecTime(j, tk, &vms[order[i]])
		k := i + 1
		for k < len(order) && s.w.ExecTime(j, tk, &vms[order[k]]) == et {
			k++
		}
		slices.Sort(order[i:k])
		i = k
	}
	return order
}

// byTimeThenNumber orders timed VMs by time, then by VM number. The times
// are never NaN (Workload.Validate: positive speeds, finite instructions
// and transfer sizes), so plain comparisons order them as cmp.Compare
// would, without its NaN tests.
func byTimeThenNumber(a, b timedVM) int {
	switch {
	case a.et < b.et:
		return -1
	case a.et > b.et:
		return 1
	}
	return int(a.v) - int(b.v)
}

// firstFree returns the position of the first free VM of order at or after
// from (scheduler.free: idle and not taken by the assignment being built),
// or len(order) if there is none: the walks over time orders stop there.
func (s *scheduler) firstFree(order []int32, from int) int {
	for from < len(order) && !s.free(int(order[from])) {
		from++
	}
	return from
}
