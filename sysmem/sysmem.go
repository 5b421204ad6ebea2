package session

import "fmt"

// hashCeilingMB is the usual ceiling of UCI's Hash option; the engine
// offers less on a machine with less memory.
const hashCeilingMB = 65536

// hashMaxMB returns the largest Hash the engine offers: half the
// machine's memory (a GUI's other engine and the system need the rest),
// at most hashCeilingMB.
func hashMaxMB() int {
	total, ok := physicalMemory()
	if !ok {
		return hashCeilingMB
	}
	return max(1, min(hashCeilingMB, int(total>>20)/2))
}

// checkHashMemory reports whether a table of mb MiB can be allocated now,
// the old one of oldMB MiB being given back first: the system must have
// that much available and some to spare (an allocation the system cannot
// back kills a Go program outright).
func checkHashMemory(mb, oldMB int) error {
	avail, ok := availableMemory()
	if !ok {
		return nil
	}
	const spareMB = 256
	if free := int(avail>>20) + oldMB - spareMB; mb > free {
		return fmt.Errorf("option Hash: %d MB is more than the %d MB of memory available; keeping %d MB", mb, max(free, 0), oldMB)
	}
	return nil
}
