package experiments

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/schedfarm/schedfarm/internal/jsonappend"
	"github.com/schedfarm/schedfarm/runner"
)

// Derivation versions; changing the encoding below requires a new version.
const (
	idVersion   = "schedfarm.cell-id.v1"
	seedVersion = "schedfarm.cell-seed.v1"
)

// canonParams encodes parameters sorted by name as [name, canonical value]
// pairs. Numbers are encoded by value (1 and 1.0 alike), strings and bools
// with a kind prefix.
func canonParams(ps []runner.Param, keep func(name string) bool) [][2]string {
	sorted := append([]runner.Param(nil), ps...)
	sortParams(sorted)
	out := make([][2]string, 0, len(sorted))
	for _, p := range sorted {
		if keep == nil || keep(p.Name) {
			out = append(out, [2]string{p.Name, canonValue(p.Value)})
		}
	}
	return out
}

// CellID returns a cell's stable ID: the first 16 hex digits of the SHA-256
// of the JSON array
//
//	["schedfarm.cell-id.v1", experiment, baseSeed, scheduler, replication,
//	 [[param name, canonical value], … sorted by name]]
//
// The canonical value is "n:<number>" (shortest decimal; integral floats as
// integers), "s:<string>" or "b:<bool>". Axis order, key order in the YAML
// and cell position do not enter it.
func CellID(experiment string, baseSeed uint64, scheduler string, params []runner.Param, replication int) string {
	var buf [512]byte
	data, ok := hashInput(buf[:0], idVersion, experiment, baseSeed, &scheduler, replication, params, nil)
	if !ok {
		data, _ = json.Marshal([]any{idVersion, experiment, baseSeed, scheduler, replication, canonParams(params, nil)})
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:8])
}

// CellSeed returns a cell's seed: the first 8 bytes (big-endian) of the
// SHA-256 of the JSON array
//
//	["schedfarm.cell-seed.v1", experiment, baseSeed, replication,
//	 [[param name, canonical value], … sorted by name, "scheduler.*" left out]]
//
// The scheduler and its parameters are deliberately left out: every
// scheduler at the same grid point and replication sees the same random
// workload (common random numbers), so schedulers are compared on identical
// job streams. Every other parameter (load, platform, generator parameters),
// the experiment name, the base seed and the replication enter it; the cell
// index, worker, time and map order never do.
func CellSeed(experiment string, baseSeed uint64, params []runner.Param, replication int) uint64 {
	var buf [512]byte
	data, ok := hashInput(buf[:0], seedVersion, experiment, baseSeed, nil, replication, params, notScheduler)
	if !ok {
		data, _ = json.Marshal([]any{seedVersion, experiment, baseSeed, replication, canonParams(params, notScheduler)})
	}
	sum := sha256.Sum256(data)
	return binary.BigEndian.Uint64(sum[:8])
}

// notScheduler keeps the parameters that enter a cell's seed.
func notScheduler(name string) bool { return !strings.HasPrefix(name, "scheduler.") }

// hashInput appends to dst the JSON array that json.Marshal writes for
// CellID's (scheduler non-nil) or CellSeed's array, without encoding/json,
// and reports true; or reports false when it cannot promise the same
// bytes: a string that is not plain (jsonappend), parameters not strictly
// sorted by name, a value of no kind. The cells a spec makes take this
// path: a worker derives both for every cell it admits
// (TestHashInputIsMarshals compares the two).
func hashInput(dst []byte, version, experiment string, baseSeed uint64, scheduler *string, replication int, params []runner.Param, keep func(string) bool) ([]byte, bool) {
	for i := 1; i < len(params); i++ {
		if params[i-1].Name >= params[i].Name {
			return dst, false
		}
	}
	ok := true
	str := func(s string) {
		if ok {
			dst, ok = jsonappend.String(dst, s)
		}
	}
	dst = append(dst, '[')
	str(version)
	dst = append(dst, ',')
	str(experiment)
	dst = append(dst, ',')
	dst = jsonappend.Uint(dst, baseSeed)
	if scheduler != nil {
		dst = append(dst, ',')
		str(*scheduler)
	}
	dst = append(dst, ',')
	dst = jsonappend.Int(dst, int64(replication))
	dst = append(dst, ",["...)
	first := true
	for _, p := range params {
		if !ok {
			return dst, false
		}
		if keep != nil && !keep(p.Name) {
			continue
		}
		if !first {
			dst = append(dst, ',')
		}
		first = false
		dst = append(dst, '[')
		str(p.Name)
		dst = append(dst, `,"`...)
		switch x := p.Value.(type) {
		case int64:
			dst = strconv.AppendInt(append(dst, "n:"...), x, 10)
		case float64:
			if x == math.Trunc(x) && math.Abs(x) < 1<<53 {
				dst = strconv.AppendInt(append(dst, "n:"...), int64(x), 10)
			} else {
				dst = strconv.AppendFloat(append(dst, "n:"...), x, 'g', -1, 64)
			}
		case string:
			ok = ok && jsonappend.Plain(x)
			dst = append(append(dst, "s:"...), x...)
		case bool:
			dst = strconv.AppendBool(append(dst, "b:"...), x)
		default:
			return dst, false
		}
		dst = append(dst, `"]`...)
	}
	return append(dst, "]]"...), ok
}

