package nnue_test

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/nnue"
	"github.com/chimera-chess/chimera/variants"
)

// TestTrackerMatchesRefresh plays random games of every built-in variant
// (captures, promotions, drops, captures to hand, explosions, gating)
// and, after every move, asks the tracker for the position's score, which
// must be the network's score computed afresh (the output bucket too); stepping back a move, and
// into a sibling, must give the same.
func TestTrackerMatchesRefresh(t *testing.T) {
	games, plies := 2, 120
	if testing.Short() {
		games, plies = 1, 60
	}
	cat := variants.Builtin()
	for i, name := range cat.Names() {
		v, err := cat.Lookup(name)
		require.NoError(t, err)
		net := randomNetwork(v, 8, 4, i%2 == 0) // SCReLU and CReLU, output buckets by pieces

		l := nnue.NewLayout(v)
		rng := rand.New(rand.NewPCG(7, uint64(len(name))))
		for range games {
			p := v.StartPosition()
			tr := nnue.NewTracker(net, v)
			tr.Reset(p)
			for ply := range plies {
				moves := p.LegalMoves(nil)
				if len(moves) == 0 || p.Result().Over() {
					break
				}
				if ply%3 == 0 {
					// A sibling first: entered, evaluated, left.
					p.Make(moves[rng.IntN(len(moves))])
					tr.Push(p)
					// The FEN is written only on failure: formatting it
					// for every position compared cost as much as the
					// comparison.
					if want, got := net.Evaluate(l, p), tr.Evaluate(p); want != got {
						require.Equal(t, want, got, "%s %s: a sibling", name, p.FEN())
					}
					p.Unmake()
					tr.Pop()
				}
				p.Make(moves[rng.IntN(len(moves))])
				tr.Push(p)
				if ply%2 == 0 { // lazily: every other position is evaluated
					if want, got := net.Evaluate(l, p), tr.Evaluate(p); want != got {
						require.Equal(t, want, got, "%s %s", name, p.FEN())
					}
				}
			}
			require.Equal(t, net.Evaluate(l, p), tr.Evaluate(p), "%s %s: the game's end", name, p.FEN())
		}
	}
}
