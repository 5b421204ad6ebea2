package engine_test

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/variants"
)

// TestPieceActivity plays random games in every built-in variant (boards
// of up to 64 squares count with masks, larger ones square by square) and
// checks, in every position, that the pieces' moves add up to Mobility,
// and that a side attacks a square of the zone around the enemy royal
// piece by PieceActivity exactly when the rules core's attack test says it
// attacks one (hoppers and cannons, whose zone attacks are not counted,
// left out).
func TestPieceActivity(t *testing.T) {
	games, plies := 4, 60
	if testing.Short() {
		games = 1
	}
	cat := variants.Builtin()
	for _, name := range cat.Names() {
		v, err := cat.Lookup(name)
		require.NoError(t, err)
		skipAttacks := false
		for _, pt := range v.Pieces {
			for _, a := range pt.Atoms {
				skipAttacks = skipAttacks || a.Kind == engine.Hop || a.Kind == engine.Cannon ||
					a.Kind == engine.Ride && (a.MoveOnly || a.CaptureOnly) // not counted in the zone
			}
			skipAttacks = skipAttacks || pt.Region != nil
		}
		rng := rand.New(rand.NewPCG(7, uint64(len(name))))
		for range games {
			p := v.StartPosition()
			for ply := 0; ply < plies; ply++ {
				checkActivity(t, name, p, !skipAttacks && v.DiagonalLines.Empty())
				moves := p.LegalMoves(nil)
				if len(moves) == 0 || p.Result().Over() {
					break
				}
				p.Make(moves[rng.IntN(len(moves))])
			}
		}
	}
}

func checkActivity(t *testing.T, name string, p *engine.Position, attacks bool) {
	t.Helper()
	v := p.Variant()
	var sum [2]int
	for c := engine.White; c <= engine.Black; c++ {
		royal := engine.NoSquare
		for _, s := range p.Pieces(c.Other()) {
			if v.PieceType(p.At(s)).Royal {
				royal = s
			}
		}
		var zone engine.Zone
		if royal != engine.NoSquare {
			zone = p.RoyalZone(royal)
		}
		hits := 0
		for _, s := range p.Pieces(c) {
			m, a := p.PieceActivity(s, &zone)
			sum[c] += m
			hits += a
		}
		if !attacks || royal == engine.NoSquare {
			continue
		}
		attacked := false
		for f := 0; f < v.Width; f++ {
			for r := 0; r < v.Height; r++ {
				if s := engine.SquareAt(f, r); zone.Has(s) && p.Attacked(s, c) {
					attacked = true
				}
			}
		}
		require.Equal(t, attacked, hits > 0, "%s %s: %s attacks the zone", name, p.FEN(), c)
	}
	white, black := p.Mobilities()
	if v.PieceDrops {
		return // drops count in Mobility, not in any piece's activity
	}
	require.Equal(t, white, sum[engine.White], "%s %s", name, p.FEN())
	require.Equal(t, black, sum[engine.Black], "%s %s", name, p.FEN())
}
