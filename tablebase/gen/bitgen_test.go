package gen_test

import (
	"testing"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/internal/testkit/tbtest"
	"github.com/chimera-chess/chimera/tablebase"
	"github.com/chimera-chess/chimera/tablebase/gen"
	"github.com/chimera-chess/chimera/variants"
	"github.com/stretchr/testify/require"
)

// comparison is a variant's materials to generate with both generators.
type comparison struct {
	v         *engine.Variant
	materials []string
	// tables, when set, supplies the variant and the tables of the
	// bit-parallel generator, shared with other tests; they must hold no
	// distances to zeroing, as the per-entry generator's do not.
	tables *tbtest.Tables
}

// TestBitParallelMatchesPerEntry generates tables with both generators,
// from the same smaller tables, and requires every value byte to agree:
// chess (all eight symmetries, identical pieces, captures that lose more
// slowly than the quiet moves, pawns and promotions, en passant), a
// rectangular board with pawns (double steps, promotions, en passant),
// five pieces on a 4×4 board, Berolina pawns (en passant after a double
// step either way), royal knights and the amazon. The build tag "long" adds every four-piece chess table and
// five pieces with pawns (bitgen_long_test.go). Under -short the
// rectangular board's tables are pawnProbeTables' (a 4×5 board without
// the move rule, the same moves), its KRvKP is compared in the full run
// only (KPvKP still has pawns on both sides, double steps, en passant
// and promotions; KRvKP's per-entry generation took half a second), and
// the royal knights meet no man of the other side: KMvKM's per-entry
// generation alone took two seconds, and captures into smaller tables
// are compared on the 4×4 board and the rectangular one.
func TestBitParallelMatchesPerEntry(t *testing.T) {
	chess := variants.Chess()
	cases := []comparison{
		{chess, []string{"KQvK", "KRvK", "KBvK", "KNvK", "KPvK"}, chessDTMTables},
		{pawnVariant(t), []string{"KPvK", "KPvKP"}, nil},
		{variantNamed(t, "berolina"), []string{"KPvK"}, nil},
		{tbtest.Tiny(t), []string{"KQvKR", "KRBvKN"}, nil},
		{variantNamed(t, "knightmate"), []string{"KMvK"}, nil},
		{variantNamed(t, "amazon"), []string{"KAvK"}, nil},
	}
	if testing.Short() {
		cases[1].tables = pawnProbeTables()
	} else {
		cases[0].materials = append(cases[0].materials, "KQvKR", "KQQvK", "KQvKQ", "KBNvK", "KQvKP", "KPvKP")
		cases[1].materials = append(cases[1].materials, "KRvKP", "KQvKR", "KRBvK", "KNNvK", "KPPvK", "KRvKBN")
		cases[3].materials = append(cases[3].materials, "KRRvKR", "KQvKRB")
		// Two directions of double step, so two twins of one placement.
		cases[2].materials = append(cases[2].materials, "KPvKP")
		cases[4].materials = append(cases[4].materials, "KMvKM")
	}
	compareGenerators(t, cases)
}

// variantNamed looks a built-in variant up.
func variantNamed(t testing.TB, name string) *engine.Variant {
	v, err := variants.Builtin().Lookup(name)
	require.NoError(t, err)
	return v
}

// compareGenerators requires both generators to give every material the
// same values.
func compareGenerators(t *testing.T, cases []comparison) {
	for _, tc := range cases {
		v, sub := tc.v, dtmTables(tc.v) // the distances to zeroing are one walk after either generator
		if tc.tables != nil {
			v, sub = tc.tables.Variant(t), tc.tables.Subtables(t)
		}
		for _, name := range tc.materials {
			m, err := tablebase.ParseMaterial(v, name)
			require.NoError(t, err)
			fast, err := sub(m)
			require.NoError(t, err, name)
			slow, err := gen.GeneratePerEntry(v, m, sub)
			require.NoError(t, err, name)
			for stm := 0; stm < 2; stm++ {
				requireSameBytes(t, v.Name+" "+name+" values", stm, gen.Values(fast, stm), gen.Values(slow, stm))
			}
		}
	}
}

// TestGeneratorNamed checks which generator each kind of table gets.
func TestGeneratorNamed(t *testing.T) {
	pieces, pawns, big := "KQvKR", "KRvKP", "KRvK"
	if testing.Short() {
		// The same choices on three-piece tables, a tenth of the time;
		// on the big board a knight's, whose table of draws takes a
		// tenth of a rook's.
		pieces, pawns, big = "KQvK", "KPvK", "KNvK"
	}
	require.Equal(t, "bit-parallel", chessTables.Get(t, pieces).Generator())
	require.Equal(t, "bit-parallel", chessTables.Get(t, pawns).Generator())
	require.Equal(t, "bit-parallel", pawnProbeTables().Get(t, "KPvKP").Generator())
	capa := variantNamed(t, "capablanca")
	require.Equal(t, "per-entry: a board over 64 squares", tableOf(t, capa, memoryTables(capa), big).Generator())
}
