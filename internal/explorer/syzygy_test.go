package explorer_test

import (
	"path/filepath"
	"testing"

	"github.com/chimera-chess/chimera/internal/explorer"
	"github.com/chimera-chess/chimera/tablebase/syzygy"
	"github.com/chimera-chess/chimera/variants"
	"github.com/stretchr/testify/require"
)

// openSyzygy opens python-chess's 3–4 piece Syzygy tables of chess.
func openSyzygy(t *testing.T) *syzygy.Tables {
	t.Helper()
	tables, err := syzygy.Open(filepath.Join("..", "..", "tablebase", "syzygy", "testdata", "regular"))
	require.NoError(t, err)
	t.Cleanup(func() { tables.Close() })
	return tables
}

// TestSyzygyAnswersLikeLichess: with Syzygy's tables and none of its
// own, a server answers as lila-tablebase does from them: category and
// dtz for the position and every move (python-chess's numbers), no dtm,
// precise_dtz only for draws; nothing is built.
func TestSyzygyAnswersLikeLichess(t *testing.T) {
	srv := server(t, t.TempDir(), explorer.Config{Syzygy: openSyzygy(t), ReadOnly: true, ClientInterval: -1})
	a := probe(t, srv, "standard", "8/8/8/3k4/8/8/8/KBN5 w - - 0 1")
	require.Equal(t, "win", a.Category)
	require.Nil(t, a.DTM)
	require.Nil(t, a.PreciseDTZ)
	require.NotNil(t, a.DTZ)
	require.Equal(t, 58, *a.DTZ) // python-chess's probe_dtz
	require.Nil(t, a.Building)
	dtz := map[string]int{}
	for _, m := range a.Moves {
		require.NotNil(t, m.DTZ, m.UCI)
		dtz[m.UCI] = *m.DTZ
	}
	// python-chess's probe_dtz after each move.
	require.Equal(t, map[string]int{"c1d3": -57, "c1b3": -59, "c1e2": -57, "c1a2": -61, "b1h7": -59}, map[string]int{
		"c1d3": dtz["c1d3"], "c1b3": dtz["c1b3"], "c1e2": dtz["c1e2"], "c1a2": dtz["c1a2"], "b1h7": dtz["b1h7"]})
	require.Equal(t, "loss", a.Moves[0].Category, "the best move first")
	require.Contains(t, []string{"c1d3", "c1e2", "a1b2"}, a.Moves[0].UCI)

	// The clock counts: 50 plies gone, 58 more is a cursed win.
	cursed := probe(t, srv, "standard", "8/8/8/3k4/8/8/8/KBN5 w - - 50 80")
	require.Equal(t, "cursed-win", cursed.Category)

	draw := probe(t, srv, "standard", "8/8/8/3k4/8/2n5/8/KB6 w - - 0 1") // KBvKN
	require.Equal(t, "draw", draw.Category)
	require.NotNil(t, draw.PreciseDTZ)
	require.Equal(t, 0, *draw.PreciseDTZ)

	// Castling rights: the tables hold none; the position is known from
	// its moves (those that give the rights up are in the tables).
	castle := probe(t, srv, "standard", "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1")
	require.Equal(t, "win", castle.Category)
}

// TestSyzygyWithOwnTables: where Chimera has a table too, its dtm comes
// with the answer and its exact distances, and the two agree.
func TestSyzygyWithOwnTables(t *testing.T) {
	srv, store := newServer(t, "KRvK")
	tables := openSyzygy(t)
	for _, fen := range []string{"8/8/1k6/8/8/2K5/8/4R3 b - - 0 1", "8/8/1k6/8/8/2K5/8/4R3 w - - 0 1"} {
		own := probe(t, srv, "standard", fen)
		p, err := variants.Chess().ParseFEN(fen)
		require.NoError(t, err)
		both := explorer.ProbeWith(store, tables, p)
		require.Equal(t, own.Category, both.Category, fen)
		require.NotNil(t, both.DTM, "Chimera's dtm: %s", fen)
		require.Equal(t, *own.DTM, *both.DTM, fen)
		require.Equal(t, *own.DTZ, *both.DTZ, fen)
		syz := explorer.ProbeWith(nil, tables, p)
		require.Equal(t, own.Category, syz.Category, fen)
		require.Equal(t, *own.DTZ, *syz.DTZ, "Syzygy's dtz is Chimera's: %s", fen)
	}
}
