package engine_test

import (
	"math/rand/v2"
	"slices"
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
// attacks one, and attacks each square by its attack map exactly when the
// rules core says so (hoppers and cannons, whose attacks are not counted,
// left out), and that each piece of the side to move has as many moves
// giving check as the rules core finds by making them.
func TestPieceActivity(t *testing.T) {
	games, plies := 4, 60
	if testing.Short() {
		games, plies = 1, 40
	}
	cat := variants.Builtin()
	for _, name := range cat.Names() {
		v, err := cat.Lookup(name)
		require.NoError(t, err)
		skipAttacks := false
		for _, pt := range v.Pieces {
			skipAttacks = skipAttacks || uncounted(&pt) || pt.Region != nil // not counted in the zone
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

// uncounted reports whether a piece moves by atoms whose zone attacks and
// checks PieceActivity does not count: hops, cannons, one-mode rides.
func uncounted(pt *engine.PieceType) bool {
	for _, a := range pt.Atoms {
		if a.Kind == engine.Hop || a.Kind == engine.Cannon || a.Kind == engine.Ride && (a.MoveOnly || a.CaptureOnly) {
			return true
		}
	}
	return false
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
		var attackMap engine.AttackMap
		for _, s := range p.Pieces(c) {
			m, a, _ := p.PieceActivity(s, &zone, &engine.TypeZones{}, &attackMap)
			sum[c] += m
			hits += a
			// Without checks and attack map (a path of its own on large
			// boards), the same moves and zone attacks.
			// The FEN is written only on failure: formatting it for every
			// check took a quarter of the test's time.
			if m2, a2, _ := p.PieceActivity(s, &zone, nil, nil); m2 != m || a2 != a {
				require.Equal(t, [2]int{m, a}, [2]int{m2, a2}, "%s %s: the piece on %s", name, p.FEN(), s)
			}
		}
		if !attacks {
			continue
		}
		everyType := uint32(1)<<(len(v.Pieces)+1) - 2
		for f := 0; !v.CambodianMoves && f < v.Width; f++ { // the met's first jump attacks by a special move
			for r := 0; r < v.Height; r++ {
				s := engine.SquareAt(f, r)
				if want, got := p.Attacked(s, c), p.AttackedIn(&attackMap, s, everyType); want != got {
					require.Equal(t, want, got, "%s %s: %s attacks %s", name, p.FEN(), c, s)
				}
			}
		}
		if royal == engine.NoSquare {
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
	// A capture that explodes gives no check by its piece; in Two Kings one
	// royal piece only is ever in check.
	if !v.BlastOnCapture && v.RoyalRule == engine.AllRoyal {
		checkChecks(t, name, p)
	}
	white, black := p.Mobilities()
	if v.PieceDrops {
		return // drops count in Mobility, not in any piece's activity
	}
	require.Equal(t, white, sum[engine.White], "%s %s", name, p.FEN())
	require.Equal(t, black, sum[engine.Black], "%s %s", name, p.FEN())
}

// checkChecks compares, for each non-royal piece of the side to move, the
// moves PieceActivity counts as giving check (CheckZones around the enemy
// royal pieces) with its pseudo-legal moves after which the rules core
// lists it among the checkers (promotions, whose piece changes, special
// moves, and the pieces whose checks are not counted left out).
func checkChecks(t *testing.T, name string, p *engine.Position) {
	t.Helper()
	v := p.Variant()
	us := p.SideToMove()
	var royals []engine.Square
	for _, s := range p.Pieces(us.Other()) {
		if v.PieceType(p.At(s)).Royal {
			royals = append(royals, s)
		}
	}
	if len(royals) == 0 {
		return
	}
	var zones engine.TypeZones
	p.CheckZones(royals, us, &zones)
	giving := map[engine.Square]map[engine.Square]bool{} // from → targets
	promotes := map[engine.Square]bool{}
	for _, m := range p.PseudoLegalMoves(nil) {
		if k := m.Kind(); k != engine.Normal && k != engine.DoubleStep || v.PieceType(p.At(m.From())).Royal {
			continue
		}
		if m.Promotion() != 0 {
			promotes[m.From()] = true
			continue
		}
		// Made and unmade on p: a clone a move (its history's room
		// copied) took a third of the test's time.
		p.Make(m)
		checks := slices.Contains(p.Checkers(), m.To())
		p.Unmake()
		if checks {
			if giving[m.From()] == nil {
				giving[m.From()] = map[engine.Square]bool{}
			}
			giving[m.From()][m.To()] = true
		}
	}
	for _, s := range p.Pieces(us) {
		pc := p.At(s)
		if pt := v.PieceType(pc); pt.Royal || uncounted(pt) || promotes[s] {
			continue
		}
		if _, _, got := p.PieceActivity(s, &engine.Zone{}, &zones, nil); got != len(giving[s]) {
			require.Equal(t, len(giving[s]), got, "%s %s: checks by the piece on %s", name, p.FEN(), s)
		}
	}
}
