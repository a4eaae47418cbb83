package main

import (
	"flag"
	"io"
	"testing"
)

// TestEmbeddedBrokerQueuesInMemory: run and tune ask for the cells and
// results streams in memory on the embedded broker, whose store no later
// run reads, and for the file store on a broker named by --nats or
// SCHEDFARM_NATS, which other processes share and which may restart alone
// (broker.Topology.InMemory). The flags' other settings pass through.
func TestEmbeddedBrokerQueuesInMemory(t *testing.T) {
	t.Setenv(envNATS, "")
	for _, c := range []struct {
		args     []string
		env      string
		inMemory bool
	}{
		{[]string{"spec.yaml"}, "", true},
		{[]string{"--nats", "nats://broker:4222", "spec.yaml"}, "", false},
		{[]string{"spec.yaml"}, "nats://broker:4222", false},
	} {
		t.Setenv(envNATS, c.env)
		var sf sweepFlags
		fs := flag.NewFlagSet("run", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		sf.register(fs)
		if _, exit := sf.parse(fs, "run", append(c.args, "--replicas", "2"), io.Discard, io.Discard); exit >= 0 {
			t.Fatalf("%v: exit %d", c.args, exit)
		}
		topo := sf.topology()
		if topo.InMemory != c.inMemory {
			t.Errorf("%v (SCHEDFARM_NATS %q): InMemory %v; want %v", c.args, c.env, topo.InMemory, c.inMemory)
		}
		if topo.Replicas != 2 {
			t.Errorf("%v: replicas %d; want the flag's 2", c.args, topo.Replicas)
		}
	}
}
