package nnue_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/nnue"
	"github.com/chimera-chess/chimera/variants"
)

// TestLayoutInputsAreDistinct: in every built-in variant each (piece,
// square) and each (piece, count) in hand is an input of its own within
// Inputs, and Black's view of a position is White's view of its mirror.
func TestLayoutInputsAreDistinct(t *testing.T) {
	cat := variants.Builtin()
	for _, name := range cat.Names() {
		v, err := cat.Lookup(name)
		require.NoError(t, err)
		l := nnue.NewLayout(v)
		seen := make([]bool, l.Inputs())
		// The checks of every input call testify only on failure: its
		// calls for each piece on each square of every variant took
		// half of the test's time.
		mark := func(i int) {
			if i < 0 || i >= len(seen) {
				require.Fail(t, "outside", "%s: input %d outside %d", name, i, len(seen))
			}
			if seen[i] {
				require.Fail(t, "twice", "%s: input %d twice", name, i)
			}
			seen[i] = true
		}
		for typ := 1; typ <= len(v.Pieces); typ++ {
			for _, c := range []engine.Colour{engine.White, engine.Black} {
				pc := engine.MakePiece(typ, c)
				for r := range v.Height {
					for f := range v.Width {
						s := engine.SquareAt(f, r)
						mark(l.Board(engine.White, pc, s))
						mirror := engine.SquareAt(f, v.Height-1-r)
						if w, b := l.Board(engine.White, pc, s), l.Board(engine.Black, engine.MakePiece(typ, c.Other()), mirror); w != b {
							require.Equal(t, w, b, "%s: %v on %s", name, pc, s)
						}
					}
				}
				if v.HasHands() {
					for k := range nnue.MaxHandCount {
						mark(l.Hand(engine.White, pc, k))
					}
				}
			}
		}
		for i, ok := range seen {
			if !ok {
				require.Fail(t, "unused", "%s: input %d is never used", name, i)
			}
		}
	}
}
