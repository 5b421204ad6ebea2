package session

import (
	"path/filepath"
	"testing"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/tablebase/syzygy"
	"github.com/chimera-chess/chimera/variants"
	"github.com/stretchr/testify/require"
)

// fixedProber answers every position with one result, as a wrong table
// would.
type fixedProber struct{ wdl int }

func (f fixedProber) Probe(*engine.Position, bool) (int, int, engine.Move, bool) {
	return f.wdl, 0, engine.NoMove, true
}

// TestTablesDisagreeAloud: where the engine's own table and Syzygy's
// give a root different results, the GUI is told, and the own table's
// answer is the one played; where they agree nothing is said.
func TestTablesDisagreeAloud(t *testing.T) {
	tables, err := syzygy.Open(filepath.Join("..", "..", "tablebase", "syzygy", "testdata", "regular"))
	require.NoError(t, err)
	defer tables.Close()
	var said []string
	won, err := variants.Chess().ParseFEN("8/8/8/3k4/8/8/8/KQ6 w - - 0 1")
	require.NoError(t, err)
	for _, c := range []struct {
		own   int
		words int
	}{{own: 1, words: 0}, {own: 0, words: 1}, {own: -1, words: 2}} {
		p := &checkedProber{own: fixedProber{c.own}, syzygy: &syzygyProber{tables: tables, limit: 4, depth: 1, rule50: true},
			fiftyMove: true, report: func(s string) { said = append(said, s) }}
		wdl, _, _, ok := p.Probe(won, true)
		require.True(t, ok)
		require.Equal(t, c.own, wdl, "the own table's answer is kept")
		require.Len(t, said, c.words)
		_, _, _, _ = p.Probe(won, false) // inside the tree: no check
		require.Len(t, said, c.words)
	}
	require.Contains(t, said[0], "tablebase disagreement at 8/8/8/3k4/8/8/8/KQ6 w - - 0 1: Chimera's table says draw, Syzygy's win")
}
