// Package heapfloortest lets benchmarks measure the farm with the heap
// floor its processes keep (heapfloor.Farm, kept by cmd/schedfarm's main
// for run, tune, reproduce, coordinator and worker), which a test binary,
// not running that main, does not keep otherwise.
package heapfloortest
