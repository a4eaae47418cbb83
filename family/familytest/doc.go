// Package familytest runs the one shared invariant suite over paper
// families (Families): every engine scheduler a family registers gets the
// random rigid-job workloads of strategies/strategytest, and a
// family.SuiteProvider's own workloads (projects, a cloud of VMs, a failing
// grid) are run twice per scheduler under the recorder (RunCase). It sits
// next to package family, the interfaces it exercises, and imports nothing
// above it: family, strategies, strategies/strategytest, sim.
package familytest
