package engine_test

import (
	"bytes"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/variants"
)

// TestMakeUnmakeRestoresEverything plays random games and, in every
// position, makes and unmakes each legal move: the position must come back
// field for field, and the incremental key must always equal the key
// computed from scratch.
func TestMakeUnmakeRestoresEverything(t *testing.T) {
	games := 300
	if testing.Short() {
		games = 4
	}
	v := variants.Chess()
	rng := rand.New(rand.NewPCG(3, 4))
	buf := make([]engine.Move, 0, engine.MaxMoves)
	for g := 0; g < games; g++ {
		p := v.StartPosition()
		for ply := 0; ply < 250; ply++ {
			before := p.Snapshot()
			moves := p.LegalMoves(buf)
			if len(moves) == 0 {
				break
			}
			for _, m := range moves {
				// The move is written out only on failure, which keeps the
				// check of every move cheap.
				p.Make(m)
				if p.ComputeKey() != p.Key() {
					require.Equal(t, p.ComputeKey(), p.Key(), "key after %s", v.UCI(m))
				}
				p.Unmake()
				if after := p.Snapshot(); !sameMemory(&before, &after) {
					require.Equal(t, before, after, "state after unmaking %s", v.UCI(m))
				}
			}
			p.Make(moves[rng.IntN(len(moves))])
		}
		for p.Ply() > 0 {
			p.Unmake()
			require.Equal(t, p.ComputeKey(), p.Key())
		}
		require.Equal(t, variants.ChessFEN, p.FEN(), "unmaking a whole game returns to the start")
	}
}

// sameMemory reports whether two snapshots hold the same bytes. Then they
// are equal field for field (their history slices are nil, and no field
// is a float); when they are not, require.Equal compares them field by
// field, which is the judge. Comparing every snapshot by reflection took
// most of the test's time.
func sameMemory(a, b *engine.Position) bool {
	n := unsafe.Sizeof(*a)
	return bytes.Equal(unsafe.Slice((*byte)(unsafe.Pointer(a)), n), unsafe.Slice((*byte)(unsafe.Pointer(b)), n))
}

// TestKeyIdentifiesPositionNotPath: reaching a position by transposition
// gives the same key, and the key covers side, castling and en passant.
func TestKeyIdentifiesPositionNotPath(t *testing.T) {
	v := variants.Chess()
	play := func(fen string, moves ...string) *engine.Position {
		p, err := v.ParseFEN(fen)
		require.NoError(t, err)
		for _, s := range moves {
			m, err := p.ParseUCI(s)
			require.NoError(t, err)
			p.Make(m)
		}
		return p
	}
	a := play(variants.ChessFEN, "g1f3", "g8f6", "b1c3", "b8c6")
	b := play(variants.ChessFEN, "b1c3", "b8c6", "g1f3", "g8f6")
	require.Equal(t, a.Key(), b.Key())
	require.Equal(t, a.FEN(), b.FEN())

	// Same placement, different castling rights: different keys.
	c := play(variants.ChessFEN, "g1f3", "g8f6", "h1g1", "h8g8", "g1h1", "g8h8")
	d := play(variants.ChessFEN, "g1f3", "g8f6")
	require.NotEqual(t, c.Key(), d.Key())

	// An en-passant square is kept only where a capture is possible.
	e := play(variants.ChessFEN, "e2e4")
	require.Equal(t, engine.NoSquare, e.EnPassant())
	f := play("4k3/8/8/8/5p2/8/4P3/4K3 w - - 0 1", "e2e4")
	require.Equal(t, "e3", f.EnPassant().String())
	require.Contains(t, f.FEN(), " e3 ")
}

// TestPieceCount: both sides' pieces on the board, kings included, kept
// through a capture and its unmaking; pieces in hand are not on the board.
func TestPieceCount(t *testing.T) {
	v := variants.Chess()
	p, err := v.ParseFEN("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1")
	require.NoError(t, err)
	require.Equal(t, 4, p.PieceCount())
	m, err := p.ParseUCI("e4d5")
	require.NoError(t, err)
	p.Make(m)
	require.Equal(t, 3, p.PieceCount())
	p.Unmake()
	require.Equal(t, 4, p.PieceCount())
	zh, err := variants.Lookup("crazyhouse")
	require.NoError(t, err)
	q, err := zh.ParseFEN("4k3/8/8/8/8/8/8/4K3[QRp] w - - 0 1")
	require.NoError(t, err)
	require.Equal(t, 2, q.PieceCount())
}
