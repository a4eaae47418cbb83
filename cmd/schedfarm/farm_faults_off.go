//go:build !schedfarm_faults

package main

import "github.com/schedfarm/schedfarm/worker"

// farmWithFaults returns r unchanged: fault injection exists only in test
// binaries built with the schedfarm_faults tag (see farm_faults_on.go).
func farmWithFaults(r worker.Runner) worker.Runner { return r }
