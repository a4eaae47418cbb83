// Package strategytest is the shared test harness for schedulers: a recorder
// that runs a simulation and keeps every reservation a scheduler promised,
// checks of the invariants every scheduler must keep, random workloads that
// stress them, and Suite, which applies all of it to every scheduler of a
// registry, so a newly registered scheduler is covered without writing a
// test. It imports only sim and strategies; the suite over whole families
// (their own workloads included) is family/familytest.
package strategytest
