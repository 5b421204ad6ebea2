package smallfile

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestRead: a file up to the limit is read whole; one byte more, or an
// endless device, is refused with what it is not.
func TestRead(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	require.NoError(t, os.WriteFile(path, make([]byte, 2048), 0o644))
	data, err := Read(path, 2048, "a test file")
	require.NoError(t, err)
	require.Len(t, data, 2048)
	_, err = Read(path, 2047, "a test file")
	require.ErrorContains(t, err, "more than 1 KiB: not a test file")
	if _, err := os.Stat("/dev/zero"); err == nil {
		_, err = Read("/dev/zero", 1<<20, "a variant file")
		require.ErrorContains(t, err, "/dev/zero: more than 1024 KiB: not a variant file")
	}
	_, err = Read(filepath.Join(t.TempDir(), "none"), 10, "x")
	require.ErrorIs(t, err, os.ErrNotExist)
}
