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
// that lose more slowly than the quiet moves), a rectangular board (four
// symmetries), five pieces on a 4×4 board, royal knights and the amazon.
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
		{chess, []string{"KQvK", "KRvK", "KBvK", "KNvK", "KQvKQ", "KQvKR", "KRvKB", "KRvKN", "KBNvK", "KQQvK", "KBvKN"}},
		{chessOn(t, "rect", 5, 6, "rnbqk/ppppp/5/5/PPPPP/RNBQK"), []string{"KQvKR", "KRBvK", "KNNvK", "KRvKBN"}},
		{tinyVariant(t), []string{"KQvKR", "KRBvKN", "KRRvKR", "KQvKRB"}},
		{lookup("knightmate"), []string{"KMvK", "KMvKM"}},
		{lookup("amazon"), []string{"KAvKR"}},
	}
	if !testing.Short() {
		cases[0].materials = append(cases[0].materials, "KBBvK", "KNNvK", "KQvKB", "KNvKN", "KRRvK", "KQRvK", "KRBvK", "KRNvK", "KQBvK", "KQNvK", "KBvKB", "KRvKR")
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
