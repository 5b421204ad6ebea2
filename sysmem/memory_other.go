//go:build !linux

package session

// physicalMemory is unknown here: the Hash option keeps its usual ceiling.
func physicalMemory() (uint64, bool) { return 0, false }

// availableMemory is unknown here: allocations are not checked first.
func availableMemory() (uint64, bool) { return 0, false }
