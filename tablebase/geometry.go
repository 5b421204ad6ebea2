package tablebase

import (
	"fmt"

	"github.com/chimera-chess/chimera/engine"
)

// geometry is a table's board and pieces in compact form: squares numbered
// 0..n-1 (rank*width+file), each piece's moves as target lists and rays,
// the symmetries that preserve every piece's moves, and the index scheme.
type geometry struct {
	w, h, n  int
	square   []engine.Square        // compact → engine square
	compact  [engine.NumSquares]int // engine square → compact, -1 off the board
	syms     [][]int                // symmetry transforms of compact squares
	symNames []string               // what each symmetry is ("file mirror")
	region   []int                  // squares the first king is folded into
	regionOf []int                  // compact square → index in region, -1 if none
	toRegion [][]int                // compact square → the symmetries taking it into the region
	pieces   []engine.Piece         // the table's pieces, in index order
	kind     []*kind                // by slot
	same     [][2]int               // pairs of slots holding identical pieces
	size     int                    // entries per side to move
	weight   []int                  // index weight of each slot (0 for the first)
	// lo and span: slot i's squares in the index are lo[i] … lo[i]+span[i]-1
	// (a pawn's exclude its first and last ranks: 48 of 64 in chess).
	lo, span []int
	colour   []int    // by slot: 0 White, 1 Black
	slotsOf  [2][]int // each colour's slots
	king     [2]int   // each colour's royal slot
	// rider[i]: the piece in slot i has captures that can be blocked, so
	// a move elsewhere may open or close its line to a king; riders[c] are
	// colour c's rider slots.
	rider  []bool
	riders [2][]int
	// pawns: some piece is banned from squares or promotes, so the table
	// has promotions and only the symmetries that keep pawns pawns.
	pawns bool
	kinds map[engine.Piece]*kind
	// symIndex[(si·pieces + i)·n + sq] is slot i's part of the index when
	// it stands on sq and the placement is mapped by symmetry si; nil when
	// the material has identical pieces (see buildSymIndex).
	symIndex []int32
}

// newGeometry builds the geometry for a material in a variant. Pieces
// must move by leaps and rides (lame or not, moving and capturing
// differently, forwards only: anything the generator can un-move).
func newGeometry(v *engine.Variant, m Material) (*geometry, error) {
	if err := CheckMaterial(v, m); err != nil {
		return nil, err
	}
	g := &geometry{w: v.Width, h: v.Height, n: v.Width * v.Height, kinds: map[engine.Piece]*kind{}}
	for i := range g.compact {
		g.compact[i] = -1
	}
	for r := 0; r < g.h; r++ {
		for f := 0; f < g.w; f++ {
			g.compact[engine.SquareAt(f, r)] = len(g.square)
			g.square = append(g.square, engine.SquareAt(f, r))
		}
	}
	g.pieces = m.pieces(v)
	for _, pc := range g.pieces {
		if g.kinds[pc] == nil {
			g.kinds[pc] = g.buildKind(v, pc)
		}
		k := g.kinds[pc]
		g.kind = append(g.kind, k)
		g.pawns = g.pawns || k.banned != nil || k.promotes != nil
	}
	for i, pc := range g.pieces {
		c := int(pc.Colour())
		if len(g.slotsOf[c]) == 0 {
			g.king[c] = i // the royal piece comes first
		}
		g.colour = append(g.colour, c)
		g.slotsOf[c] = append(g.slotsOf[c], i)
		rider := false
		for _, rays := range g.kind[i].capture.rays {
			rider = rider || len(rays) > 0
		}
		g.rider = append(g.rider, rider)
		if rider {
			g.riders[c] = append(g.riders[c], i)
		}
	}
	for i := range g.pieces {
		for j := i + 1; j < len(g.pieces); j++ {
			if g.pieces[i] == g.pieces[j] {
				g.same = append(g.same, [2]int{i, j})
			}
		}
	}
	g.buildSymmetries()
	g.size = len(g.region)
	g.weight = []int{0}
	g.lo, g.span = []int{0}, []int{g.n}
	for i := 1; i < len(g.pieces); i++ {
		lo, hi := 0, g.n
		if banned := g.kind[i].banned; banned != nil {
			for lo < hi && banned[lo] {
				lo++
			}
			for hi > lo && banned[hi-1] {
				hi--
			}
		}
		g.lo, g.span = append(g.lo, lo), append(g.span, hi-lo)
		g.weight = append(g.weight, g.size)
		g.size *= hi - lo
	}
	if g.size > 1<<31 {
		return nil, fmt.Errorf("%s: %d positions is too many", m, g.size)
	}
	if len(g.same) == 0 {
		g.buildSymIndex()
	}
	return g, nil
}

