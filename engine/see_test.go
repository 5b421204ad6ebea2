package engine_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/variants"
)

// seeValues are the classic 1/3/3/5/9 values, in pawns, for chess's piece
// codes, with the king dearer than anything it could win.
func seeValues(t *testing.T, v *engine.Variant) *[64]int {
	t.Helper()
	var values [64]int
	for letter, val := range map[byte]int{'P': 1, 'N': 3, 'B': 3, 'R': 5, 'Q': 9, 'K': 100} {
		typ := v.TypeByLetter(letter)
		require.NotZero(t, typ, string(letter))
		values[engine.MakePiece(typ, engine.White)] = val
		values[engine.MakePiece(typ, engine.Black)] = val
	}
	return &values
}

func TestSEE(t *testing.T) {
	v := variants.Chess()
	values := seeValues(t, v)
	for _, tc := range []struct {
		fen, move string
		want      int
	}{
		{"4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5", 1},                 // a free pawn
		{"4k3/8/2p5/3p4/4P3/8/8/4K3 w - - 0 1", "e4d5", 0},               // pawn for pawn
		{"4k3/8/2p5/3p4/8/8/8/3QK3 w - - 0 1", "d1d5", 1 - 9},            // queen lost for a pawn
		{"4k3/8/8/3r4/8/8/3R4/3RK3 w - - 0 1", "d2d5", 5},                // rook free: the battery is never needed
		{"3rk3/3r4/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5", 1 - 5 + 5 - 5}, // x-rays on both sides: RxP RxR RxR RxR, four rooks gone
		{"4k3/8/2b5/3p4/8/8/6B1/3QK3 w - - 0 1", "g2d5", 1},              // BxP BxB QxB: up a pawn
		{"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "e5d6", 1},                 // en passant
		{"4k3/8/4n3/8/8/8/8/4K2R w - - 0 1", "h1h8", 0},                  // a quiet move gains nothing
		{"2r1k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7c8q", 5 + 9 - 1},        // takes and promotes, unanswered
		{"2rk4/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7c8q", 5 + 9 - 1 - 9},     // the king takes the new queen
		{"3k4/8/8/3p4/8/8/8/3RK3 b - - 0 1", "d8d7", 0},                  // quiet
		{"4k3/8/8/3q4/8/4P3/8/4K3 b - - 0 1", "d5e4", 0},                 // not a capture
		{"4k3/8/8/8/3p4/3K4/8/8 w - - 0 1", "d3d4", 1},                   // the king takes a free pawn
	} {
		p, err := v.ParseFEN(tc.fen)
		require.NoError(t, err)
		m, err := p.ParseUCI(tc.move)
		require.NoError(t, err, tc.move)
		before := p.FEN()
		require.Equal(t, tc.want, p.SEE(m, values), "%s %s", tc.fen, tc.move)
		require.Equal(t, before, p.FEN(), "SEE leaves the board as it was")
		require.NoError(t, p.CheckConsistency())
	}
}

// TestSEEHopper: a grasshopper recaptures over the hurdle next to the
// target square, and loses that hurdle's cover when it goes.
func TestSEEHopper(t *testing.T) {
	v, err := variants.Lookup("grasshopper")
	require.NoError(t, err)
	values := seeValues(t, v)
	values[engine.MakePiece(v.TypeByLetter('G'), engine.White)] = 2
	values[engine.MakePiece(v.TypeByLetter('G'), engine.Black)] = 2
	for fen, want := range map[string]int{
		"4k3/3g4/3p4/3p4/8/8/8/3RK3 w - - 0 1": 1 - 5, // G d7 hops d6, takes on d5
		"4k3/3g4/8/3p4/8/8/8/3RK3 w - - 0 1":   1,     // no hurdle next to d5: no recapture
	} {
		p, err := v.ParseFEN(fen)
		require.NoError(t, err)
		m, err := p.ParseUCI("d1d5")
		require.NoError(t, err)
		require.Equal(t, want, p.SEE(m, values), fen)
	}
}
