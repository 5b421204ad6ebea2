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
	cat := variants.Builtin()
	for _, name := range variants.Names() {
		v, err := variants.Lookup(name)
		require.NoError(t, err, name)
		require.Equal(t, name, v.Name)
		require.Equal(t, v.StartFEN, v.StartPosition().FEN())
		files, ranks, ok := cat.BoardSize(name)
		require.True(t, ok, name)
		require.Equal(t, [2]int{v.Width, v.Height}, [2]int{files, ranks}, "%s: the size without building", name)
	}
	_, _, ok := cat.BoardSize("nosuchchess")
	require.False(t, ok)
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

// TestCanonical: a section that sets nothing but its description is its
// parent under another name (through a chain of such sections); one that
// sets a rule is a variant of its own, and a user's file is read alike.
func TestCanonical(t *testing.T) {
	for name, want := range map[string]string{"fischerandom": "chess960", "normal": "chess", "mini": "minishogi",
		"chess960": "chess960", "chess": "chess", "crazyhouse": "crazyhouse", "nosuch": "nosuch"} {
		require.Equal(t, want, variants.Canonical(name), name)
	}
	aliases := 0
	for _, name := range variants.Names() {
		if c := variants.Canonical(name); c != name {
			aliases++
			a, err := variants.Lookup(name)
			require.NoError(t, err)
			b, err := variants.Lookup(c)
			require.NoError(t, err)
			require.Equal(t, b.StartFEN, a.StartFEN, name)
			require.Equal(t, b.Rules.Chess960, a.Rules.Chess960, name)
			require.Equal(t, len(b.Pieces), len(a.Pieces), name)
		}
	}
	require.Equal(t, 3, aliases, "fischerandom, normal and mini")
	c := variants.Builtin()
	require.NoError(t, c.Load("mine.ini", []byte("[frc:fischerandom]\ndescription = again\n\n[mine:chess]\ndescription = mine\npieceDrops = true\n")))
	require.Equal(t, "chess960", c.Canonical("frc"))
	require.Equal(t, "mine", c.Canonical("mine"))
}
