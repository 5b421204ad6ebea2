package engine_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/variants"
)

// TestIsLegal plays random games of every built-in variant and asks IsLegal
// about each legal move, each pseudo-legal one, and moves of the positions
// before (stale table moves): it must agree with LegalMoves. A move
// IsLegalCapture accepts must be among LegalCaptures.
func TestIsLegal(t *testing.T) {
	games, plies := 3, 80
	if testing.Short() {
		games, plies = 1, 60
	}
	cat := variants.Builtin()
	for _, name := range cat.Names() {
		v, err := cat.Lookup(name)
		require.NoError(t, err)
		rng := rand.New(rand.NewPCG(11, uint64(len(name))))
		for range games {
			p := v.StartPosition()
			var stale []engine.Move // moves seen earlier in the game
			for ply := 0; ply < plies; ply++ {
				legal := p.LegalMoves(nil)
				captures := p.LegalCaptures(nil)
				asked := append(append(p.PseudoLegalMoves(nil), legal...), stale...)
				for _, m := range asked {
					// The FEN is written only on failure: formatting it for
					// every move asked took most of the test's time.
					if want, got := slices.Contains(legal, m), p.IsLegal(m); want != got {
						require.Equal(t, want, got, "%s %s: IsLegal(%s)", name, p.FEN(), v.UCI(m))
					}
					if p.IsLegalCapture(m) && !slices.Contains(captures, m) {
						require.Contains(t, captures, m, "%s %s: IsLegalCapture(%s)", name, p.FEN(), v.UCI(m))
					}
				}
				require.False(t, p.IsLegal(engine.NoMove))
				if len(legal) == 0 || p.Result().Over() {
					break
				}
				stale = append(stale, legal[rng.IntN(len(legal))], legal[rng.IntN(len(legal))])
				if len(stale) > 40 {
					stale = stale[len(stale)-40:]
				}
				p.Make(legal[rng.IntN(len(legal))])
			}
		}
	}
}
