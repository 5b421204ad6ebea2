package engine

// This file holds sittuyin's promotion (Fairy-Stockfish 11.1's
// sittuyinPromotion): a pawn does not promote by reaching a rank; instead,
// as a move of its own, it turns into a promotion piece where it stands or
// on a square that piece could step to. With more than one pawn only a
// pawn on a long diagonal in the opponent's half may; the new piece may
// not attack an enemy piece, the move may not give check, and the
// variant's promotion limits hold (one met).

// appendSittuyinPromotions appends the side to move's legal sittuyin
// promotions.
func (p *Position) appendSittuyinPromotions(dst []Move) []Move {
	v, us := p.v, p.stm
	var pawnBuf [MaxSize * MaxSize]Square
	pawns := pawnBuf[:0]
	for _, s := range p.Pieces(us) {
		if v.pawnTypes>>p.board[s]&1 != 0 {
			pawns = append(pawns, s)
		}
	}
	if len(pawns) > 1 {
		kept := pawns[:0]
		for _, s := range pawns {
			if v.onLongDiagonal(s) && v.relativeRank(s, us) > (v.Height-2)/2 {
				kept = append(kept, s)
			}
		}
		pawns = kept
	}
	mode := p.mode
	p.mode = genAll // the new piece's steps are quiet moves
	defer func() { p.mode = mode }()
	var buf [MaxMoves]Move
	var targetBuf [MaxMoves]Square
	for _, from := range pawns {
		for _, t := range v.promoTypes {
			if limit := v.promoLimit[t]; limit > 0 && int(p.pieceCount[MakePiece(int(t), us)]) >= limit {
				continue
			}
			// Where the new piece could step: its quiet moves, were it
			// standing on the pawn's square already.
			inPlace := NewMove(from, from) | Move(t)<<movePromoShift
			targets := append(targetBuf[:0], from)
			p.Make(inPlace)
			for _, m := range p.genPiece(buf[:0], from) {
				if p.board[m.To()] == NoPiece && m.Promotion() == 0 {
					targets = append(targets, m.To())
				}
			}
			p.Unmake()
			for _, to := range targets {
				m := NewMove(from, to) | Move(t)<<movePromoShift
				if p.sittuyinPromotionLegal(m, buf[:0]) {
					dst = append(dst, m)
				}
			}
		}
	}
	return dst
}

// sittuyinPromotionLegal plays m and reports whether it leaves the
// mover's royal piece safe, gives no check and leaves the new piece
// attacking no enemy piece.
func (p *Position) sittuyinPromotionLegal(m Move, buf []Move) bool {
	us := p.stm
	p.Make(m)
	defer p.Unmake()
	if p.royalAttacked(us) || p.InCheck() {
		return false
	}
	for _, c := range p.genPiece(buf, m.To()) {
		if q := p.board[c.To()]; q != NoPiece && q.Colour() != us {
			return false
		}
	}
	return true
}

// onLongDiagonal reports whether s is on a diagonal through a corner of
// the first rank (a1–h8 or h1–a8 on 8x8).
func (v *Variant) onLongDiagonal(s Square) bool {
	return s.File() == s.Rank() || s.File()+s.Rank() == v.Width-1
}
