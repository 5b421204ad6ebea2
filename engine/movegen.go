package engine

import "iter"

// genPiece appends the pseudo-legal moves of the piece on from: moves that
// follow its atoms and the board, without asking whether they leave a royal
// piece attacked. Castling is generated separately.
func (p *Position) genPiece(dst []Move, from Square) []Move {
	pc := p.board[from]
	us := pc.Colour()
	sm := &p.v.moves[pc][from]
	pawn := p.v.pawnTypes>>pc&1 != 0
	quiets, captures := p.mode != genTactical, p.mode != genQuiet
	for _, t := range sm.quiet {
		if p.board[t] == NoPiece && p.wantsStep(pawn, us, t) {
			dst = p.push(dst, NewMove(from, t), pawn)
		}
	}
	for _, t := range sm.both {
		if q := p.board[t]; (q == NoPiece && quiets) || (q != NoPiece && captures && q.Colour() != us) {
			dst = p.push(dst, NewMove(from, t), pawn)
		}
	}
	for _, t := range sm.capt {
		if q := p.board[t]; q != NoPiece && captures && q.Colour() != us {
			dst = p.push(dst, NewMove(from, t), pawn)
		}
	}
	if p.ep[0] != NoSquare && captures {
		for _, t := range sm.epCapt {
			if p.ep.has(t) {
				dst = append(dst, newSpecialMove(from, t, EnPassant, 0))
			}
		}
	}
	for i := range sm.lame {
		dst = p.genLame(dst, from, &sm.lame[i], pawn)
	}
	for i := range sm.rays {
		r := &sm.rays[i]
		for k, t := range r.squares {
			q := p.board[t]
			if r.skip>>k&1 != 0 {
				if q != NoPiece {
					break
				}
				continue
			}
			if q == NoPiece {
				if r.quiet && quiets {
					dst = p.push(dst, NewMove(from, t), pawn)
				}
				continue
			}
			if r.capture && captures && q.Colour() != us {
				dst = p.push(dst, NewMove(from, t), pawn)
			}
			break
		}
	}
	for i := range sm.hops {
		dst = p.genHop(dst, from, &sm.hops[i], pawn)
	}
	return dst
}

// genMode says which moves the generator appends. LegalCaptures and
// LegalQuiets split the legal moves between them: each generation site
// tests the mode so that, the rules on top of the moves aside, every
// move genAll appends is appended by exactly one of the other two.
type genMode uint8

const (
	genAll genMode = iota
	// genTactical: the moves a quiescence search looks at, captures and
	// a pawn's steps into its promotion zone (its promotions, with the
	// plain move where promotion is optional).
	genTactical
	// genQuiet: the others, castling, drops, passes and launches among
	// them.
	genQuiet
)

// wantsStep reports whether the generator appends a pawn's (when pawn)
// or another piece's non-capturing step to `to`, colour c moving:
// genTactical takes only a pawn's into its promotion zone, genQuiet the
// others.
func (p *Position) wantsStep(pawn bool, c Colour, to Square) bool {
	return p.mode == genAll || (pawn && p.v.PromotionZone[c].Has(to)) == (p.mode == genTactical)
}

// genLame appends a blockable leap when its path is empty (a screen leap
// when it holds exactly one piece).
func (p *Position) genLame(dst []Move, from Square, l *lameLeap, pawn bool) []Move {
	q := p.board[l.to]
	if l.screen {
		screen, ok := p.onlyPiece(l.path)
		mover := p.board[from]
		if !ok || l.spares && (screen.Type() == mover.Type() || q.Type() == mover.Type()) {
			return dst
		}
	} else if !p.pathEmpty(l.path) {
		return dst
	}
	switch {
	case q == NoPiece && l.quiet:
		if !p.wantsStep(pawn, p.stm, l.to) {
			return dst
		}
		if l.doubleStep {
			return append(dst, newSpecialMove(from, l.to, DoubleStep, 0))
		}
		return p.push(dst, NewMove(from, l.to), pawn)
	case q != NoPiece && l.capture && p.mode != genQuiet && q.Colour() != p.board[from].Colour():
		return p.push(dst, NewMove(from, l.to), pawn)
	}
	return dst
}

