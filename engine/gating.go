package engine

import "strings"

// Gating (Seirawan chess): when a piece makes its first move from its
// side's back rank, a piece from the hand may enter on the square it left
// (on castling, on the king's or the rook's square). The rights are one
// bit per colour and file, lost once a piece leaves the square or is
// taken on it. The gating pieces are those in hand at the start (and in
// S-House, where captures go to the hand, any piece but pawns and kings),
// at most MaxGateTypes, so that a move names one in its gate bits.

// gateBit returns the bit of square s in a gate-rights mask: its file on
// White's first or Black's last rank; 0 elsewhere.
func (v *Variant) gateBit(s Square) uint32 {
	switch s.Rank() {
	case 0:
		return 1 << s.File()
	case v.Height - 1:
		return 1 << (16 + s.File())
	}
	return 0
}

// backRank returns colour c's first rank: where its gates are.
func (v *Variant) backRank(c Colour) int {
	if c == Black {
		return v.Height - 1
	}
	return 0
}

// colourGates returns the gate bits of colour c.
func colourGates(c Colour) uint32 { return 0xffff << (16 * uint(c)) }

// keepsGates reports whether colour c's gate rights stay: it holds a
// gating piece, or a capture may fill its hand again (S-House). Those of
// a side that can never gate again are dropped, as Fairy-Stockfish's FEN
// drops them.
func (p *Position) keepsGates(c Colour) bool {
	if p.v.CapturesToHand {
		return true
	}
	for _, t := range p.v.gateTypes {
		if p.hand[c][t] > 0 {
			return true
		}
	}
	return false
}

// gatesKey returns the key of a gate-rights mask.
func (v *Variant) gatesKey(gates uint32) uint64 {
	var k uint64
	for b := range 32 {
		if gates>>b&1 != 0 {
			k ^= v.zobrist.gate[b]
		}
	}
	return k
}

// withGates appends to the legal moves their gating forms. A gating move
// is legal exactly when the same move without the gate is (the piece
// entering is not counted as shielding the king, as Fairy-Stockfish
// rules), but castling may not gate onto the king's or rook's
// destination.
func (p *Position) withGates(moves []Move) []Move {
	for _, m := range moves {
		switch m.Kind() {
		case Normal, DoubleStep:
			moves = p.appendGated(moves, m, m.From())
		case Castle:
			cr := &p.castles.rules[m.castleRule()]
			if cr.KingFrom != cr.RookTo {
				moves = p.appendGated(moves, m, cr.KingFrom)
			}
			if cr.RookFrom != cr.KingTo {
				rookGate := m&^(7<<moveKindShift) | Move(CastleGateRook)<<moveKindShift
				moves = p.appendGated(moves, rookGate, cr.RookFrom)
			}
		}
	}
	return moves
}

// appendGated appends m gating each gating piece the mover holds and may
// put on from, when the piece on from (m's mover) leaves a square with a
// gate right.
func (p *Position) appendGated(dst []Move, m Move, from Square) []Move {
	v := p.v
	bit := v.gateBit(from)
	if p.gates&bit == 0 || p.board[from].Colour() != p.stm || m.Promotion() != 0 {
		return dst
	}
	for i, t := range v.gateTypes {
		if p.hand[p.stm][t] > 0 && v.gateBits[t]&bit != 0 {
			dst = append(dst, m.withGate(i+1))
		}
	}
	return dst
}

// gateSquare returns where a gating move puts its piece.
func (p *Position) gateSquare(m Move) Square {
	switch m.Kind() {
	case Castle:
		return p.castles.rules[m.castleRule()].KingFrom
	case CastleGateRook:
		return p.castles.rules[m.castleRule()].RookFrom
	}
	return m.From()
}

// gateIn puts the gating piece of m (moved already) on its square and
// returns the change to the key.
func (p *Position) gateIn(m Move) uint64 {
	pc := MakePiece(int(p.v.gateTypes[m.gate()-1]), p.stm)
	return p.fromHand(pc, p.gateSquare(m))
}

// gateOut takes back gateIn (the side that moved is us).
func (p *Position) gateOut(m Move, us Colour) {
	s := p.gateSquare(m)
	p.hand[us][p.v.gateTypes[m.gate()-1]]++
	p.remove(s)
}

// gateLetter returns the lowercase letter of m's gating piece.
func (v *Variant) gateLetter(m Move) string {
	return strings.ToLower(string(v.Pieces[v.gateTypes[m.gate()-1]-1].Letter))
}

// writeGates writes colour c's gate rights as file letters (uppercase for
// White), as Fairy-Stockfish writes them after the castling letters.
func (p *Position) writeGates(b *strings.Builder, c Colour) {
	for f := 0; f < p.v.Width; f++ {
		if p.gates>>(16*int(c)+f)&1 != 0 {
			l := byte('A' + f)
			if c == Black {
				l += 'a' - 'A'
			}
			b.WriteByte(l)
		}
	}
}
