// Package layout is what tablebase and tablebase/gen share, internal to
// them: a table's geometry (the compact board, the symmetries, the index
// of a placement and its canonical entry), each piece's move sets, a
// placement on a board with its moves, and a table's entries (Data).
package layout

import (
	"fmt"

	"github.com/chimera-chess/chimera/engine"
)

// Geometry is a table's board and pieces in compact form: squares numbered
// 0..n-1 (rank*width+file), each piece's moves as target lists and rays,
// the symmetries that preserve every piece's moves, and the index scheme.
type Geometry struct {
	W, H, N  int
	square   []engine.Square        // compact → engine square
	Compact  [engine.NumSquares]int // engine square → compact, -1 off the board
	Syms     [][]int                // symmetry transforms of compact squares
	SymNames []string               // what each symmetry is ("file mirror")
	Region   []int                  // squares the first king is folded into
	RegionOf []int                  // compact square → index in region, -1 if none
	ToRegion [][]int                // compact square → the symmetries taking it into the region
	Pieces   []engine.Piece         // the table's pieces, in index order
	Kind     []*kind                // by slot
	Same     [][2]int               // pairs of slots holding identical pieces
	Size     int                    // entries per side to move
	Weight   []int                  // index weight of each slot (0 for the first)
	// Lo and span: slot i's squares in the index are lo[i] … lo[i]+span[i]-1
	// (a pawn's exclude its first and last ranks: 48 of 64 in chess).
	Lo, span []int
	Colour   []int    // by slot: 0 White, 1 Black
	SlotsOf  [2][]int // each colour's slots
	King     [2]int   // each colour's royal slot
	// Rider[i]: the piece in slot i has captures that can be blocked, so
	// a move elsewhere may open or close its line to a king; riders[c] are
	// colour c's rider slots.
	Rider  []bool
	Riders [2][]int
	// pawns: some piece is banned from squares or promotes, so the table
	// has promotions and only the symmetries that keep pawns pawns.
	pawns bool
	kinds map[engine.Piece]*kind
	// symIndex[(si·pieces + i)·n + sq] is slot i's part of the index when
	// it stands on sq and the placement is mapped by symmetry si; nil when
	// the material has identical pieces (see buildSymIndex).
	symIndex []int32
}

// NewGeometry builds the geometry of a table of pieces (index order,
// strong side White, each side's royal piece first) in a variant. Pieces
// must move by leaps and rides (lame or not, moving and capturing
// differently, forwards only: anything the generator can un-move).
func NewGeometry(v *engine.Variant, pieces []engine.Piece) (*Geometry, error) {
	g := &Geometry{W: v.Width, H: v.Height, N: v.Width * v.Height, kinds: map[engine.Piece]*kind{}}
	for i := range g.Compact {
		g.Compact[i] = -1
	}
	for r := 0; r < g.H; r++ {
		for f := 0; f < g.W; f++ {
			g.Compact[engine.SquareAt(f, r)] = len(g.square)
			g.square = append(g.square, engine.SquareAt(f, r))
		}
	}
	g.Pieces = pieces
	for _, pc := range g.Pieces {
		if g.kinds[pc] == nil {
			g.kinds[pc] = g.buildKind(v, pc)
		}
		k := g.kinds[pc]
		g.Kind = append(g.Kind, k)
		g.pawns = g.pawns || k.Banned != nil || k.Promotes != nil
	}
	for i, pc := range g.Pieces {
		c := int(pc.Colour())
		if len(g.SlotsOf[c]) == 0 {
			g.King[c] = i // the royal piece comes first
		}
		g.Colour = append(g.Colour, c)
		g.SlotsOf[c] = append(g.SlotsOf[c], i)
		rider := false
		for _, rays := range g.Kind[i].Capture.Rays {
			rider = rider || len(rays) > 0
		}
		g.Rider = append(g.Rider, rider)
		if rider {
			g.Riders[c] = append(g.Riders[c], i)
		}
	}
	for i := range g.Pieces {
		for j := i + 1; j < len(g.Pieces); j++ {
			if g.Pieces[i] == g.Pieces[j] {
				g.Same = append(g.Same, [2]int{i, j})
			}
		}
	}
	g.buildSymmetries()
	g.Size = len(g.Region)
	g.Weight = []int{0}
	g.Lo, g.span = []int{0}, []int{g.N}
	for i := 1; i < len(g.Pieces); i++ {
		lo, hi := 0, g.N
		if banned := g.Kind[i].Banned; banned != nil {
			for lo < hi && banned[lo] {
				lo++
			}
			for hi > lo && banned[hi-1] {
				hi--
			}
		}
		g.Lo, g.span = append(g.Lo, lo), append(g.span, hi-lo)
		g.Weight = append(g.Weight, g.Size)
		g.Size *= hi - lo
	}
	if g.Size > 1<<31 {
		return nil, fmt.Errorf("%d positions is too many", g.Size)
	}
	if len(g.Same) == 0 {
		g.buildSymIndex()
	}
	return g, nil
}

