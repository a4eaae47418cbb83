package experiments

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/schedfarm/schedfarm/runner"
	"github.com/schedfarm/schedfarm/workload/swf"
)

// CheckInputs reads every trace file the cells name, each once, with the
// options its cells read it with (lenient or strict), and returns every
// problem together: a file that cannot be opened, or an SWF error naming
// the file and line. A coordinator runs it before it publishes anything, so
// a malformed trace fails the sweep at once instead of failing every cell
// with the same message. (Scheduler plugins are checked when the spec is
// loaded: each is started and asked to describe itself.) It returns the
// number of jobs read per trace path.
func CheckInputs(cells []runner.Cell) (map[string]int, error) {
	type key struct {
		path    string
		lenient bool
	}
	seen := map[key]bool{}
	var keys []key
	for _, c := range cells {
		var k key
		for _, p := range c.Params {
			switch p.Name {
			case "workload.trace":
				s, _ := p.Value.(string)
				k.path = runner.ResolvePath(c.Dir, s)
			case "workload.lenient":
				k.lenient, _ = p.Value.(bool)
			}
		}
		if k.path != "" && !seen[k] {
			seen[k] = true
			keys = append(keys, k)
		}
	}
	slices.SortFunc(keys, func(a, b key) int { // by path, strict before lenient
		if c := cmp.Compare(a.path, b.path); c != 0 || a.lenient == b.lenient {
			return c
		}
		if !a.lenient {
			return -1
		}
		return 1
	})
	jobs := map[string]int{}
	var errs []error
	for _, k := range keys {
		n, err := readTrace(k.path, k.lenient)
		if err != nil {
			if !strings.Contains(err.Error(), k.path) {
				err = fmt.Errorf("trace %s: %w", k.path, err)
			}
			errs = append(errs, err)
			continue
		}
		jobs[k.path] = n
	}
	return jobs, errors.Join(errs...)
}

func readTrace(path string, lenient bool) (int, error) {
	r, err := swf.Open(path, swf.Options{Lenient: lenient})
	if err != nil {
		return 0, err
	}
	defer r.Close()
	n := 0
	for {
		_, err := r.Next()
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, err
		}
		n++
	}
}
