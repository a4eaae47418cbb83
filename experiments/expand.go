package experiments

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"path/filepath"
	"strings"

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
	data, _ := json.Marshal([]any{idVersion, experiment, baseSeed, scheduler, replication, canonParams(params, nil)})
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
	keep := func(name string) bool { return !strings.HasPrefix(name, "scheduler.") }
	data, _ := json.Marshal([]any{seedVersion, experiment, baseSeed, replication, canonParams(params, keep)})
	sum := sha256.Sum256(data)
	return binary.BigEndian.Uint64(sum[:8])
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
