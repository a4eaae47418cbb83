package models

import (
	"math/rand/v2"

	"github.com/schedfarm/schedfarm/param"
	"github.com/schedfarm/schedfarm/workload"
)

// The tests of this package read the shared SWF models through these
// helpers; the families' models are tested in their folders.

func Names() []string                           { return Shared().Names() }
func Summary(name string) string                { return Shared().Summary(name) }
func Describe(name string) string               { return Shared().Describe(name) }
func Specs(name string) []param.Spec            { return Shared().Specs(name) }
func OutputOf(name string) (Output, bool)       { return Shared().OutputOf(name) }
func Check(name string, p map[string]any) error { return Shared().Check(name, p) }
func New(name string, p map[string]any, rng *rand.Rand) (workload.Source, Info, error) {
	return Shared().New(name, p, rng)
}
