package sysmem

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCheckTable: at most half the machine is offered, the default size is
// always allowed, and a table beyond what the system has now is refused.
func TestCheckTable(t *testing.T) {
	total, ok := physical()
	if !ok {
		t.Skip("this system does not say how much memory it has")
	}
	require.LessOrEqual(t, HashMaxMB(), int(total>>20)/2)
	avail, ok := available()
	require.True(t, ok)
	require.NoError(t, CheckTable(DefaultHashMB, 0))
	require.ErrorContains(t, CheckTable(int(avail>>20)+1024, 16), "MB of memory available")
}