// step moves compact square c by vec, reporting false off the board.
func (g *Geometry) step(c int, vec engine.Vector) (int, bool) {
	f, r := c%g.W+vec.DX, c/g.W+vec.DY
	if f < 0 || r < 0 || f >= g.W || r >= g.H {
		return 0, false
	}
	return r*g.W + f, true
}

// buildSymmetries finds the board symmetries that map every piece's moves
// onto themselves, and the region the first king is folded into.
func (g *Geometry) buildSymmetries() {
	type transform struct {
		name string
		move func(f, r int) (int, int)
	}
	candidates := []transform{
		{"identity", func(f, r int) (int, int) { return f, r }},
		{"file mirror", func(f, r int) (int, int) { return g.W - 1 - f, r }},
		{"rank mirror", func(f, r int) (int, int) { return f, g.H - 1 - r }},
		{"half turn", func(f, r int) (int, int) { return g.W - 1 - f, g.H - 1 - r }},
	}
	if g.W == g.H {
		candidates = append(candidates,
			transform{"diagonal mirror", func(f, r int) (int, int) { return r, f }},
			transform{"quarter turn", func(f, r int) (int, int) { return g.W - 1 - r, f }},
			transform{"quarter turn back", func(f, r int) (int, int) { return r, g.W - 1 - f }},
			transform{"anti-diagonal mirror", func(f, r int) (int, int) { return g.W - 1 - r, g.W - 1 - f }})
	}
	reach := g.reachSets()
	for _, t := range candidates {
		perm := make([]int, g.N)
		for c := 0; c < g.N; c++ {
			f, r := t.move(c%g.W, c/g.W)
			perm[c] = r*g.W + f
		}
		if g.preserves(perm, reach) {
			g.Syms = append(g.Syms, perm)
			g.SymNames = append(g.SymNames, t.name)
		}
	}
	g.RegionOf = make([]int, g.N)
	g.ToRegion = make([][]int, g.N)
	for c := 0; c < g.N; c++ {
		g.RegionOf[c] = -1
	}
	for c := 0; c < g.N; c++ {
		rep := c
		for _, s := range g.Syms {
			rep = min(rep, s[c])
		}
		if rep == c {
			g.RegionOf[c] = len(g.Region)
			g.Region = append(g.Region, c)
		}
		for i, s := range g.Syms {
			if s[c] == rep {
				g.ToRegion[c] = append(g.ToRegion[c], i)
			}
		}
	}
}

// reachSet is a move set's reach on an empty board: by square the
// squares it reaches, and the same as a bitset over from·n+to.
type reachSet struct {
	to   [][]int32
	bits []uint64
}

