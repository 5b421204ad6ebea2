package syzygy

import "github.com/chimera-chess/chimera/engine"

// maxProbePieces: a probe searches one capture beyond the largest table,
// so positions of up to eight pieces are read.
const maxProbePieces = maxTablePieces + 1

// board is a position as the tables see it: for each piece code (in the
// position's colours), the Syzygy squares holding such a piece, in
// ascending order; the material; the side to move.
type board struct {
	material    material
	blackToMove bool
	count       [16]uint8
	squares     [16][maxProbePieces]uint8
}

// readBoard fills b from pos, a position of chess with at most
// maxProbePieces pieces (the callers check both).
func readBoard(pos *engine.Position, b *board) {
	b.material = 0
	b.blackToMove = pos.SideToMove() == engine.Black
	b.count = [16]uint8{}
	v := pos.Variant()
	for _, c := range [2]engine.Colour{engine.White, engine.Black} {
		for _, s := range pos.Pieces(c) {
			t := roleType(v.PieceType(pos.At(s)).Role)
			code := makeCode(t, int(c))
			b.material = b.material.plus(int(c), t)
			b.insert(code, syzygySquare(s))
		}
	}
}

// insert adds square s to code's squares, keeping them sorted.
func (b *board) insert(code pieceCode, s uint8) {
	list := b.squares[code][:b.count[code]+1]
	i := len(list) - 1
	for ; i > 0 && list[i-1] > s; i-- {
		list[i] = list[i-1]
	}
	list[i] = s
	b.count[code]++
}

// syzygySquare maps a square of the rules core (rank*16 + file) to
// Syzygy's numbering (rank*8 + file).
func syzygySquare(s engine.Square) uint8 { return uint8(s.Rank()*8 + s.File()) }

// roleType maps chess's piece roles to the files' piece types.
func roleType(r engine.Role) pieceType {
	switch r {
	case engine.RolePawn:
		return pawn
	case engine.RoleKnight:
		return knight
	case engine.RoleBishop:
		return bishop
	case engine.RoleRook:
		return rook
	case engine.RoleQueen:
		return queen
	case engine.RoleKing:
		return king
	}
	return noType // not a piece of chess: the variant check refuses it first
}
