package compare_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/internal/compare"
	"github.com/chimera-chess/chimera/variants"
)

// syzygyDir holds python-chess's Syzygy tables of three and four pieces.
var syzygyDir = filepath.Join("..", "..", "tablebase", "syzygy", "testdata", "regular")

// TestCompareSyzygy: with Syzygy's tables as perfect play, a modest
// depth mates KQvK, and the rows add up. In KQvK mate is the only zeroing
// move, so Syzygy's perfect play is the shortest mate: its length is the
// distance to mate of Chimera's own table, and nobody beats it.
func TestCompareSyzygy(t *testing.T) {
	v := variants.Chess()
	perfect, err := compare.OpenSyzygy([]string{syzygyDir}, v, "KvKQ")
	require.NoError(t, err)
	defer perfect.Close()
	require.Equal(t, "KQvK", perfect.Material.String(), "the stronger side White")

	const positions = 4
	c := &compare.Comparison{Perfect: perfect, Positions: positions, Seed: 3, MaxMoves: 80,
		Settings: []compare.Setting{{Depth: 1}, {Depth: 3}}}
	rows, err := c.Run(context.Background())
	require.NoError(t, err)
	require.Len(t, rows, 2)
	for _, r := range rows {
		require.Equal(t, positions, r.Games)
		require.LessOrEqual(t, r.Mated+r.Blunders, r.Games)
		require.LessOrEqual(t, r.MatedIn50, r.Mated)
		require.Positive(t, r.Moves)
		require.LessOrEqual(t, r.OptimalMoves, r.Moves)
		require.GreaterOrEqual(t, r.MovesUsed, r.MovesOptimal, "nobody beats the shortest mate")
	}
	require.Positive(t, rows[1].Mated, "depth 3 mates with a queen")

	// The same starts, valued by Chimera's own table.
	store, tb := kqvk(t, v)
	own := &compare.OwnTables{Table: tb, Store: store}
	starts, err := perfect.Starts(positions, 3)
	require.NoError(t, err)
	require.Len(t, starts, positions)
	for _, p := range starts {
		lost, err := own.Lost(p)
		require.NoError(t, err)
		require.False(t, lost, "White to move wins: %s", p.FEN())
		theirs, err := perfect.Optimum(p)
		require.NoError(t, err)
		ours, err := own.Optimum(p)
		require.NoError(t, err)
		require.Equal(t, ours, theirs, p.FEN())
		best, err := perfect.Best(p)
		require.NoError(t, err)
		ownBest, err := own.Best(p)
		require.NoError(t, err)
		require.ElementsMatch(t, ownBest, best, "DTZ-optimal is DTM-optimal where mate is the only zeroing move: %s", p.FEN())
	}
}

// TestCompareSyzygyRefused: a material whose tables (or those it leads to) are
// not there, and a variant other than chess, are refused by name.
func TestCompareSyzygyRefused(t *testing.T) {
	v := variants.Chess()
	_, err := compare.OpenSyzygy([]string{syzygyDir}, v, "KQRvKR")
	require.ErrorContains(t, err, "KQRvKR.rtbw is in none of "+syzygyDir)

	// KQvKR's files alone: its captures lead to KQvK and KRvK.
	dir := t.TempDir()
	for _, name := range []string{"KQvKR.rtbw", "KQvKR.rtbz", "KRvK.rtbw", "KRvK.rtbz"} {
		data, err := os.ReadFile(filepath.Join(syzygyDir, name))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), data, 0o644))
	}
	_, err = compare.OpenSyzygy([]string{dir}, v, "KQvKR")
	require.ErrorContains(t, err, "KQvK.rtbw, which KQvKR leads to, is in none of")
	// A second directory completes the set.
	perfect, err := compare.OpenSyzygy([]string{dir, syzygyDir}, v, "KQvKR")
	require.NoError(t, err)
	require.NoError(t, perfect.Close())

	_, err = compare.OpenSyzygy([]string{syzygyDir}, v, "KPvKX")
	require.ErrorContains(t, err, "no piece")
	_, err = compare.OpenSyzygy([]string{syzygyDir}, v, "KQQQvKQQQ")
	require.ErrorContains(t, err, "at most 7")

	shatranj, err := variants.Builtin().Lookup("shatranj")
	require.NoError(t, err)
	_, err = compare.OpenSyzygy([]string{syzygyDir}, shatranj, "KRvK")
	require.ErrorContains(t, err, "Syzygy's tables are of chess, not shatranj")
}
