package variants_test

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/variants"
)

// TestRandomGamesEnd plays random legal games of every built-in variant:
// none may panic, make/unmake must keep the key exact, and each game ends
// by one of the variant's rules or at the move limit. Under -short one
// game a variant: every variant is still played, and engine's random
// games (TestIsLegal, TestPieceActivity) play every variant too.
func TestRandomGamesEnd(t *testing.T) {
	games := 100
	if testing.Short() {
		games = 1
	}
	for _, name := range variants.Names() {
		t.Run(name, func(t *testing.T) {
			v, err := variants.Lookup(name)
			require.NoError(t, err)
			rng := rand.New(rand.NewPCG(7, uint64(len(name))))
			buf := make([]engine.Move, 0, engine.MaxMoves)
			ended := 0
			for g := 0; g < games; g++ {
				p := v.StartPosition()
				for ply := 0; ply < 400; ply++ {
					r := p.Result()
					moves := p.LegalMoves(buf)
					if r.Over() {
						ended++
						require.NotEqual(t, "*", r.PGN())
						break
					}
					// The FEN is written only on failure: formatting it
					// twice a move cost as much as the rest of a move.
					if len(moves) == 0 {
						require.NotEmpty(t, moves, "an ongoing game has moves: %s", p.FEN())
					}
					m := moves[rng.IntN(len(moves))]
					san := p.SAN(m)
					require.NotEmpty(t, san)
					p.Make(m)
					if err := p.CheckConsistency(); err != nil {
						require.NoError(t, err, "%s after %s", p.FEN(), v.UCI(m))
					}
				}
				// Unmake all the way: back to the start.
				for p.Ply() > 0 {
					p.Unmake()
				}
				require.Equal(t, v.StartPosition().FEN(), p.FEN())
			}
			t.Logf("%s: %d of %d random games ended by a rule", name, ended, games)
		})
	}
}
