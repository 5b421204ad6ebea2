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

// verify runs the verifier with children from a store.
func verify(t *testing.T, store *tablebase.Store, tb *tablebase.Table) gen.VerifyReport {
	t.Helper()
	rep, err := gen.Verify(tb, store.Finder(tablebase.Build), nil)
	require.NoError(t, err)
	return rep
}

// TestVerifyPassesGoodTables verifies the three-piece chess tables and,
// on a 4×4 board where they are small, four- and five-piece ones with
// riders on both sides (pins, interpositions, captures into smaller
// tables). The four-piece chess tables take about 15 s each: the README's
// loop over tb verify checks them all. A three-piece chess table takes
// seconds: under -short only KQvK (a rider of both kinds, wins and mates)
// is verified here, and on Gardner's 5×5 board, where it verifies in a
// thirtieth of chess's most of a second (so is KRvK, by TestCursedWins
// under a shorter move rule); KBvK's moves being the queen's diagonals.
// Under -short the 4×4 board's KRvKN stands in for its KRBvKN: a leaper
// against a rider, wins, draws and losses, captures into smaller tables,
// verified in a tenth of the five pieces' most of a second (which
// TestBitParallelMatchesPerEntry still generates both ways under -short).
func TestVerifyPassesGoodTables(t *testing.T) {
	store := gen.NewStore(t.TempDir())
	tiny := tbtest.Tiny(t)
	chess := variants.Chess()
	type table struct {
		v    *engine.Variant
		name string
	}
	threePieces, leaper := chess, "KRBvKN" // counting every three-piece placement is quick
	if testing.Short() {
		threePieces, leaper = variantNamed(t, "gardner"), "KRvKN"
	}
	tables := []table{{threePieces, "KQvK"}, {tiny, "KQvKR"}, {tiny, leaper}}
	if !testing.Short() {
		tables = append(tables, table{chess, "KNvK"}, table{chess, "KRvK"}, table{chess, "KBvK"}, table{tiny, "KRRvKR"}, table{tiny, "KQvKRB"})
	}
	for _, c := range tables {
		v, name := c.v, c.name
		m, err := tablebase.ParseMaterial(v, name)
		require.NoError(t, err)
		tb, err := store.Build(v, m, tablebase.Hooks{})
		require.NoError(t, err)
		rep := verify(t, store, tb)
		require.Empty(t, rep.Disagreements, name)
		require.Zero(t, rep.More, name)
		require.Positive(t, rep.Checked, name)
		if v == threePieces { // three pieces: counting every placement is quick
			// Each legal position up to symmetry once: no more than all
			// of them, at least an eighth.
			st0, st1 := tb.Stats(0, nil), tb.Stats(1, nil)
			require.LessOrEqual(t, rep.Checked, st0.Legal+st1.Legal, name)
			require.GreaterOrEqual(t, rep.Checked*8, st0.Legal+st1.Legal, name)
		}
	}
}

// TestVerifyFindsErrors damages one value of each kind and expects the
// verifier to name it, in chess's KRvK or, under -short, in the 4×4
// board's, whose few thousand positions verify in milliseconds where
// chess's take seconds (the same kinds of damage; a win there lasts at
// most 13 plies).
func TestVerifyFindsErrors(t *testing.T) {
	v, win := variants.Chess(), 15
	if testing.Short() {
		v, win = tbtest.Tiny(t), 13
	}
	m, err := tablebase.ParseMaterial(v, "KRvK")
	require.NoError(t, err)
	for _, c := range []struct {
		stm      int
		from, to tablebase.Result
	}{
		{0, tablebase.Result{WDL: 1, DTM: win}, tablebase.Result{WDL: 1, DTM: win - 2}}, // a win too short
		{0, tablebase.Result{WDL: 1, DTM: 7}, tablebase.Result{}},                       // a win called a draw
		{1, tablebase.Result{WDL: -1, DTM: -8}, tablebase.Result{WDL: -1, DTM: -10}},
		{1, tablebase.Result{WDL: -1, DTM: 0}, tablebase.Result{}}, // checkmate called a draw
	} {
		store := gen.NewStore(t.TempDir())
		tb, err := store.Build(v, m, tablebase.Hooks{})
		require.NoError(t, err)
		tb, err = tb.Dense() // its entries in memory, to damage
		require.NoError(t, err)
		require.True(t, gen.Corrupt(tb, c.stm, c.from, c.to))
		rep := verify(t, store, tb)
		require.NotEmpty(t, rep.Disagreements, "%v -> %v", c.from, c.to)
		found := false
		for _, d := range rep.Disagreements {
			found = found || (d.Stored == c.to && !d.Illegal)
		}
		require.True(t, found, "%v -> %v: %v", c.from, c.to, rep.Disagreements)
	}
}
