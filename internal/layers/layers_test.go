// Package layers checks a promise of ARCHITECTURE.md: its package list is
// ordered so that every import points down it, and it lists every package.
package layers

import (
	"bufio"
	"errors"
	"go/build"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

const module = "github.com/chimera-chess/chimera/"

// testkit holds the test helpers, which only tests may import.
const testkit = "internal/testkit/"

// TestImportsPointDown reads the package list at the top of
// ARCHITECTURE.md (the first code block: a package path, then what it
// does) and checks every package's imports, test files left out, against
// it: each import of the module's is listed below the importer. The
// internal/testkit/ packages are test helpers: only tests import them.
// Every listed package says what it offers in a package comment.
func TestImportsPointDown(t *testing.T) {
	root := filepath.Join("..", "..")
	layers := readLayers(t, filepath.Join(root, "ARCHITECTURE.md"))
	rank := map[string]int{}
	for i, p := range layers {
		rank[p] = i
	}
	found := map[string]bool{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "testdata") {
			return filepath.SkipDir
		}
		pkg, err := build.ImportDir(path, 0)
		var noGo *build.NoGoError
		if errors.As(err, &noGo) {
			return nil
		}
		require.NoError(t, err, path)
		rel, err := filepath.Rel(root, path)
		require.NoError(t, err)
		rel = filepath.ToSlash(rel)
		if rel == "internal/layers" || strings.HasPrefix(rel, testkit) {
			return nil // test helpers: checked by their importers
		}
		found[rel] = true
		r, listed := rank[rel]
		require.True(t, listed, "ARCHITECTURE.md's package list lacks %s", rel)
		require.True(t, strings.HasPrefix(pkg.Doc, "Package "+pkg.Name+" ") || (pkg.Name == "main" && pkg.Doc != ""),
			"%s has no package comment saying what it offers", rel)
		for _, imp := range pkg.Imports {
			dep, ours := strings.CutPrefix(imp, module)
			if !ours {
				continue
			}
			require.False(t, strings.HasPrefix(dep, testkit), "%s imports the test helper %s outside its tests", rel, dep)
			d, listed := rank[dep]
			require.True(t, listed, "%s imports %s, which ARCHITECTURE.md does not list", rel, dep)
			require.Greater(t, d, r, "%s imports %s, listed above it in ARCHITECTURE.md: imports point down", rel, dep)
		}
		return nil
	})
	require.NoError(t, err)
	for _, p := range layers {
		require.True(t, found[p], "ARCHITECTURE.md lists %s, which is not a package", p)
	}
}

// readLayers returns the package paths of ARCHITECTURE.md's first code
// block, top first.
func readLayers(t *testing.T, path string) []string {
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	var layers []string
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "```") {
			if in {
				break
			}
			in = true
			continue
		}
		if fields := strings.Fields(line); in && len(fields) > 0 {
			layers = append(layers, fields[0])
		}
	}
	require.NoError(t, sc.Err())
	require.NotEmpty(t, layers, "no package list in %s", path)
	return layers
}
