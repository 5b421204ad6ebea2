package compare_test

import (
	"context"
	"testing"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/internal/compare"
	"github.com/chimera-chess/chimera/tablebase"
	"github.com/chimera-chess/chimera/tablebase/gen"
	"github.com/chimera-chess/chimera/variants"
	"github.com/stretchr/testify/require"
)

// TestComparison: plain search converts KQvK at depth 6 but wanders at
// depth 1, and the rows add up. Under -short from 5 positions, not 10:
// the games at depth 6 are most of the test's time (all five mated, where
// depth 1 mates none).
func TestComparison(t *testing.T) {
	v := variants.Chess()
	store, tb := kqvk(t, v)
	positions := 10
	if testing.Short() {
		positions = 5
	}
	c := &compare.Comparison{Perfect: &compare.OwnTables{Table: tb, Store: store}, Positions: positions, Seed: 3, MaxMoves: 80,
		Settings: []compare.Setting{{Depth: 1}, {Depth: 6}}}
	rows, err := c.Run(context.Background())
	require.NoError(t, err)
	require.Len(t, rows, 2)
	for _, r := range rows {
		require.Equal(t, positions, r.Games)
		require.LessOrEqual(t, r.MatedIn50, r.Mated)
		require.LessOrEqual(t, r.OptimalMoves, r.Moves)
		require.GreaterOrEqual(t, r.MovesUsed, r.MovesOptimal, "nobody beats the tablebase")
	}
	require.GreaterOrEqual(t, rows[1].Mated, positions-2, "depth 6 mates with a queen")
	require.Greater(t, rows[1].Mated, rows[0].Mated)
	for _, p := range tablebase.RandomWins(tb, 5, 9) {
		r, err := tb.Probe(p)
		require.NoError(t, err)
		require.Equal(t, 1, r.WDL)
	}
}

// TestComparisonUnderTheRule: under a ten-move rule KRvK's long wins are
// cursed and are not start positions; a shallow search lets the rule take
// wins that perfect play converts, and the row counts them.
func TestComparisonUnderTheRule(t *testing.T) {
	cat := variants.Builtin()
	require.NoError(t, cat.Load("short.ini", []byte("[shortrule:chess]\nnMoveRule = 10\n")))
	v, err := cat.Lookup("shortrule")
	require.NoError(t, err)
	store := gen.NewStore(t.TempDir())
	m, err := tablebase.ParseMaterial(v, "KRvK")
	require.NoError(t, err)
	tb, err := store.Build(v, m, tablebase.Hooks{})
	require.NoError(t, err)
	starts := tablebase.RandomWinsInTime(tb, 20, 4)
	require.Len(t, starts, 20)
	for _, p := range starts {
		d, err := tb.ProbeDTZ(p)
		require.NoError(t, err)
		require.LessOrEqual(t, d, 20, p.FEN())
	}
	c := &compare.Comparison{Perfect: &compare.OwnTables{Table: tb, Store: store}, Positions: 8, Seed: 4, MaxMoves: 40, Catalogue: cat,
		Settings: []compare.Setting{{Depth: 1}}}
	rows, err := c.Run(context.Background())
	require.NoError(t, err)
	r := rows[0]
	require.Equal(t, 8, r.Games)
	require.Positive(t, r.RuleDrawn, "depth 1 wanders past the ten moves")
	require.LessOrEqual(t, r.RuleDrawn, r.Games)
}

// TestInterruptedComparison: when ctx ends, the rows hold the finished
// games alone: the game cut short was counted as a game not mated.
// Depth 6 mates every one of these positions, so a row whose games are
// not all mated counted one cut short. The interrupt comes when the first
// game ends, the other worker's game under way.
func TestInterruptedComparison(t *testing.T) {
	v := variants.Chess()
	store, tb := kqvk(t, v)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c := &compare.Comparison{Perfect: &compare.OwnTables{Table: tb, Store: store}, Positions: 4, Seed: 3, MaxMoves: 80,
		Settings: []compare.Setting{{Depth: 6}, {Depth: 1}},
		Progress: func(done, _ int) {
			if done == 1 {
				cancel()
			}
		}}
	rows, err := c.Run(ctx)
	require.ErrorIs(t, err, context.Canceled)
	require.Len(t, rows, 1, "the setting begun")
	require.Positive(t, rows[0].Games)
	require.Equal(t, rows[0].Games, rows[0].Mated, "only finished games, each mated")

	// Uninterrupted, depth 6 mates all four.
	c = &compare.Comparison{Perfect: &compare.OwnTables{Table: tb, Store: store}, Positions: 4, Seed: 3, MaxMoves: 80, Settings: []compare.Setting{{Depth: 6}}}
	rows, err = c.Run(context.Background())
	require.NoError(t, err)
	require.Equal(t, 4, rows[0].Mated)
}

// kqvk builds chess KQvK in a store of its own.
func kqvk(t *testing.T, v *engine.Variant) (*tablebase.Store, *tablebase.Table) {
	t.Helper()
	store := gen.NewStore(t.TempDir())
	m, err := tablebase.ParseMaterial(v, "KQvK")
	require.NoError(t, err)
	tb, err := store.Build(v, m, tablebase.Hooks{})
	require.NoError(t, err)
	return store, tb
}
