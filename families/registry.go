package families

import (
	"github.com/schedfarm/schedfarm/families/classic"
	"github.com/schedfarm/schedfarm/families/cloud"
	"github.com/schedfarm/schedfarm/families/consolidation"
	"github.com/schedfarm/schedfarm/families/ktier"
	"github.com/schedfarm/schedfarm/families/stms"
	"github.com/schedfarm/schedfarm/families/twotier"
	"github.com/schedfarm/schedfarm/family"
)

// List returns every family shipped with schedfarm, one line each: adding
// a family is adding its folder and its line here.
func List() []family.Family {
	return []family.Family{
		classic.Family(),
		twotier.Family(),
		consolidation.Family(),
		cloud.Family(),
		stms.Family(),
		ktier.Family(),
	}
}

// Builtin returns the catalog of the families shipped with schedfarm
// (List). Build it once — cmd/schedfarm does, when it starts — and pass it
// to what needs it: the runner, spec validation, the worker, the results
// glossary.
func Builtin() *Catalog {
	c, err := New(List()...)
	if err != nil {
		panic(err) // the built-in table is fixed; a clash is a programming error caught by tests
	}
	return c
}
