//go:build unix

package tbbuild

import (
	"os"
	"os/exec"
	"syscall"
)

// lowPriority prefixes a command with nice(1) at its lowest priority when
// the system has it: every thread of the child then runs at nice 19.
func lowPriority(args []string) []string {
	if nice, err := exec.LookPath("nice"); err == nil {
		return append([]string{nice, "-n", "19"}, args...)
	}
	return args
}

// stopProcess stops (SIGSTOP) or continues (SIGCONT) a child process.
func stopProcess(p *os.Process, stop bool) {
	sig := syscall.SIGCONT
	if stop {
		sig = syscall.SIGSTOP
	}
	p.Signal(sig)
}

// childPauses reports whether a child build can be paused.
const childPauses = true
