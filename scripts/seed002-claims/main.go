// Command seed002-claims judges seed 002's claims from the Parquet files of
// its figure specs, by the rules of experiments/seed002-claims.md (written
// before the runs): paired differences per replication, 95% Student-t
// intervals, holds / does not hold / inconclusive.
//
//	schedfarm run experiments/seed002-fig07.yaml   # … and fig07-load, fig08, fig09, fig10, ga
//	go run ./scripts/seed002-claims -dir .        # prints the Markdown table
package main

import (
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/schedfarm/schedfarm/experiments"
	"github.com/schedfarm/schedfarm/results"
)

const (
	holds        = "holds"
	doesNotHold  = "does not hold"
	inconclusive = "inconclusive"
)

// file holds one spec's records.
type file struct {
	name string
	recs []*results.Record
}

// value returns the metric of the ok record of scheduler sched (with the
// scheduler parameters in sp) at the point (axis → value) and replication,
// and whether there is one.
func (f *file) value(sched string, sp, point map[string]string, rep int, metric string) (float64, bool) {
	for _, r := range f.recs {
		if r.Cell.Scheduler != sched || r.Cell.Replication != rep || r.Result.Status != experiments.StatusOK {
			continue
		}
		if !matches(r.Cell, point, "") || !matches(r.Cell, sp, "scheduler.") {
			continue
		}
		return r.Metric(metric)
	}
	return 0, false
}

func matches(c experiments.Cell, want map[string]string, prefix string) bool {
	for k, v := range want {
		got, ok := c.Lookup(prefix + k)
		if !ok || experiments.FormatValue(got) != v {
			return false
		}
	}
	return true
}

// reps returns the replications present.
func (f *file) reps() []int {
	seen := map[int]bool{}
	for _, r := range f.recs {
		seen[r.Cell.Replication] = true
	}
	var out []int
	for k := range seen {
		out = append(out, k)
	}
	sort.Ints(out)
	return out
}

// side is one operand of a comparison: a scheme (with scheduler
// parameters) at a point.
type side struct {
	sched string
	sp    map[string]string
	point map[string]string
}

// samples returns f(a, b) per replication where both exist.
func samples(f *file, metric string, a, b side, op func(x, y float64) float64) []float64 {
	var out []float64
	for _, rep := range f.reps() {
		x, ok1 := f.value(a.sched, a.sp, a.point, rep, metric)
		y, ok2 := f.value(b.sched, b.sp, b.point, rep, metric)
		if ok1 && ok2 {
			out = append(out, op(x, y))
		}
	}
	return out
}

func diff(x, y float64) float64  { return x - y }
func ratio(x, y float64) float64 { return x/y - 1 }

// interval returns the mean and the 95% half-width of xs.
func interval(xs []float64) (mean, half float64) {
	s := results.MeanCI(xs, 0.95)
	return s.Mean, s.HalfWidth
}

// judgeSign decides a claim that the mean is above 0 (sign +1) or below it
// (−1); need estimates the replications that would decide an inconclusive
// one at the observed spread.
func judgeSign(xs []float64, sign float64) (verdict string, need int) {
	m, h := interval(xs)
	switch {
	case len(xs) < 2 || math.IsNaN(h):
		return inconclusive, 0
	case sign*m-h > 0:
		return holds, 0
	case sign*m+h < 0:
		return doesNotHold, 0
	}
	if m == 0 {
		return inconclusive, 0
	}
	return inconclusive, int(math.Ceil(float64(len(xs)) * (h / m) * (h / m)))
}

// judgeBand decides a claim that the mean lies in [lo, hi].
func judgeBand(xs []float64, lo, hi float64) string {
	m, h := interval(xs)
	switch {
	case len(xs) < 2 || math.IsNaN(h):
		return inconclusive
	case m-h >= lo && m+h <= hi:
		return holds
	case m+h < lo || m-h > hi:
		return doesNotHold
	}
	if m >= lo && m <= hi {
		return holds + " (mean in band)"
	}
	return inconclusive
}

// combine folds the verdicts of the points of one claim.
func combine(vs []string) string {
	all := true
	for _, v := range vs {
		if v == doesNotHold {
			return doesNotHold
		}
		all = all && strings.HasPrefix(v, holds)
	}
	if all {
		return holds
	}
	return inconclusive
}

