package twotier

import (
	"fmt"
	"math"
	"os"
	"testing"

	"github.com/schedfarm/schedfarm/family"
)

// stopGoldenCells are small stop=completions cells at a load where
// projects wait (the first to complete are a selection), under every
// scheduler of the family with its defaults and a parameter reading.
var stopGoldenCells = []struct {
	scheduler string
	params    map[string]any
}{
	{"2tsb", nil},
	{"2tfb", nil},
	{"2tfb-sf", nil},
	{"2tpb", nil},
	{"2tfb-sf", map[string]any{"pl": int64(1), "lts_tn": "job"}},
}

// TestStopCompletionsGolden: the metrics of small stop=completions cells,
// bit for bit, as the code gave them before runCompletions (the run the
// invariant suite makes under its wrapped scheduler) was split out of
// RunToCompletions; SCHEDFARM_RECORD_STOP_GOLDEN=1 prints them anew.
func TestStopCompletionsGolden(t *testing.T) {
	record := os.Getenv("SCHEDFARM_RECORD_STOP_GOLDEN") != ""
	for i, c := range stopGoldenCells {
		name := fmt.Sprintf("%s%v", c.scheduler, c.params)
		r, err := runCell(family.Cell{Model: "seed004",
			Params:    map[string]any{"projects": int64(15), "interarrival": 60.0, "stop": StopCompletions},
			Scheduler: c.scheduler, SchedulerParams: c.params, Seed: 11})
		if err != nil {
			t.Fatal(err)
		}
		if record {
			fmt.Printf("\t// %s\n\t{", name)
			for _, m := range r.Metrics {
				fmt.Printf("{%q, %#x}, ", m.Name, math.Float64bits(m.Value))
			}
			fmt.Println("},")
			continue
		}
		want := stopGolden[i]
		if len(r.Metrics) != len(want) {
			t.Fatalf("%s: %d metrics, want %d", name, len(r.Metrics), len(want))
		}
		for k, m := range r.Metrics {
			if m.Name != want[k].name || math.Float64bits(m.Value) != want[k].bits {
				t.Errorf("%s: %s = %v, want %s = %v", name, m.Name, m.Value, want[k].name, math.Float64frombits(want[k].bits))
			}
		}
	}
}

type goldenMetric struct {
	name string
	bits uint64
}

