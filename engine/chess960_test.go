package engine_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/engine"
)

func chess960(t testing.TB) *engine.Variant { return lookup(t, "chess960") }

// TestChess960CastlingFields: X-FEN and Shredder-FEN castling rights are
// read alike and written back in either form.
func TestChess960CastlingFields(t *testing.T) {
	v := chess960(t)
	for _, tc := range []struct{ in, xfen, shredder string }{
		{"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 0 1", "KQkq", "HFhf"},
		{"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 0 1", "KQkq", "HFhf"},
		{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "KQkq", "HAha"},
		// An inner rook is named by its file in X-FEN too.
		{"1r2k1rr/pppppppp/8/8/8/8/PPPPPPPP/RR2K2R w BHbg - 0 1", "KBgq", "HBgb"},
	} {
		p, err := v.ParseFEN(tc.in)
		require.NoError(t, err, tc.in)
		require.Equal(t, tc.xfen, strings.Fields(p.FEN())[2], tc.in)
		require.Equal(t, tc.shredder, strings.Fields(p.ShredderFEN())[2], tc.in)
		for _, out := range []string{p.FEN(), p.ShredderFEN()} {
			q, err := v.ParseFEN(out)
			require.NoError(t, err, out)
			require.Equal(t, p.Key(), q.Key(), out)
			require.Equal(t, p.FEN(), q.FEN())
		}
	}
	for _, bad := range []string{
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w C - 0 1",  // no rook on c1
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQK2R w KQX - 0 1", // not a file of the board
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HH - 0 1", // twice
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w KQ - 0 1", // no king
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w E - 0 1",  // the king's own file
	} {
		_, err := v.ParseFEN(bad)
		require.Error(t, err, bad)
	}
}

// TestChess960CastlingMoves: castling from any array ends on the usual
// squares, is written as the king taking its rook, and is read in that
// form; the king may stay where it is, or land on its rook's square.
func TestChess960CastlingMoves(t *testing.T) {
	v := chess960(t)
	for _, tc := range []struct{ fen, uci, after string }{
		// King g1 stays, rook h1 to f1.
		{"4k3/8/8/8/8/8/8/6KR w K - 0 1", "g1h1", "4k3/8/8/8/8/8/8/5RK1 b - - 1 1"},
		// King b1 to c1, rook a1 to d1.
		{"4k3/8/8/8/8/8/8/RK6 w Q - 0 1", "b1a1", "4k3/8/8/8/8/8/8/2KR4 b - - 1 1"},
		// King f1 to c1 over the b1 rook's destination, rook b1 to d1.
		{"4k3/8/8/8/8/8/8/1R3K2 w Q - 0 1", "f1b1", "4k3/8/8/8/8/8/8/2KR4 b - - 1 1"},
		// King d1 and rook c1 swap places.
		{"4k3/8/8/8/8/8/8/2RK4 w Q - 0 1", "d1c1", "4k3/8/8/8/8/8/8/2KR4 b - - 1 1"},
	} {
		p, err := v.ParseFEN(tc.fen)
		require.NoError(t, err, tc.fen)
		m, err := p.ParseUCI(tc.uci)
		require.NoError(t, err, tc.fen)
		require.Equal(t, engine.Castle, m.Kind(), tc.fen)
		require.Equal(t, tc.uci, v.UCI(m))
		key := p.Key()
		p.Make(m)
		require.Equal(t, tc.after, p.FEN(), tc.fen)
		require.Equal(t, p.ComputeKey(), p.Key())
		p.Unmake()
		require.Equal(t, key, p.Key())
		require.Equal(t, tc.fen, p.FEN())
	}
	// Castling out of check, through or onto an attacked square is
	// illegal; attacks elsewhere do not matter.
	for fen, legal := range map[string]bool{
		"4kr2/8/8/8/8/8/8/R3K3 w Q - 0 1":  true,  // the f-file is not on the path
		"3rk3/8/8/8/8/8/8/R3K3 w Q - 0 1":  false, // d1 crossed, attacked
		"4r1k1/8/8/8/8/8/8/R3K3 w Q - 0 1": false, // in check
		"4k3/b7/8/8/8/8/8/5KR1 w K - 0 1":  false, // g1, where the king lands, attacked
		"4k3/8/7b/8/8/8/8/5KR1 w K - 0 1":  true,  // f1-g1 swap, nothing attacked
		"4k3/8/8/8/8/8/8/R2bK3 w Q - 0 1":  false, // a piece between
	} {
		p, err := v.ParseFEN(fen)
		require.NoError(t, err, fen)
		has := false
		for _, m := range p.LegalMoves(nil) {
			has = has || m.Kind() == engine.Castle
		}
		require.Equal(t, legal, has, fen)
	}
}
