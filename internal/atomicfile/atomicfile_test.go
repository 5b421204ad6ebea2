package atomicfile

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// entries lists the names in dir: a test's way to see temporary files
// left behind.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	list, err := os.ReadDir(dir)
	require.NoError(t, err)
	var names []string
	for _, e := range list {
		names = append(names, e.Name())
	}
	return names
}

// writeString is a write function that writes s.
func writeString(s string) func(io.Writer) error {
	return func(w io.Writer) error {
		_, err := io.WriteString(w, s)
		return err
	}
}

// TestWrite: the file holds what was written with the permissions asked
// for (not the temporary file's private ones), replaces an older one,
// and no temporary file stays beside it.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f.json")
	require.NoError(t, Write(path, 0o644, writeString("old")))
	require.NoError(t, Write(path, 0o640, writeString("new")))
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, "new", string(data))
	st, err := os.Stat(path)
	require.NoError(t, err)
	require.Equal(t, os.FileMode(0o640), st.Mode().Perm())
	require.Equal(t, []string{"f.json"}, entries(t, dir))
}

// TestWriteFailure: a write that fails, or a rename that cannot happen
// (the path is a directory), leaves the old file as it was and no
// temporary file; a directory that does not exist fails at once.
func TestWriteFailure(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	require.NoError(t, Write(path, 0o644, writeString("old")))
	boom := errors.New("boom")
	err := Write(path, 0o644, func(w io.Writer) error {
		io.WriteString(w, "half of the new one")
		return boom
	})
	require.ErrorIs(t, err, boom)
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, "old", string(data))
	require.Equal(t, []string{"f"}, entries(t, dir))

	sub := filepath.Join(dir, "sub")
	require.NoError(t, os.Mkdir(sub, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(sub, "x"), nil, 0o644))
	require.Error(t, Write(sub, 0o644, writeString("over a directory")))
	require.ElementsMatch(t, []string{"f", "sub"}, entries(t, dir))

	require.Error(t, Write(filepath.Join(dir, "none", "f"), 0o644, writeString("x")))
}

// TestConcurrentWriters: two writers of one path, many times over, each
// write into a file of their own: the file is always one writer's whole
// contents, and no temporary file remains.
func TestConcurrentWriters(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "stats.json")
	contents := []string{
		string(bytes.Repeat([]byte("a"), 64<<10)),
		string(bytes.Repeat([]byte("b"), 96<<10)),
	}
	var wg sync.WaitGroup
	errs := make([]error, len(contents))
	for i, c := range contents {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 50 {
				if err := Write(path, 0o644, writeString(c)); err != nil {
					errs[i] = err
					return
				}
			}
		}()
	}
	// A reader meanwhile sees only whole files.
	for range 100 {
		data, err := os.ReadFile(path)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		require.NoError(t, err)
		require.Contains(t, contents, string(data))
	}
	wg.Wait()
	for _, err := range errs {
		require.NoError(t, err)
	}
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Contains(t, contents, string(data))
	require.Equal(t, []string{"stats.json"}, entries(t, dir))
}

// TestPending: the temporary file exists from Create on; Discard removes
// it and leaves an older file alone; after Commit, Discard does nothing
// and a second Commit is refused.
func TestPending(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "positions.epd")
	require.NoError(t, Write(path, 0o644, writeString("old")))

	p, err := Create(path)
	require.NoError(t, err)
	require.Len(t, entries(t, dir), 2)
	p.Discard()
	p.Discard()
	require.Equal(t, []string{"positions.epd"}, entries(t, dir))
	require.ErrorIs(t, p.Commit(0o644, writeString("late")), errDone)
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, "old", string(data))

	p, err = Create(path)
	require.NoError(t, err)
	require.NoError(t, p.Commit(0o644, writeString("new")))
	p.Discard()
	require.ErrorIs(t, p.Commit(0o644, writeString("again")), errDone)
	data, err = os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, "new", string(data))
	require.Equal(t, []string{"positions.epd"}, entries(t, dir))
}
