// Package sysmem asks the operating system about memory: the machine's
// memory, what the system can give the process now (within its
// address-space limit, ulimit -v), and the advice that a range be backed
// by huge pages. It holds no policy: how large a transposition table may
// be is the session's rule, how one is laid out the searcher's.
package sysmem

import "time"

// PhysicalMB returns the machine's memory in MiB, false where unknown.
func PhysicalMB() (int, bool) {
	total, ok := physical()
	return int(total >> 20), ok
}

// AvailableMB returns the memory the process can get now in MiB: what the
// system can give out without swapping, and no more than the address
// space its limit leaves; false where unknown.
func AvailableMB() (int, bool) {
	avail, ok := available()
	return int(avail >> 20), ok
}

// PeakMB returns the most memory the process has held at once so far
// (its peak resident set) in MiB, false where unknown.
func PeakMB() (int, bool) {
	peak, ok := peakResident()
	return int(peak >> 20), ok
}

// CPUTime returns the processor time the process has used so far (user
// and system, every thread), false where unknown: with other work on the
// machine, what a computation costs when its wall time does not say.
func CPUTime() (time.Duration, bool) { return cpuTime() }

// HugePageSize is the size of an x86-64 or arm64 huge page: 2 MiB. A
// range given to AdviseHugePages should start on such a boundary.
const HugePageSize = 2 << 20
