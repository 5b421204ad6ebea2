package syzygy

import (
	"errors"
	"fmt"
	"slices"
)

// leadingKind says how an index numbers its leading pieces, the ones the
// board's symmetries are taken out by.
type leadingKind uint8

const (
	// uniqueTriple: a pawnless table with three or more unique pieces
	// (one of their kind and colour) leads with three of them.
	uniqueTriple leadingKind = iota
	// kingPair: a pawnless table whose only unique pieces are the kings
	// (KRRvK) leads with them.
	kingPair
	// leadPawns: a pawn table leads with one side's pawns, the side of
	// fewer pawns (Black's on a tie of the name's sides).
	leadPawns
)

// placementOrder is how one part of a table (a side to move; in a pawn
// table, a side to move and a file of the leading pawn) lists its pieces
// and numbers their placements. The index is a number of mixed radix:
// one digit for the leading pieces, one for the second side's pawns in a
// pawn table with pawns on both sides, one for each group of like pieces
// after them, in the digit order the file gives.
type placementOrder struct {
	// pieces are the codes in the file's order; count is how many.
	pieces [maxTablePieces]pieceCode
	count  int
	// leading is how the first lead pieces are numbered (three unique
	// pieces, the two kings, or the leading pawns); file is the leading
	// pawn's folded file (pawn tables).
	leading leadingKind
	lead    int
	file    int
	// otherPawns is the size of the second pawn group, right after the
	// leading pawns (0 when only one side has pawns or no pawns).
	otherPawns int
	// groupLen is, at the first piece of each later group of like
	// pieces, the group's size.
	groupLen [maxTablePieces]uint8
	// factor is, at the first piece of each digit's pieces, the digit's
	// weight.
	factor [maxTablePieces]uint64
	// size is the number of indices: the product of the digits' radices.
	size uint64
}

// orderSpec is what a file's header says of one part's order: its piece
// codes, the leading digit's position among the digits and, in a pawn
// table with pawns on both sides, the second pawn digit's.
type orderSpec struct {
	pieces      []pieceCode
	leadDigit   int
	secondDigit int
}

// newPlacementOrder checks a part's header against the table's material
// (colour 0 the table's White) and works out its digits' weights. A pawn
// table's part is for the leading pawn on folded file.
func newPlacementOrder(spec orderSpec, m material, file int) (placementOrder, error) {
	o := placementOrder{count: len(spec.pieces), file: file}
	if o.count != m.pieces() || o.count > maxTablePieces {
		return o, fmt.Errorf("%d pieces listed for %v", o.count, m)
	}
	copy(o.pieces[:], spec.pieces)
	var listed material
	for _, c := range spec.pieces {
		if !c.valid() {
			return o, fmt.Errorf("piece code %#x", c)
		}
		listed = listed.plus(c.colour(), c.kind())
	}
	if listed != m {
		return o, fmt.Errorf("pieces %v listed for %v", listed, m)
	}
	if err := o.setLeading(m); err != nil {
		return o, err
	}
	start := o.lead + o.otherPawns
	// Groups of like pieces after the leading part(s): each kind in one
	// run, all of its pieces.
	var groupStarts []int
	for i := start; i < o.count; {
		c := o.pieces[i]
		j := i
		for j < o.count && o.pieces[j] == c {
			j++
		}
		if j-i != m.count(c.colour(), c.kind()) {
			return o, fmt.Errorf("the %d pieces of code %#x are not listed together", m.count(c.colour(), c.kind()), c)
		}
		o.groupLen[i] = uint8(j - i)
		groupStarts = append(groupStarts, i)
		i = j
	}
	return o, o.setFactors(spec, groupStarts)
}

