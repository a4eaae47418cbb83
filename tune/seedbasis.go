package tune

import (
	"slices"

	"github.com/schedfarm/schedfarm/runner"
)

// baseCRN returns the names of a base cell's common-random-numbers
// parameters (those its seed leaves out).
func baseCRN(b runner.Cell) []string { return slices.Clone(b.CRN) }

// setSeedBasis records on a cell the base seed and the sorted
// common-random-numbers parameters its ID and seed are derived from; a
// worker re-derives both from them and refuses a cell whose ID or seed
// does not match.
func setSeedBasis(c *runner.Cell, base uint64, crn []string) { c.BaseSeed, c.CRN = base, crn }
