package plugin

import (
	"os/exec"
	"syscall"
)

// dieWithParent makes the kernel kill the plugin process when schedfarm
// dies (a worker killed with SIGKILL cannot kill its children), so no
// plugin process outlives the worker that started it.
func dieWithParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