var stopGolden = [][]goldenMetric{
	// 2tsbmap[]
	{{"jobs", 0x404e800000000000}, {"finished", 0x404e800000000000}, {"rejected", 0x0}, {"backfilled", 0x4036000000000000}, {"wait_mean", 0x406bde05a2ff9ecc}, {"wait_median", 0x40333f6a3912bd80}, {"wait_p95", 0x4090086b1a19b747}, {"wait_max", 0x40979d0e057325f1}, {"response_mean", 0x4083fc9b05bd029c}, {"response_median", 0x408302ce7e792057}, {"response_p95", 0x4098612da11ac78b}, {"response_max", 0x409fb2ec1318f5c1}, {"slowdown_mean", 0x3fffd701370a46ef}, {"slowdown_median", 0x3ff22095f10026e2}, {"slowdown_p95", 0x401576f168c7ce5e}, {"slowdown_max", 0x402a5b8f00569b08}, {"bsld_mean", 0x3fffcdac25474571}, {"bsld_median", 0x3ff22095f10026e2}, {"bsld_p95", 0x401576f168c7ce5e}, {"bsld_max", 0x402a5b8f00569b08}, {"utilization", 0x3fe03a7c5752071d}, {"makespan", 0x40a6fdac2f6486e4}, {"projects", 0x402e000000000000}, {"projects_rejected", 0x0}, {"pta", 0x4090839d46470c13}, {"jta", 0x408564a8b1a47a53}, {"project_wait_mean", 0x4062df7d98831acd}, {"project_run_mean", 0x408c4f5b266d5174}, {"projects_low", 0x402e000000000000}, {"pta_low", 0x4090839d46470c13}},
	// 2tfbmap[]
	{{"jobs", 0x404e800000000000}, {"finished", 0x404e800000000000}, {"rejected", 0x0}, {"backfilled", 0x4041000000000000}, {"wait_mean", 0x4067dd63e6ebaaf3}, {"wait_median", 0x402280eebb582480}, {"wait_p95", 0x408b444ae9a64c3e}, {"wait_max", 0x409606d1c9b60b22}, {"response_mean", 0x408284e17142d19e}, {"response_median", 0x4081918fe382d81d}, {"response_p95", 0x40966567b949bc11}, {"response_max", 0x409ab2094e6c3420}, {"slowdown_mean", 0x4000e7772bdf0613}, {"slowdown_median", 0x3ff0566c6ec3b676}, {"slowdown_p95", 0x4016ab5aeb551e00}, {"slowdown_max", 0x402bc6be68f8153d}, {"bsld_mean", 0x4000c86f33ff0151}, {"bsld_median", 0x3ff0566c6ec3b676}, {"bsld_p95", 0x4016ab5aeb551e00}, {"bsld_max", 0x402bc6be68f8153d}, {"utilization", 0x3fe2323a3578a4af}, {"makespan", 0x40a3f04694cdb4b9}, {"projects", 0x402e000000000000}, {"projects_rejected", 0x0}, {"pta", 0x408c7d70109eab83}, {"jta", 0x4083950bc8289e39}, {"project_wait_mean", 0x4057a6d46aada366}, {"project_run_mean", 0x408988958348f716}, {"projects_low", 0x402e000000000000}, {"pta_low", 0x408c7d70109eab83}},
	// 2tfb-sfmap[]
	{{"jobs", 0x404d800000000000}, {"finished", 0x404d800000000000}, {"rejected", 0x0}, {"backfilled", 0x4041000000000000}, {"wait_mean", 0x406994d5c049f9d8}, {"wait_median", 0x40021db273aa0700}, {"wait_p95", 0x4090b6a4f5ba5255}, {"wait_max", 0x409739733f568928}, {"response_mean", 0x4081e2bcf3652a74}, {"response_median", 0x407eb359eea61ce0}, {"response_p95", 0x409900e58cd53f3c}, {"response_max", 0x409a3e483a5d02f2}, {"slowdown_mean", 0x40024acab1e77628}, {"slowdown_median", 0x3ff015273c3a8baf}, {"slowdown_p95", 0x402162da0bdec75e}, {"slowdown_max", 0x402e153ff2babf2d}, {"bsld_mean", 0x400231dd018190ec}, {"bsld_median", 0x3ff015273c3a8baf}, {"bsld_p95", 0x402162da0bdec75e}, {"bsld_max", 0x402e153ff2babf2d}, {"utilization", 0x3fdf8a47af5a4897}, {"makespan", 0x40a54ea28e3dbc0f}, {"projects", 0x402e000000000000}, {"projects_rejected", 0x0}, {"pta", 0x408daf4bf075e81e}, {"jta", 0x40825118c9f43032}, {"project_wait_mean", 0x402725e07385d755}, {"project_run_mean", 0x408d52b46ea7d0c0}, {"projects_low", 0x402e000000000000}, {"pta_low", 0x408daf4bf075e81e}},
	// 2tpbmap[]
	{{"jobs", 0x404e800000000000}, {"finished", 0x404e800000000000}, {"rejected", 0x0}, {"backfilled", 0x4036000000000000}, {"wait_mean", 0x406bde05a2ff9ecc}, {"wait_median", 0x40333f6a3912bd80}, {"wait_p95", 0x4090086b1a19b747}, {"wait_max", 0x40979d0e057325f1}, {"response_mean", 0x4083fc9b05bd029c}, {"response_median", 0x408302ce7e792057}, {"response_p95", 0x4098612da11ac78b}, {"response_max", 0x409fb2ec1318f5c1}, {"slowdown_mean", 0x3fffd701370a46ef}, {"slowdown_median", 0x3ff22095f10026e2}, {"slowdown_p95", 0x401576f168c7ce5e}, {"slowdown_max", 0x402a5b8f00569b08}, {"bsld_mean", 0x3fffcdac25474571}, {"bsld_median", 0x3ff22095f10026e2}, {"bsld_p95", 0x401576f168c7ce5e}, {"bsld_max", 0x402a5b8f00569b08}, {"utilization", 0x3fe03a7c5752071d}, {"makespan", 0x40a6fdac2f6486e4}, {"projects", 0x402e000000000000}, {"projects_rejected", 0x0}, {"pta", 0x4090839d46470c13}, {"jta", 0x408564a8b1a47a53}, {"project_wait_mean", 0x4062df7d98831acd}, {"project_run_mean", 0x408c4f5b266d5174}, {"projects_low", 0x402e000000000000}, {"pta_low", 0x4090839d46470c13}},
	// 2tfb-sfmap[lts_tn:job pl:1]
	{{"jobs", 0x4050400000000000}, {"finished", 0x4050400000000000}, {"rejected", 0x0}, {"backfilled", 0x4043000000000000}, {"wait_mean", 0x406a56f3b04c5d11}, {"wait_median", 0x402c7d5246742f40}, {"wait_p95", 0x4089d7154755516d}, {"wait_max", 0x4095c98577d965b8}, {"response_mean", 0x4083f1c863a43ff7}, {"response_median", 0x408302ce7e792057}, {"response_p95", 0x4099d65fc333684e}, {"response_max", 0x409c0da147dddf3d}, {"slowdown_mean", 0x40009c04b21a194d}, {"slowdown_median", 0x3ff19c7bf363fae6}, {"slowdown_p95", 0x4016c85772a5e121}, {"slowdown_max", 0x40308d77542a6d2a}, {"bsld_mean", 0x4000856415ecdee3}, {"bsld_median", 0x3ff19c7bf363fae6}, {"bsld_p95", 0x4016c85772a5e121}, {"bsld_max", 0x40308d77542a6d2a}, {"utilization", 0x3fe21343e876b1ab}, {"makespan", 0x40a46f7e6975292c}, {"projects", 0x402e000000000000}, {"projects_rejected", 0x0}, {"pta", 0x408e3d065c00fb6b}, {"jta", 0x4083308f1983e735}, {"project_wait_mean", 0x40318c8f28a69353}, {"project_run_mean", 0x408db0a1e2bbc6d0}, {"projects_low", 0x402e000000000000}, {"pta_low", 0x408e3d065c00fb6b}},
}
