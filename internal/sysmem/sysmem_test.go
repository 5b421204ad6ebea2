package sysmem

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestMemory: where the system says how much memory it has, it also says
// how much is available, and no more than the machine has.
func TestMemory(t *testing.T) {
	total, ok := PhysicalMB()
	if !ok {
		t.Skip("this system does not say how much memory it has")
	}
	require.Positive(t, total)
	avail, ok := AvailableMB()
	require.True(t, ok)
	require.LessOrEqual(t, avail, total)
}
