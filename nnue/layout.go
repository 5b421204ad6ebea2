// Package nnue holds what a network evaluation of a variant is made of:
// the input layout a variant's definition gives (which piece stands on
// which square, and what each side holds in hand, seen from each side),
// and the network's shape. The inputs come from the definition alone, so
// a network can be trained for any variant, a user's own included.
package nnue

import "github.com/chimera-chess/chimera/engine"

// MaxHandCount is how many pieces of one kind in hand the inputs tell
// apart: the k-th piece held (k < MaxHandCount) is an input of its own, so
// a network sees one, two, … pawns in hand; more count as MaxHandCount.
const MaxHandCount = 16

// Layout maps a variant's positions to input indices, from one side's
// view: the side's own pieces first, the board turned for Black so that
// both sides see their pieces from their own first rank.
type Layout struct {
	width, height, types int
	hands                bool
	// startPieces is the number of pieces on the board at the start:
	// the output buckets divide 1 to it evenly.
	startPieces int
}

// NewLayout returns the input layout of variant v.
func NewLayout(v *engine.Variant) *Layout {
	return &Layout{width: v.Width, height: v.Height, types: len(v.Pieces), hands: v.HasHands(),
		startPieces: max(v.StartPosition().PieceCount(), 1)}
}

// Bucket returns which of buckets output buckets a position with pieces
// pieces on the board uses: the range from one piece to as many as the
// start position has, cut in equal parts, the fullest boards (and any
// fuller, as gating makes them) in the last. Endings and openings want
// different weighings of the same units.
func (l *Layout) Bucket(pieces, buckets int) int {
	return min(max(pieces-1, 0)*buckets/l.startPieces, buckets-1)
}

// Inputs returns the number of inputs a side's view has.
func (l *Layout) Inputs() int {
	n := l.BoardInputs()
	if l.hands {
		n += 2 * l.types * MaxHandCount
	}
	return n
}

// BoardInputs returns the number of a view's inputs that are pieces on
// squares (they come first; the pieces in hand follow).
func (l *Layout) BoardInputs() int { return 2 * l.types * l.width * l.height }

// Squares returns the board's squares: the board inputs come in planes of
// this many, one plane a side and kind of piece.
func (l *Layout) Squares() int { return l.width * l.height }

// Board returns the input of piece pc on square s as side view sees it.
func (l *Layout) Board(view engine.Colour, pc engine.Piece, s engine.Square) int {
	rank := s.Rank()
	if view == engine.Black {
		rank = l.height - 1 - rank
	}
	side := 0
	if pc.Colour() != view {
		side = 1
	}
	return ((side*l.types+pc.Type()-1)*l.height+rank)*l.width + s.File()
}

// Hand returns the input of the k-th piece (from 0) of code pc held in
// hand, as side view sees it.
func (l *Layout) Hand(view engine.Colour, pc engine.Piece, k int) int {
	side := 0
	if pc.Colour() != view {
		side = 1
	}
	return 2*l.types*l.width*l.height + (side*l.types+pc.Type()-1)*MaxHandCount + min(k, MaxHandCount-1)
}
