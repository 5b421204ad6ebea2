package session

import (
	"fmt"

	"github.com/chimera-chess/chimera/internal/sysmem"
)

// The Hash option's sizes: a transposition table the system cannot give
// is refused with a message instead of killing the process (Go cannot
// recover from a failed allocation).

// HashCeilingMB is the usual ceiling of UCI's Hash option; the engine
// offers less on a machine with less memory.
const HashCeilingMB = 65536

// DefaultHashMB is the Hash option's default: always allowed, as a table
// that small is no more than the program's own working memory.
const DefaultHashMB = 16

// spareMB is kept free beside a table for the rest of the program.
const spareMB = 256

// HashMaxMB returns the largest table the engine offers: half the
// machine's memory (a GUI's other engine and the system need the rest),
// at most HashCeilingMB.
func HashMaxMB() int {
	total, ok := sysmem.PhysicalMB()
	if !ok {
		return HashCeilingMB
	}
	return max(1, min(HashCeilingMB, total/2))
}

// CheckHash reports whether a table of mb MiB can be allocated now, the
// old one of oldMB MiB being given back first: the system must have that
// much available and some to spare, within the address-space limit.
func CheckHash(mb, oldMB int) error {
	if mb <= DefaultHashMB {
		return nil
	}
	avail, ok := sysmem.AvailableMB()
	if !ok {
		return nil
	}
	if free := avail + oldMB - spareMB; mb > free {
		return fmt.Errorf("%d MB is more than the %d MB of memory available", mb, max(free, 0))
	}
	return nil
}
