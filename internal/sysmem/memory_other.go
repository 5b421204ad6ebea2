//go:build !linux

package sysmem

import "time"

// physical is unknown here: the Hash option keeps its usual ceiling.
func physical() (uint64, bool) { return 0, false }

// available is unknown here: allocations are not checked first.
func available() (uint64, bool) { return 0, false }

// peakResident is unknown here.
func peakResident() (uint64, bool) { return 0, false }

// cpuTime is unknown here.
func cpuTime() (time.Duration, bool) { return 0, false }

// AdviseHugePages does nothing here: the system has no advice to take.
func AdviseHugePages(b []byte) {}
