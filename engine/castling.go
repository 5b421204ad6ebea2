package engine

import (
	"fmt"
	"strings"
)

// castlingSet is the castling a position plays by: the variant's rules, or
// in Chess960 the variant's rules with the king and rooks on the files the
// start array put them on. Positions share one set (a game keeps its
// start's files); rule i is always the variant's rule i, so rights and
// their Zobrist keys mean the same in every set.
type castlingSet struct {
	rules []CastlingRule
	// clear[sq] are the castling rights lost when a piece leaves or
	// arrives on sq.
	clear [NumSquares]uint8
}

func newCastlingSet(rules []CastlingRule) *castlingSet {
	cs := &castlingSet{rules: rules}
	for i, cr := range rules {
		cs.clear[cr.KingFrom] |= 1 << i
		cs.clear[cr.RookFrom] |= 1 << i
	}
	return cs
}

// chess960Rule returns the rule a Chess960 castling letter of colour c
// names and moves that rule's king and rook (in rules) to where they stand:
// K and Q name the outermost rook on the king's side (X-FEN), a file letter
// the rook on that file (Shredder-FEN, or X-FEN for an inner rook). They
// go to the squares the variant's rules name (g and f, c and d in chess).
func (p *Position) chess960Rule(rules []CastlingRule, c Colour, upper, ch byte) (int, error) {
	v := p.v
	king, rank, ok := p.castlingKing(c)
	if !ok {
		return 0, fmt.Errorf("no %s king on its castling rank", c)
	}
	rook := NoSquare
	rookAt := func(f int) bool { return p.board[SquareAt(f, rank)] == MakePiece(int(v.castleRook), c) }
	side := upper
	switch {
	case upper == 'K':
		for f := v.Width - 1; f > king.File() && rook == NoSquare; f-- {
			if rookAt(f) {
				rook = SquareAt(f, rank)
			}
		}
	case upper == 'Q':
		for f := 0; f < king.File() && rook == NoSquare; f++ {
			if rookAt(f) {
				rook = SquareAt(f, rank)
			}
		}
	case upper >= 'A' && int(upper-'A') < v.Width:
		f := int(upper - 'A')
		if rookAt(f) && f != king.File() {
			rook = SquareAt(f, rank)
		}
		side = 'Q'
		if f > king.File() {
			side = 'K'
		}
	default:
		return 0, fmt.Errorf("%q is neither K, Q nor a file", ch)
	}
	if rook == NoSquare {
		return 0, fmt.Errorf("no %s rook for %q", c, ch)
	}
	for r, cr := range v.Castling {
		if cr.Colour == c && cr.Letter == side {
			rules[r].KingFrom, rules[r].RookFrom = king, rook
			return r, nil
		}
	}
	return 0, fmt.Errorf("no %s castling %q in variant %s", c, side, v.Name)
}

// castlingKing finds colour c's castling king on the rank its castling
// rules use.
func (p *Position) castlingKing(c Colour) (Square, int, bool) {
	v := p.v
	for _, cr := range v.Castling {
		if cr.Colour != c {
			continue
		}
		rank := cr.KingFrom.Rank()
		for f := 0; f < v.Width; f++ {
			if s := SquareAt(f, rank); p.board[s] == MakePiece(int(v.castleKing), c) {
				return s, rank, true
			}
		}
		return NoSquare, rank, false
	}
	return NoSquare, 0, false
}

// writeCastling writes the castling field: K and Q (the variant's letters)
// outside Chess960; in Chess960 X-FEN — K or Q for the outermost rook on
// its side, the rook's file letter for an inner one — or with shredder the
// file letter always.
func (p *Position) writeCastling(b *strings.Builder, shredder bool) {
	if p.castling == 0 && p.gates == 0 {
		b.WriteByte('-')
		return
	}
	if p.v.Gating || p.v.CambodianMoves {
		// Each side's castling letters, then its gate files.
		for c := White; c <= Black; c++ {
			p.writeCastlingOf(b, shredder, c)
			p.writeGates(b, c)
		}
		return
	}
	p.writeCastlingOf(b, shredder, White)
	p.writeCastlingOf(b, shredder, Black)
}

// writeCastlingOf writes colour c's castling letters.
func (p *Position) writeCastlingOf(b *strings.Builder, shredder bool, c Colour) {
	for i, cr := range p.castles.rules {
		if p.castling&(1<<i) == 0 || cr.Colour != c {
			continue
		}
		l := cr.Letter
		if p.v.Chess960 && (shredder || !p.outermostRook(cr)) {
			l = byte('A' + cr.RookFrom.File())
		}
		if cr.Colour == Black {
			l += 'a' - 'A'
		}
		b.WriteByte(l)
	}
}

// outermostRook reports whether no other castling rook of the rule's colour
// stands beyond the rule's rook, on the far side from the king.
func (p *Position) outermostRook(cr CastlingRule) bool {
	rank, step := cr.RookFrom.Rank(), 1
	if cr.RookFrom.File() < cr.KingFrom.File() {
		step = -1
	}
	for f := cr.RookFrom.File() + step; f >= 0 && f < p.v.Width; f += step {
		if p.board[SquareAt(f, rank)] == MakePiece(int(p.v.castleRook), cr.Colour) {
			return false
		}
	}
	return true
}
