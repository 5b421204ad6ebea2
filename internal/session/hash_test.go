package session

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/internal/sysmem"
)

// TestHashRefused: a Hash beyond what the engine offers is refused and
// the old table kept.
func TestHashRefused(t *testing.T) {
	s := New(Config{TablebaseDir: t.TempDir()})
	defer s.Close()
	require.ErrorContains(t, s.SetOption("Hash", "1000000"), "is not a number from 1 to")
	require.Equal(t, 16, s.values.hash, "the old table is kept")
}

// TestCheckHash: at most half the machine is offered, the default size is
// always allowed, and a table beyond what the system has now is refused.
func TestCheckHash(t *testing.T) {
	total, ok := sysmem.PhysicalMB()
	if !ok {
		t.Skip("this system does not say how much memory it has")
	}
	require.LessOrEqual(t, HashMaxMB(), total/2)
	avail, ok := sysmem.AvailableMB()
	require.True(t, ok)
	require.NoError(t, CheckHash(DefaultHashMB, 0))
	require.ErrorContains(t, CheckHash(avail+1024, 16), "MB of memory available")
}

// TestHashDefaultFromConfig: a program that makes sessions with tables of
// its own size (self-play) sets the Hash option's default, which the
// session applies at the start and offers as the default.
func TestHashDefaultFromConfig(t *testing.T) {
	s := New(Config{TablebaseDir: t.TempDir(), HashMB: 1})
	defer s.Close()
	require.Equal(t, 1, s.values.hash)
	for _, o := range s.Options() {
		if o.Name == "Hash" {
			require.Equal(t, "1", o.Default)
		}
	}
}
