//go:build !linux

package tbbuild

import "syscall"

// childAttributes are the defaults where a child cannot be tied to its
// parent's life.
func childAttributes() *syscall.SysProcAttr { return nil }
