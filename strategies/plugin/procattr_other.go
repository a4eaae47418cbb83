//go:build !linux

package plugin

import "os/exec"

// dieWithParent does nothing where the kernel has no parent-death signal;
// a plugin process then outlives a worker that is killed outright.
func dieWithParent(*exec.Cmd) {}
