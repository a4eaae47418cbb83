package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"strings"
	"testing"
)

// Every built-in family's workload field is a sim flag of the same name
// (workload.cpu_usage: --cpu-usage), parsed as the field's kind; a value
// of another kind is refused naming what is accepted, and a value of the
// kind that the family refuses fails the run with the family's message.
func TestSimFieldFlags(t *testing.T) {
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	into := map[string]any{}
	registerFieldFlags(fs, into)
	fields := catalog().WorkloadFields()
	if len(fields) == 0 {
		t.Fatal("no family workload fields")
	}
	for _, fd := range fields {
		if fs.Lookup(fieldFlagName(fd.Name)) == nil {
			t.Errorf("field %s has no flag --%s", fd.Name, fieldFlagName(fd.Name))
		}
	}
	if err := fs.Parse([]string{"--cpu-usage", "0.5", "--cpu-estimate", "noisy", "--cpu-error", "0.25"}); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"workload.cpu_usage": 0.5, "workload.cpu_estimate": "noisy", "workload.cpu_error": 0.25}
	for k, v := range want {
		if into[k] != v {
			t.Errorf("%s = %#v; want %#v", k, into[k], v)
		}
	}
	if err := fs.Parse([]string{"--cpu-usage", "high"}); err == nil || !strings.Contains(err.Error(), "accepted:") {
		t.Errorf("--cpu-usage high: %v; want an error saying what is accepted", err)
	}

	trace := "../../experiments/testdata/cmbf-suspend.swf"
	var out, errb bytes.Buffer
	if code := runSim([]string{"--trace", trace, "--scheduler", "easy", "--cpu-usage", "1.5"}, &out, &errb); code == 0 || !strings.Contains(errb.String(), "cpu_usage 1.5") {
		t.Errorf("--cpu-usage 1.5: exit %d, %q; want a refusal naming cpu_usage", code, errb.String())
	}
	// The flags change a tiered run exactly as the spec fields do: with
	// every process at 100% and no information, KEASY's summary differs
	// from its default run's.
	summary := func(args ...string) map[string]any {
		t.Helper()
		var o, e bytes.Buffer
		if code := runSim(append([]string{"--trace", trace, "--scheduler", "keasy", "--json"}, args...), &o, &e); code != 0 {
			t.Fatalf("sim %v: exit %d: %s", args, code, e.String())
		}
		var m map[string]any
		if err := json.Unmarshal(o.Bytes(), &m); err != nil {
			t.Fatal(err)
		}
		delete(m, "wall_seconds")
		return m
	}
	a, b := summary(), summary("--cpu-usage", "1", "--cpu-estimate", "none")
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if bytes.Equal(ja, jb) {
		t.Errorf("--cpu-usage 1 --cpu-estimate none changed nothing: %s", ja)
	}
}
