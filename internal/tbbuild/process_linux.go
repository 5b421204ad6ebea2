package tbbuild

import "syscall"

// childAttributes make a child build die with the engine (a GUI that kills
// the engine leaves no orphan generation behind).
func childAttributes() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
