package engine

import "fmt"

// Position is a game state of one variant: the board, piece lists, side to
// move, castling rights, en-passant square, move clocks, Zobrist key and the
// undo history. A Position is not safe for concurrent use; Clone it.
type Position struct {
	v     *Variant
	board [NumSquares]Piece
	// list[c][:count[c]] are the squares of c's pieces; index[s] is the
	// position of square s in its side's list.
	list       [2][NumSquares]Square
	index      [NumSquares]uint8
	count      [2]int
	pieceCount [64]int16 // by piece code
	royals     [2]uint8  // number of royal pieces per side
	royalSq    [2]Square // the royal's square when royals[c] == 1

	stm      Colour
	castling uint8 // bit i: castles.rules[i] is still allowed
	castles  *castlingSet
	ep       epSquares // en-passant target squares where a capture is possible
	epVictim Square    // the pawn that en passant on ep removes
	halfmove int       // plies since the last capture or pawn move
	fullmove int
	key      uint64
	checks   [2]uint8 // checks each side still needs (check counting)
	// hand[c][t] is how many pieces of type t colour c holds (variants
	// with hands); unpromoted[s] is the type the piece on s was before it
	// promoted (0: it has not), the type it goes to hand as.
	hand       [2][MaxPieceTypes + 1]uint8
	unpromoted [NumSquares]uint8
	gates      uint32 // gate rights (Variant.gateBit), with gating
	counting   countState

	history []undo
	// mode says which moves the generator appends: all of them, the
	// tactical ones (LegalCaptures) or the others (LegalQuiets).
	mode genMode
	// occupancy is each side's pieces as small-board masks, kept up to
	// date on boards of at most 64 squares (zero elsewhere).
	occupancy [2]uint64

	// removed holds the pieces taken off by blasts and launches, which
	// can be many per move; each undo record says how many are its own.
	removed []removedPiece
}

// removedPiece is a piece a blast or launch took off, with its list slot.
type removedPiece struct {
	sq    Square
	pc    Piece
	index uint8
}

// undo is what Unmake needs to restore the state before a move.
type undo struct {
	key          uint64
	move         Move
	halfmove     int32
	moved        Piece // the piece that moved, before any promotion
	captured     Piece
	capSq        Square
	capIndex     uint8
	castling     uint8
	ep           epSquares
	epVictim     Square
	royalSq      [2]Square
	royals       [2]uint8
	checks       [2]uint8
	removedCount uint8
	// Hands: the type the capture put in hand (0 none), and the types the
	// moved and the captured piece were before they promoted (0: not).
	handType        uint8
	movedUnpromoted uint8
	capUnpromoted   uint8
	gates           uint32
	counting        countState
	// facing: the royal pieces faced each other before the move (bikjang).
	facing bool
}

// Variant returns the variant the position is played in.
func (p *Position) Variant() *Variant { return p.v }

// At returns the piece on s (NoPiece when empty or off the board).
func (p *Position) At(s Square) Piece { return p.board[s] }

// SideToMove returns the side to move.
func (p *Position) SideToMove() Colour { return p.stm }

// Key returns the Zobrist key of the position.
func (p *Position) Key() uint64 { return p.key }

// HalfmoveClock returns the plies since the last capture or pawn move.
func (p *Position) HalfmoveClock() int { return p.halfmove }

// FullmoveNumber returns the FEN move number.
func (p *Position) FullmoveNumber() int { return p.fullmove }

// Ply returns the number of moves made since the position was set up.
func (p *Position) Ply() int { return len(p.history) }

// EnPassant returns the (first) en-passant target square, or NoSquare when
// no en-passant capture is possible.
func (p *Position) EnPassant() Square { return p.ep[0] }

// maxEPSquares is how many squares one multi-step can leave for en passant
// (a pawn's advance of up to five squares passes four).
const maxEPSquares = 4

// epSquares are the en-passant targets left by the last move, NoSquare
// after the last one. Usually there is none or one; a triple step leaves
// two.
type epSquares [maxEPSquares]Square

