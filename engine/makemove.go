package engine

// Make plays m, which must be legal (or at least pseudo-legal) in the
// position, and pushes what Unmake needs onto the history. It updates the
// Zobrist key incrementally and does not allocate while the history has room.
func (p *Position) Make(m Move) {
	v := p.v
	z := &v.zobrist
	p.history = append(p.history, undo{
		key: p.key, move: m, halfmove: int32(p.halfmove), castling: p.castling,
		ep: p.ep, epVictim: p.epVictim, royalSq: p.royalSq, royals: p.royals, capSq: NoSquare,
	})
	u := &p.history[len(p.history)-1]
	us := p.stm
	from, to := m.From(), m.To()
	key := p.key
	if p.ep != NoSquare {
		key ^= z.epFile[p.ep.File()]
		p.ep, p.epVictim = NoSquare, NoSquare
	}
	p.halfmove++

	if m.Kind() == Castle {
		cr := &v.Castling[m.castleRule()]
		king, rook := p.board[cr.KingFrom], p.board[cr.RookFrom]
		ki, ri := p.index[cr.KingFrom], p.index[cr.RookFrom]
		// Lift both before placing either: in some set-ups the king lands
		// where the rook stood, or the other way round.
		p.board[cr.KingFrom], p.board[cr.RookFrom] = NoPiece, NoPiece
		p.board[cr.KingTo], p.board[cr.RookTo] = king, rook
		p.list[us][ki], p.list[us][ri] = cr.KingTo, cr.RookTo
		p.index[cr.KingTo], p.index[cr.RookTo] = ki, ri
		key ^= z.piece[king][cr.KingFrom] ^ z.piece[king][cr.KingTo] ^ z.piece[rook][cr.RookFrom] ^ z.piece[rook][cr.RookTo]
		if v.royalTypes>>king&1 != 0 && p.royals[us] == 1 {
			p.royalSq[us] = cr.KingTo
		}
	} else {
		pc := p.board[from]
		u.moved = pc
		capSq := to
		if m.Kind() == EnPassant {
			capSq = u.epVictim
		}
		if victim := p.board[capSq]; victim != NoPiece {
			u.captured, u.capSq = victim, capSq
			u.capIndex = p.remove(capSq)
			key ^= z.piece[victim][capSq]
			p.halfmove = 0
			if v.royalTypes>>victim&1 != 0 {
				p.royals[us.Other()]--
				if p.royals[us.Other()] == 1 {
					p.findRoyal(us.Other())
				}
			}
		}
		p.relocate(from, to)
		key ^= z.piece[pc][from]
		if t := m.Promotion(); t != 0 {
			promoted := MakePiece(t, us)
			p.board[to] = promoted
			p.pieceCount[pc]--
			p.pieceCount[promoted]++
			p.updateRoyalCount(pc, promoted)
			pc = promoted
		}
		key ^= z.piece[pc][to]
		if v.royalTypes>>pc&1 != 0 && p.royals[us] == 1 {
			p.royalSq[us] = to
		}
		if v.pawnTypes>>pc&1 != 0 || m.Promotion() != 0 {
			p.halfmove = 0
		}
		if m.Kind() == DoubleStep {
			if mid := Square((int(from) + int(to)) / 2); p.setEnPassant(mid, to) {
				key ^= z.epFile[mid.File()]
			}
		}
	}
	if rights := p.castling &^ (v.castleClear[from] | v.castleClear[to]); rights != p.castling {
		key ^= z.castling[p.castling] ^ z.castling[rights]
		p.castling = rights
	}
	key ^= z.black
	p.key = key
	if us == Black {
		p.fullmove++
	}
	p.stm = us.Other()
}

// updateRoyalCount keeps the royal count right when a promotion changes a
// piece's type (a pawn promoting to a royal piece in some variants).
func (p *Position) updateRoyalCount(from, to Piece) {
	c := from.Colour()
	was, is := p.v.royalTypes>>from&1, p.v.royalTypes>>to&1
	p.royals[c] += uint8(is) - uint8(was)
	if p.royals[c] == 1 {
		p.findRoyal(c)
	}
}

// Unmake takes back the last move made. It restores the position exactly,
// key and piece-list order included.
func (p *Position) Unmake() {
	u := &p.history[len(p.history)-1]
	m := u.move
	us := p.stm.Other()
	from, to := m.From(), m.To()
	if m.Kind() == Castle {
		cr := &p.v.Castling[m.castleRule()]
		king, rook := p.board[cr.KingTo], p.board[cr.RookTo]
		ki, ri := p.index[cr.KingTo], p.index[cr.RookTo]
		p.board[cr.KingTo], p.board[cr.RookTo] = NoPiece, NoPiece
		p.board[cr.KingFrom], p.board[cr.RookFrom] = king, rook
		p.list[us][ki], p.list[us][ri] = cr.KingFrom, cr.RookFrom
		p.index[cr.KingFrom], p.index[cr.RookFrom] = ki, ri
	} else {
		if t := m.Promotion(); t != 0 {
			p.pieceCount[p.board[to]]--
			p.pieceCount[u.moved]++
			p.board[to] = u.moved
		}
		p.relocate(to, from)
		if u.captured != NoPiece {
			p.restore(u.captured, u.capSq, u.capIndex)
		}
	}
	p.stm = us
	p.key = u.key
	p.halfmove = int(u.halfmove)
	p.castling = u.castling
	p.ep, p.epVictim = u.ep, u.epVictim
	p.royalSq, p.royals = u.royalSq, u.royals
	if us == Black {
		p.fullmove--
	}
	p.history = p.history[:len(p.history)-1]
}
