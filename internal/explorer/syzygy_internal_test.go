package explorer

import (
	"path/filepath"
	"testing"

	"github.com/chimera-chess/chimera/tablebase/syzygy"
	"github.com/chimera-chess/chimera/variants"
	"github.com/stretchr/testify/require"
)

// TestSyzygyDisagreementIsLogged: a value of Chimera's that Syzygy's
// tables contradict is logged with the position and both answers; one
// they confirm is not.
func TestSyzygyDisagreementIsLogged(t *testing.T) {
	tables, err := syzygy.Open(filepath.Join("..", "..", "tablebase", "syzygy", "testdata", "regular"))
	require.NoError(t, err)
	defer tables.Close()
	var logged []string
	s := &Server{cfg: Config{Syzygy: tables, Log: func(l string) { logged = append(logged, l) }}}
	p, err := variants.Chess().ParseFEN("8/8/8/3k4/8/8/8/KQ6 w - - 0 1")
	require.NoError(t, err)
	s.checkSyzygy(p, 0, Value{Category: categoryWin})
	require.Empty(t, logged)
	s.checkSyzygy(p, 0, Value{Category: categoryDraw})
	require.Equal(t, []string{"explorer: tablebase disagreement at 8/8/8/3k4/8/8/8/KQ6 w - - 0 1: Chimera's table says draw, Syzygy's win; serving Chimera's"}, logged)
}