// reachSets returns the reach of every piece kind's move and capture
// sets, each set once.
func (g *Geometry) reachSets() []reachSet {
	var out []reachSet
	seen := map[*MoveSet]bool{}
	for _, k := range g.kinds {
		for _, ms := range []*MoveSet{k.Quiet, k.Capture} {
			if seen[ms] {
				continue
			}
			seen[ms] = true
			r := reachSet{to: make([][]int32, g.N), bits: make([]uint64, (g.N*g.N+63)/64)}
			add := func(a, b int) {
				k := a*g.N + b
				if Reaches(ms.Line[k]) && r.bits[k/64]&(1<<(k%64)) == 0 {
					r.to[a] = append(r.to[a], int32(b))
					r.bits[k/64] |= 1 << (k % 64)
				}
			}
			// Line is made from the leaps and rays: their squares are
			// the only ones it can reach.
			for a := 0; a < g.N; a++ {
				for _, b := range ms.Leaps[a] {
					add(a, int(b))
				}
				for _, ray := range ms.Rays[a] {
					for _, b := range ray.Sq {
						add(a, int(b))
					}
				}
			}
			out = append(out, r)
		}
	}
	return out
}

// preserves reports whether the square permutation maps every piece's
// moves, captures (their reach), banned squares and promotion squares
// onto themselves.
func (g *Geometry) preserves(perm []int, reach []reachSet) bool {
	same := func(flags []bool) bool {
		for a := range flags {
			if flags[a] != flags[perm[a]] {
				return false
			}
		}
		return true
	}
	// A bijection maps a's targets into perm(a)'s, as many of them: onto.
	for _, r := range reach {
		for a := 0; a < g.N; a++ {
			pa := perm[a]
			if len(r.to[a]) != len(r.to[pa]) {
				return false
			}
			for _, b := range r.to[a] {
				k := pa*g.N + perm[b]
				if r.bits[k/64]&(1<<(k%64)) == 0 {
					return false
				}
			}
		}
	}
	for _, k := range g.kinds {
		if !same(k.Banned) || !same(k.Promotes) {
			return false
		}
	}
	return true
}

// DistinctMoves reports whether the moves (or un-moves) of colour c from
// a canonical placement whose first king stands on k0 all lead to
// different entries, so that counting them needs no sorting. Two of them
// can only meet in one class through a symmetry that fixes the first
// king, or by swapping identical pieces: c must not move the first king,
// k0 must be fixed by the identity alone, and no pieces be identical.
func (g *Geometry) DistinctMoves(c, k0 int) bool {
	return c != g.Colour[0] && len(g.ToRegion[k0]) == 1 && len(g.Same) == 0
}

// buildSymIndex tabulates each slot's part of the index of every square's
// image under every symmetry, so that canonical sums table entries instead
// of mapping the placement and indexing it (for materials without
// identical pieces, whose images need no reordering).
func (g *Geometry) buildSymIndex() {
	np := len(g.Pieces)
	g.symIndex = make([]int32, len(g.Syms)*np*g.N)
	for si, s := range g.Syms {
		for i := range np {
			for sq := range g.N {
				v := g.RegionOf[s[sq]]
				if i > 0 {
					v = (s[sq] - g.Lo[i]) * g.Weight[i]
				}
				g.symIndex[(si*np+i)*g.N+sq] = int32(v)
			}
		}
	}
}

// index returns the entry index of piece squares sq (index order) whose
// first square is in the region.
func (g *Geometry) index(sq []int) int {
	idx := g.RegionOf[sq[0]]
	for i, s := range sq[1:] {
		idx += (s - g.Lo[i+1]) * g.Weight[i+1]
	}
	return idx
}

// Decode fills sq from an entry index.
func (g *Geometry) Decode(idx int, sq []int) {
	sq[0] = g.Region[idx%len(g.Region)]
	idx /= len(g.Region)
	for i := 1; i < len(sq); i++ {
		sq[i] = g.Lo[i] + idx%g.span[i]
		idx /= g.span[i]
	}
}

// Canonical returns the entry index of any placement: the smallest index
// among its images under the symmetries that bring the first king into the
// region, with identical pieces in ascending square order. Every placement
// of a class maps to the same entry.
func (g *Geometry) Canonical(sq []int) int {
	if g.symIndex != nil {
		best := -1
		for _, si := range g.ToRegion[sq[0]] {
			part := g.symIndex[si*len(sq)*g.N:]
			idx := 0
			for i, s := range sq {
				idx += int(part[i*g.N+s])
			}
			if best < 0 || idx < best {
				best = idx
			}
		}
		return best
	}
	var buf [MaxPieces]int
	img := buf[:len(sq)]
	best := -1
	for _, si := range g.ToRegion[sq[0]] {
		g.image(si, sq, img)
		if idx := g.index(img); best < 0 || idx < best {
			best = idx
		}
	}
	return best
}

