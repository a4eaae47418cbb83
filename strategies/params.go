package strategies

import "github.com/schedfarm/schedfarm/param"

// resolve checks given values against the entry's parameters
// (param.Decode: every unknown name and bad value, each a *param.Error
// naming the scheduler) and then, when each is valid on its own, their
// combination (Entry.Validate, a *CombinationError).
func resolve(e Entry, given map[string]any) (param.Values, error) {
	out, err := param.Decode(e.Name, e.Params, given)
	if err == nil && e.Validate != nil {
		if verr := e.Validate(out); verr != nil {
			err = &CombinationError{Scheduler: e.Name, Err: verr}
		}
	}
	return out, err
}

// CombinationError is a problem with several parameters together (an
// Entry's Validate), each valid on its own: a spec may give them on
// different axes, so it is checked per grid point.
type CombinationError struct {
	Scheduler string
	Err       error
}

// Error names the scheduler and the problem.
func (e *CombinationError) Error() string { return e.Scheduler + ": " + e.Err.Error() }

// Unwrap returns Err.
func (e *CombinationError) Unwrap() error { return e.Err }
