//go:build long

package gen_test

import (
	"testing"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/internal/testkit/tbtest"
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
			"KRBvK", "KRNvK", "KQBvK", "KQNvK", "KBvKB", "KRvKR", "KRvKP", "KBvKP", "KNvKP", "KQPvK", "KRPvK", "KBPvK", "KNPvK", "KPPvK"}, nil},
		{pawnVariant(t), []string{"KRPvKR", "KPPvKP", "KPvKPP", "KRPvKP", "KBPvKP"}, nil},
		{variantNamed(t, "berolina"), []string{"KRvKP"}, nil},
		{variantNamed(t, "amazon"), []string{"KAvKR"}, nil},
		// Royal knights are easily stalemated: hundreds of placements
		// here have no move but an en-passant capture.
		{knightmateOn5x6(t), []string{"KPvKP", "KPPvKP"}, nil},
	})
}

// TestBitParallelDTZMatchesPerEntryLong walks the distances to zeroing
// both ways on every four-piece chess table, five pieces with pawns on a
// 5×6 board and royal knights there (en passant into stalemates): go test
// -tags long ./tablebase/gen -run Long.
func TestBitParallelDTZMatchesPerEntryLong(t *testing.T) {
	compareDTZWalks(t, []dtzComparison{
		{chessTables, []string{"KRvKB", "KRvKN", "KBvKN", "KBBvK", "KNNvK", "KQvKB", "KQvKN", "KNvKN", "KRRvK", "KQRvK", "KQQvK",
			"KRBvK", "KRNvK", "KQBvK", "KQNvK", "KBvKB", "KRvKR", "KQvKQ", "KQvKP", "KRvKP", "KBvKP", "KNvKP",
			"KQPvK", "KRPvK", "KBPvK", "KNPvK", "KPPvK"}},
		{pawnTables, []string{"KRvKP", "KPPvK", "KRPvKR", "KPPvKP", "KPvKPP", "KRPvKP"}},
		{tbtest.NewTables(knightmateOn5x6), []string{"KPvKP", "KPPvKP"}},
		{shortRule("chess", "10"), []string{"KBNvK", "KPvKP", "KRvKP"}},
	})
}

// knightmateOn5x6 is knightmate on a 5×6 board, promoting to a mann.
func knightmateOn5x6(t testing.TB) *engine.Variant {
	cat := variants.Builtin()
	require.NoError(t, cat.Load("knightmate56", []byte("[knightmate56:knightmate]\nmaxRank = 6\nmaxFile = 5\n"+
		"startFen = rmbqk/ppppp/5/5/PPPPP/RMBQK w - - 0 1\ncastling = false\npromotionPieceTypes = m\n")))
	v, err := cat.Lookup("knightmate56")
	require.NoError(t, err)
	return v
}
