package variants_test

import (
	"os"
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
