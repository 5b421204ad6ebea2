package session

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestHashMemory: the Hash option offers at most half the machine, and an
// allocation the system cannot back now is refused with the old size kept.
func TestHashMemory(t *testing.T) {
	total, ok := physicalMemory()
	if !ok {
		t.Skip("this system does not say how much memory it has")
	}
	require.LessOrEqual(t, hashMaxMB(), int(total>>20)/2)
	avail, ok := availableMemory()
	require.True(t, ok)
	require.NoError(t, checkHashMemory(16, 16))
	err := checkHashMemory(int(avail>>20)+1024, 16)
	require.ErrorContains(t, err, "memory available; keeping 16 MB")

	s := New(Config{TablebaseDir: t.TempDir()})
	defer s.Close()
	require.ErrorContains(t, s.SetOption("Hash", "1000000"), "is not a number from 1 to")
	require.Equal(t, 16, s.values.hash, "the old table is kept")
}