// step moves compact square c by vec, reporting false off the board.
func (g *geometry) step(c int, vec engine.Vector) (int, bool) {
	f, r := c%g.w+vec.DX, c/g.w+vec.DY
	if f < 0 || r < 0 || f >= g.w || r >= g.h {
		return 0, false
	}
	return r*g.w + f, true
}

// buildSymmetries finds the board symmetries that map every piece's moves
// onto themselves, and the region the first king is folded into.
func (g *geometry) buildSymmetries() {
	type transform struct {
		name string
		move func(f, r int) (int, int)
	}
	candidates := []transform{
		{"identity", func(f, r int) (int, int) { return f, r }},
		{"file mirror", func(f, r int) (int, int) { return g.w - 1 - f, r }},
		{"rank mirror", func(f, r int) (int, int) { return f, g.h - 1 - r }},
		{"half turn", func(f, r int) (int, int) { return g.w - 1 - f, g.h - 1 - r }},
	}
	if g.w == g.h {
		candidates = append(candidates,
			transform{"diagonal mirror", func(f, r int) (int, int) { return r, f }},
			transform{"quarter turn", func(f, r int) (int, int) { return g.w - 1 - r, f }},
			transform{"quarter turn back", func(f, r int) (int, int) { return r, g.w - 1 - f }},
			transform{"anti-diagonal mirror", func(f, r int) (int, int) { return g.w - 1 - r, g.w - 1 - f }})
	}
	for _, t := range candidates {
		perm := make([]int, g.n)
		for c := 0; c < g.n; c++ {
			f, r := t.move(c%g.w, c/g.w)
			perm[c] = r*g.w + f
		}
		if g.preserves(perm) {
			g.syms = append(g.syms, perm)
			g.symNames = append(g.symNames, t.name)
		}
	}
	g.regionOf = make([]int, g.n)
	g.toRegion = make([][]int, g.n)
	for c := 0; c < g.n; c++ {
		g.regionOf[c] = -1
	}
	for c := 0; c < g.n; c++ {
		rep := c
		for _, s := range g.syms {
			rep = min(rep, s[c])
		}
		if rep == c {
			g.regionOf[c] = len(g.region)
			g.region = append(g.region, c)
		}
		for i, s := range g.syms {
			if s[c] == rep {
				g.toRegion[c] = append(g.toRegion[c], i)
			}
		}
	}
}

// preserves reports whether the square permutation maps every piece's
// moves, captures, banned squares and promotion squares onto themselves.
func (g *geometry) preserves(perm []int) bool {
	same := func(flags []bool) bool {
		for a := range flags {
			if flags[a] != flags[perm[a]] {
				return false
			}
		}
		return true
	}
	for _, k := range g.kinds {
		for _, ms := range []*moveSet{k.quiet, k.capture} {
			for a := 0; a < g.n; a++ {
				for b := 0; b < g.n; b++ {
					if reaches(ms.line[a*g.n+b]) != reaches(ms.line[perm[a]*g.n+perm[b]]) {
						return false
					}
				}
			}
		}
		if !same(k.banned) || !same(k.promotes) {
			return false
		}
	}
	return true
}

// distinctMoves reports whether the moves (or un-moves) of colour c from
// a canonical placement whose first king stands on k0 all lead to
// different entries, so that counting them needs no sorting. Two of them
// can only meet in one class through a symmetry that fixes the first
// king, or by swapping identical pieces: c must not move the first king,
// k0 must be fixed by the identity alone, and no pieces be identical.
func (g *geometry) distinctMoves(c, k0 int) bool {
	return c != g.colour[0] && len(g.toRegion[k0]) == 1 && len(g.same) == 0
}

// buildSymIndex tabulates each slot's part of the index of every square's
// image under every symmetry, so that canonical sums table entries instead
// of mapping the placement and indexing it (for materials without
// identical pieces, whose images need no reordering).
func (g *geometry) buildSymIndex() {
	np := len(g.pieces)
	g.symIndex = make([]int32, len(g.syms)*np*g.n)
	for si, s := range g.syms {
		for i := range np {
			for sq := range g.n {
				v := g.regionOf[s[sq]]
				if i > 0 {
					v = (s[sq] - g.lo[i]) * g.weight[i]
				}
				g.symIndex[(si*np+i)*g.n+sq] = int32(v)
			}
		}
	}
}

// index returns the entry index of piece squares sq (index order) whose
// first square is in the region.
func (g *geometry) index(sq []int) int {
	idx := g.regionOf[sq[0]]
	for i, s := range sq[1:] {
		idx += (s - g.lo[i+1]) * g.weight[i+1]
	}
	return idx
}

