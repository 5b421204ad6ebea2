//go:build long

package gen_test

import (
	"testing"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/variants"
	"github.com/stretchr/testify/require"
)

// TestBitParallelMatchesPerEntryLong compares the generators on every
// four-piece chess table and on five pieces with pawns on a 5×6 board,
// en passant included (about five minutes): go test -tags long
// ./tablebase -run Long.
func TestBitParallelMatchesPerEntryLong(t *testing.T) {
	compareGenerators(t, []comparison{
		{variants.Chess(), []string{"KRvKB", "KRvKN", "KBvKN", "KBBvK", "KNNvK", "KQvKB", "KNvKN", "KRRvK", "KQRvK",
			"KRBvK", "KRNvK", "KQBvK", "KQNvK", "KBvKB", "KRvKR", "KRvKP", "KBvKP", "KNvKP", "KQPvK", "KRPvK", "KBPvK", "KNPvK", "KPPvK"}},
		{pawnVariant(t), []string{"KRPvKR", "KPPvKP", "KPvKPP", "KRPvKP", "KBPvKP"}},
		{variantNamed(t, "berolina"), []string{"KRvKP"}},
		{variantNamed(t, "amazon"), []string{"KAvKR"}},
		// Royal knights are easily stalemated: hundreds of placements
		// here have no move but an en-passant capture.
		{knightmateOn5x6(t), []string{"KPvKP", "KPPvKP"}},
	})
}

// knightmateOn5x6 is knightmate on a 5×6 board, promoting to a mann.
func knightmateOn5x6(t *testing.T) *engine.Variant {
	cat := variants.Builtin()
	require.NoError(t, cat.Load("knightmate56", []byte("[knightmate56:knightmate]\nmaxRank = 6\nmaxFile = 5\n"+
		"startFen = rmbqk/ppppp/5/5/PPPPP/RMBQK w - - 0 1\ncastling = false\npromotionPieceTypes = m\n")))
	v, err := cat.Lookup("knightmate56")
	require.NoError(t, err)
	return v
}
