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

// TestPeak: the peak counts memory the process touched and let go of.
func TestPeak(t *testing.T) {
	before, ok := PeakMB()
	if !ok {
		t.Skip("this system does not say what the process's peak is")
	}
	b := make([]byte, (before+64)<<20)
	for i := range b {
		b[i] = 1
	}
	after, ok := PeakMB()
	require.True(t, ok)
	require.GreaterOrEqual(t, after, before+64)
}

// TestCPUTime: work done shows in the processor time.
func TestCPUTime(t *testing.T) {
	before, ok := CPUTime()
	if !ok {
		t.Skip("this system does not say what processor time the process used")
	}
	x := uint64(1)
	for after := before; after == before; after, _ = CPUTime() {
		for range 1 << 20 {
			x = x*6364136223846793005 + 1442695040888963407
		}
	}
	require.NotZero(t, x)
}