// decode fills sq from an entry index.
func (g *geometry) decode(idx int, sq []int) {
	sq[0] = g.region[idx%len(g.region)]
	idx /= len(g.region)
	for i := 1; i < len(sq); i++ {
		sq[i] = g.lo[i] + idx%g.span[i]
		idx /= g.span[i]
	}
}

// canonical returns the entry index of any placement: the smallest index
// among its images under the symmetries that bring the first king into the
// region, with identical pieces in ascending square order. Every placement
// of a class maps to the same entry.
func (g *geometry) canonical(sq []int) int {
	if g.symIndex != nil {
		best := -1
		for _, si := range g.toRegion[sq[0]] {
			part := g.symIndex[si*len(sq)*g.n:]
			idx := 0
			for i, s := range sq {
				idx += int(part[i*g.n+s])
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
	for _, si := range g.toRegion[sq[0]] {
		g.image(si, sq, img)
		if idx := g.index(img); best < 0 || idx < best {
			best = idx
		}
	}
	return best
}

// image fills img with placement sq under symmetry si, identical pieces
// put in ascending square order.
func (g *geometry) image(si int, sq, img []int) {
	s := g.syms[si]
	for i, c := range sq {
		img[i] = s[c]
	}
	for _, pair := range g.same {
		if img[pair[0]] > img[pair[1]] {
			img[pair[0]], img[pair[1]] = img[pair[1]], img[pair[0]]
		}
	}
}

// isCanonical reports whether idx, the index of placement sq, is its
// class's entry. It is when only the identity brings the first king into
// the region and no identical pieces could be reordered.
func (g *geometry) isCanonical(sq []int, idx int) bool {
	if len(g.toRegion[sq[0]]) == 1 && len(g.same) == 0 {
		return true
	}
	return g.canonical(sq) == idx
}

// moved returns the entry index of a canonical entry's placement after the
// piece in slot i went from `from` to its current square in sq. When the
// first king stayed put on a square only the identity brings into the
// region, and no identical pieces need reordering, that is arithmetic on
// the parent's index; otherwise it is canonical.
func (g *geometry) moved(parent int, sq []int, i, from int) int {
	if i != 0 && len(g.toRegion[sq[0]]) == 1 && len(g.same) == 0 {
		return parent + (sq[i]-from)*g.weight[i]
	}
	return g.canonical(sq)
}

// attacks reports whether the piece in slot i, on from, attacks `to` given
// the board's occupancy (who: compact square → slot, -1 empty).
func (g *geometry) attacks(i, from, to int, who []int8) bool {
	ms := g.kind[i].capture
	l := ms.line[from*g.n+to]
	switch l & 0xff {
	case 0:
		return false
	case 1:
		return true
	}
	for _, t := range ms.rays[from][l&0xff-2].sq[:l>>8] {
		if who[t] >= 0 {
			return false
		}
	}
	return true
}

// canonicalWith is canonical for a placement with one marked square
// besides (a square a pawn passed): the entry, and the marked square's
// image under the symmetry that gives it (the smallest such image when
// several do).
func (g *geometry) canonicalWith(sq []int, mark int) (int, int) {
	var buf [MaxPieces]int
	img := buf[:len(sq)]
	best, bestMark := -1, -1
	for _, si := range g.toRegion[sq[0]] {
		g.image(si, sq, img)
		if idx, m := g.index(img), g.syms[si][mark]; best < 0 || idx < best || (idx == best && m < bestMark) {
			best, bestMark = idx, m
		}
	}
	return best, bestMark
}

// banned reports whether a placement puts a piece on a square it never
// stands on (a pawn on its first rank or where it promotes).
func (g *geometry) banned(sq []int) bool {
	if !g.pawns {
		return false
	}
	for i, s := range sq {
		if b := g.kind[i].banned; b != nil && b[s] {
			return true
		}
	}
	return false
}

// doubleStep returns the square passed when the piece in slot i goes from
// `from` to `to` by a double step, or -1 when that is no double step.
func (g *geometry) doubleStep(i, from, to int) int {
	ms := g.kind[i].quiet
	if r := ms.lineRay(from, ms.line[from*g.n+to]); r != nil && r.double {
		return int(r.sq[0])
	}
	return -1
}

// bitParallel reports whether the bit-parallel generator handles a table:
// a board of up to 64 squares, three pieces or more.
func (g *geometry) bitParallel() bool {
	return g.n <= 64 && len(g.pieces) >= 3 && g.bitNodes() <= 1<<32
}

// bitNodes is the number of nodes (of each side to move) the bit-parallel
// generator walks: 64 for each placement of the pieces but slot 1.
func (g *geometry) bitNodes() int {
	nodes := len(g.region) * 64
	for range len(g.pieces) - 2 {
		nodes *= g.n
	}
	return nodes
}
