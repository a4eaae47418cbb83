package models

// Output is what a model generates, named as specs and result files name
// it. A family whose platform is new declares an Output of its own.
type Output string

// SWF is the output of the shared models (fwload, jwload, lublin99):
// rigid jobs for one processor pool, as a workload.Source (New). A family
// whose platform is new declares its Output next to its model.
const SWF Output = "swf"

// String names the output as specs and result files do.
func (o Output) String() string { return string(o) }

// OutputOf reports what the named model generates; false if it is unknown.
func (r *Registry) OutputOf(name string) (Output, bool) {
	m, ok := r.find(name)
	return m.Output, ok
}
