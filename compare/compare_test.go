package compare_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/compare"
	"github.com/chimera-chess/chimera/tablebase"
	"github.com/chimera-chess/chimera/variants"
)

// TestComparison: plain search converts KQvK at depth 6 but wanders at
// depth 1, and the rows add up.
func TestComparison(t *testing.T) {
	v := variants.Chess()
	store := tablebase.NewStore(t.TempDir())
	m, err := tablebase.ParseMaterial(v, "KQvK")
	require.NoError(t, err)
	tb, err := store.Build(v, m, tablebase.Hooks{})
	require.NoError(t, err)
	c := &compare.Comparison{Table: tb, Store: store, Positions: 10, Seed: 3, MaxMoves: 80,
		Settings: []compare.Setting{{Depth: 1}, {Depth: 6}}}
	rows, err := c.Run(context.Background())
	require.NoError(t, err)
	require.Len(t, rows, 2)
	for _, r := range rows {
		require.Equal(t, 10, r.Games)
		require.LessOrEqual(t, r.MatedIn50, r.Mated)
		require.LessOrEqual(t, r.OptimalMoves, r.Moves)
		require.GreaterOrEqual(t, r.MovesUsed, r.MovesOptimal, "nobody beats the tablebase")
	}
	require.GreaterOrEqual(t, rows[1].Mated, 8, "depth 6 mates with a queen")
	require.Greater(t, rows[1].Mated, rows[0].Mated)
	for _, p := range tablebase.RandomWins(tb, 5, 9) {
		r, err := tb.Probe(p)
		require.NoError(t, err)
		require.Equal(t, 1, r.WDL)
	}
}