// dimension is one independent direction of the grid: a single axis or a
// zip group of axes that advance together.
type dimension struct {
	axes []int // indexes into Spec.axisInfo
	n    int
}

func (s *Spec) dimensions() []dimension {
	group := map[string]int{} // axis path -> zip group
	for gi, g := range s.Zip {
		for _, p := range g {
			group[p] = gi
		}
	}
	var dims []dimension
	zipDim := map[int]int{}
	for i, ax := range s.axisInfo {
		gi, zipped := group[s.Axes[i].Param]
		if zipped {
			if d, ok := zipDim[gi]; ok {
				dims[d].axes = append(dims[d].axes, i)
				continue
			}
			zipDim[gi] = len(dims)
		}
		dims = append(dims, dimension{axes: []int{i}, n: len(ax.values)})
	}
	return dims
}

// countCells returns an upper bound on the number of cells (exact unless
// scheduler-scoped axes collapse points for other schedulers); with
// more_replications it is the replications' count of the spec's cells, at
// most the cells of one replication times the most replications.
func (s *Spec) countCells() float64 {
	n := float64(len(s.Schedulers))
	for _, d := range s.dimensions() {
		n *= float64(d.n)
	}
	if len(s.MoreReplications) == 0 || n*float64(s.maxReplications()) <= MaxCells {
		return n * float64(s.maxReplications())
	}
	if n*float64(s.Replications) > MaxCells {
		return n * float64(s.Replications)
	}
	total := 0.0
	s.eachCell(func(sched string, vals map[string]any) { total += float64(s.replicationsOf(sched, vals)) })
	return total
}

// Cells expands the spec into its cells in a deterministic order:
// replication (outermost), then grid point (the first axis varies slowest;
// a zip group advances as one axis), then scheduler in spec order. Index is
// the position in that order. The seed of a cell is CellSeed over its
// parameters minus those of axes marked common_random_numbers. A "scheduler.<name>.<param>" axis applies to
// that scheduler only; the other schedulers run once per remaining point.
func (s *Spec) Cells() []runner.Cell {
	dims := s.dimensions()
	dir := s.Dir
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	// Parameters of common-random-numbers axes stay out of the seed.
	crn := map[string]bool{}
	for _, ax := range s.axisInfo {
		crn[ax.name] = crn[ax.name] || ax.crn
	}
	var cells []runner.Cell
	idx := make([]int, len(dims))
	reps := s.maxReplications()
	for rep := 0; rep < reps; rep++ {
		seen := make([]map[string]bool, len(s.Schedulers))
		for i := range seen {
			seen[i] = map[string]bool{}
		}
		for i := range idx {
			idx[i] = 0
		}
		for {
			for ei, e := range s.Schedulers {
				vals := map[string]any{}
				for _, p := range s.base {
					vals[p.Name] = p.Value
				}
				for _, k := range sortedKeys(e.Params) {
					vals["scheduler."+k] = e.Params[k]
				}
				for d, dim := range dims {
					for _, ai := range dim.axes {
						ax := s.axisInfo[ai]
						if ax.scope != "" && ax.scope != e.Name {
							continue
						}
						vals[ax.name] = ax.values[idx[d]]
					}
				}
				params := make([]runner.Param, 0, len(vals))
				var seedParams []runner.Param
				var crnNames []string
				for _, k := range sortedKeys(vals) {
					params = append(params, runner.Param{Name: k, Value: vals[k]})
					if !crn[k] {
						seedParams = append(seedParams, runner.Param{Name: k, Value: vals[k]})
					} else {
						crnNames = append(crnNames, k)
					}
				}
				key := canonMap(vals)
				if seen[ei][key] {
					continue
				}
				seen[ei][key] = true
				if rep >= s.Replications && rep >= s.replicationsOf(e.Name, vals) {
					continue
				}
				cells = append(cells, runner.Cell{
					Experiment:  s.Name,
					ID:          CellID(s.Name, s.Seed, pluginIDName(e.Name, e.Plugin), params, rep),
					Index:       len(cells),
					Scheduler:   e.Name,
					Params:      params,
					Replication: rep,
					Seed:        CellSeed(s.Name, s.Seed, seedParams, rep),
					BaseSeed:    s.Seed,
					CRN:         crnNames,
					Dir:         dir,
					KeepJobs:    s.JobsOutput != "",
					Plugin:      e.Plugin,
				})
			}
			// Advance the mixed-radix counter; the last dimension is fastest.
			d := len(dims) - 1
			for ; d >= 0; d-- {
				idx[d]++
				if idx[d] < dims[d].n {
					break
				}
				idx[d] = 0
			}
			if d < 0 {
				break
			}
		}
	}
	return cells
}

// AxisParams returns the parameter names of the axes in spec order (the
// names used in runner.Cell.Params, e.g. "scheduler.k" for "scheduler.depth.k").
func (s *Spec) AxisParams() []string {
	out := make([]string, len(s.axisInfo))
	for i, ax := range s.axisInfo {
		out[i] = ax.name
	}
	return out
}

// Line returns the YAML line of a field path such as "axes[0].values[2]",
// or 0 when unknown.
func (s *Spec) Line(path string) int { return s.lines[path] }
