package models

import (
	"fmt"
	"strings"

	"github.com/schedfarm/schedfarm/param"
)

// Param is one resolved parameter value: int64, float64, bool or string.
type Param struct {
	Name  string
	Value any
}

// Decode checks params against the named model's parameters and returns
// them with defaults filled in; the error lists every unknown or bad
// parameter. Models whose workload the runner builds itself (Cloud, Grid)
// are read this way.
func (r *Registry) Decode(name string, params map[string]any) (param.Values, error) {
	m, ok := r.find(name)
	if !ok {
		return nil, fmt.Errorf("workload model %q unknown (known: %s)", name, strings.Join(r.Names(), ", "))
	}
	return m.Decode(params)
}
