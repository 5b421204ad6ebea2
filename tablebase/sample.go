package tablebase

import (
	"math/rand/v2"

	"github.com/chimera-chess/chimera/engine"
)

// RandomWins returns up to n random legal positions of the table that the
// side to move wins, with the strong side (White) to move: start positions
// for measuring how a search converts the ending. The same seed gives the
// same positions.
func RandomWins(t *Table, n int, seed uint64) []*engine.Position {
	return randomWins(t, n, seed, false)
}

// RandomWinsInTime is RandomWins without the wins the move rule draws
// (cursed wins): the positions perfect play converts within the rule. In
// a variant without a move rule they are RandomWins.
func RandomWinsInTime(t *Table, n int, seed uint64) []*engine.Position {
	return randomWins(t, n, seed, true)
}

func randomWins(t *Table, n int, seed uint64, inTime bool) []*engine.Position {
	v := t.Variant
	rng := rand.New(rand.NewPCG(seed, 7))
	pieces := t.Material.Pieces(v)
	placed := make([]engine.Placement, len(pieces))
	var out []*engine.Position
	for tries := 0; len(out) < n && tries < 1000*n; tries++ {
		used := map[int]bool{}
		for i, pc := range pieces {
			s := rng.IntN(v.Width * v.Height) // file s%Width, rank s/Width
			for used[s] {
				s = rng.IntN(v.Width * v.Height)
			}
			used[s] = true
			placed[i] = engine.Placement{Square: engine.SquareAt(s%v.Width, s/v.Width), Piece: pc}
		}
		p, err := v.SetUp(placed, engine.White)
		if err != nil {
			continue // a side left in check, or pieces where they may not stand
		}
		if r, err := t.Probe(p); err != nil || r.WDL <= 0 {
			continue
		}
		if inTime && t.HasDTZ() {
			if d, err := t.ProbeDTZ(p); err != nil || !t.InTime(p, d) {
				continue // a cursed win
			}
		}
		out = append(out, p)
	}
	return out
}
