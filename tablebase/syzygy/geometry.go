package syzygy

// Squares here are Syzygy's: a1 = 0, b1 = 1, …, h8 = 63 (rank*8 + file).
// Chimera's squares are numbered otherwise; board.go maps them.

func fileOf(s uint8) int { return int(s & 7) }
func rankOf(s uint8) int { return int(s >> 3) }

// offDiagonal is how far s lies above the a1–h8 diagonal (rank − file):
// negative below it, zero on it.
func offDiagonal(s uint8) int { return rankOf(s) - fileOf(s) }

// transposed reflects s in the a1–h8 diagonal (file and rank swapped).
func transposed(s uint8) uint8 { return (s>>3 | s<<3) & 63 }

// The reflections of the board as square operations.
const (
	fileMirror = 0x07 // a1 ↔ h1: s ^ fileMirror
	rankMirror = 0x38 // a1 ↔ a8: s ^ rankMirror
)

// foldedFile is the distance of a file from the nearer edge: a and h 0,
// d and e 3. A pawn table keeps one part per folded file of its leading
// pawn.
func foldedFile(f int) int { return min(f, 7-f) }

// Sizes of the index's leading part, by how the leading pieces are
// numbered.
const (
	// uniqueTripleCount: three unique pieces, the first folded into the
	// a1–d1–d4 triangle (its ten squares), the second and third anywhere
	// else, with the diagonal's extra symmetry taken out.
	uniqueTripleCount = 6*63*62 + 4*28*62 + 4*7*28 + 4*7*6
	// kingPairCount: only the two kings unique, never adjacent.
	kingPairCount = 462
	// pawnSquares are the squares a pawn may stand on (ranks 2 to 7).
	pawnSquares = 48
	// maxLeadPawns: a table leads with the side of fewer pawns, so at
	// most five lead in a seven-piece table.
	maxLeadPawns = 5
)

// geometry holds the fixed numbering tables Syzygy's index is made of.
// It is built once by newGeometry (into the package's geo) and never
// written again; every field is derived from the rules written at each
// builder, not typed in.
type geometry struct {
	// binomial[k][n] is n choose k (0 where n < k).
	binomial [maxTablePieces + 1][65]uint64
	// triangle is the class of a square once folded into the a1–d1–d4
	// triangle: 0–5 for b1, c1, d1, c2, d2, d3 (below the diagonal),
	// 6–9 for a1, b2, c3, d4 (on it).
	triangle [64]uint8
	// triangleSquare is the square of each triangle class.
	triangleSquare [10]uint8
	// lower numbers the squares below the a1–h8 diagonal 0–27 (in square
	// order) and the diagonal's 28–35; a square above has its
	// reflection's number.
	lower [64]uint8
	// kingPair numbers two kings: the first's triangle class, the second's
	// square; −1 where the second is adjacent to (or on) the first, or
	// where the reflection in the diagonal would name the pair otherwise.
	kingPair [10][64]int16
	// leadRank orders the pawn squares of files a–d by folded file, then
	// rank (a2 0, a3 1, …, d7 23); the other files take their mirror's.
	// The leading pawn is the one of least leadRank.
	leadRank [64]uint8
	// leadRankSquare is the a–d square of each leadRank.
	leadRankSquare [24]uint8
	// pawnTwist orders pawn squares the other way (a2 47 down to e7 0) so
	// that the squares left for the other leading pawns, those after the
	// leading one, are the pawnTwist values below its own.
	pawnTwist [64]uint8
	// leadStart[k-1][r] is where the leading pawn on leadRank r starts
	// its file's numbering of k leading pawns; leadCount[k-1][f] is the
	// size of file f's numbering.
	leadStart [maxLeadPawns][24]uint64
	leadCount [maxLeadPawns][4]uint64
}

// geo is the package's one geometry: immutable after initialisation.
var geo = newGeometry()

// newGeometry builds every table of the geometry.
func newGeometry() *geometry {
	g := &geometry{}
	g.buildBinomials()
	g.buildTriangle()
	g.buildLower()
	g.buildKingPairs()
	g.buildPawnOrders()
	g.buildLeadPawnNumbering()
	return g
}

// buildBinomials fills Pascal's triangle up to 64 choose 7.
func (g *geometry) buildBinomials() {
	for n := 0; n <= 64; n++ {
		g.binomial[0][n] = 1
		for k := 1; k <= maxTablePieces && k <= n; k++ {
			g.binomial[k][n] = g.binomial[k-1][n-1] + g.binomial[k][n-1]
		}
	}
}

