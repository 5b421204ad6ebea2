package layout

import (
	"slices"
	"testing"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/variants"
)

// TestSymmetriesMatchBruteForce: the symmetries found through the move
// sets' reach are exactly the square permutations under which every
// from→to pair of every move set keeps whether it is a move (each pair
// tested), and the banned and promotion squares stay themselves — on
// square and rectangular boards, with pawns, Berolina pawns, royal
// knights and a board over 64 squares.
func TestSymmetriesMatchBruteForce(t *testing.T) {
	cat := variants.Builtin()
	for _, tc := range []struct{ variant, pieces string }{
		{"chess", "KQk"}, {"chess", "KPk"}, {"chess", "KRkn"}, {"berolina", "KPkp"},
		{"knightmate", "KMk"}, {"capablanca", "KCk"}, {"capablanca", "KPk"}, {"gardner", "KRk"},
		{"shogi", "KGk"}, {"minishogi", "KGks"}, // golds and silvers: as many moves forwards mirrored, not the same
	} {
		v, err := cat.Lookup(tc.variant)
		if err != nil {
			t.Fatal(err)
		}
		var pieces []engine.Piece
		for _, l := range []byte(tc.pieces) {
			colour := engine.White
			if l >= 'a' {
				colour, l = engine.Black, l-'a'+'A'
			}
			pieces = append(pieces, engine.MakePiece(v.TypeByLetter(l), colour))
		}
		g, err := NewGeometry(v, pieces)
		if err != nil {
			t.Fatal(err)
		}
		for _, perm := range allTransforms(g.W, g.H) {
			want := bruteForcePreserves(g, perm)
			got := slices.ContainsFunc(g.Syms, func(s []int) bool { return slices.Equal(s, perm) })
			if got != want {
				t.Errorf("%s %s: symmetry %v found %v, brute force says %v", tc.variant, tc.pieces, perm[:min(8, len(perm))], got, want)
			}
		}
	}
}

// allTransforms returns the board's mirrors and turns as permutations.
func allTransforms(w, h int) [][]int {
	moves := []func(f, r int) (int, int){
		func(f, r int) (int, int) { return f, r },
		func(f, r int) (int, int) { return w - 1 - f, r },
		func(f, r int) (int, int) { return f, h - 1 - r },
		func(f, r int) (int, int) { return w - 1 - f, h - 1 - r },
	}
	if w == h {
		moves = append(moves,
			func(f, r int) (int, int) { return r, f },
			func(f, r int) (int, int) { return w - 1 - r, f },
			func(f, r int) (int, int) { return r, w - 1 - f },
			func(f, r int) (int, int) { return w - 1 - r, w - 1 - f })
	}
	var out [][]int
	for _, m := range moves {
		perm := make([]int, w*h)
		for c := range perm {
			f, r := m(c%w, c/w)
			perm[c] = r*w + f
		}
		out = append(out, perm)
	}
	return out
}

// bruteForcePreserves is the definition: every pair of squares tested.
func bruteForcePreserves(g *Geometry, perm []int) bool {
	for _, k := range g.kinds {
		for _, ms := range []*MoveSet{k.Quiet, k.Capture} {
			for a := 0; a < g.N; a++ {
				for b := 0; b < g.N; b++ {
					if Reaches(ms.Line[a*g.N+b]) != Reaches(ms.Line[perm[a]*g.N+perm[b]]) {
						return false
					}
				}
			}
		}
		for a := 0; a < g.N; a++ {
			if k.Banned != nil && k.Banned[a] != k.Banned[perm[a]] || k.Promotes != nil && k.Promotes[a] != k.Promotes[perm[a]] {
				return false
			}
		}
	}
	return true
}