// image fills img with placement sq under symmetry si, identical pieces
// put in ascending square order.
func (g *Geometry) image(si int, sq, img []int) {
	s := g.Syms[si]
	for i, c := range sq {
		img[i] = s[c]
	}
	for _, pair := range g.Same {
		if img[pair[0]] > img[pair[1]] {
			img[pair[0]], img[pair[1]] = img[pair[1]], img[pair[0]]
		}
	}
}

// IsCanonical reports whether idx, the index of placement sq, is its
// class's entry. It is when only the identity brings the first king into
// the region and no identical pieces could be reordered.
func (g *Geometry) IsCanonical(sq []int, idx int) bool {
	if len(g.ToRegion[sq[0]]) == 1 && len(g.Same) == 0 {
		return true
	}
	return g.Canonical(sq) == idx
}

// Moved returns the entry index of a canonical entry's placement after the
// piece in slot i went from `from` to its current square in sq. When the
// first king stayed put on a square only the identity brings into the
// region, and no identical pieces need reordering, that is arithmetic on
// the parent's index; otherwise it is canonical.
func (g *Geometry) Moved(parent int, sq []int, i, from int) int {
	if i != 0 && len(g.ToRegion[sq[0]]) == 1 && len(g.Same) == 0 {
		return parent + (sq[i]-from)*g.Weight[i]
	}
	return g.Canonical(sq)
}

// Attacks reports whether the piece in slot i, on from, attacks `to` given
// the board's occupancy (who: compact square → slot, -1 empty).
func (g *Geometry) Attacks(i, from, to int, who []int8) bool {
	ms := g.Kind[i].Capture
	l := ms.Line[from*g.N+to]
	switch l & 0xff {
	case 0:
		return false
	case 1:
		return true
	}
	for _, t := range ms.Rays[from][l&0xff-2].Sq[:l>>8] {
		if who[t] >= 0 {
			return false
		}
	}
	return true
}

// CanonicalWith is canonical for a placement with one marked square
// besides (a square a pawn passed): the entry, and the marked square's
// image under the symmetry that gives it (the smallest such image when
// several do).
func (g *Geometry) CanonicalWith(sq []int, mark int) (int, int) {
	var buf [MaxPieces]int
	img := buf[:len(sq)]
	best, bestMark := -1, -1
	for _, si := range g.ToRegion[sq[0]] {
		g.image(si, sq, img)
		if idx, m := g.index(img), g.Syms[si][mark]; best < 0 || idx < best || (idx == best && m < bestMark) {
			best, bestMark = idx, m
		}
	}
	return best, bestMark
}

// Banned reports whether a placement puts a piece on a square it never
// stands on (a pawn on its first rank or where it promotes).
func (g *Geometry) Banned(sq []int) bool {
	if !g.pawns {
		return false
	}
	for i, s := range sq {
		if b := g.Kind[i].Banned; b != nil && b[s] {
			return true
		}
	}
	return false
}

// DoubleStep returns the square passed when the piece in slot i goes from
// `from` to `to` by a double step, or -1 when that is no double step.
func (g *Geometry) DoubleStep(i, from, to int) int {
	ms := g.Kind[i].Quiet
	if r := ms.LineRay(from, ms.Line[from*g.N+to]); r != nil && r.Double {
		return int(r.Sq[0])
	}
	return -1
}

// BitParallel reports whether the bit-parallel generator handles a table:
// a board of up to 64 squares, three pieces or more.
func (g *Geometry) BitParallel() bool {
	return g.N <= 64 && len(g.Pieces) >= 3 && g.BitNodes() <= 1<<32
}

// BitNodes is the number of nodes (of each side to move) the bit-parallel
// generator walks: 64 for each placement of the pieces but slot 1.
func (g *Geometry) BitNodes() int {
	nodes := len(g.Region) * 64
	for range len(g.Pieces) - 2 {
		nodes *= g.N
	}
	return nodes
}
