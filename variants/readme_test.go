package variants_test

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/variants"
)

// TestReadmeVariantFiles: every variant file the README shows loads, so
// a user who copies one gets a working variant.
func TestReadmeVariantFiles(t *testing.T) {
	data, err := os.ReadFile("../README.md")
	require.NoError(t, err)
	blocks := strings.Split(string(data), "```ini\n")[1:]
	require.NotEmpty(t, blocks, "the README shows a variant file")
	for i, b := range blocks {
		file, _, ok := strings.Cut(b, "```")
		require.True(t, ok, "block %d is closed", i)
		c := variants.Builtin()
		require.NoError(t, c.Load("README.md", []byte(file)), "block %d:\n%s", i, file)
		for _, name := range c.Names()[len(variants.Names()):] {
			v, err := c.Lookup(name)
			require.NoError(t, err)
			require.NotEmpty(t, v.StartPosition().LegalMoves(nil), "%s has moves", name)
		}
	}
}

// TestReadmeCounts: the README's count of built-in variants is the
// catalogue's.
func TestReadmeCounts(t *testing.T) {
	data, err := os.ReadFile("../README.md")
	require.NoError(t, err)
	want := fmt.Sprintf("\n%d built-in variants", len(variants.Names()))
	require.True(t, strings.Contains(string(data), want), "the README says %q", want)
}

// TestReadmeFuzzCommands: every fuzz test of the module is in the
// README's list, by its anchored name (an unanchored -fuzz pattern that
// matches two tests fails).
func TestReadmeFuzzCommands(t *testing.T) {
	data, err := os.ReadFile("../README.md")
	require.NoError(t, err)
	fuzz := regexp.MustCompile(`(?m)^func (Fuzz\w+)\(`)
	err = filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		pkg := filepath.ToSlash(filepath.Dir(strings.TrimPrefix(path, "../")))
		for _, m := range fuzz.FindAllStringSubmatch(string(src), -1) {
			want := fmt.Sprintf("go test ./%s -run '^$' -fuzz '^%s$'", pkg, m[1])
			require.True(t, strings.Contains(string(data), want), "the README lists %q (%s)", want, path)
		}
		return nil
	})
	require.NoError(t, err)
}
