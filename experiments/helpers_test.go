package experiments

import (
	"context"

	"github.com/schedfarm/schedfarm/families"
	"github.com/schedfarm/schedfarm/runner"
)

// testRunner runs the cells of the tests with the shipped families.
var testRunner = runner.New(families.Builtin())

// runCell runs one cell as a worker does.
func runCell(ctx context.Context, c runner.Cell) (runner.CellResult, error) {
	return testRunner.RunCell(ctx, c)
}