var noEPSquares = epSquares{NoSquare, NoSquare, NoSquare, NoSquare}

// has reports whether s is an en-passant target.
func (e *epSquares) has(s Square) bool {
	for _, t := range e {
		if t == s {
			return true
		}
		if t == NoSquare {
			return false
		}
	}
	return false
}

// CastlingRights returns the castling rights left, one bit per rule of the
// variant's Castling list.
func (p *Position) CastlingRights() uint8 { return p.castling }

// Count returns how many pieces of the given code stand on the board.
func (p *Position) Count(pc Piece) int { return int(p.pieceCount[pc]) }

// Pieces returns the squares of c's pieces. The slice aliases the position
// and is valid until the next Make or Unmake.
func (p *Position) Pieces(c Colour) []Square { return p.list[c][:p.count[c]] }

// PieceCount returns the number of pieces on the board, both sides' and
// royal ones included (pieces in hand are not counted).
func (p *Position) PieceCount() int { return int(p.count[White]) + int(p.count[Black]) }

// LastMove returns the last move made, or NoMove.
func (p *Position) LastMove() Move {
	if len(p.history) == 0 {
		return NoMove
	}
	return p.history[len(p.history)-1].move
}

// Clone returns an independent copy of the position, history included.
func (p *Position) Clone() *Position {
	q := *p
	q.history = append(make([]undo, 0, cap(p.history)), p.history...)
	q.removed = append([]removedPiece(nil), p.removed...)
	return &q
}

// put places piece pc on the empty square s.
func (p *Position) put(pc Piece, s Square) {
	c := pc.Colour()
	p.add(pc, s)
	p.key ^= p.v.zobrist.piece[pc][s]
	if p.v.royalTypes>>pc&1 != 0 {
		p.royals[c]++
		p.royalSq[c] = s
	}
}

// add puts pc on the empty square s at the end of its side's list (remove
// undoes it exactly); the key is the caller's.
func (p *Position) add(pc Piece, s Square) {
	c := pc.Colour()
	p.board[s] = pc
	p.occupancy[c] ^= p.v.squareBit[s]
	p.index[s] = uint8(p.count[c])
	p.list[c][p.count[c]] = s
	p.count[c]++
	p.pieceCount[pc]++
}

// Placement returns what stands on every square, indexed by Square
// (NoPiece where nothing does, and off the board): an evaluation that
// keeps state along a line compares it from one position to the next.
func (p *Position) Placement() [NumSquares]Piece { return p.board }

// Hands returns how many pieces of each type (1-based) each colour holds.
func (p *Position) Hands() [2][MaxPieceTypes + 1]uint8 { return p.hand }

// InHand returns how many pieces of type typ (1-based) colour c holds.
func (p *Position) InHand(c Colour, typ int) int { return int(p.hand[c][typ]) }

// Promoted reports whether the piece on s has promoted (with hands, it
// goes to hand as the piece it was when captured).
func (p *Position) Promoted(s Square) bool { return p.unpromoted[s] != 0 }

// MovedPiece returns the piece m moves: the one on its from-square, or
// the one a drop puts down.
func (p *Position) MovedPiece(m Move) Piece {
	if t := m.Dropped(); t != 0 {
		return MakePiece(t, p.stm)
	}
	return p.board[m.From()]
}

// remove takes the piece off s and moves the last list entry into its slot.
// It returns the slot so that restore can undo it exactly.
func (p *Position) remove(s Square) uint8 {
	pc := p.board[s]
	c := pc.Colour()
	i := p.index[s]
	p.count[c]--
	last := p.list[c][p.count[c]]
	p.list[c][i] = last
	p.index[last] = i
	p.board[s] = NoPiece
	p.occupancy[c] ^= p.v.squareBit[s]
	p.pieceCount[pc]--
	return i
}

