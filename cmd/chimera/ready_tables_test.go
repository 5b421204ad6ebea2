package main

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// tableFixture holds the chess tables of KBNvK and KPvK (with the smaller
// ones they lead to) made once by tb generate, for the tests that read
// them but do not test making them: a four-piece table takes seconds to
// build, and several tests used to build it again each. Under -short it
// holds KPvK's alone (KQvK, KRvK, KPvK), and the tests read KRvK where
// they read KBNvK: the same files, probes and reports, on tables made in
// a tenth of a second where KBNvK takes six CPU-seconds.
type tableFixture struct {
	dir    string // set by TestMain, inside the tests' temporary directory
	once   sync.Once
	failed string // tb generate's error output, when it failed
}

// readyTables is made on first use, at most once per test binary.
var readyTables tableFixture

// copyTo makes the tables (on first use) and copies their files into a
// new directory of the test's, which the test and its engines may change.
func (r *tableFixture) copyTo(t *testing.T) string {
	t.Helper()
	r.once.Do(func() {
		materials := []string{"KBNvK", "KPvK"}
		if testing.Short() {
			materials = []string{"KPvK"}
		}
		for _, material := range materials {
			if code, _, errOut := runCommand("tb", "generate", material, "--dir", r.dir); code != 0 {
				r.failed = errOut
				return
			}
		}
	})
	require.Empty(t, r.failed, "making the ready tables")
	files, err := filepath.Glob(filepath.Join(r.dir, "*.ctb"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	dir := t.TempDir()
	for _, f := range files {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, filepath.Base(f)), data, 0o644))
	}
	return dir
}
