package gen_test

import (
	"bytes"
	"testing"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/internal/testkit/tbtest"
	"github.com/chimera-chess/chimera/tablebase"
	"github.com/chimera-chess/chimera/tablebase/gen"
	"github.com/chimera-chess/chimera/variants"
	"github.com/stretchr/testify/require"
)

// TestBitParallelDTZMatchesPerEntry walks the distances to zeroing both
// ways — bit-parallel and dtz.go's walk, the reference — from the same
// smaller tables, and requires every value and distance byte to agree:
// chess (mates, captures that win or lose, all eight symmetries,
// identical pieces, pawns), a 4×4 board (five pieces, riders on both
// sides), royal knights, the amazon, pawns on a 5×6 board and Berolina
// pawns (layers, double steps into en-passant twins), and short move
// rules whose long wins are cursed (zeroing moves beyond the limit,
// losses held back to limit+1, pawn moves into cursed wins). The smaller
// tables come from the bit-parallel walk, each compared in its turn
// (materials are listed smaller first).
func TestBitParallelDTZMatchesPerEntry(t *testing.T) {
	byName := func(name string) *tbtest.Tables {
		return tbtest.NewTables(func(t testing.TB) *engine.Variant { return variantNamed(t, name) })
	}
	cases := []dtzComparison{
		{chessTables, []string{"KQvK", "KRvK", "KNvK", "KPvK"}},
		{tbtest.NewTables(tbtest.Tiny), []string{"KRvK", "KNvK", "KBvK", "KQvKR", "KRBvKN"}},
		{shortRule("gardner", "5"), []string{"KRvK", "KQvK", "KQvKR", "KPvK", "KRvKP"}},
		// A two-move rule on the 4×4 board: most wins are cursed, and a
		// lost side's captures and pawn moves lead into them.
		{tbtest.NewTables(func(t testing.TB) *engine.Variant {
			return tbtest.ChessOn(t, "tinyrule", 4, 4, "rnbk/pppp/PPPP/RNBK", "nMoveRule = 2")
		}), []string{"KRvK", "KNvK", "KBvK", "KQvK", "KQvKR", "KRvKN", "KRvKB", "KRBvKN", "KRRvKN", "KQvKRN",
			"KPvK", "KPvKP", "KRvKP", "KNvKP", "KPPvK", "KQvKRP"}},
		{byName("knightmate"), []string{"KMvK"}},
		{byName("amazon"), []string{"KAvK"}},
		// Pawns on a 5×6 board: double steps, en passant, a pawn in slot 1
		// and in higher slots, identical pawns; Berolina pawns' double
		// steps either way.
		{pawnTables, []string{"KPvK", "KPvKP"}},
		{byName("berolina"), []string{"KPvK"}},
		// The 5×6 board under a three-move rule: en-passant twins lost or
		// won beyond the limit.
		{tbtest.NewTables(func(t testing.TB) *engine.Variant {
			return tbtest.ChessOn(t, "pawnyrule", 5, 6, "rnbqk/ppppp/5/5/PPPPP/RNBQK", "nMoveRule = 3")
		}), []string{"KPvK", "KPvKP", "KNvKP", "KQvKP"}},
	}
	if !testing.Short() {
		cases[0].materials = append(cases[0].materials, "KQvKR", "KBNvK", "KPvKP")
		cases[1].materials = append(cases[1].materials, "KRRvKR")
		cases[5].materials = append(cases[5].materials, "KRvKP")
		cases[6].materials = append(cases[6].materials, "KPvKP")
		cases = append(cases, dtzComparison{shortRule("chess", "10"), []string{"KRvK", "KQvKR"}})
	}
	compareDTZWalks(t, cases)
}

// dtzComparison is a variant's tables and the materials whose distances
// to zeroing are walked both ways.
type dtzComparison struct {
	tables    *tbtest.Tables
	materials []string
}

// shortRule is the tables of a variant under a shorter move rule.
func shortRule(parent, rule string) *tbtest.Tables {
	return tbtest.NewTables(func(t testing.TB) *engine.Variant {
		cat := variants.Builtin()
		require.NoError(t, cat.Load("short.ini", []byte("[shortrule:"+parent+"]\nnMoveRule = "+rule+"\n")))
		v, err := cat.Lookup("shortrule")
		require.NoError(t, err)
		return v
	})
}

// compareDTZWalks requires both walks to give every material the same
// values and distances.
func compareDTZWalks(t *testing.T, cases []dtzComparison) {
	for _, tc := range cases {
		v, sub := tc.tables.Variant(t), tc.tables.Subtables(t)
		for _, name := range tc.materials {
			m, err := tablebase.ParseMaterial(v, name)
			require.NoError(t, err)
			bits := tc.tables.Get(t, name)
			require.NotNil(t, gen.DTZs(bits, 0), "%s %s: no distances to zeroing", v.Name, name)
			ref, err := gen.GenerateDTZPerEntry(v, m, sub)
			require.NoError(t, err, name)
			for stm := range 2 {
				requireSameBytes(t, v.Name+" "+name+" values", stm, gen.Values(bits, stm), gen.Values(ref, stm))
				requireSameBytes(t, v.Name+" "+name+" distances to zeroing", stm, gen.DTZs(bits, stm), gen.DTZs(ref, stm))
			}
		}
	}
}

// requireSameBytes fails with the count and first of the entries that
// differ between got (bit-parallel) and want (per-entry).
func requireSameBytes(t *testing.T, what string, stm int, got, want []byte) {
	t.Helper()
	if bytes.Equal(got, want) {
		return
	}
	require.Len(t, got, len(want), what)
	diff, first := 0, -1
	for i := range got {
		if got[i] != want[i] {
			diff++
			if first < 0 {
				first = i
			}
		}
	}
	t.Fatalf("%s, stm %d: %d entries differ, first %d: bit-parallel %d, per-entry %d", what, stm, diff, first, got[first], want[first])
}
