package session

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestHashRefused: a Hash beyond what the engine offers is refused and
// the old table kept.
func TestHashRefused(t *testing.T) {
	s := New(Config{TablebaseDir: t.TempDir()})
	defer s.Close()
	require.ErrorContains(t, s.SetOption("Hash", "1000000"), "is not a number from 1 to")
	require.Equal(t, 16, s.values.hash, "the old table is kept")
}
