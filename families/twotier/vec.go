package twotier

// The timeline's scans add and copy pool vectors (n ints, one per resource
// type) at every piece and breakpoint they pass: in the heavy seed-004 cell
// (BenchmarkSeed004Heavy) add alone was 11% of the samples and the calls
// to memmove behind copy 7%. Every seed-004 experiment has Table 6's N = 5
// resource types, so for five pools both are written out as five
// statements, with no loop and no call; any other number of pools takes the
// plain loop and copy. The answers are the same either way (TestVecOps);
// docs/performance-log.md, "Eighteenth session", has the measurement.

// table6Pools is N of the thesis's Table 6: the number of resource types of
// every seed-004 experiment.
const table6Pools = 5

// add sets p += v; v has at least len(p) entries.
func add(p, v []int) {
	if len(p) == table6Pools {
		p, v = p[:table6Pools:table6Pools], v[:table6Pools:table6Pools]
		p[0] += v[0]
		p[1] += v[1]
		p[2] += v[2]
		p[3] += v[3]
		p[4] += v[4]
		return
	}
	v = v[:len(p)]
	for k := range p {
		p[k] += v[k]
	}
}

// setVec copies src into dst, which have the same length: copy, without
// the call for five pools.
func setVec(dst, src []int) {
	if len(dst) == table6Pools && len(src) == table6Pools {
		dst, src = dst[:table6Pools:table6Pools], src[:table6Pools:table6Pools]
		dst[0], dst[1], dst[2], dst[3], dst[4] = src[0], src[1], src[2], src[3], src[4]
		return
	}
	copy(dst, src)
}

// addSigned sets p += sign·v (sign ±1); v has at least len(p) entries.
func addSigned(p, v []int, sign int) {
	if len(p) == table6Pools {
		p, v = p[:table6Pools:table6Pools], v[:table6Pools:table6Pools]
		p[0] += sign * v[0]
		p[1] += sign * v[1]
		p[2] += sign * v[2]
		p[3] += sign * v[3]
		p[4] += sign * v[4]
		return
	}
	v = v[:len(p)]
	for k := range p {
		p[k] += sign * v[k]
	}
}
