package syzygy_test

import (
	"slices"
	"testing"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/tablebase/syzygy"
	"github.com/chimera-chess/chimera/variants"
	"github.com/stretchr/testify/require"
)

// TestChooseConvertsWins plays won positions of every material out with
// both sides choosing by the tables (the winner the fastest way to its
// next zeroing move, the loser the slowest): every game ends in mate
// before the fifty-move rule can draw it, and the loser never finds a
// way out. It is the reader's values and Choose together that must be
// right: a wrong distance anywhere would let the rule draw or the
// winner wander.
func TestChooseConvertsWins(t *testing.T) {
	tb, err := syzygy.Open(regularDir)
	require.NoError(t, err)
	defer tb.Close()
	perMaterial := map[string]int{}
	played := 0
	for _, c := range readOracle(t) {
		material := materialOf(c.fen)
		if c.wdl != syzygy.Win || perMaterial[material] >= 3 {
			continue
		}
		perMaterial[material]++
		played++
		pos, err := variants.Chess().ParseFEN(c.fen)
		require.NoError(t, err)
		winner := pos.SideToMove()
		for ply := 0; ; ply++ {
			require.Less(t, ply, 1000, "%s: no end", c.fen)
			values, err := tb.MoveValues(pos)
			require.NoError(t, err, "%s after %d plies: %s", c.fen, ply, pos.FEN())
			if len(values) == 0 {
				require.True(t, pos.InCheck(), "%s: stalemate after %d plies: %s", c.fen, ply, pos.FEN())
				require.NotEqual(t, winner, pos.SideToMove(), "%s: the winner is mated", c.fen)
				break
			}
			outcome, move, _ := syzygy.Choose(values, pos.HalfmoveClock(), true)
			want := syzygy.OutcomeWin
			if pos.SideToMove() != winner {
				want = syzygy.OutcomeLoss
			}
			require.Equal(t, want, outcome, "%s after %d plies: %s", c.fen, ply, pos.FEN())
			require.NotEqual(t, engine.NoMove, move)
			pos.Make(move)
			require.Less(t, pos.HalfmoveClock(), 100, "%s: the fifty-move rule draws: %s", c.fen, pos.FEN())
		}
	}
	require.Greater(t, played, 40)
}

// TestChooseKeepsDraws: in a drawn position the moves Choose keeps all
// draw, and every other move loses.
func TestChooseKeepsDraws(t *testing.T) {
	tb, err := syzygy.Open(regularDir)
	require.NoError(t, err)
	defer tb.Close()
	checked := 0
	for _, c := range readOracle(t) {
		if c.wdl != syzygy.Draw || checked >= 200 {
			continue
		}
		pos, err := variants.Chess().ParseFEN(c.fen)
		require.NoError(t, err)
		values, err := tb.MoveValues(pos)
		require.NoError(t, err)
		if len(values) == 0 {
			continue // stalemate
		}
		checked++
		outcome, move, keep := syzygy.Choose(values, 0, true)
		require.Equal(t, syzygy.OutcomeDraw, outcome, c.fen)
		require.Equal(t, engine.NoMove, move)
		require.NotEmpty(t, keep)
		for _, mv := range values {
			kept := false
			for _, m := range keep {
				kept = kept || m == mv.Move
			}
			if kept {
				require.Equal(t, syzygy.Draw, mv.WDL, "%s: %v kept", c.fen, mv.Move)
			} else {
				require.Greater(t, mv.WDL, syzygy.Draw, "%s: %v left out", c.fen, mv.Move)
			}
		}
	}
	require.Greater(t, checked, 100)
}

// TestJudgeCountsTheClock: a win the move counter leaves too little room
// for is a cursed win, a loss a blessed one.
func TestJudgeCountsTheClock(t *testing.T) {
	win := syzygy.MoveValue{WDL: syzygy.Loss, DTZ: -20}
	o, plies := win.Judge(0)
	require.Equal(t, syzygy.OutcomeWin, o)
	require.Equal(t, 21, plies)
	o, _ = win.Judge(79) // 80 after the move, 20 more: exactly 100
	require.Equal(t, syzygy.OutcomeWin, o)
	o, _ = win.Judge(80)
	require.Equal(t, syzygy.OutcomeCursedWin, o)
	o, _ = syzygy.MoveValue{WDL: syzygy.Loss, DTZ: -20, Zeroing: true}.Judge(99)
	require.Equal(t, syzygy.OutcomeWin, o, "a zeroing move starts the count again")
	o, _ = syzygy.MoveValue{WDL: syzygy.Win, DTZ: 30}.Judge(90)
	require.Equal(t, syzygy.OutcomeBlessedLoss, o)
	require.Equal(t, 1, syzygy.OutcomeCursedWin.Result(false))
	require.Equal(t, 0, syzygy.OutcomeCursedWin.Result(true))
}

// materialOf returns the pieces of a FEN's board as a key (white's
// letters, then black's, each sorted), to sample each material.
func materialOf(fen string) string {
	var white, black []byte
	for i := 0; i < len(fen) && fen[i] != ' '; i++ {
		switch c := fen[i]; {
		case c >= 'A' && c <= 'Z':
			white = append(white, c)
		case c >= 'a' && c <= 'z':
			black = append(black, c)
		}
	}
	slices.Sort(white)
	slices.Sort(black)
	return string(white) + "v" + string(black)
}
