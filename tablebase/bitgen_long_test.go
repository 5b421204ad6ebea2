//go:build long

package tablebase_test

import (
	"testing"

	"github.com/chimera-chess/chimera/variants"
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
	})
}