// choose returns n choose k, zero outside the table (n < 0, n < k).
func (g *geometry) choose(n, k int) uint64 {
	if n < 0 || n > 64 || k < 0 || k > maxTablePieces {
		return 0
	}
	return g.binomial[k][n]
}

// buildTriangle numbers the a1–d1–d4 triangle: the squares below the
// diagonal in square order, then the diagonal's; every other square
// takes the class of its image under the folds probing applies (files
// e–h mirrored, ranks 5–8 mirrored, above the diagonal reflected).
func (g *geometry) buildTriangle() {
	next := uint8(0)
	for s := uint8(0); s < 64; s++ {
		if f, r := fileOf(s), rankOf(s); r < f && f <= 3 {
			g.triangleSquare[next] = s
			next++
		}
	}
	for d := uint8(0); d < 4; d++ {
		g.triangleSquare[next] = d * 9 // a1, b2, c3, d4
		next++
	}
	var class [64]uint8
	for i, s := range g.triangleSquare {
		class[s] = uint8(i)
	}
	for s := 0; s < 64; s++ {
		f, r := foldedFile(fileOf(uint8(s))), min(rankOf(uint8(s)), 7-rankOf(uint8(s)))
		if r > f {
			f, r = r, f
		}
		g.triangle[s] = class[r*8+f]
	}
}

// buildLower numbers the squares on and below the a1–h8 diagonal.
func (g *geometry) buildLower() {
	next := uint8(0)
	for s := uint8(0); s < 64; s++ {
		if offDiagonal(s) < 0 {
			g.lower[s] = next
			g.lower[transposed(s)] = next
			next++
		}
	}
	for d := uint8(0); d < 8; d++ {
		g.lower[d*9] = next
		next++
	}
}

// buildKingPairs numbers the legal placements of two kings, the first in
// the triangle: in order of its class, then of the second's square, each
// pair with both kings on the diagonal kept for the end (their reflection
// in the diagonal is themselves, so they are counted once, last).
func (g *geometry) buildKingPairs() {
	type pair struct{ class, second int }
	var bothOnDiagonal []pair
	code := int16(0)
	for class := range g.kingPair {
		first := g.triangleSquare[class]
		for second := uint8(0); second < 64; second++ {
			g.kingPair[class][second] = -1
			switch {
			case kingsTouch(first, second):
			case offDiagonal(first) == 0 && offDiagonal(second) > 0:
				// The diagonal reflection puts the second king below.
			case offDiagonal(first) == 0 && offDiagonal(second) == 0:
				bothOnDiagonal = append(bothOnDiagonal, pair{class, int(second)})
			default:
				g.kingPair[class][second] = code
				code++
			}
		}
	}
	for _, p := range bothOnDiagonal {
		g.kingPair[p.class][p.second] = code
		code++
	}
}

// kingsTouch reports whether kings on a and b are on the same or
// adjacent squares.
func kingsTouch(a, b uint8) bool {
	df, dr := fileOf(a)-fileOf(b), rankOf(a)-rankOf(b)
	return df >= -1 && df <= 1 && dr >= -1 && dr <= 1
}

// buildPawnOrders numbers the pawn squares for leading pawns (leadRank)
// and the other leading pawns (pawnTwist). On files e–h pawnTwist is one
// less than its mirror's on a–d, so that mirror squares stay apart.
func (g *geometry) buildPawnOrders() {
	for s := uint8(8); s < 56; s++ {
		f, r := fileOf(s), rankOf(s)
		ff := foldedFile(f)
		g.leadRank[s] = uint8(6*ff + r - 1)
		twist := pawnSquares - 1 - 12*ff - 2*(r-1)
		if f >= 4 {
			twist--
		}
		g.pawnTwist[s] = uint8(twist)
		if f < 4 {
			g.leadRankSquare[g.leadRank[s]] = s
		}
	}
}

// buildLeadPawnNumbering counts, for k leading pawns and each square of
// the leading one, the placements of the k−1 others (squares of lower
// pawnTwist), file by file: each file's leading-pawn squares in leadRank
// order, one after the other.
func (g *geometry) buildLeadPawnNumbering() {
	for k := 1; k <= maxLeadPawns; k++ {
		for file := 0; file < 4; file++ {
			var n uint64
			for r := 6 * file; r < 6*file+6; r++ {
				g.leadStart[k-1][r] = n
				n += g.choose(int(g.pawnTwist[g.leadRankSquare[r]]), k-1)
			}
			g.leadCount[k-1][file] = n
		}
	}
}
