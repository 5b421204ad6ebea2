package match

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/variants"
)

// TestCECPMove: an engine's move in coordinates or SAN (castling as O-O,
// as Sjaak II sends it) reaches the referee in UCI notation.
func TestCECPMove(t *testing.T) {
	capa, err := variants.Lookup("capablanca")
	require.NoError(t, err)
	p, err := capa.ParseFEN("r4k3r/pppppppppp/10/10/10/10/PPPPPPPPPP/R4K3R w KQkq - 0 1")
	require.NoError(t, err)
	for text, want := range map[string]string{
		"O-O": "f1i1", "O-O-O": "f1c1", "f1i1": "f1i1", "e2e4": "e2e4", "e4": "e2e4", "zz9": "zz9",
	} {
		require.Equal(t, want, cecpMove(p, text), text)
	}
}

// TestEditCommands: an engine without setboard gets the position through
// edit mode, Black to move by a dummy move first; ten-rank boards count
// ranks from 0.
func TestEditCommands(t *testing.T) {
	cmds, err := editCommands(variants.Chess(), "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1", false)
	require.NoError(t, err)
	require.Equal(t, []string{"a2a3", "edit", "#", "Pe2", "Ke1", "c", "Ke8", "."}, cmds)
	cmds, err = editCommands(variants.Chess(), "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", true)
	require.NoError(t, err)
	require.Equal(t, "edit", cmds[0], "White to move needs no dummy move")
	grand, err := variants.Lookup("grand")
	require.NoError(t, err)
	require.Equal(t, 10, grand.Height)
	cmds, err = editCommands(grand, "k9/10/10/10/10/10/10/10/10/9K w - - 0 1", false)
	require.NoError(t, err)
	require.Equal(t, []string{"edit", "#", "Kj0", "c", "Ka9", "."}, cmds)
	_, err = editCommands(variants.Chess(), "8/8 w - - 0 1", false)
	require.ErrorContains(t, err, "has 2 ranks, want 8")
}