// row is one line of the table.
type row struct {
	id, claim, ours, verdict string
}

func fmtNum(x float64) string {
	switch a := math.Abs(x); {
	case a >= 1000:
		return fmt.Sprintf("%.0f", x)
	case a >= 10:
		return fmt.Sprintf("%.1f", x)
	default:
		return fmt.Sprintf("%.3g", x)
	}
}

func show(xs []float64, pct bool) string {
	m, h := interval(xs)
	if pct {
		return fmt.Sprintf("%+.1f%% ± %.1f", 100*m, 100*h)
	}
	return fmt.Sprintf("%s ± %s", fmtNum(m), fmtNum(h))
}

// pairwise judges "a − b has sign" for one metric at every point and
// returns the row.
func pairwise(id, claim string, f *file, metric string, a, b string, sign float64, points []map[string]string, label func(map[string]string) string) row {
	var parts, vs []string
	for _, p := range points {
		xs := samples(f, metric, side{a, nil, p}, side{b, nil, p}, diff)
		v, need := judgeSign(xs, sign)
		vs = append(vs, v)
		s := fmt.Sprintf("%s: %s", label(p), show(xs, false))
		if v == inconclusive && need > 0 {
			s += fmt.Sprintf(" (≈%d reps)", need)
		}
		if v == doesNotHold {
			s += " ✗"
		}
		parts = append(parts, s)
	}
	return row{id, claim, strings.Join(parts, "; "), combine(vs)}
}

var schemes = []string{"stms", "ir-stms", "gb-stms", "sp-stms"}

// kv builds a point from name, value pairs.
func kv(pairs ...string) map[string]string {
	m := map[string]string{}
	for i := 0; i+1 < len(pairs); i += 2 {
		m[pairs[i]] = pairs[i+1]
	}
	return m
}

func main() {
	dir := flag.String("dir", ".", "directory holding the seed002-*.parquet files")
	flag.Parse()
	load := func(name string) *file {
		recs, err := results.ReadFile(filepath.Join(*dir, name+".parquet"))
		if err != nil {
			fmt.Fprintf(os.Stderr, "seed002-claims: %v\n", err)
			os.Exit(1)
		}
		return &file{name: name, recs: recs}
	}
	fs := figures{f7: load("seed002-fig07"), f7l: load("seed002-fig07-load"), f8: load("seed002-fig08"),
		f9: load("seed002-fig09"), f10: load("seed002-fig10"), ga: load("seed002-ga")}
	tt, eager := fs.claims("timetable"), fs.claims("eager")
	fmt.Println("| id | claim | timetable: paired difference, mean ± 95% CI | verdict | eager: paired difference, mean ± 95% CI | verdict |")
	fmt.Println("|---|---|---|---|---|---|")
	for i, r := range tt {
		e := eager[i]
		fmt.Printf("| %s | %s | %s | **%s** | %s | **%s** |\n", r.id, r.claim, r.ours, r.verdict, e.ours, e.verdict)
	}
}

// figures are the specs' results.
type figures struct {
	f7, f7l, f8, f9, f10, ga *file
}

