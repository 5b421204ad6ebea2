package tablebase_test

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/tablebase"
	"github.com/chimera-chess/chimera/variants"
)

// TestBitParallelMatchesPerEntry generates pawnless tables with both
// generators, from the same smaller tables, and requires every value
// byte to agree: chess (all eight symmetries, identical pieces, captures
// that lose more slowly than the quiet moves, pawns and promotions), a
// rectangular board with pawns (double steps, promotions, five pieces),
// five pieces on a 4×4 board, Berolina pawns, royal knights and the
// amazon.
func TestBitParallelMatchesPerEntry(t *testing.T) {
	chess := variants.Chess()
	cat := variants.Builtin()
	lookup := func(name string) *engine.Variant {
		v, err := cat.Lookup(name)
		require.NoError(t, err)
		return v
	}
	cases := []struct {
		v         *engine.Variant
		materials []string
	}{
		{chess, []string{"KQvK", "KRvK", "KBvK", "KNvK", "KQvKR", "KQQvK", "KPvK"}},
		{pawnVariant(t), []string{"KQvKR", "KRBvK", "KNNvK", "KPvK", "KPPvK", "KRvKP", "KPvKP"}},
		{lookup("berolina"), []string{"KPvK"}},
		{tinyVariant(t), []string{"KQvKR", "KRBvKN", "KRRvKR", "KQvKRB"}},
		{lookup("knightmate"), []string{"KMvK", "KMvKM"}},
		{lookup("amazon"), []string{"KAvK"}},
	}
	if !testing.Short() {
		cases[0].materials = append(cases[0].materials, "KQvKQ", "KRvKB", "KRvKN", "KBNvK", "KBvKN", "KQvKP", "KBBvK", "KNNvK", "KQvKB", "KNvKN", "KRRvK", "KQRvK", "KRBvK", "KRNvK", "KQBvK", "KQNvK", "KBvKB", "KRvKR",
			"KRvKP", "KBvKP", "KNvKP", "KQPvK", "KRPvK", "KBPvK", "KNPvK", "KPPvK")
		cases[1].materials = append(cases[1].materials, "KRvKBN", "KRPvKR")
		cases[2].materials = append(cases[2].materials, "KRvKP")
		cases[5].materials = append(cases[5].materials, "KAvKR")
	}
	for _, tc := range cases {
		sub := memoryTables(tc.v)
		for _, name := range tc.materials {
			m, err := tablebase.ParseMaterial(tc.v, name)
			require.NoError(t, err)
			fast, err := sub(m)
			require.NoError(t, err, name)
			slow, err := tablebase.GeneratePerEntry(tc.v, m, sub)
			require.NoError(t, err, name)
			for stm := 0; stm < 2; stm++ {
				a, b := tablebase.Values(fast, stm), tablebase.Values(slow, stm)
				if !bytes.Equal(a, b) {
					diff := 0
					first := -1
					for i := range a {
						if a[i] != b[i] {
							diff++
							if first < 0 {
								first = i
							}
						}
					}
					t.Fatalf("%s %s stm %d: %d entries differ, first %d: bit-parallel %d, per-entry %d", tc.v.Name, name, stm, diff, first, a[first], b[first])
				}
			}
		}
	}
}