// setLeading works out how the part's first pieces are numbered and
// checks that the file lists them first.
func (o *placementOrder) setLeading(m material) error {
	if !m.hasPawns() {
		unique := 0
		for c := 0; c < 2; c++ {
			for t := pawn; t <= king; t++ {
				if m.count(c, t) == 1 {
					unique++
				}
			}
		}
		switch {
		case unique >= 3:
			o.leading, o.lead = uniqueTriple, 3
		case unique == 2:
			o.leading, o.lead = kingPair, 2
		default:
			return errors.New("fewer than two unique pieces: not a table of regular chess")
		}
		for i := 0; i < o.lead; i++ {
			c := o.pieces[i]
			if m.count(c.colour(), c.kind()) != 1 {
				return fmt.Errorf("leading piece %d, code %#x, is not unique", i, c)
			}
		}
		return nil
	}
	o.leading = leadPawns
	leadColour := leadingPawnColour(m)
	o.lead, o.otherPawns = m.pawns(leadColour), m.pawns(1-leadColour)
	// The file's colours may be the name's either way round: the leading
	// pawns are the first code's, which must have their count.
	first := o.pieces[0]
	if first.kind() != pawn || m.pawns(first.colour()) != o.lead {
		return fmt.Errorf("the first piece, code %#x, is not a leading pawn", first)
	}
	if o.lead > maxLeadPawns {
		return fmt.Errorf("%d leading pawns", o.lead)
	}
	other := makeCode(pawn, 1-first.colour())
	for i := 0; i < o.lead+o.otherPawns; i++ {
		want := first
		if i >= o.lead {
			want = other
		}
		if o.pieces[i] != want {
			return fmt.Errorf("piece %d, code %#x, breaks the pawns' leading groups", i, o.pieces[i])
		}
	}
	return nil
}

// leadingPawnColour is the colour whose pawns lead a pawn table of
// material m: the side with fewer pawns, if it has any; on a tie, Black.
func leadingPawnColour(m material) int {
	white, black := m.pawns(0), m.pawns(1)
	if white > 0 && (black == 0 || white < black) {
		return 0
	}
	return 1
}

// setFactors gives each digit its weight, in the digit order the header
// sets: the leading digit and the second pawn digit where it says, the
// groups in list order in the remaining places.
func (o *placementOrder) setFactors(spec orderSpec, groupStarts []int) error {
	digits := 1 + len(groupStarts)
	if o.otherPawns > 0 {
		digits++
		if spec.secondDigit >= digits || spec.secondDigit == spec.leadDigit {
			return fmt.Errorf("second pawn digit %d of %d", spec.secondDigit, digits)
		}
	}
	if spec.leadDigit >= digits {
		return fmt.Errorf("leading digit %d of %d", spec.leadDigit, digits)
	}
	weight := uint64(1)
	free := 64 - o.lead - o.otherPawns // squares left for the groups
	next := 0
	for d := 0; d < digits; d++ {
		switch {
		case d == spec.leadDigit:
			o.factor[0] = weight
			weight *= o.leadingCount()
		case o.otherPawns > 0 && d == spec.secondDigit:
			o.factor[o.lead] = weight
			weight *= geo.choose(pawnSquares-o.lead, o.otherPawns)
		default:
			i := groupStarts[next]
			next++
			o.factor[i] = weight
			weight *= geo.choose(free, int(o.groupLen[i]))
			free -= int(o.groupLen[i])
		}
	}
	o.size = weight
	return nil
}

// leadingCount is the radix of the leading digit.
func (o *placementOrder) leadingCount() uint64 {
	switch o.leading {
	case uniqueTriple:
		return uniqueTripleCount
	case kingPair:
		return kingPairCount
	default:
		return geo.leadCount[o.lead-1][o.file]
	}
}

// index returns the index of a placement: sq holds the square of each of
// o.pieces, in their order, already in the table's colours; in a pawn
// table sq[0] is the leading pawn (see leadingPawnFirst). ok is false for
// a placement no position has (kings touching).
func (o *placementOrder) index(sq [maxTablePieces]uint8) (idx uint64, ok bool) {
	n := o.count
	var lead uint64
	if o.leading == leadPawns {
		lead = o.leadPawnDigit(&sq)
	} else {
		o.foldPawnless(&sq)
		if lead, ok = o.leadPieceDigit(&sq); !ok {
			return 0, false
		}
	}
	idx = lead * o.factor[0]
	i := o.lead
	if o.otherPawns > 0 {
		idx += o.secondPawnDigit(&sq) * o.factor[i]
		i += o.otherPawns
	}
	for i < n {
		g := int(o.groupLen[i])
		idx += groupDigit(sq[:i], sq[i:i+g]) * o.factor[i]
		i += g
	}
	return idx, true
}

// foldPawnless applies the board symmetry that brings the first piece
// into the a1–d1–d4 triangle and, of the leading pieces, the first off
// the a1–h8 diagonal below it.
func (o *placementOrder) foldPawnless(sq *[maxTablePieces]uint8) {
	n := o.count
	var flip uint8
	if fileOf(sq[0]) >= 4 {
		flip |= fileMirror
	}
	if rankOf(sq[0]) >= 4 {
		flip |= rankMirror
	}
	for i := 0; i < n; i++ {
		sq[i] ^= flip
	}
	for i := 0; i < o.lead; i++ {
		if d := offDiagonal(sq[i]); d != 0 {
			if d > 0 {
				for j := 0; j < n; j++ {
					sq[j] = transposed(sq[j])
				}
			}
			return
		}
	}
}