// genHop appends the grasshopper move along one line: over the first piece
// met, onto the square just beyond it.
func (p *Position) genHop(dst []Move, from Square, r *moveRay, pawn bool) []Move {
	if r.cannon {
		return p.genCannon(dst, from, r, pawn)
	}
	for k, t := range r.squares {
		if p.board[t] == NoPiece {
			continue
		}
		if k+1 == len(r.squares) {
			return dst
		}
		land := r.squares[k+1]
		q := p.board[land]
		if (q == NoPiece && r.quiet && p.mode != genTactical) ||
			(q != NoPiece && r.capture && p.mode != genQuiet && q.Colour() != p.board[from].Colour()) {
			dst = p.push(dst, NewMove(from, land), pawn)
		}
		return dst
	}
	return dst
}

// genCannon appends the cannon's moves along one line: over the first
// piece met, to any empty square beyond, or capturing the next piece.
func (p *Position) genCannon(dst []Move, from Square, r *moveRay, pawn bool) []Move {
	hurdle := false
	mover := p.board[from]
	for _, t := range r.squares {
		q := p.board[t]
		switch {
		case !hurdle:
			hurdle = q != NoPiece
			if r.spares && q.Type() == mover.Type() {
				return dst // janggi: no jumping over a cannon
			}
		case q == NoPiece:
			if r.quiet && p.mode != genTactical {
				dst = p.push(dst, NewMove(from, t), pawn)
			}
		default:
			if r.capture && p.mode != genQuiet && q.Colour() != mover.Colour() && !(r.spares && q.Type() == mover.Type()) {
				dst = p.push(dst, NewMove(from, t), pawn)
			}
			return dst
		}
	}
	return dst
}

// push appends m, or one move per promotion piece when a pawn reaches its
// promotion zone; for a piece with its own promotion (shogi) moving into,
// out of or inside the zone, the promoting move too, and the plain one
// unless it would leave the piece unable ever to move.
func (p *Position) push(dst []Move, m Move, pawn bool) []Move {
	v := p.v
	if pawn && v.PromotionZone[p.stm].Has(m.To()) && len(v.promoTypes) > 0 && !v.SittuyinPromotion {
		return p.pushPromotions(dst, m)
	}
	if v.pieceRules {
		pc := p.board[m.From()]
		zone := &v.PromotionZone[p.stm]
		inZone := (zone.Has(m.To()) || zone.Has(m.From())) &&
			(!v.PiecePromotionOnCapture || p.board[m.To()] != NoPiece)
		if t := v.promotesTo[pc.Type()]; t != 0 && inZone {
			dst = append(dst, m|Move(t)<<movePromoShift)
			if v.MandatoryPiecePromotion {
				return dst
			}
		}
		if t := p.unpromoted[m.From()]; t != 0 && v.PieceDemotion && inZone {
			dst = append(dst, m|Move(t)<<movePromoShift|moveAltBit)
			if v.MandatoryPiecePromotion {
				return dst
			}
		}
		if v.isImmobile(pc, m.To()) {
			return dst
		}
	}
	return append(dst, m)
}

// pushPromotions appends m once per piece the pawn may become, within the
// variant's promotion limits, and as a plain move where promotion is
// optional and the pawn could still move on.
func (p *Position) pushPromotions(dst []Move, m Move) []Move {
	v := p.v
	for _, t := range v.promoTypes {
		if limit := v.promoLimit[t]; limit > 0 && int(p.pieceCount[MakePiece(int(t), p.stm)]) >= limit {
			continue
		}
		dst = append(dst, m|Move(t)<<movePromoShift)
	}
	lastRank := v.Height - 1
	if p.stm == Black {
		lastRank = 0
	}
	if v.OptionalPromotion && m.To().Rank() != lastRank {
		dst = append(dst, m)
	}
	return dst
}

// genCastling appends the castling moves whose rights remain, whose squares
// are empty and whose king path is not attacked. The king's destination is
// checked by the caller, like every king move.
func (p *Position) genCastling(dst []Move) []Move {
	if p.mode == genTactical {
		return dst
	}
	us := p.stm
	for i := range p.castles.rules {
		cr := &p.castles.rules[i]
		if p.castling&(1<<i) == 0 || cr.Colour != us {
			continue
		}
		if !p.castlingPathClear(cr) {
			continue
		}
		dst = append(dst, newCastleMove(cr, i))
	}
	return dst
}

