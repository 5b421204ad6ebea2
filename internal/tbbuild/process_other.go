//go:build !unix

package tbbuild

import "os"

// lowPriority leaves the command as it is where there is no nice(1).
func lowPriority(args []string) []string { return args }

// stopProcess does nothing where processes cannot be stopped.
func stopProcess(*os.Process, bool) {}

// childPauses reports whether a child build can be paused: not here, so
// builds run in-process, where pausing is cooperative.
const childPauses = false
