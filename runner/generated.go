package runner

import (
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"github.com/schedfarm/schedfarm/internal/memo"
	"github.com/schedfarm/schedfarm/param"
	"github.com/schedfarm/schedfarm/workload"
	"github.com/schedfarm/schedfarm/workload/models"
)

// GeneratedCacheBytes bounds the memory the generated workloads kept
// between cells occupy (144 bytes per job: a 200,000-job FWload workload
// takes 29 MB).
const GeneratedCacheBytes = 256 << 20

// generatedCache holds the workloads this process's cells have generated,
// so that the cells that share one — every scheduler of a grid point and
// replication draws the same jobs (common random numbers), and seed 000's
// Figure 13 has 14 cells per workload — generate it once per process
// rather than once per cell (a model makes two passes over the jobs: one
// to measure the load, one to hand them out; about 8% of a 200,000-job
// FWload cell). A workload is found again by its model registry, the
// model's name, the cell's generator parameters (each name and exact
// value) and the cell seed, which are everything ConfigOf hands the model:
// the same key gives the same jobs. The jobs held are shared and never
// modified; a run copies them into its own records (readRecords).
var generatedCache = newGenCache(GeneratedCacheBytes)

type genKey struct {
	reg *models.Registry
	s   string // model, generator parameters and seed (genKeyOf)
}

// generated is a workload as a model made it, and the machine size it is
// meant for.
type generated struct {
	jobs  []workload.Job
	procs int
}

func newGenCache(limit int64) *memo.Cache[genKey, generated] {
	return memo.New[genKey](limit, func(g generated) int64 {
		return int64(cap(g.jobs)) * int64(unsafe.Sizeof(workload.Job{}))
	})
}

// genKeyOf is the model's name, the generator parameters sorted by name
// with their exact values (param.Format, with the value's kind), and the
// seed.
func genKeyOf(model string, gen map[string]any, seed uint64) string {
	names := make([]string, 0, len(gen))
	for n := range gen {
		names = append(names, n)
	}
	slices.Sort(names)
	var b strings.Builder
	b.WriteString(model)
	for _, n := range names {
		k, _ := param.KindOf(gen[n])
		b.WriteString("\x00" + n + "\x00" + k.String() + "\x00" + param.Format(gen[n]))
	}
	b.WriteString("\x00seed\x00" + strconv.FormatUint(seed, 10))
	return b.String()
}