// restore undoes remove: pc returns to s in list slot i, and the piece
// remove moved into that slot goes back to the end. When s was last, the
// slot is past the end, where a drop since may have left another square.
func (p *Position) restore(pc Piece, s Square, i uint8) {
	c := pc.Colour()
	if int(i) < p.count[c] {
		moved := p.list[c][i]
		p.list[c][p.count[c]] = moved
		p.index[moved] = uint8(p.count[c])
	}
	p.count[c]++
	p.list[c][i] = s
	p.index[s] = i
	p.board[s] = pc
	p.occupancy[c] ^= p.v.squareBit[s]
	p.pieceCount[pc]++
}

// relocate moves the piece on from to the empty square to.
func (p *Position) relocate(from, to Square) {
	if from == to {
		return // a pawn promoting where it stands (sittuyin)
	}
	i := p.index[from]
	pc := p.board[from]
	p.list[pc.Colour()][i] = to
	p.index[to] = i
	p.board[to] = pc
	p.board[from] = NoPiece
	p.occupancy[pc.Colour()] ^= p.v.squareBit[from] | p.v.squareBit[to]
}

// findRoyal sets royalSq[c] to the square of one of c's royal pieces.
func (p *Position) findRoyal(c Colour) {
	for _, s := range p.Pieces(c) {
		if p.v.royalTypes>>p.board[s]&1 != 0 {
			p.royalSq[c] = s
			return
		}
	}
}

// computeKey returns the Zobrist key computed from scratch; the incremental
// key must always equal it.
func (p *Position) computeKey() uint64 {
	z := &p.v.zobrist
	var k uint64
	for s := 0; s < NumSquares; s++ {
		if pc := p.board[s]; pc != NoPiece {
			k ^= z.piece[pc][s]
		}
	}
	k ^= z.castling[p.castling]
	for _, s := range p.ep {
		if s == NoSquare {
			break
		}
		k ^= z.ep[s]
	}
	if p.stm == Black {
		k ^= z.black
	}
	if p.v.CheckCounting > 0 {
		k ^= z.checks[White][p.checks[White]] ^ z.checks[Black][p.checks[Black]]
	}
	for c := White; c <= Black; c++ {
		for t, n := range p.hand[c] {
			if n > 0 {
				k ^= z.hand[MakePiece(t, c)][n%handKeys]
			}
		}
	}
	for s, t := range p.unpromoted {
		if t != 0 {
			k ^= z.promotedKey(Square(s), t)
		}
	}
	k ^= p.v.gatesKey(p.gates)
	return k
}

// CheckConsistency verifies the position's redundant state: the piece lists
// and counts match the board and the incremental key equals the key
// computed from scratch. It is for tests and debugging; a correct engine
// never fails it.
func (p *Position) CheckConsistency() error {
	var counts [64]int16
	for c := White; c <= Black; c++ {
		for i, s := range p.Pieces(c) {
			pc := p.board[s]
			if pc == NoPiece || pc.Colour() != c || int(p.index[s]) != i {
				return fmt.Errorf("piece list of %s disagrees with the board at %v", c, s)
			}
			counts[pc]++
		}
	}
	if counts != p.pieceCount {
		return fmt.Errorf("piece counts disagree with the board")
	}
	var occ [2]uint64
	for c := White; c <= Black; c++ {
		for _, s := range p.Pieces(c) {
			occ[c] |= p.v.squareBit[s]
		}
	}
	if occ != p.occupancy {
		return fmt.Errorf("occupancy masks disagree with the board")
	}
	if k := p.computeKey(); k != p.key {
		return fmt.Errorf("incremental key %016x, computed %016x", p.key, k)
	}
	return nil
}

// HasNonPawnMaterial reports whether c has a piece that is neither a pawn
// nor royal: where it has none, zugzwang is likely and null moves unsafe.
func (p *Position) HasNonPawnMaterial(c Colour) bool {
	for _, s := range p.Pieces(c) {
		pc := p.board[s]
		if (p.v.pawnTypes|p.v.royalTypes)>>pc&1 == 0 {
			return true
		}
	}
	return false
}
