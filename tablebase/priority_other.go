//go:build !linux

package tablebase

// lowerPriority does nothing where threads have no priority of their own
// that Go can set portably; building then relies on pausing alone.
func lowerPriority() {}
