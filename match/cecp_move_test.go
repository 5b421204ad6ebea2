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
