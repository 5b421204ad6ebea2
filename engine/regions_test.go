package engine_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestRegionGamesLegalityMatchesMaking plays random games of the games
// with regions, cannons, lame leapers and the generals' rules, and checks
// at every ply that the legal moves (tested on the board, or not at all
// off the royal piece's lines) are exactly those that, made, leave the
// mover safe; and that make/unmake restores the key.
func TestRegionGamesLegalityMatchesMaking(t *testing.T) {
	games := 30
	if testing.Short() {
		games = 8
	}
	for _, name := range []string{"xiangqi", "minixiangqi", "makruk", "janggi"} {
		v := lookup(t, name)
		rng := rand.New(rand.NewPCG(11, 12))
		for g := 0; g < games; g++ {
			p := v.StartPosition()
			for ply := 0; ply < 160; ply++ {
				fast := p.LegalMoves(nil)
				if _, over := p.ImmediateEnd(); over {
					require.Empty(t, fast, "%s: the game is over: %s", name, p.FEN())
					break
				}
				slow := p.LegalMovesByMaking(nil)
				slices.Sort(fast)
				slices.Sort(slow)
				require.Equal(t, slow, fast, "%s: %s", name, p.FEN())
				if len(fast) == 0 {
					break
				}
				p.Make(fast[rng.IntN(len(fast))])
				require.Equal(t, p.ComputeKey(), p.Key(), "%s: %s", name, p.FEN())
			}
		}
	}
}

// TestFlyingGeneral: a piece between the generals is pinned to the file,
// and a general may not step onto a file the other one sees down.
func TestFlyingGeneral(t *testing.T) {
	v := lookup(t, "xiangqi")
	p, err := v.ParseFEN("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1")
	require.NoError(t, err)
	for _, m := range p.LegalMoves(nil) {
		require.NotEqual(t, "d1e1", v.UCI(m), "the general may not face the other")
	}
	p, err = v.ParseFEN("4k4/9/9/9/9/9/9/9/4N4/4K4 w - - 0 1")
	require.NoError(t, err)
	for _, m := range p.LegalMoves(nil) {
		require.Equal(t, "e1", m.From().String(), "the horse shields the generals: %s", v.UCI(m))
	}
	_, err = v.ParseFEN("4k4/9/9/9/9/9/9/9/9/4K4 b - - 0 1")
	require.Error(t, err, "facing generals: the side that moved left its general attacked")
}
