package experiments

import (
	"strings"
	"testing"

	"github.com/schedfarm/schedfarm/families"
)

// Spec syntax errors name the line a person counts, non-UTF-8 input names
// its line and column, and a value of the wrong kind says what is accepted.
func TestSpecErrorsNameTheirLine(t *testing.T) {
	cases := []struct{ name, text, want string }{
		{"unclosed flow sequence", "name: e\nplatform:\n  procs: 16\nworkload:\n  trace: t.swf\n  jobs: [1, 2\nschedulers: [fcfs]\n",
			"line 6: invalid YAML: did not find expected ',' or ']'"},
		{"unclosed flow mapping", "name: e\nplatform: {procs: 16\nworkload: x\n", "line 2: invalid YAML: did not find expected ',' or '}'"},
		{"bad indentation", "name: e\nplatform:\n  procs: 16\n workload: x\nschedulers: [fcfs]\n", "line 4: invalid YAML: did not find expected key"},
		{"scanner error", "name: e\nplatform:\n  procs: 16\nworkload:\n  trace: @t.swf\n", "line 5: invalid YAML: found character that cannot start any token"},
		{"mapping value", "name: e\nworkload:\n  trace: t.swf\n  jobs: 5: 6\n", "line 4: invalid YAML: mapping values are not allowed in this context"},
		{"not UTF-8", "name: e\nplatform:\n  procs: 16\n# caf\xe9\n", "line 4: not UTF-8: byte 0xe9 at column 6"},
		{"wrong kind", "name: e\nplatform: {procs: 16}\nworkload: {trace: t.swf}\nschedulers: [fcfs]\nreplications: five\n", "line 5: replications: `five` is a string; accepted: an integer"},
		{"list for a number", "name: e\nplatform: {procs: 16}\nworkload: {trace: t.swf}\nschedulers: [fcfs]\nseed: [1, 2]\n", "the value is a list; accepted: an integer"},
	}
	for _, c := range cases {
		_, err := Parse([]byte(c.text), "s.yaml", NewCatalog(families.Builtin()))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v; want it to contain %q", c.name, err, c.want)
		}
	}
}
