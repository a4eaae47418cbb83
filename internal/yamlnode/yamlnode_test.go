package yamlnode

import (
	"testing"

	"go.yaml.in/yaml/v3"
)

func TestGetSet(t *testing.T) {
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte("a: 1\nb: {c: 2}\n"), &doc); err != nil {
		t.Fatal(err)
	}
	m := doc.Content[0]
	if v := Get(m, "a"); v == nil || v.Value != "1" {
		t.Fatalf("Get a = %v; want 1", v)
	}
	if Get(m, "z") != nil || Get(Get(m, "a"), "x") != nil || Get(nil, "a") != nil {
		t.Fatal("Get of a missing key or a non-mapping: want nil")
	}
	Set(m, "a", &yaml.Node{Kind: yaml.ScalarNode, Value: "3"})
	Set(m, "d", &yaml.Node{Kind: yaml.ScalarNode, Value: "4"})
	out, err := yaml.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(out), "a: 3\nb: {c: 2}\nd: 4\n"; got != want {
		t.Fatalf("after Set:\n%s\nwant (order kept, new key last):\n%s", got, want)
	}
}
