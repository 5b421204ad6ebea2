package engine

import (
	"fmt"
	"strings"
)

// glyphs are the Unicode chess symbols by role, White's then Black's.
var glyphs = map[Role][2]string{
	RoleKing: {"♔", "♚"}, RoleQueen: {"♕", "♛"}, RoleRook: {"♖", "♜"},
	RoleBishop: {"♗", "♝"}, RoleKnight: {"♘", "♞"}, RolePawn: {"♙", "♟"},
}

// Board draws the position with box-drawing characters, Unicode symbols
// for the standard pieces and FEN letters for fairy pieces, rank numbers on
// the left and file letters below, White at the bottom.
func (p *Position) Board() string {
	v := p.v
	var b strings.Builder
	line := func(left, mid, right string) {
		b.WriteString("    " + left)
		for f := 0; f < v.Width; f++ {
			b.WriteString("───")
			if f < v.Width-1 {
				b.WriteString(mid)
			}
		}
		b.WriteString(right + "\n")
	}
	line("┌", "┬", "┐")
	for r := v.Height - 1; r >= 0; r-- {
		fmt.Fprintf(&b, "%3d │", r+1)
		for f := 0; f < v.Width; f++ {
			fmt.Fprintf(&b, " %s │", p.glyph(p.board[SquareAt(f, r)]))
		}
		b.WriteString("\n")
		if r > 0 {
			line("├", "┼", "┤")
		}
	}
	line("└", "┴", "┘")
	b.WriteString("    ")
	for f := 0; f < v.Width; f++ {
		fmt.Fprintf(&b, "  %c ", 'a'+f)
	}
	b.WriteString("\n")
	return b.String()
}

// glyph returns the one-character picture of a piece.
func (p *Position) glyph(pc Piece) string {
	if pc == NoPiece {
		return " "
	}
	pt := p.v.PieceType(pc)
	if g, ok := glyphs[pt.Role]; ok && (pt.Role != RoleKing || pt.Royal) {
		return g[pc.Colour()]
	}
	return string(p.v.pieceLetter(pc))
}
