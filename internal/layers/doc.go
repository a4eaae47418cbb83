// Package layers holds the test that keeps the module's imports pointing
// one way, as README's layout promises: cmd → coordinator/worker/results/
// tune → experiments → runner → families → family → strategies/
// workload/models → sim/workload/ga and the leaf helpers. Each package
// has a rank (Ranks); a package may import only packages of its rank or
// below. Test helper packages (strategytest, familytest, plugintest,
// runnertest, swftest, brokertest) have the rank of what they help test,
// so they too import nothing above it. _test.go files are not checked: a
// test may use anything.
package layers