// claims judges every claim under one dispatch reading. The GA claim is
// run under the default timetable only; under eager it is "—".
func (fs figures) claims(dispatch string) []row {
	const gl, gj, gc, ga, gd = "workload.generator.load", "workload.generator.jobs", "workload.generator.class", "workload.generator.alpha", "workload.generator.dispatch"
	point := func(pairs ...string) map[string]string { return kv(append(pairs, gd, dispatch)...) }
	f7, f7l, f8, f9, f10 := fs.f7, fs.f7l, fs.f8, fs.f9, fs.f10
	loads := []map[string]string{}
	for _, l := range []string{"0.2", "0.35", "0.5", "0.65", "0.8"} {
		loads = append(loads, point(gl, l))
	}
	high := loads[3:]
	classes := []map[string]string{point(gc, "8:2"), point(gc, "5:5"), point(gc, "2:8")}
	alphas := []map[string]string{point(ga, "1.25"), point(ga, "1.75"), point(ga, "2.5")}
	byLoad := func(p map[string]string) string { return "load " + p[gl] }
	byClass := func(p map[string]string) string { return p[gc] }
	byAlpha := func(p map[string]string) string { return "α " + p[ga] }
	nolabel := func(map[string]string) string { return "" }
	short := map[string]string{"stms": "STMS", "ir-stms": "IR", "gb-stms": "GB", "sp-stms": "SP"}

	var rows []row
	add := func(r row) { rows = append(rows, r) }
	// all folds rows of sub-comparisons into one claim.
	all := func(id, claim string, rs ...row) row {
		var parts, vs []string
		for _, r := range rs {
			parts = append(parts, r.claim+" — "+r.ours)
			vs = append(vs, r.verdict)
		}
		return row{id, claim, strings.Join(parts, "<br>"), combine(vs)}
	}
	// 7a: SP − IR at the two highest loads and at 10,000 jobs.
	var sub []row
	for _, m := range []struct {
		metric string
		sign   float64
	}{{"makespan", -1}, {"throughput", 1}, {"jfr", -1}} {
		sub = append(sub, pairwise("", "SP−IR "+m.metric, f7l, m.metric, "sp-stms", "ir-stms", m.sign, high, byLoad))
		sub = append(sub, pairwise("", "SP−IR "+m.metric+" (10,000 jobs)", f7, m.metric, "sp-stms", "ir-stms", m.sign, []map[string]string{point(gj, "10000")}, nolabel))
	}
	add(all("7a", "SP-STMS beats IR-STMS in makespan, throughput, JFR as load grows", sub...))
	sub = nil
	for _, o := range []string{"stms", "gb-stms", "sp-stms"} {
		sub = append(sub, pairwise("", "IR−"+short[o], f7l, "utilization", "ir-stms", o, 1, loads, byLoad))
	}
	add(all("7b", "IR-STMS best utilisation", sub...))
	add(all("7c", "IR-STMS outperforms GB-STMS",
		pairwise("", "IR−GB makespan", f7l, "makespan", "ir-stms", "gb-stms", -1, loads, byLoad),
		pairwise("", "IR−GB utilisation", f7l, "utilization", "ir-stms", "gb-stms", 1, loads, byLoad)))
	sub = nil
	for _, o := range schemes[1:] {
		sub = append(sub, pairwise("", "STMS−"+short[o]+" makespan", f7l, "makespan", "stms", o, 1, loads, byLoad))
		sub = append(sub, pairwise("", "STMS−"+short[o]+" JFR", f7l, "jfr", "stms", o, 1, loads, byLoad))
	}
	add(all("7d", "STMS worst", sub...))

	sub = nil
	for _, o := range []string{"stms", "gb-stms", "sp-stms"} {
		sub = append(sub, pairwise("", "IR−"+short[o], f8, "makespan", "ir-stms", o, -1, classes, byClass))
	}
	add(all("8a", "IR-STMS best makespan in every class", sub...))
	add(pairwise("8b", "SP-STMS makespan slightly above IR-STMS", f8, "makespan", "sp-stms", "ir-stms", 1, classes, byClass))
	add(pairwise("8c", "GB-STMS makespan below STMS", f8, "makespan", "gb-stms", "stms", -1, classes, byClass))
	sub = nil
	for _, s := range []string{"ir-stms", "gb-stms", "sp-stms"} {
		xs := samples(f8, "utilization", side{s, nil, classes[0]}, side{s, nil, classes[0]}, func(x, _ float64) float64 { return x - 0.9 })
		v, _ := judgeSign(xs, 1)
		m, h := interval(xs)
		sub = append(sub, row{"", short[s] + " utilisation in 8:2", fmt.Sprintf("%.3f ± %.3f", m+0.9, h), v})
	}
	add(all("8d", "IR, GB, SP above 90% utilisation in class 8:2", sub...))
	sub = nil
	cls := func(s string, p map[string]string) side { return side{s, nil, p} }
	xs := samples(f8, "utilization", cls("stms", classes[2]), cls("stms", classes[0]), ratio)
	sub = append(sub, row{"", "STMS util(2:8)/util(8:2) − 1 (paper −27%)", show(xs, true), judgeBand(xs, -0.405, -0.135)})
	for _, s := range []string{"ir-stms", "sp-stms"} {
		xs := samples(f8, "utilization", cls(s, classes[2]), cls(s, classes[0]), ratio)
		sub = append(sub, row{"", short[s] + " util(2:8)/util(8:2) − 1 (stable: ±10%)", show(xs, true), judgeBand(xs, -0.10, 0.10)})
	}
	add(all("8e", "STMS utilisation −27% from class 1 to 3; IR, SP stable", sub...))
	add(pairwise("8f", "GB-STMS utilisation below IR-STMS", f8, "utilization", "ir-stms", "gb-stms", 1, classes, byClass))
	sub = nil
	for _, o := range []string{"stms", "ir-stms", "gb-stms"} {
		sub = append(sub, pairwise("", "SP−"+short[o], f8, "ijf", "sp-stms", o, 1, classes, byClass))
	}
	add(all("8g", "SP-STMS best IJF in every class", sub...))

	sub = nil
	for _, a := range []string{"ir-stms", "sp-stms"} {
		for _, b := range []string{"gb-stms", "stms"} {
			sub = append(sub, pairwise("", short[a]+"−"+short[b], f9, "ijf", a, b, 1, alphas, byAlpha))
		}
	}
	add(all("9a", "IR-STMS and SP-STMS higher IJF than GB-STMS and STMS", sub...))
	xs = samples(f9, "ijf", side{"ir-stms", nil, alphas[0]}, side{"stms", nil, alphas[0]}, ratio)
	add(row{"9b", "IR-STMS IJF +6.8% over STMS at optimistic α (band 3.4–10.2%)", show(xs, true), judgeBand(xs, 0.034, 0.102)})
	add(pairwise("9c", "IR-STMS IJF above SP-STMS at every α", f9, "ijf", "ir-stms", "sp-stms", 1, alphas, byAlpha))

	none := []map[string]string{point()}
	add(all("10a", "IR-STMS cost overhead above SP-STMS and GB-STMS",
		pairwise("", "IR−SP", f10, "cost_overhead", "ir-stms", "sp-stms", 1, none, nolabel),
		pairwise("", "IR−GB", f10, "cost_overhead", "ir-stms", "gb-stms", 1, none, nolabel)))
	sub = nil
	for _, o := range schemes[1:] {
		sub = append(sub, pairwise("", "STMS−"+short[o], f10, "cost_overhead", "stms", o, 1, none, nolabel))
	}
	add(all("10b", "STMS the most expensive", sub...))
	sub = nil
	for _, c := range []struct {
		s     string
		paper float64
	}{{"ir-stms", 35}, {"gb-stms", 54}, {"sp-stms", 49}} {
		xs := samples(f10, "cost_effectiveness", side{c.s, nil, none[0]}, side{c.s, nil, none[0]}, func(x, _ float64) float64 { return x })
		sub = append(sub, row{"", fmt.Sprintf("%s (paper %g)", short[c.s], c.paper), show(xs, false), judgeBand(xs, c.paper/2, 1.5*c.paper)})
	}
	add(all("10c", "cost effectiveness 35 / 54 / 49%", sub...))

	if dispatch != "timetable" {
		add(row{"GA", "generations 100 − 0: JFR and mean wait fall", "—", "—"})
		return rows
	}
	sub = nil
	for _, s := range schemes {
		for _, m := range []string{"jfr", "wait_mean"} {
			var parts, vs []string
			for _, l := range []string{"0.6", "0.8", "1"} {
				p := kv(gl, l)
				xs := samples(fs.ga, m, side{s, kv("generations", "100"), p}, side{s, kv("generations", "0"), p}, diff)
				v, _ := judgeSign(xs, -1)
				vs = append(vs, v)
				parts = append(parts, fmt.Sprintf("load %s: %s", l, show(xs, false)))
			}
			sub = append(sub, row{"", short[s] + " " + m, strings.Join(parts, "; "), combine(vs)})
		}
	}
	add(all("GA", "generations 100 − 0: JFR and mean wait fall", sub...))

	return rows
}
