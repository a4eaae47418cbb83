package runner

import "testing"

// ParamsKey tells an integer from a float of the same value and names
// every parameter, so that only the same grid point gives the same key.
func TestParamsKey(t *testing.T) {
	a := ParamsKey([]Param{{Name: "platform.procs", Value: int64(1)}, {Name: "workload.model", Value: "lublin99"}})
	if want := "platform.procs=int:1\x00workload.model=string:lublin99\x00"; a != want {
		t.Errorf("ParamsKey = %q; want %q", a, want)
	}
	if b := ParamsKey([]Param{{Name: "platform.procs", Value: 1.0}, {Name: "workload.model", Value: "lublin99"}}); b == a {
		t.Errorf("an int and a float of one value share the key %q", a)
	}
}