// leadPieceDigit numbers the leading pieces of a folded pawnless
// placement.
func (o *placementOrder) leadPieceDigit(sq *[maxTablePieces]uint8) (uint64, bool) {
	if o.leading == kingPair {
		code := geo.kingPair[geo.triangle[sq[0]]][sq[1]]
		return uint64(code), code >= 0
	}
	a, b, c := sq[0], sq[1], sq[2]
	if a == b || a == c || b == c {
		return 0, false
	}
	// Squares taken by earlier pieces are skipped in the later ones'
	// numbering.
	bSkip := uint64(boolInt(b > a))
	cSkip := uint64(boolInt(c > a) + boolInt(c > b))
	tri, lowB, lowC := uint64(geo.triangle[a]), uint64(geo.lower[b]), uint64(geo.lower[c])
	// On the diagonal, a square's number along it is its file.
	diagA, diagB, diagC := uint64(fileOf(a)), uint64(fileOf(b)), uint64(fileOf(c))
	// The four cases follow one another; together they fill
	// uniqueTripleCount.
	const (
		aOff     = 0              // a below the diagonal
		bOff     = aOff + 6*63*62 // a on it, b below
		cOff     = bOff + 4*28*62 // a and b on it, c below
		allOnDia = cOff + 4*7*28  // all three on it
	)
	switch {
	case offDiagonal(a) != 0:
		return aOff + tri*63*62 + (uint64(b)-bSkip)*62 + uint64(c) - cSkip, true
	case offDiagonal(b) != 0:
		return bOff + diagA*28*62 + lowB*62 + uint64(c) - cSkip, true
	case offDiagonal(c) != 0:
		return cOff + diagA*7*28 + (diagB-bSkip)*28 + lowC, true
	default:
		return allOnDia + diagA*7*6 + (diagB-bSkip)*6 + diagC - cSkip, true
	}
}

// leadPawnDigit numbers the leading pawns: the leading one's square in
// its file's numbering, the others by the combinatorial number system
// over pawnTwist.
func (o *placementOrder) leadPawnDigit(sq *[maxTablePieces]uint8) uint64 {
	if fileOf(sq[0]) >= 4 {
		for i := 0; i < o.count; i++ {
			sq[i] ^= fileMirror
		}
	}
	others := sq[1:o.lead]
	slices.SortFunc(others, func(x, y uint8) int { return int(geo.pawnTwist[y]) - int(geo.pawnTwist[x]) })
	digit := geo.leadStart[o.lead-1][geo.leadRank[sq[0]]]
	for i, s := range others {
		digit += geo.choose(int(geo.pawnTwist[s]), o.lead-1-i)
	}
	return digit
}

// secondPawnDigit numbers the other side's pawns among the pawn squares
// the leading pawns leave.
func (o *placementOrder) secondPawnDigit(sq *[maxTablePieces]uint8) uint64 {
	group := sq[o.lead : o.lead+o.otherPawns]
	slices.Sort(group)
	var digit uint64
	for m, s := range group {
		digit += geo.choose(int(s)-countBelow(sq[:o.lead], s)-8, m+1)
	}
	return digit
}

// groupDigit numbers a group of like pieces among the squares earlier
// pieces leave: sorted, the combinatorial number system.
func groupDigit(earlier, group []uint8) uint64 {
	slices.Sort(group)
	var digit uint64
	for m, s := range group {
		digit += geo.choose(int(s)-countBelow(earlier, s), m+1)
	}
	return digit
}

// countBelow counts the squares of set below s.
func countBelow(set []uint8, s uint8) int {
	n := 0
	for _, t := range set {
		if t < s {
			n++
		}
	}
	return n
}

// leadingPawnFirst moves the leading pawn (least leadRank, the first of
// equals) of the lead pawn squares to the front and returns its folded
// file, which picks the table's part.
func leadingPawnFirst(lead []uint8) int {
	best := 0
	for i := 1; i < len(lead); i++ {
		if geo.leadRank[lead[i]] < geo.leadRank[lead[best]] {
			best = i
		}
	}
	lead[0], lead[best] = lead[best], lead[0]
	return foldedFile(fileOf(lead[0]))
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
