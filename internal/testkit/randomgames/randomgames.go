// Package randomgames plays random games for tests that want many varied,
// legal positions of a variant (the evaluation's symmetry and trace
// tests, the tuner's samples): reproducible from a seed, ended early by a
// mate, a stalemate or any other end the variant's rules declare.
package randomgames

import (
	"math/rand/v2"

	"github.com/chimera-chess/chimera/engine"
)

// Positions plays games random games of v from its start, at most plies
// moves each, and returns a copy of every position reached after a move.
func Positions(v *engine.Variant, games, plies int, seed uint64) []*engine.Position {
	rng := rand.New(rand.NewPCG(seed, 1))
	var out []*engine.Position
	for range games {
		p := v.StartPosition()
		for range plies {
			moves := p.LegalMoves(nil)
			if len(moves) == 0 || p.Result().Over() {
				break
			}
			p.Make(moves[rng.IntN(len(moves))])
			out = append(out, p.Clone())
		}
	}
	return out
}
