package layers

import "strings"

// Ranks maps module-relative package paths (or a prefix followed by "/")
// to their layer; the longest match wins. Higher layers may import lower
// ones, never the reverse.
var Ranks = map[string]int{
	// Leaves: no import of the module above them.
	"internal/":                     1,
	"param":                         1,
	"stats":                         1,
	"ga":                            1,
	"sim":                           1,
	"cell":                          1,
	"workload":                      1,
	"workload/":                     1,
	"strategies/plugin/schedulerpb": 1,
	"strategies/plugin/sdk":         1,
	"strategies/plugin/internal/":   1,
	// The scheduler registry's types, the plugin host, the model registry.
	"strategies":      2,
	"strategies/":     2,
	"workload/models": 2,
	// What a family is; the families; their list.
	"family":    3,
	"family/":   3,
	"families/": 4,
	"families":  5,
	// One run.
	"runner":  6,
	"runner/": 6,
	// Specs into cells.
	"experiments": 7,
	// The farm, results, claims, tuning.
	"broker":      8,
	"broker/":     8,
	"coordinator": 8,
	"worker":      8,
	"results":     8,
	"claims":      8,
	"tune":        8,
	// The binary and the examples.
	"cmd/":      9,
	"examples/": 9,
}

// Rank returns the layer of a module-relative package path and whether
// the table knows it.
func Rank(pkg string) (int, bool) {
	best, rank := -1, 0
	for p, r := range Ranks {
		match := pkg == p || strings.HasSuffix(p, "/") && strings.HasPrefix(pkg, p)
		if match && len(p) > best {
			best, rank = len(p), r
		}
	}
	return rank, best >= 0
}
