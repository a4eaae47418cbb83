package plugin

import (
	"errors"
	"fmt"
	"math"
	"sort"

	"github.com/schedfarm/schedfarm/internal/lazyre"
	"github.com/schedfarm/schedfarm/param"
	"github.com/schedfarm/schedfarm/sim"
	"github.com/schedfarm/schedfarm/strategies"
	pb "github.com/schedfarm/schedfarm/strategies/plugin/schedulerpb"
)

var (
	nameRE  = lazyre.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)
	identRE = lazyre.MustCompile(`^[a-z][a-z0-9_]*$`)
)

// checkDescription reports every problem of a plugin's description: its
// name, its parameters' names, kinds, bounds and defaults.
func checkDescription(d *pb.Description) error {
	var errs []error
	if !nameRE.MatchString(d.GetName()) {
		errs = append(errs, fmt.Errorf("name %q; accepted: letters, digits, '.', '_' and '-', starting with a letter or digit", d.GetName()))
	}
	if d.GetPassMode() != pb.PassMode_PASS_MODE_EVERY && d.GetPassMode() != pb.PassMode_PASS_MODE_WHEN_STARTABLE {
		errs = append(errs, fmt.Errorf("pass_mode %d; accepted: PASS_MODE_EVERY (0) or PASS_MODE_WHEN_STARTABLE (1)", d.GetPassMode()))
	}
	seen := map[string]bool{}
	for i, p := range d.GetParams() {
		switch {
		case !identRE.MatchString(p.GetName()):
			errs = append(errs, fmt.Errorf("params[%d]: name %q; accepted: lower-case letters, digits and '_', starting with a letter", i, p.GetName()))
			continue
		case seen[p.GetName()]:
			errs = append(errs, fmt.Errorf("params[%d]: %s declared twice", i, p.GetName()))
			continue
		}
		seen[p.GetName()] = true
		if _, err := paramSpec(p); err != nil {
			errs = append(errs, fmt.Errorf("params[%d] (%s): %v", i, p.GetName(), err))
		}
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	// Every default must pass the checks a spec's value passes.
	specs, _ := paramSpecs(d)
	e := strategies.Entry{Name: d.GetName(), Params: specs, New: func(strategies.Build) (sim.Scheduler, error) { return nil, nil }}
	reg, err := strategies.NewRegistry(e)
	if err != nil {
		return err
	}
	defaults := map[string]any{}
	for _, s := range specs {
		defaults[s.Name] = s.Default
	}
	if err := reg.Check(d.GetName(), defaults); err != nil {
		return fmt.Errorf("a default is not accepted by its own declaration: %w", err)
	}
	return nil
}

// ParamChecker returns a function that checks parameter values against a
// plugin's description (as Describe returns it) without running it,
// reporting every bad parameter with what it accepts.
func ParamChecker(d *pb.Description) (func(params map[string]any) error, error) {
	specs, err := paramSpecs(d)
	if err != nil {
		return nil, err
	}
	reg, err := strategies.NewRegistry(strategies.Entry{Name: d.GetName(), Params: specs,
		New: func(strategies.Build) (sim.Scheduler, error) { return nil, errors.New("not runnable") }})
	if err != nil {
		return nil, err
	}
	return func(params map[string]any) error { return reg.Check(d.GetName(), params) }, nil
}

// paramSpecs converts the declared parameters to the registry's form.
func paramSpecs(d *pb.Description) ([]param.Spec, error) {
	out := make([]param.Spec, 0, len(d.GetParams()))
	for _, p := range d.GetParams() {
		s, err := paramSpec(p)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

func paramSpec(p *pb.ParamSpec) (param.Spec, error) {
	s := param.Spec{Name: p.GetName(), Doc: p.GetDoc(), Choices: p.GetChoices()}
	lo, hi := p.GetMin(), p.GetMax()
	if math.IsNaN(lo) || math.IsNaN(hi) || lo > hi {
		return s, fmt.Errorf("bounds [%g, %g]; accepted: min ≤ max, or both 0 for none", lo, hi)
	}
	if lo == hi {
		lo, hi = math.Inf(-1), math.Inf(1)
	}
	def := p.GetDefault()
	if def == nil {
		return s, errors.New("no default; accepted: a default of the parameter's kind")
	}
	switch p.GetKind() {
	case pb.ParamSpec_KIND_INT:
		v, ok := def.GetKind().(*pb.Value_Int)
		if !ok {
			return s, fmt.Errorf("integer parameter with default %v", describeValue(def))
		}
		s.Kind, s.Default, s.Min, s.Max = param.Int, v.Int, lo, hi
	case pb.ParamSpec_KIND_FLOAT:
		v, ok := def.GetKind().(*pb.Value_Float)
		if !ok {
			return s, fmt.Errorf("number parameter with default %v", describeValue(def))
		}
		s.Kind, s.Default, s.Min, s.Max = param.Float, v.Float, lo, hi
	case pb.ParamSpec_KIND_STRING:
		v, ok := def.GetKind().(*pb.Value_String_)
		if !ok {
			return s, fmt.Errorf("string parameter with default %v", describeValue(def))
		}
		s.Kind, s.Default = param.String, v.String_
	default:
		return s, fmt.Errorf("kind %d; accepted: KIND_INT, KIND_FLOAT, KIND_STRING", p.GetKind())
	}
	if len(s.Choices) > 0 && s.Kind != param.String {
		return s, errors.New("choices on a number parameter; accepted: choices for strings only")
	}
	return s, nil
}

func describeValue(v *pb.Value) string {
	switch x := v.GetKind().(type) {
	case *pb.Value_Int:
		return fmt.Sprintf("integer %d", x.Int)
	case *pb.Value_Float:
		return fmt.Sprintf("number %g", x.Float)
	case *pb.Value_String_:
		return fmt.Sprintf("string %q", x.String_)
	}
	return "unset"
}

// paramValues converts resolved parameters (int64, float64, string) to the
// protocol's, in a map the Start message carries.
func paramValues(ps param.Values) map[string]*pb.Value {
	out := make(map[string]*pb.Value, len(ps))
	names := make([]string, 0, len(ps))
	for n := range ps {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		switch v := ps[n].(type) {
		case int64:
			out[n] = &pb.Value{Kind: &pb.Value_Int{Int: v}}
		case float64:
			out[n] = &pb.Value{Kind: &pb.Value_Float{Float: v}}
		case string:
			out[n] = &pb.Value{Kind: &pb.Value_String_{String_: v}}
		}
	}
	return out
}
