package tablebase

import (
	"runtime"
	"syscall"
)

// lowerPriority gives the calling goroutine a thread of its own at the
// lowest scheduling priority (nice 19), so table building takes only the
// CPU time nothing else wants. The thread ends with the goroutine, which
// keeps it locked to the thread.
func lowerPriority() {
	runtime.LockOSThread()
	syscall.Setpriority(syscall.PRIO_PROCESS, syscall.Gettid(), 19)
}