// castlingPathClear reports whether every square the king and rook cross or
// reach is empty (but for themselves) and, for a royal king, no square it
// crosses, its start included, is attacked.
func (p *Position) castlingPathClear(cr *CastlingRule) bool {
	lo := min(cr.KingFrom, cr.KingTo, cr.RookFrom, cr.RookTo)
	hi := max(cr.KingFrom, cr.KingTo, cr.RookFrom, cr.RookTo)
	for i := int(lo); i <= int(hi); i++ {
		if s := Square(i); s != cr.KingFrom && s != cr.RookFrom && p.board[s] != NoPiece {
			return false
		}
	}
	if p.v.royalTypes>>p.board[cr.KingFrom]&1 == 0 {
		// A castling piece that is not royal (extinction chess) may start
		// on, cross or land on attacked squares, as Fairy-Stockfish plays.
		return true
	}
	step := Square(1)
	if cr.KingTo < cr.KingFrom {
		step = ^Square(0) // -1
	}
	// The start square counts even when the king does not move (a
	// Chess960 king already on its castled square may not castle out of
	// check by the rook's move); the end square is the legality test's.
	if p.castlingSquareAttacked(cr.KingFrom, cr.KingFrom) {
		return false
	}
	for s := cr.KingFrom + step; cr.KingFrom != cr.KingTo && s != cr.KingTo; s += step {
		if p.castlingSquareAttacked(s, cr.KingFrom) {
			return false
		}
	}
	return true
}

// genDrops appends the side to move's drops (never for a quiescence
// search: drops are quiet moves).
func (p *Position) genDrops(dst []Move) []Move {
	if !p.v.PieceDrops || p.mode == genTactical {
		return dst
	}
	for t, s := range p.drops(p.stm) {
		dst = append(dst, NewDrop(t, s))
		if p.v.DropPromoted && p.v.promotesTo[t] != 0 {
			dst = append(dst, NewDrop(t, s)|moveAltBit)
		}
	}
	return dst
}

// drops yields colour c's drops: every type it holds, on every empty
// square that type may be dropped on.
func (p *Position) drops(c Colour) iter.Seq2[int, Square] {
	return func(yield func(int, Square) bool) {
		v := p.v
		for t := 1; t <= len(v.Pieces); t++ {
			if p.hand[c][t] == 0 {
				continue
			}
			pc := MakePiece(t, c)
			for _, s := range v.dropSquares[pc] {
				if p.canDrop(pc, s) && !yield(t, s) {
					return
				}
			}
		}
	}
}

// canDrop reports whether piece pc may be dropped on s, one of its drop
// squares: s is empty and, for the no-doubled piece, its file has none.
func (p *Position) canDrop(pc Piece, s Square) bool {
	return p.board[s] == NoPiece && !(pc.Type() == int(p.v.noDoubled) && p.onFile(pc, s.File()))
}

// onFile reports whether piece pc stands on file f.
func (p *Position) onFile(pc Piece, f int) bool {
	for r := 0; r < p.v.Height; r++ {
		if p.board[SquareAt(f, r)] == pc {
			return true
		}
	}
	return false
}

// PseudoLegalMoves appends to dst[:0] every move the pieces can make without
// regard to leaving a royal piece attacked, castling included.
func (p *Position) PseudoLegalMoves(dst []Move) []Move {
	dst = dst[:0]
	if sb := p.v.small; sb != nil && p.royals[p.stm] == 0 && p.mode == genAll {
		for _, from := range p.Pieces(p.stm) {
			dst = sb.genFull(p, dst, from)
		}
	} else {
		for _, from := range p.Pieces(p.stm) {
			dst = p.genPiece(dst, from)
		}
	}
	if p.v.KingPass && p.royals[p.stm] == 1 && p.mode != genTactical {
		k := p.royalSq[p.stm]
		dst = append(dst, newSpecialMove(k, k, Pass, 0))
	}
	return p.genDrops(p.genLaunches(p.genCastling(dst)))
}
