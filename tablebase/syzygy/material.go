package syzygy

import "strings"

// pieceType numbers the pieces as Syzygy's files do (the low three bits
// of a piece code): pawn 1 up to king 6.
type pieceType uint8

// The piece types, in the files' numbering.
const (
	noType pieceType = iota
	pawn
	knight
	bishop
	rook
	queen
	king
)

// typeLetters are the letters of table names, indexed by pieceType.
const typeLetters = " PNBRQK"

// pieceCode is a piece as a table file lists it: its type in the low
// three bits, its colour (1 for Black, as the table sees colours) in bit
// 3.
type pieceCode uint8

// makeCode returns the code of a piece of type t and colour c (0 White).
func makeCode(t pieceType, c int) pieceCode { return pieceCode(t) | pieceCode(c)<<3 }

// kind returns the code's piece type.
func (c pieceCode) kind() pieceType { return pieceType(c & 7) }

// colour returns the code's colour: 0 White, 1 Black.
func (c pieceCode) colour() int { return int(c>>3) & 1 }

// valid reports whether the code names a piece: a type from pawn to king
// and no bit above the colour.
func (c pieceCode) valid() bool { return c.kind() >= pawn && c.kind() <= king && c < 16 }

// maxTablePieces is the most pieces of any Syzygy table.
const maxTablePieces = 7

// material counts each side's pieces: four bits for each (colour, type),
// White's in the low 24 bits. It is a table's name as a number, cheap to
// build from a position and to look up.
type material uint64

// shift is where the count of colour c's pieces of type t is kept.
func shift(c int, t pieceType) uint { return uint(c*24) + 4*uint(t-1) }

// count returns how many pieces of type t colour c has.
func (m material) count(c int, t pieceType) int { return int(m>>shift(c, t)) & 15 }

// plus returns m with one more piece of type t for colour c. A count
// beyond fifteen would spill into the next field: callers add at most a
// board's worth of one kind, which positions of chess never exceed.
func (m material) plus(c int, t pieceType) material { return m + 1<<shift(c, t) }

// mirrored returns m with the colours swapped.
func (m material) mirrored() material { return m>>24 | (m&(1<<24-1))<<24 }

// sideTotal returns how many pieces colour c has, its king included.
func (m material) sideTotal(c int) int {
	n := 0
	for t := pawn; t <= king; t++ {
		n += m.count(c, t)
	}
	return n
}

// pieces returns the number of pieces, kings included.
func (m material) pieces() int { return m.sideTotal(0) + m.sideTotal(1) }

// pawns returns colour c's pawns.
func (m material) pawns(c int) int { return m.count(c, pawn) }

// hasPawns reports whether either side has a pawn.
func (m material) hasPawns() bool { return m.pawns(0)+m.pawns(1) > 0 }

// symmetric reports whether both sides have the same pieces (KRvKR): such
// a table stores only White to move.
func (m material) symmetric() bool { return m == m.mirrored() }

// String returns the table name, White's pieces first: KQvKR.
func (m material) String() string {
	var b strings.Builder
	for c := 0; c < 2; c++ {
		if c == 1 {
			b.WriteByte('v')
		}
		for t := king; t >= pawn; t-- {
			for range m.count(c, t) {
				b.WriteByte(typeLetters[t])
			}
		}
	}
	return b.String()
}

// normalForm returns the orientation Syzygy names a table by: the side
// with more pieces is White; between sides of as many pieces, the one
// whose pieces, strongest first, are stronger at the first difference.
func (m material) normalForm() material {
	if m.stronger(1) {
		return m.mirrored()
	}
	return m
}

// stronger reports whether colour c's side comes first in the normal
// form, strictly (equal sides keep their order).
func (m material) stronger(c int) bool {
	us, them := m.sideTotal(c), m.sideTotal(1-c)
	if us != them {
		return us > them
	}
	for t := king; t >= pawn; t-- {
		if a, b := m.count(c, t), m.count(1-c, t); a != b {
			return a > b
		}
	}
	return false
}

// parseTableName reads a table's file name without its extension (KQvKR)
// as Syzygy writes them: one king each, each side's letters strongest
// first, the stronger side first, at most seven pieces. Anything else is
// not a Syzygy table name.
func parseTableName(name string) (material, bool) {
	white, black, ok := strings.Cut(name, "v")
	if !ok || len(white)+len(black) > maxTablePieces {
		return 0, false
	}
	var m material
	for c, letters := range []string{white, black} {
		if len(letters) == 0 || letters[0] != 'K' {
			return 0, false
		}
		previous := king
		for i := 0; i < len(letters); i++ {
			t := pieceType(strings.IndexByte(typeLetters, letters[i]))
			// IndexByte finds the blank at 0 for ' ' and -1 (wrapped to
			// 255) for other letters: both fall outside pawn..king.
			if t < pawn || t > king || t > previous || (t == king && i > 0) {
				return 0, false
			}
			previous = t
			m = m.plus(c, t)
		}
	}
	if m.normalForm() != m {
		return 0, false
	}
	return m, true
}
