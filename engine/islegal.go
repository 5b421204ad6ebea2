package engine

import "slices"

// IsLegal reports whether m is one of the moves LegalMoves returns. A
// move from a transposition table or a killer slot may be stale, or from
// another position with the same key: a search asks this before playing
// it, and most positions answer without generating every move: m is
// generated again from its own square (or checked as the drop, castling,
// launch or pass it is), tested for the mover's safety, and held to the
// rules on top of the moves one by one. Where those rules weigh the list
// as a whole (compulsory captures for a quiet move, compulsory drops for
// a move on the board while a piece must be dropped, gating, and the
// moves Cambodian and sittuyin rules add) the legal moves are generated.
func (p *Position) IsLegal(m Move) bool {
	v := p.v
	if m == NoMove {
		return false
	}
	if v.immediateEnds {
		if _, over := p.immediateEnd(); over {
			return false
		}
	}
	if m.gate() != 0 || m.Kind() == CastleGateRook || v.SittuyinPromotion ||
		v.CambodianMoves && p.gates != 0 || v.MustDrop && m.Kind() != Drop && p.mustDropHeld() {
		return p.inLegalMoves(m)
	}
	if !p.pseudoLegal(m) || !p.safeAfter(m) {
		return false
	}
	if v.MustCapture {
		// The only rule on top of the moves there (LegalMoves).
		return p.isCapture(m) || !p.legalCaptureExists()
	}
	if (v.dropMate != 0 || v.NoDropChecks) && p.badDrop(m) {
		return false
	}
	if v.KingStaysInCheck && p.InCheck() && p.fleesCheck(m) {
		return false
	}
	if v.DropBishopsOnBothColours && m.Kind() == Drop {
		one := [1]Move{m}
		return len(p.withoutSameColourBishops(one[:])) == 1
	}
	return true
}

// IsLegalCapture reports whether m is a legal capture (a launch aside):
// every such move is among LegalCaptures' moves, so a quiescence search
// may play it before generating them.
func (p *Position) IsLegalCapture(m Move) bool {
	return m != NoMove && p.isCapture(m) && p.IsLegal(m)
}

// inLegalMoves is IsLegal by generating the legal moves.
func (p *Position) inLegalMoves(m Move) bool {
	var buf [MaxMoves]Move
	return slices.Contains(p.LegalMoves(buf[:0]), m)
}

// mustDropHeld reports whether the side to move holds a piece that
// MustDrop obliges it to drop (dropsFirst's test; whether it can is the
// list's question).
func (p *Position) mustDropHeld() bool {
	for t := 1; t <= len(p.v.Pieces); t++ {
		if p.hand[p.stm][t] > 0 && (p.v.MustDropType == 0 || p.v.Pieces[t-1].Letter == p.v.MustDropType) {
			return true
		}
	}
	return false
}

// legalCaptureExists reports whether the side to move has a legal capture
// (before the rules on top of the moves, as capturesOnly weighs them).
func (p *Position) legalCaptureExists() bool {
	var buf [MaxMoves]Move
	p.mode = genTactical
	moves := p.legalMoves(buf[:0])
	p.mode = genAll
	return slices.ContainsFunc(moves, p.isCapture)
}

// pseudoLegal reports whether m is among PseudoLegalMoves: regenerated
// from its square alone for a move on the board.
func (p *Position) pseudoLegal(m Move) bool {
	v, us := p.v, p.stm
	switch m.Kind() {
	case Drop:
		t := m.Dropped()
		if !v.PieceDrops || t < 1 || t > len(v.Pieces) || p.hand[us][t] == 0 ||
			m != NewDrop(t, m.To())|m&moveAltBit || m.DropsPromoted() && !(v.DropPromoted && v.promotesTo[t] != 0) {
			return false
		}
		pc := MakePiece(t, us)
		return slices.Contains(v.dropSquares[pc], m.To()) && p.canDrop(pc, m.To())
	case Castle:
		var buf [2 * MaxCastlingRules]Move
		return slices.Contains(p.genCastling(buf[:0]), m)
	case Launch:
		var buf [MaxMoves]Move
		return slices.Contains(p.genLaunches(buf[:0]), m)
	case Pass:
		k := p.royalSq[us]
		return v.KingPass && p.royals[us] == 1 && m == newSpecialMove(k, k, Pass, 0)
	}
	from := m.From()
	if pc := p.board[from]; pc == NoPiece || pc.Colour() != us {
		return false
	}
	var buf [MaxMoves]Move
	if sb := v.small; sb != nil && p.royals[us] == 0 {
		return slices.Contains(sb.genFull(p, buf[:0], from), m)
	}
	return slices.Contains(p.genPiece(buf[:0], from), m)
}

// safeAfter is legalByMaking's test of one pseudo-legal move: on the
// board alone where that decides it (most moves need not be made), else
// by making it.
func (p *Position) safeAfter(m Move) bool {
	if p.royals[p.stm] == 0 && !p.v.special {
		return true
	}
	safety := p.moveSafety()
	return safety.safe(p, m)
}
