package variants_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/variants"
)

func TestLookup(t *testing.T) {
	for _, name := range variants.Names() {
		v, err := variants.Lookup(name)
		require.NoError(t, err, name)
		require.Equal(t, name, v.Name)
		require.Equal(t, v.StartFEN, v.StartPosition().FEN())
	}
	_, err := variants.Lookup("nosuchchess")
	require.ErrorContains(t, err, `unknown variant "nosuchchess"`)
	require.ErrorContains(t, err, "chess")
}

// TestEveryFairyStockfishVariant: every game Fairy-Stockfish 11.1 offers
// in UCI_Variant is built in under the same name, so that a GUI or a
// tournament manager can ask either engine for it.
func TestEveryFairyStockfishVariant(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "fairy-stockfish-11.1-variants.txt"))
	require.NoError(t, err)
	cat := variants.Builtin()
	names := 0
	for _, line := range strings.Split(string(data), "\n") {
		if line = strings.TrimSpace(line); line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		names++
		_, err := cat.Lookup(line)
		require.NoError(t, err, "Fairy-Stockfish's %s", line)
	}
	require.Equal(t, 77, names, "the list is whole")
}
